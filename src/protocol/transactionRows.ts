// The rows of a transaction's event table and exercise tree, as host and page both read them (the
// page builds its table and tree from them). No `vscode` import.
import { base64ToHex } from './hexIds';
import { isIndex, isIndices, isStrings, isString } from './messageChecks';

/** One event row: [nodeId, kind, template, contractId, detail, parties]. */
export type EventRow = [number, 'created' | 'archived' | 'exercised', string, string, string, string[]];

/** One row of the exercise tree: [index, parent, depth, descendants, kind, template, choice, contract, parties, consuming, interface, nodeId]. */
export type TreeRow = [number, number, number, number, 'created' | 'exercised' | 'archived', string, string, string, string[], boolean, string, number];

/**
 * The rows written into the page with its content (one page of the table or tree): the first paint
 * waits for no more. The page asks for the rest after it, `EVENT_ROWS_CHUNK` at a time.
 */
export const FIRST_EVENT_ROWS = 500;
export const EVENT_ROWS_CHUNK = 2_000;

/** Which rows a page asks for: the event table's (what changed) or the exercise tree's (what happened). */
export type RowSource = 'events' | 'tree';

/**
 * Rows as they travel to the page (in its content, or as the answer to a request for more): strings
 * that repeat over the rows of a large transaction (template ids, parties, choices) as numbers into
 * `words`, and hex contract ids as base64 (eventRowsData.ts makes them).
 */
interface PackedRows<R> {
  words: string[];
  /** Every contract id here is hex and sent as the base64 of its bytes. */
  hexIds: boolean;
  rows: R[];
  /** Where the first of `rows` is among the transaction's rows. */
  from: number;
  /** How many rows the transaction has: the page asks for those after `from + rows.length`. */
  total: number;
}

/** Event rows: [nodeId, kind, template word, contract, detail, party words]. */
export type PackedEventRows = PackedRows<[number, EventRow[1], number, string, string, number[]]>;
/**
 * Tree rows: [parent, depth, descendants, kind, template word, choice word, contract, party words,
 * consuming, interface word, nodeId]; a row's index is its place (`from` + its position).
 */
export type PackedTreeRows = PackedRows<[number, number, number, TreeRow[4], number, number, string, number[], boolean, number, number]>;

/** The packed rows of each source. */
export interface PackedRowsOf {
  events: PackedEventRows;
  tree: PackedTreeRows;
}

const KINDS: readonly unknown[] = ['created', 'archived', 'exercised'];
const isPackedEventRow = (r: unknown): boolean =>
  Array.isArray(r) &&
  r.length === 6 &&
  typeof r[0] === 'number' &&
  KINDS.includes(r[1]) &&
  isIndex(r[2]) &&
  isString(r[3]) &&
  isString(r[4]) &&
  isIndices(r[5]);
const isParent = (v: unknown): boolean => v === -1 || isIndex(v);
const isPackedTreeRow = (r: unknown): boolean =>
  Array.isArray(r) &&
  r.length === 11 &&
  isParent(r[0]) &&
  isIndex(r[1]) &&
  isIndex(r[2]) &&
  KINDS.includes(r[3]) &&
  isIndex(r[4]) &&
  isIndex(r[5]) &&
  isString(r[6]) &&
  isIndices(r[7]) &&
  typeof r[8] === 'boolean' &&
  isIndex(r[9]) &&
  typeof r[10] === 'number';

const isPackedWith = (v: unknown, isRow: (r: unknown) => boolean): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    isStrings(p.words) &&
    typeof p.hexIds === 'boolean' &&
    isIndex(p.from) &&
    isIndex(p.total) &&
    Array.isArray(p.rows) &&
    p.from + p.rows.length <= p.total &&
    p.rows.every(isRow)
  );
};

/** Event rows with every field their type names (what a page is sent is checked as it arrives). */
export const isPackedEventRows = (v: unknown): v is PackedEventRows => isPackedWith(v, isPackedEventRow);
/** Tree rows with every field their type names; a parent comes before its node. */
export const isPackedTreeRows = (v: unknown): v is PackedTreeRows =>
  isPackedWith(v, isPackedTreeRow) && (v as PackedTreeRows).rows.every((r, i) => r[0] < (v as PackedTreeRows).from + i);

/** The check of a source's rows. */
export const isPackedRowsOf = (source: RowSource): ((v: unknown) => v is PackedRowsOf[RowSource]) =>
  source === 'events' ? isPackedEventRows : isPackedTreeRows;

/** How the contract ids of packed rows read (hex ids were sent as base64). */
const idReader = (hexIds: boolean): ((sent: string) => string) => (hexIds ? base64ToHex : (sent) => sent);

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
    contractIdOf: idReader(packed.hexIds),
  };
}

/**
 * The tree's rows again, their contract ids read (the tree searches them, so each is read as it
 * arrives; a chunk's are few enough).
 */
export function unpackTreeRows(packed: Pick<PackedTreeRows, 'words' | 'hexIds' | 'rows' | 'from'>): TreeRow[] {
  const words = packed.words;
  const word = (n: number) => words[n] ?? '';
  const idOf = idReader(packed.hexIds);
  return packed.rows.map(([parent, depth, descendants, kind, template, choice, contractId, parties, consuming, iface, nodeId], i) => [
    packed.from + i,
    parent,
    depth,
    descendants,
    kind,
    word(template),
    word(choice),
    idOf(contractId),
    parties.map(word),
    consuming,
    word(iface),
    nodeId,
  ]);
}
