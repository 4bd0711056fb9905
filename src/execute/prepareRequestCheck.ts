// Checks a `*.prepare.json` (JsPrepareSubmissionRequest) before anything is sent, with the JSON
// path of each problem; and the template of a new one.
import type { JsPrepareSubmissionRequest } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import type { RequestProblem } from './executeRequestCheck';
import { checkCommandId, checkCommandList, checkParties, checkUserId, PARTY } from './commandChecks';
import { DEDUPLICATION_DEFAULT, missingFields, PREPARE_DECODER_FIELDS } from './requiredFields';

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
  checkCommandId(r.commandId, '$.commandId', add);
  checkParties(r, 'actAs', true, add);
  checkParties(r, 'readAs', false, add);
  checkCommandList(r.commands, add);
  checkUserId(r.userId, tokenUser, add);
  const lacking = missingFields(r, PREPARE_DECODER_FIELDS);
  for (const field of Object.keys(lacking))
    problems.push({
      path: `$.${field}`,
      message:
        field === 'synchronizerId'
          ? l10n.t('Missing. Every Canton node requires it (the spec does not say so): a synchronizer id, or "" to let the node choose one where it can.')
          : l10n.t('Missing. Every Canton node requires it (the spec does not say so): package ids to prefer, or [] for none.'),
      add: lacking,
    });
  if (r.synchronizerId !== undefined && r.synchronizerId !== '' && (typeof r.synchronizerId !== 'string' || !PARTY.test(r.synchronizerId)))
    add('$.synchronizerId', l10n.t('Not a synchronizer id (name::1220…), nor "" for the node to choose.'));
  if (
    r.packageIdSelectionPreference !== undefined &&
    (!Array.isArray(r.packageIdSelectionPreference) || r.packageIdSelectionPreference.some((p) => typeof p !== 'string' || !/^[0-9a-f]{64}$/.test(p)))
  )
    add('$.packageIdSelectionPreference', l10n.t('Must be a list of package ids (64 hex digits), or [].'));
  if (r.verboseHashing !== undefined && typeof r.verboseHashing !== 'boolean') add('$.verboseHashing', l10n.t('Must be true or false.'));
  if (
    r.hashingSchemeVersion !== undefined &&
    !['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2', 'HASHING_SCHEME_VERSION_V3'].includes(r.hashingSchemeVersion as string)
  )
    add('$.hashingSchemeVersion', l10n.t('Must be one of HASHING_SCHEME_VERSION_V2, HASHING_SCHEME_VERSION_V3.'));
  for (const k of Object.keys(r)) if (!KNOWN.has(k)) add(`$.${k}`, l10n.t('Unknown field: a node ignores it; is it misspelled?'));
  return { request: problems.length === 0 ? (r as unknown as JsPrepareSubmissionRequest) : undefined, problems };
}

/** A new prepare request to fill in; `synchronizerId` `""` lets the node choose where the parties are hosted. */
export function prepareRequestTemplate(commandId: string, party = '<party id: name::1220…>', synchronizerId = ''): string {
  return `${JSON.stringify(
    {
      commandId,
      actAs: [party],
      commands: [{ CreateCommand: { templateId: '<package id or #package-name>:<Module>:<Template>', createArguments: { owner: party } } }],
      synchronizerId,
      packageIdSelectionPreference: [],
      verboseHashing: true,
    },
    null,
    2,
  )}\n`;
}

/**
 * The synchronizer a new prepare request names: the one connected synchronizer where the acting
 * party is hosted with more than observation; `""` (the node chooses) when there are several or none.
 */
export function synchronizerForPrepare(connected: readonly { synchronizerId: string; permission?: string }[]): string {
  const hosting = connected.filter((s) => s.permission !== 'PARTICIPANT_PERMISSION_OBSERVATION');
  return hosting.length === 1 ? hosting[0].synchronizerId : '';
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
      deduplicationPeriod: DEDUPLICATION_DEFAULT,
    },
    null,
    2,
  )}\n`;
}

/** `a.prepare.json` → `a.execute.json`. */
export const executePathFor = (preparePath: string) => `${preparePath.replace(/(\.prepare)?\.json$/i, '')}.execute.json`;
