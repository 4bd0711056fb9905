// What was committed against what was prepared: the same creates (template) and exercises
// (template, choice, contract), in order, with equal arguments; each difference named. A contract
// created in the transaction has a local id in the prepared transaction (its discriminator) that the
// node completes at commit (a suffix): the two are matched, in contract ids and inside arguments.
// No `vscode` import.
import type { JsTransaction } from '../ledger/apiTypes';
import type { PreparedTransactionReview } from './preparedTransactionReview';
import { diffValues, type DiffNode } from '../lookups/contractDiff';
import * as l10n from '../l10n/l10n';

interface Action {
  kind: 'create' | 'exercise';
  templateId: string;
  choice?: string;
  contractId?: string;
  argument?: unknown;
}

export type ActionStatus = 'same' | 'differs' | 'dropped' | 'added';

/** One prepared action beside the committed one at its place. */
export interface ActionMatch {
  index: number;
  status: ActionStatus;
  prepared?: Action;
  committed?: Action;
  /** The committed contract id of a contract created here (its prepared id is local). */
  completedId?: string;
  /** What differs, in words: the action, or argument paths. */
  notes: string[];
}

export interface CommittedComparison {
  actions: ActionMatch[];
  /** The differences in words (empty: the same transaction). */
  differences: string[];
}

const describe = (a: Action) =>
  a.kind === 'create' ? l10n.t('create of {0}', a.templateId) : l10n.t('exercise {0} on {1} ({2})', a.choice ?? '', a.contractId ?? '', a.templateId);
/** Package ids may be package names (`#name:…`) on one side: compare module and entity. */
const sameTemplate = (a: string, b: string) => a.split(':').slice(1).join(':') === b.split(':').slice(1).join(':');

function committedActions(t: JsTransaction): Action[] {
  return ((t.events ?? []) as Record<string, Record<string, unknown>>[]).flatMap((e): Action[] => {
    const [kind, ev] = Object.entries(e ?? {})[0] ?? [];
    if (!ev || typeof ev !== 'object') return [];
    const contractId = typeof ev.contractId === 'string' ? ev.contractId : undefined;
    if (kind === 'CreatedEvent') return [{ kind: 'create', templateId: String(ev.templateId), contractId, argument: ev.createArgument }];
    if (kind === 'ExercisedEvent')
      return [{ kind: 'exercise', templateId: String(ev.templateId), choice: String(ev.choice), contractId, argument: ev.choiceArgument }];
    return [];
  });
}

/** A local id completed at commit: the committed id begins with it (discriminator, then suffix). */
const completes = (local: string | undefined, committed: string | undefined) => !!local && !!committed && committed.startsWith(local);

/** Local contract ids inside a prepared value replaced by their committed ids. */
function withCommittedIds(v: unknown, ids: ReadonlyMap<string, string>, depth = 0): unknown {
  if (ids.size === 0 || depth > 100) return v;
  if (typeof v === 'string') return ids.get(v) ?? v;
  if (Array.isArray(v)) return v.map((x) => withCommittedIds(x, ids, depth + 1));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withCommittedIds(x, ids, depth + 1)]));
  return v;
}

/**
 * A prepared record whose labels were left out (`_1`, `_2`, …) against a committed one with labels:
 * compared by position.
 */
function alignLabels(prepared: unknown, committed: unknown, depth = 0): unknown {
  if (depth > 100) return prepared;
  if (Array.isArray(prepared) && Array.isArray(committed)) return prepared.map((x, i) => alignLabels(x, committed[i], depth + 1));
  if (!prepared || typeof prepared !== 'object' || !committed || typeof committed !== 'object' || Array.isArray(committed)) return prepared;
  const p = Object.entries(prepared);
  const c = Object.keys(committed);
  const positional = p.length > 0 && p.every(([k], i) => k === `_${i + 1}`) && !c.every((k, i) => k === `_${i + 1}`);
  return Object.fromEntries(
    p.map(([k, x], i) => {
      const key = positional ? (c[i] ?? k) : k;
      return [key, alignLabels(x, (committed as Record<string, unknown>)[key], depth + 1)];
    }),
  );
}

/**
 * Record fields holding null left out: a prepared value drops trailing empty optionals that the JSON
 * API writes as null, so a field missing on one side and null on the other is the same.
 */
function withoutNulls(v: unknown, depth = 0): unknown {
  if (depth > 100) return v;
  if (Array.isArray(v)) return v.map((x) => withoutNulls(x, depth + 1));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null ? [] : [[k, withoutNulls(x, depth + 1)]])));
}

