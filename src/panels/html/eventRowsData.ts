// The event rows of a transaction panel as they are written into its page (the format is in
// src/protocol/transactionRows.ts). No `vscode` import.
import type { EventRow, PackedEventRows } from '../../protocol/transactionRows';

const HEX_ID = /^(?:[0-9a-f]{2})+$/;

export function packEventRows(rows: readonly EventRow[]): PackedEventRows {
  const numbers = new Map<string, number>();
  const words: string[] = [];
  const word = (s: string) => {
    let n = numbers.get(s);
    if (n === undefined) {
      n = words.push(s) - 1;
      numbers.set(s, n);
    }
    return n;
  };
  const hexIds = rows.every((r) => HEX_ID.test(r[3]));
  return {
    words,
    hexIds,
    rows: rows.map(([nodeId, kind, template, contractId, detail, parties]) => [
      nodeId,
      kind,
      word(template),
      hexIds ? Buffer.from(contractId, 'hex').toString('base64').replace(/=+$/, '') : contractId,
      detail,
      parties.map(word),
    ]),
  };
}
