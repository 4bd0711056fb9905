// The event rows of a transaction panel as they travel to its page: the first ones in its content,
// the rest as the page asks for them (the format is in src/protocol/transactionRows.ts). No `vscode` import.
import type { LedgerEvent } from '../../ledger/apiTypes';
import * as l10n from '../../l10n/l10n';
import { EVENT_ROWS_CHUNK, type EventRow, type PackedEventRows } from '../../protocol/transactionRows';

const HEX_ID = /^(?:[0-9a-f]{2})+$/;

export function eventRows(events: readonly LedgerEvent[]): EventRow[] {
  return events.map((e): EventRow => {
    if ('CreatedEvent' in e) {
      const c = e.CreatedEvent;
      return [c.nodeId, 'created', c.templateId, c.contractId, '', [...new Set([...c.signatories, ...(c.observers ?? [])])]];
    }
    if ('ArchivedEvent' in e) {
      const a = e.ArchivedEvent;
      return [a.nodeId, 'archived', a.templateId, a.contractId, '', a.witnessParties];
    }
    const x = e.ExercisedEvent;
    return [x.nodeId, 'exercised', x.templateId, x.contractId, x.consuming ? l10n.t('{0} (consuming)', x.choice) : x.choice, x.actingParties];
  });
}

/** `rows`, the transaction's from `from` on, of `total` in all. */
export function packEventRows(rows: readonly EventRow[], from = 0, total = from + rows.length): PackedEventRows {
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
    from,
    total,
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

/** The rows of `events` from `from` on that one answer to the page carries (none left: no rows). */
export function eventRowsFrom(events: readonly LedgerEvent[], from: number, count = EVENT_ROWS_CHUNK): PackedEventRows {
  const start = Math.min(from, events.length);
  return packEventRows(eventRows(events.slice(start, start + count)), start, events.length);
}
