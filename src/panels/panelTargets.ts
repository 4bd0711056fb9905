// What a lookup panel shows and remembers: its target (a contract, an update, or an id on every
// node), its history (restored after a reload, checked first), its title, and the package name of
// a template in the shown answer. Pure: no `vscode` import.
import { classifyLedgerId, shortId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';
import type { LedgerLookup, TransactionShape } from '../lookups/ledgerLookups';

export type PanelTarget = {
  kind: 'contract' | 'update' | 'everywhere';
  id: string;
  node: string;
  /** Reopened from Recent Lookups: the user id it was asked as then ('' when not known). */
  recordedAs?: string;
  /** A transaction's shape: what changed (default) or what happened; kept per panel, across reloads. */
  shape?: TransactionShape;
  /** The node id to bring into view (a lineage link). */
  highlight?: number;
  /** Asked as this one party (a cell of the visibility matrix). */
  asParty?: string;
};
export interface PanelState {
  history: PanelTarget[];
  index: number;
}

export function packageNameOf(l: LedgerLookup | undefined, templateId: string): string | undefined {
  if (!l?.found) return undefined;
  if (l.kind === 'contract') {
    const c = l.response.created?.createdEvent ?? l.response.archived?.archivedEvent;
    return c && c.templateId === templateId ? c.packageName : undefined;
  }
  if (l.update !== 'transaction') return undefined;
  for (const e of l.transaction.events) {
    const ev = 'CreatedEvent' in e ? e.CreatedEvent : 'ArchivedEvent' in e ? e.ArchivedEvent : e.ExercisedEvent;
    if (ev.templateId === templateId && ev.packageName) return ev.packageName;
  }
  return undefined;
}

export function idKind(id: string): 'contract' | 'update' {
  return classifyLedgerId(id).kind === 'update' ? 'update' : 'contract';
}

export function titleOf(t: PanelTarget): string {
  const id = shortId(t.id);
  return t.kind === 'everywhere' ? l10n.t('All nodes {0}', id) : t.kind === 'contract' ? l10n.t('Contract {0}', id) : l10n.t('Transaction {0}', id);
}

export function sameTarget(a: PanelTarget, b: PanelTarget): boolean {
  return a.kind === b.kind && a.id === b.id && a.node === b.node && a.asParty === b.asParty;
}

export function validState(state: unknown): PanelState | undefined {
  const s = state as PanelState;
  if (!s || !Array.isArray(s.history) || typeof s.index !== 'number' || !s.history[s.index]) return undefined;
  const ok = s.history.every(
    (t) =>
      t &&
      ['contract', 'update', 'everywhere'].includes(t.kind) &&
      typeof t.id === 'string' &&
      typeof t.node === 'string' &&
      (t.recordedAs === undefined || typeof t.recordedAs === 'string') &&
      (t.shape === undefined || t.shape === 'TRANSACTION_SHAPE_ACS_DELTA' || t.shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS') &&
      (t.highlight === undefined || Number.isInteger(t.highlight)) &&
      (t.asParty === undefined || typeof t.asParty === 'string') &&
      ['contract', 'update'].includes(classifyLedgerId(t.id).kind),
  );
  return ok ? s : undefined;
}
