// What the fake node holds, computed from its generated ledger without HTTP: the active contracts
// and the updates a set of parties sees. Browsing tests (tier 2, UI) check what a panel shows
// against these.
import { browseEventFormat } from '../../src/browse/browseForms';
import type { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { matchFormat } from '../../fake-ledger/src/generatedLedger';
import { LedgerQueries } from '../../fake-ledger/src/ledgerQueries';
import type { CreatedEvent } from '../../src/ledger/apiTypes';

/** The active contracts `parties` see at `activeAt`, in the node's order, and their count per package name. */
export function expectedAcs(node: FakeLedgerNode, parties: string[], activeAt: number, templateId?: string) {
  const g = node.generated;
  const format = browseEventFormat({ parties, templates: templateId ? [templateId] : undefined });
  const events: CreatedEvent[] = [];
  const byPackage = new Map<string, number>();
  for (let i = 0; i < g.slotsUpTo(activeAt); i++) {
    const meta = g.meta(i);
    if (meta.offset > activeAt || meta.archivedAt <= activeAt) continue;
    const seen = matchFormat(format, meta);
    if (!seen) continue;
    events.push(g.createdEvent(meta, seen.witnesses, seen.blob, seen.views).event);
    byPackage.set(meta.template.packageName, (byPackage.get(meta.template.packageName) ?? 0) + 1);
  }
  return { ids: events.map((e) => e.contractId), events, byPackage };
}

/** The offsets of the transactions `parties` see in (from, to], as ledger effects: what Follow Updates must show, once each. */
export function expectedTailOffsets(node: FakeLedgerNode, parties: string[], from: number, to: number): number[] {
  const format = browseEventFormat({ parties });
  const queries = new LedgerQueries(node.ledger);
  const out: number[] = [];
  for (let o = from + 1; o <= to; o++) {
    const seeded = node.generated.seededUpdateIdAt(o);
    const t = seeded
      ? queries.transaction(seeded, format, 'TRANSACTION_SHAPE_LEDGER_EFFECTS', node.version)
      : node.generated.transactionAt(o, format, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    if (t) out.push(o);
  }
  return out;
}