/** The paths where two arguments differ, at most `max`. */
function differingPaths(n: DiffNode, path: string, out: string[], max = 5): string[] {
  if (out.length >= max || n.kind === 'same') return out;
  const here = n.key === '' ? path : typeof n.key === 'number' ? `${path}[${n.key}]` : path ? `${path}.${n.key}` : n.key;
  if (n.children && n.children.length > 0) for (const c of n.children) differingPaths(c, here, out, max);
  else out.push(here || l10n.t('the whole argument'));
  return out;
}

/** The comparison, action by action. */
export function compareCommittedDetail(prepared: PreparedTransactionReview, committed: JsTransaction): CommittedComparison {
  const want: Action[] = prepared.nodes
    .filter((n) => n.kind === 'create' || n.kind === 'exercise')
    .map((n) => ({ kind: n.kind as Action['kind'], templateId: n.templateId ?? '', choice: n.choice, contractId: n.contractId, argument: n.argument }));
  const got = committedActions(committed);
  // Local ids of the contracts created here, completed by the committed creates at the same place.
  const completed = new Map<string, string>();
  const createdHere = new Set<string>();
  // Each local id to the committed create whose id extends it, wherever it is (an action the node
  // added or dropped shifts positions); else the create at the same place.
  const committedCreates = got.filter((g) => g.kind === 'create' && g.contractId).map((g) => g.contractId as string);
  const taken = new Set<string>();
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    if (w.kind !== 'create' || !w.contractId) continue;
    createdHere.add(w.contractId);
    const local = w.contractId;
    const extending = committedCreates.find((id) => !taken.has(id) && id !== local && completes(local, id));
    const g = got[i];
    const match = extending ?? (g?.kind === 'create' && g.contractId && !taken.has(g.contractId) ? g.contractId : undefined);
    if (match) {
      completed.set(local, match);
      taken.add(match);
    }
  }
  const actions: ActionMatch[] = [];
  const differences: string[] = [];
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    const w = want[i];
    const g = got[i];
    if (!g) {
      actions.push({ index: i, status: 'dropped', prepared: w, notes: [] });
      differences.push(l10n.t('Prepared but not committed: {0}.', describe(w)));
      continue;
    }
    if (!w) {
      actions.push({ index: i, status: 'added', committed: g, notes: [] });
      differences.push(l10n.t('Committed but not prepared: {0}.', describe(g)));
      continue;
    }
    const notes: string[] = [];
    // A contract created here whose committed id is not known: only inputs must match.
    const unknownId = !!w.contractId && createdHere.has(w.contractId) && !completed.has(w.contractId);
    const wantId = w.contractId ? (completed.get(w.contractId) ?? w.contractId) : undefined;
    if (
      w.kind !== g.kind ||
      !sameTemplate(w.templateId, g.templateId) ||
      w.choice !== g.choice ||
      (w.kind === 'exercise' && !unknownId && wantId !== g.contractId)
    )
      notes.push(l10n.t('Action {0}: prepared {1}, committed {2}.', i + 1, describe(w), describe(g)));
    else {
      if (w.kind === 'create' && w.contractId && g.contractId && w.contractId !== g.contractId && !completes(w.contractId, g.contractId))
        notes.push(l10n.t('Action {0}: the committed contract id {1} does not extend the prepared one ({2}).', i + 1, g.contractId, w.contractId));
      if (w.argument !== undefined && g.argument !== undefined) {
        const expected = withoutNulls(alignLabels(withCommittedIds(w.argument, completed), g.argument));
        const paths = differingPaths(diffValues(expected, withoutNulls(g.argument)), '', []);
        if (paths.length > 0) notes.push(l10n.t('Action {0} ({1}): the committed argument differs at {2}.', i + 1, describe(g), paths.join(', ')));
      }
    }
    actions.push({
      index: i,
      status: notes.length ? 'differs' : 'same',
      prepared: w,
      committed: g,
      ...(w.kind === 'create' && w.contractId && completed.has(w.contractId) ? { completedId: completed.get(w.contractId) } : {}),
      notes,
    });
    differences.push(...notes);
  }
  return { actions, differences };
}

/** The differences, in words; empty when the committed transaction does what was prepared. */
export function compareCommitted(prepared: PreparedTransactionReview, committed: JsTransaction): string[] {
  return compareCommittedDetail(prepared, committed).differences;
}
