// What was committed against what was prepared: the same creates (template) and exercises
// (template, choice, contract), in order; each difference named. No `vscode` import.
import type { JsTransaction } from '../ledger/apiTypes';
import type { PreparedTransactionReview } from './preparedTransactionReview';
import * as l10n from '../l10n/l10n';

interface Action {
  kind: 'create' | 'exercise';
  templateId: string;
  choice?: string;
  contractId?: string;
}

const describe = (a: Action) =>
  a.kind === 'create' ? l10n.t('create of {0}', a.templateId) : l10n.t('exercise {0} on {1} ({2})', a.choice ?? '', a.contractId ?? '', a.templateId);
/** Package ids may be package names (`#name:…`) on one side: compare module and entity. */
const sameTemplate = (a: string, b: string) => a.split(':').slice(1).join(':') === b.split(':').slice(1).join(':');

function committedActions(t: JsTransaction): Action[] {
  return (t.events as Record<string, Record<string, unknown>>[]).flatMap((e): Action[] => {
    const [kind, ev] = Object.entries(e)[0] ?? [];
    if (kind === 'CreatedEvent') return [{ kind: 'create', templateId: String(ev.templateId) }];
    if (kind === 'ExercisedEvent')
      return [{ kind: 'exercise', templateId: String(ev.templateId), choice: String(ev.choice), contractId: String(ev.contractId) }];
    return [];
  });
}

/** The differences, in words; empty when the committed transaction does what was prepared. */
export function compareCommitted(prepared: PreparedTransactionReview, committed: JsTransaction): string[] {
  const want: Action[] = prepared.nodes
    .filter((n) => n.kind === 'create' || n.kind === 'exercise')
    .map((n) => ({ kind: n.kind as Action['kind'], templateId: n.templateId ?? '', choice: n.choice, contractId: n.contractId }));
  const got = committedActions(committed);
  const createdHere = new Set(prepared.nodes.filter((n) => n.kind === 'create').map((n) => n.contractId));
  const differences: string[] = [];
  const n = Math.max(want.length, got.length);
  for (let i = 0; i < n; i++) {
    const w = want[i];
    const g = got[i];
    if (!g) differences.push(l10n.t('Prepared but not committed: {0}.', describe(w)));
    else if (!w) differences.push(l10n.t('Committed but not prepared: {0}.', describe(g)));
    else if (
      w.kind !== g.kind ||
      !sameTemplate(w.templateId, g.templateId) ||
      w.choice !== g.choice ||
      // A contract created in this transaction gets its final id at commit: only inputs must match.
      (w.kind === 'exercise' && !createdHere.has(w.contractId) && w.contractId !== g.contractId)
    ) {
      differences.push(l10n.t('Action {0}: prepared {1}, committed {2}.', i + 1, describe(w), describe(g)));
    }
  }
  return differences;
}
