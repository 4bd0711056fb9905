// The node's `hashingDetails` (prepare with `verboseHashing`) beside what Canton Lens decoded and
// hashed itself. The spec says the node's text has no stable format and must not be parsed, so it
// is never parsed: each input of the local computation is looked up in it (as text, and as the hex
// of its bytes, as Canton's hash tracer prints encoded values). An input the node's details do not
// contain is where to look when the two hashes differ. Pure.
import * as l10n from '../l10n/l10n';
import type { PreparedTransactionReview } from './preparedTransactionReview';

export interface HashInput {
  /** What it is: "act_as", "command_id", "node 0: create"… */
  label: string;
  value: string;
  /** Whether the node's hashingDetails contain it (in one of its forms). */
  inNodeDetails: boolean;
}

export interface HashingComparison {
  /** The node's text, as it came (the page escapes it). Cut at MAX_DETAILS characters. */
  nodeDetails: string;
  truncated: boolean;
  inputs: HashInput[];
  /** The hash recomputed here and the node's, hex (what tracers print). */
  computedHex?: string;
  nodeHex?: string;
  summary: string;
}

/** Longer details are cut (a node's trace of a large transaction can be megabytes). */
export const MAX_DETAILS = 200_000;

const hexOf = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const b64ToHex = (b64: string | undefined) => (b64 ? Buffer.from(b64, 'base64').toString('hex') : undefined);
/** A time in µs as the hash encodes it: an 8-byte big-endian integer, in hex. */
const int64Hex = (micros: string) => {
  try {
    return [BigInt.asUintN(64, BigInt(micros)).toString(16).padStart(16, '0')];
  } catch {
    return [];
  }
};

/** The forms a value can take in a trace: itself, its UTF-8 bytes in hex (either case). */
function contains(haystack: string, lowerHaystack: string, value: string, extra: string[] = []): boolean {
  if (value === '') return true;
  return haystack.includes(value) || lowerHaystack.includes(hexOf(value)) || extra.some((x) => x !== '' && lowerHaystack.includes(x.toLowerCase()));
}

export function compareHashingDetails(review: PreparedTransactionReview, nodeHash: string | undefined, details: string): HashingComparison {
  const truncated = details.length > MAX_DETAILS;
  const nodeDetails = truncated ? details.slice(0, MAX_DETAILS) : details;
  const lower = nodeDetails.toLowerCase();
  const inputs: HashInput[] = [];
  const add = (label: string, value: string | undefined, extra: string[] = []) => {
    if (value === undefined) return;
    inputs.push({ label, value, inNodeDetails: contains(nodeDetails, lower, value, extra) });
  };
  const computedHex = b64ToHex(review.computedHash);
  const nodeHex = b64ToHex(nodeHash);
  for (const p of review.submitters) add('act_as', p);
  add('command_id', review.commandId);
  add('synchronizer_id', review.synchronizerId);
  add('transaction_uuid', review.transactionUuid);
  for (const [label, micros] of [
    ['preparation_time (µs)', review.preparationTimeMicros],
    ['min_ledger_effective_time (µs)', review.minLedgerEffectiveTimeMicros],
    ['max_ledger_effective_time (µs)', review.maxLedgerEffectiveTimeMicros],
  ] as const) {
    if (micros !== undefined) add(label, micros, int64Hex(micros));
  }
  for (const n of review.nodes) {
    add(l10n.t('node {0}: {1} template', n.nodeId, n.kind), n.templateId, n.templateId ? n.templateId.split(':').map(hexOf) : []);
    if (n.contractId) add(l10n.t('node {0}: contract id', n.nodeId), n.contractId);
    if (n.choice) add(l10n.t('node {0}: choice', n.nodeId), n.choice);
  }
  for (const c of review.inputContracts) add(l10n.t('input contract'), c.contractId);
  // The hashes themselves are results, not inputs: when they differ, the node's text holds its own.
  const missing = inputs.filter((i) => !i.inNodeDetails);
  const same = computedHex !== undefined && computedHex === nodeHex;
  const summary = same
    ? l10n.t("The hash recomputed here equals the node's; the node's hashing details are shown for reference.")
    : computedHex === undefined
      ? l10n.t("The hash was not recomputed here: compare the decoded inputs with the node's hashing details by eye.")
      : missing.length === 0
        ? l10n.t(
            "The hashes differ, yet every input decoded here appears in the node's hashing details: the difference is in how a value is encoded; compare the encodings line by line.",
          )
        : l10n.t("The hashes differ. Not in the node's hashing details: {0}. Start there.", missing.map((m) => `${m.label} ${m.value}`).join('; '));
  return { nodeDetails, truncated, inputs, computedHex, nodeHex, summary };
}
