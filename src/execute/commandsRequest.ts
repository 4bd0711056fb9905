// `*.commands.json`: the commands of one submission (JsCommands, the `commands` of
// POST /v2/commands/submit-and-wait-for-transaction), checked before anything is sent with the JSON
// path of each problem; and the requests Canton Lens writes (a skeleton, an exercise of a choice).
import type { JsCommands } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import { checkCommandId, checkCommandList, checkParties, checkUserId, LEDGER_STRING, PARTY, type AddProblem } from './commandChecks';
import type { RequestProblem } from './executeRequestCheck';

/** JsCommands' fields (the same on 3.4, 3.5 and 3.6). */
const KNOWN = new Set([
  'commands',
  'commandId',
  'actAs',
  'userId',
  'readAs',
  'workflowId',
  'deduplicationPeriod',
  'minLedgerTimeAbs',
  'minLedgerTimeRel',
  'submissionId',
  'disclosedContracts',
  'synchronizerId',
  'packageIdSelectionPreference',
  'prefetchContractKeys',
  'tapsMaxPasses',
]);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

export interface CheckedCommands {
  request?: JsCommands;
  problems: RequestProblem[];
}

export const isCommandsFile = (path: string) => /\.commands\.json$/i.test(path);

/** `a`, `a.json`, `a.commands.json` → `a.commands.json`. */
export const commandsPathFor = (chosen: string) => (isCommandsFile(chosen) ? chosen : `${chosen.replace(/\.json$/i, '')}.commands.json`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkDuration(v: unknown, path: string, add: AddProblem): void {
  const d = isObject(v) ? v : undefined;
  if (
    !d ||
    typeof d.seconds !== 'number' ||
    !Number.isInteger(d.seconds) ||
    d.seconds < 0 ||
    (d.nanos !== undefined && (typeof d.nanos !== 'number' || !Number.isInteger(d.nanos) || d.nanos < 0 || d.nanos > 999_999_999))
  )
    add(path, l10n.t('Must be a duration: {"seconds": 600, "nanos": 0} (not negative).'));
}

/** DeduplicationPeriod: exactly one of DeduplicationDuration, DeduplicationOffset, Empty. */
function checkDeduplication(v: unknown, add: AddProblem): void {
  const keys = isObject(v) ? Object.keys(v) : [];
  const one = ['DeduplicationDuration', 'DeduplicationOffset', 'Empty'];
  if (keys.length !== 1 || !one.includes(keys[0]))
    return add('$.deduplicationPeriod', l10n.t('Must be exactly one of {0}.', one.map((k) => `{ "${k}": … }`).join(', ')));
  const body = (v as Record<string, unknown>)[keys[0]];
  const value = isObject(body) ? body.value : undefined;
  if (keys[0] === 'DeduplicationDuration') checkDuration(value, '$.deduplicationPeriod.DeduplicationDuration.value', add);
  if (keys[0] === 'DeduplicationOffset' && (typeof value !== 'number' || !Number.isInteger(value) || value < 0))
    add('$.deduplicationPeriod.DeduplicationOffset.value', l10n.t('Must be an offset: a whole number, 0 or more.'));
}

/** DisclosedContract: the blob is required (Canton's ValidateDisclosedContracts); the ids, if given, are checked against it by the node. */
function checkDisclosed(v: unknown, add: AddProblem): void {
  if (!Array.isArray(v)) return add('$.disclosedContracts', l10n.t('Must be a list of disclosed contracts.'));
  v.forEach((d, i) => {
    if (!isObject(d)) return add(`$.disclosedContracts[${i}]`, l10n.t('Must be an object: contractId, templateId, createdEventBlob, synchronizerId.'));
    if (typeof d.createdEventBlob !== 'string' || d.createdEventBlob === '')
      add(`$.disclosedContracts[${i}].createdEventBlob`, l10n.t('Required: the node refuses a disclosed contract without its created event blob.'));
  });
}

export function checkCommandsRequest(text: string, tokenUser?: string): CheckedCommands {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problems: [{ path: '$', message: l10n.t('Not valid JSON: {0}', (e as Error).message) }] };
  }
  if (!isObject(value)) return { problems: [{ path: '$', message: l10n.t('The request must be a JSON object (JsCommands).') }] };
  const r = value;
  const problems: RequestProblem[] = [];
  const add: AddProblem = (path, message) => problems.push({ path, message });
  checkCommandId(r.commandId, '$.commandId', add);
  checkParties(r, 'actAs', true, add);
  checkParties(r, 'readAs', false, add);
  checkCommandList(r.commands, add, true);
  checkUserId(r.userId, tokenUser, add);
  for (const key of ['workflowId', 'submissionId'] as const)
    if (r[key] !== undefined && r[key] !== '' && (typeof r[key] !== 'string' || !LEDGER_STRING.test(r[key])))
      add(`$.${key}`, l10n.t('Not a valid ledger string: 1 to 255 of letters, digits and . _ : - # / space.'));
  if (r.deduplicationPeriod !== undefined) checkDeduplication(r.deduplicationPeriod, add);
  if (r.minLedgerTimeAbs !== undefined && (typeof r.minLedgerTimeAbs !== 'string' || !INSTANT.test(r.minLedgerTimeAbs)))
    add('$.minLedgerTimeAbs', l10n.t('Must be a UTC time: 2026-01-31T12:00:00Z.'));
  if (r.minLedgerTimeRel !== undefined) checkDuration(r.minLedgerTimeRel, '$.minLedgerTimeRel', add);
  if (r.synchronizerId !== undefined && r.synchronizerId !== '' && (typeof r.synchronizerId !== 'string' || !PARTY.test(r.synchronizerId)))
    add('$.synchronizerId', l10n.t('Not a synchronizer id (name::1220…).'));
  if (r.disclosedContracts !== undefined) checkDisclosed(r.disclosedContracts, add);
  for (const k of Object.keys(r)) if (!KNOWN.has(k)) add(`$.${k}`, l10n.t('Unknown field: a node ignores it; is it misspelled?'));
  return { request: problems.length === 0 ? (r as unknown as JsCommands) : undefined, problems };
}

