// Checks a `*.prepare.json` (JsPrepareSubmissionRequest) before anything is sent, with the JSON
// path of each problem; and the template of a new one.
import type { JsPrepareSubmissionRequest } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import type { RequestProblem } from './executeRequestCheck';

const PARTY = /^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/;
const TEMPLATE = /^[^:\s]+:[^:\s]+:[^:\s]+$/;
const LEDGER_STRING = /^[A-Za-z0-9._:\-#/ ]{1,255}$/;
const COMMANDS: Record<string, string[]> = {
  CreateCommand: ['templateId', 'createArguments'],
  ExerciseCommand: ['templateId', 'contractId', 'choice', 'choiceArgument'],
  CreateAndExerciseCommand: ['templateId', 'createArguments', 'choice', 'choiceArgument'],
  ExerciseByKeyCommand: ['templateId', 'contractKey', 'choice', 'choiceArgument'],
};
const KNOWN = new Set([
  'userId',
  'commandId',
  'commands',
  'minLedgerTime',
  'actAs',
  'readAs',
  'disclosedContracts',
  'synchronizerId',
  'packageIdSelectionPreference',
  'verboseHashing',
  'prefetchContractKeys',
  'maxRecordTime',
  'estimateTrafficCost',
  'tapsMaxPasses',
  'hashingSchemeVersion',
]);

export interface CheckedPrepare {
  request?: JsPrepareSubmissionRequest;
  problems: RequestProblem[];
}

export function checkPrepareRequest(text: string, tokenUser?: string): CheckedPrepare {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problems: [{ path: '$', message: l10n.t('Not valid JSON: {0}', (e as Error).message) }] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problems: [{ path: '$', message: l10n.t('The request must be a JSON object (JsPrepareSubmissionRequest).') }] };
  const r = value as Record<string, unknown>;
  const problems: RequestProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (typeof r.commandId !== 'string' || !LEDGER_STRING.test(r.commandId))
    add(
      '$.commandId',
      r.commandId === undefined ? l10n.t('Missing: a command id.') : l10n.t('Not a valid ledger string: 1 to 255 of letters, digits and . _ : - # / space.'),
    );
  const parties = (key: 'actAs' | 'readAs', required: boolean): void => {
    const v = r[key];
    if (v === undefined) {
      if (required) add(`$.${key}`, l10n.t('Missing: the acting parties (one or more party ids).'));
    } else if (!Array.isArray(v) || (required && v.length === 0)) add(`$.${key}`, l10n.t('Must be a list of party ids.'));
    else
      v.forEach((p, i) => {
        if (typeof p !== 'string' || !PARTY.test(p)) add(`$.${key}[${i}]`, l10n.t('Not a party id (name::1220…).'));
      });
  };
  parties('actAs', true);
  parties('readAs', false);
  if (!Array.isArray(r.commands) || r.commands.length === 0) add('$.commands', l10n.t('Needs at least one command: {0}.', Object.keys(COMMANDS).join(', ')));
  else
    r.commands.forEach((c: unknown, i): void => {
      const keys = typeof c === 'object' && c !== null ? Object.keys(c) : [];
      if (keys.length !== 1 || !(keys[0] in COMMANDS))
        return void add(
          `$.commands[${i}]`,
          l10n.t(
            'Must be exactly one of {0}.',
            Object.keys(COMMANDS)
              .map((k) => `{ "${k}": … }`)
              .join(', '),
          ),
        );
      const kind = keys[0];
      const body = (c as Record<string, Record<string, unknown> | undefined>)[kind] ?? {};
      for (const f of COMMANDS[kind]) if (body[f] === undefined) add(`$.commands[${i}].${kind}.${f}`, l10n.t('Missing: {0}.', f));
      if (typeof body.templateId === 'string' && !TEMPLATE.test(body.templateId))
        add(`$.commands[${i}].${kind}.templateId`, l10n.t('Must be <package id or #package-name>:<module>:<entity>.'));
    });
  if (r.userId !== undefined && tokenUser && r.userId !== tokenUser)
    add(
      '$.userId',
      l10n.t(
        'Is "{0}" but the node\'s token is for user "{1}": the node would refuse it (403).',
        typeof r.userId === 'string' ? r.userId : JSON.stringify(r.userId),
        tokenUser,
      ),
    );
  if (r.verboseHashing !== undefined && typeof r.verboseHashing !== 'boolean') add('$.verboseHashing', l10n.t('Must be true or false.'));
  if (
    r.hashingSchemeVersion !== undefined &&
    !['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2', 'HASHING_SCHEME_VERSION_V3'].includes(r.hashingSchemeVersion as string)
  )
    add('$.hashingSchemeVersion', l10n.t('Must be one of HASHING_SCHEME_VERSION_V2, HASHING_SCHEME_VERSION_V3.'));
  for (const k of Object.keys(r)) if (!KNOWN.has(k)) add(`$.${k}`, l10n.t('Unknown field: a node ignores it; is it misspelled?'));
  return { request: problems.length === 0 ? (r as unknown as JsPrepareSubmissionRequest) : undefined, problems };
}

/** A new prepare request to fill in. */
export function prepareRequestTemplate(commandId: string, party = '<party id: name::1220…>'): string {
  return `${JSON.stringify(
    {
      commandId,
      actAs: [party],
      commands: [{ CreateCommand: { templateId: '<package id or #package-name>:<Module>:<Template>', createArguments: { owner: party } } }],
      verboseHashing: true,
    },
    null,
    2,
  )}\n`;
}

/** The execute request written from a prepare response: ready to sign. */
export function executeRequestFromPrepare(
  prepared: { preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string },
  party: string,
  submissionId: string,
): string {
  return `${JSON.stringify(
    {
      preparedTransaction: prepared.preparedTransaction,
      preparedTransactionHash: prepared.preparedTransactionHash,
      hashingSchemeVersion: prepared.hashingSchemeVersion,
      partySignatures: { signatures: [{ party, signatures: [] }] },
      submissionId,
      deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } },
    },
    null,
    2,
  )}\n`;
}

/** `a.prepare.json` → `a.execute.json`. */
export const executePathFor = (preparePath: string) => `${preparePath.replace(/(\.prepare)?\.json$/i, '')}.execute.json`;
