// The rows of a transaction's event table and exercise tree, as host and page both read them (the
// page builds its table and tree from them). No `vscode` import.
import { base64ToHex } from './hexIds';
import { isIndex, isIndices, isStrings, isString } from './messageChecks';

/** One event row: [nodeId, kind, template, contractId, detail, parties]. */
export type EventRow = [number, 'created' | 'archived' | 'exercised', string, string, string, string[]];

/** One row of the exercise tree: [index, parent, depth, descendants, kind, template, choice, contract, parties, consuming, interface, nodeId]. */
export type TreeRow = [number, number, number, number, 'created' | 'exercised' | 'archived', string, string, string, string[], boolean, string, number];

/**
 * The event rows written into the page with its content (one page of the table): the first paint
 * waits for no more. The page asks for the rest after it, `EVENT_ROWS_CHUNK` at a time.
 */
export const FIRST_EVENT_ROWS = 500;
export const EVENT_ROWS_CHUNK = 2_000;

/**
 * Event rows as they travel to the page (in its content, or as the answer to a request for more):
 * template ids and parties, the same on most rows of a large transaction, as numbers into `words`,
 * and hex contract ids as base64 (eventRowsData.ts makes them).
 */
export interface PackedEventRows {
  words: string[];
  /** Every contract id here is hex and sent as the base64 of its bytes. */
  hexIds: boolean;
  rows: [number, EventRow[1], number, string, string, number[]][];
  /** Where the first of `rows` is among the transaction's rows. */
  from: number;
  /** How many rows the transaction has: the page asks for those after `from + rows.length`. */
  total: number;
}

const KINDS: readonly unknown[] = ['created', 'archived', 'exercised'];
const isPackedRow = (r: unknown): boolean =>
  Array.isArray(r) &&
  r.length === 6 &&
  typeof r[0] === 'number' &&
  KINDS.includes(r[1]) &&
  isIndex(r[2]) &&
  isString(r[3]) &&
  isString(r[4]) &&
  isIndices(r[5]);

/** Event rows with every field their type names (what a page is sent is checked as it arrives). */
export function isPackedEventRows(v: unknown): v is PackedEventRows {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    isStrings(p.words) &&
    typeof p.hexIds === 'boolean' &&
    isIndex(p.from) &&
    isIndex(p.total) &&
    Array.isArray(p.rows) &&
    p.from + p.rows.length <= p.total &&
    p.rows.every(isPackedRow)
  );
}

/**
 * The rows again (an unknown word reads as ""), their contract ids as they were sent: `contractIdOf`
 * reads one, for the rows the page paints (decoding 50,000 ids before the first paint would cost more
 * than their bytes saved).
 */
export function unpackEventRows(packed: Pick<PackedEventRows, 'words' | 'hexIds' | 'rows'>): {
  rows: EventRow[];
  contractIdOf: (sent: string) => string;
} {
  const words = packed.words;
  return {
    rows: packed.rows.map(([nodeId, kind, template, contractId, detail, parties]) => [
      nodeId,
      kind,
      words[template] ?? '',
      contractId,
      detail,
      parties.map((p) => words[p] ?? ''),
    ]),
    contractIdOf: packed.hexIds ? base64ToHex : (sent) => sent,
  };
}