const DEDUPLICATION = { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } };
const write = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A new request to fill in: one create. */
export function commandsRequestTemplate(
  commandId: string,
  party = '<party id: name::1220…>',
  templateId = '<package id or #package-name>:<Module>:<Template>',
): string {
  return write({
    commandId,
    actAs: [party],
    commands: [{ CreateCommand: { templateId, createArguments: {} } }],
    deduplicationPeriod: DEDUPLICATION,
  });
}

export interface ExerciseRequestInput {
  commandId: string;
  party: string;
  templateId: string;
  choice: string;
  contractId: string;
  choiceArgument: Record<string, unknown>;
}

/** A request that exercises one choice on one contract. */
export function exerciseRequest(i: ExerciseRequestInput): string {
  return write({
    commandId: i.commandId,
    actAs: [i.party],
    commands: [{ ExerciseCommand: { templateId: i.templateId, contractId: i.contractId, choice: i.choice, choiceArgument: i.choiceArgument } }],
    deduplicationPeriod: DEDUPLICATION,
  });
}

/** The deduplication period, for people. */
export function describeDeduplication(period: unknown): string {
  const p = isObject(period) ? period : undefined;
  const duration = isObject(p?.DeduplicationDuration) ? (p.DeduplicationDuration.value as { seconds?: number } | undefined) : undefined;
  if (duration && typeof duration.seconds === 'number') return l10n.t('the node rejects the same command id again for {0} s', duration.seconds);
  const offset = isObject(p?.DeduplicationOffset) ? p.DeduplicationOffset.value : undefined;
  if (typeof offset === 'number') return l10n.t('the node rejects the same command id again if submitted after offset {0}', offset);
  return l10n.t("the node's maximum deduplication duration (none given)");
}
