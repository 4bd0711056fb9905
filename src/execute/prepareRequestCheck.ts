// Checks a `*.prepare.json` (JsPrepareSubmissionRequest) before anything is sent, with the JSON
// path of each problem; and the template of a new one.
import type { JsPrepareSubmissionRequest } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import type { RequestProblem } from './executeRequestCheck';
import { checkCommandId, checkCommandList, checkParties, checkUserId } from './commandChecks';

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
