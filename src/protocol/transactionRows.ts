// The rows of a transaction's event table and exercise tree, as host and page both read them (the
// page builds its table and tree from them). No `vscode` import.
import { base64ToHex } from './hexIds';

/** One event row: [nodeId, kind, template, contractId, detail, parties]. */
export type EventRow = [number, 'created' | 'archived' | 'exercised', string, string, string, string[]];

/** One row of the exercise tree: [index, parent, depth, descendants, kind, template, choice, contract, parties, consuming, interface, nodeId]. */
export type TreeRow = [number, number, number, number, 'created' | 'exercised' | 'archived', string, string, string, string[], boolean, string, number];

/**
 * The event rows as they are written into the page: template ids and parties, the same on most rows
 * of a large transaction, as numbers into `words`, and hex contract ids as base64 (eventRowsData.ts
 * makes them): the page's first paint waits for all of them to be parsed.
 */
export interface PackedEventRows {
  words: string[];
  /** Every contract id is hex and sent as the base64 of its bytes. */
  hexIds: boolean;
  rows: [number, EventRow[1], number, string, string, number[]][];
}

/**
 * The rows again (an unknown word reads as ""), their contract ids as they were sent: `contractIdOf`
 * reads one, for the rows the page paints (decoding 50,000 ids before the first paint would cost more
 * than their bytes saved).
 */
export function unpackEventRows(packed: PackedEventRows): { rows: EventRow[]; contractIdOf: (sent: string) => string } {
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
