// The rows of a transaction panel's event table and exercise tree as they travel to its page: the
// first ones in its content, the rest as the page asks for them (the format is in
// src/protocol/transactionRows.ts). No `vscode` import.
import type { LedgerEvent } from '../../ledger/apiTypes';
import type { FlatTreeNode } from '../../lookups/exerciseTree';
import * as l10n from '../../l10n/l10n';
import { EVENT_ROWS_CHUNK, type EventRow, type PackedEventRows, type PackedTreeRows, type TreeRow } from '../../protocol/transactionRows';

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

export function treeRows(tree: readonly FlatTreeNode[]): TreeRow[] {
  return tree.map(({ index, parent, depth, descendants, node }): TreeRow => {
    if (node.kind === 'exercised') {
      const x = node.event;
      const iface = (x as { interfaceId?: string | null }).interfaceId ?? '';
      return [index, parent, depth, descendants, 'exercised', x.templateId, x.choice, x.contractId, x.actingParties ?? [], x.consuming, iface, x.nodeId];
    }
    if (node.kind === 'created') {
      const c = node.event;
      const parties = [...new Set([...(c.signatories ?? []), ...(c.observers ?? [])])];
      return [index, parent, depth, descendants, 'created', c.templateId, '', c.contractId, parties, false, '', c.nodeId];
    }
    return [index, parent, depth, descendants, 'archived', node.event.templateId, '', node.event.contractId, [], true, '', node.event.nodeId];
  });
}

/**
 * What packs one chunk of rows: `word` numbers a string into `words` (each string once), `id` sends
 * a contract id (as base64 when every id of the chunk is hex).
 */
function packer(contractIds: readonly string[]) {
  const numbers = new Map<string, number>();
  const words: string[] = [];
  const hexIds = contractIds.every((id) => HEX_ID.test(id));
  return {
    words,
    hexIds,
    word: (s: string) => {
      let n = numbers.get(s);
      if (n === undefined) {
        n = words.push(s) - 1;
        numbers.set(s, n);
      }
      return n;
    },
    id: (contractId: string) => (hexIds ? Buffer.from(contractId, 'hex').toString('base64').replace(/=+$/, '') : contractId),
  };
}

/** `rows`, the transaction's from `from` on, of `total` in all. */
export function packEventRows(rows: readonly EventRow[], from = 0, total = from + rows.length): PackedEventRows {
  const { words, hexIds, word, id } = packer(rows.map((r) => r[3]));
  return {
    words,
    hexIds,
    from,
    total,
    rows: rows.map(([nodeId, kind, template, contractId, detail, parties]) => [nodeId, kind, word(template), id(contractId), detail, parties.map(word)]),
  };
}

/** Tree rows, the tree's from `from` on (their indices: `from` on), of `total` in all. */
export function packTreeRows(rows: readonly TreeRow[], from = 0, total = from + rows.length): PackedTreeRows {
  const { words, hexIds, word, id } = packer(rows.map((r) => r[7]));
  return {
    words,
    hexIds,
    from,
    total,
    rows: rows.map(([, parent, depth, descendants, kind, template, choice, contractId, parties, consuming, iface, nodeId]) => [
      parent,
      depth,
      descendants,
      kind,
      word(template),
      word(choice),
      id(contractId),
      parties.map(word),
      consuming,
      word(iface),
      nodeId,
    ]),
  };
}

/** The rows of `events` from `from` on that one answer to the page carries (none left: no rows). */
export function eventRowsFrom(events: readonly LedgerEvent[], from: number, count = EVENT_ROWS_CHUNK): PackedEventRows {
  const start = Math.min(from, events.length);
  return packEventRows(eventRows(events.slice(start, start + count)), start, events.length);
}

/** The rows of `tree` from `from` on that one answer to the page carries (none left: no rows). */
export function treeRowsFrom(tree: readonly FlatTreeNode[], from: number, count = EVENT_ROWS_CHUNK): PackedTreeRows {
  const start = Math.min(from, tree.length);
  return packTreeRows(treeRows(tree.slice(start, start + count)), start, tree.length);
}
