// What the debugger walks: a list of ledger updates, each a sequence of stops. A transaction's
// stops follow its exercise tree in execution order: every node is entered, and an exercise with
// children is left again after its last descendant (where its result is shown). A reassignment,
// a topology transaction or a transaction without events is one stop. Stepping moves over this
// sequence both ways, since a committed transaction can be walked backwards. No `vscode` import.
import type { Completion, JsReassignment, JsTopologyTransaction, JsTransaction } from '../ledger/apiTypes';
import { exerciseTree, type FlatTreeNode, type TreeEvent } from '../lookups/exerciseTree';

export type ProgramUpdate =
  | { kind: 'transaction'; value: JsTransaction }
  | { kind: 'reassignment'; value: JsReassignment }
  | { kind: 'topology'; value: JsTopologyTransaction }
  /** A command that failed (from the completions): a stop where exception breakpoints hit. */
  | { kind: 'failedCommand'; value: Completion };

/** One place the debugger can stop: a node's entry or an exercise's exit; node -1 is the update itself. */
export interface Stop {
  node: number;
  phase: 'enter' | 'exit';
}

export interface LoadedUpdate {
  update: ProgramUpdate;
  /** The exercise tree, pre-order (empty for a reassignment or topology transaction). */
  tree: FlatTreeNode[];
  stops: Stop[];
  /** A node's exit stop, by node index (-1: none, the node is one step). */
  exitOf: Int32Array;
  /** The index of this update's first stop in the whole program. */
  first: number;
}

/** A position: the update and the stop in it. */
export interface Position {
  update: number;
  stop: number;
}

export function updateOffset(u: ProgramUpdate): number | undefined {
  const o = (u.value as { offset?: unknown }).offset;
  return typeof o === 'number' ? o : undefined;
}

export function updateIdOf(u: ProgramUpdate): string {
  const id = (u.value as { updateId?: unknown }).updateId;
  return typeof id === 'string' ? id : '';
}

/** The stops of one update, in execution order. */
export function loadUpdate(update: ProgramUpdate, first: number): LoadedUpdate {
  const events = update.kind === 'transaction' && Array.isArray(update.value.events) ? update.value.events : [];
  const tree = exerciseTree(events);
  const stops: Stop[] = [];
  const exitOf = new Int32Array(tree.length).fill(-1);
  const open: number[] = [];
  const closeUpTo = (index: number) => {
    while (open.length > 0) {
      const top = open.at(-1)!;
      if (top + tree[top].descendants >= index) break;
      open.pop();
      exitOf[top] = stops.length;
      stops.push({ node: top, phase: 'exit' });
    }
  };
  for (const n of tree) {
    closeUpTo(n.index);
    stops.push({ node: n.index, phase: 'enter' });
    if (n.node.kind === 'exercised' && n.descendants > 0) open.push(n.index);
  }
  closeUpTo(Number.MAX_SAFE_INTEGER);
  if (stops.length === 0) stops.push({ node: -1, phase: 'enter' });
  return { update, tree, stops, exitOf, first };
}

export type StepKind = 'in' | 'over' | 'out';

/**
 * The updates loaded so far and how to move between their stops. More updates are appended as a
 * range is read or a live ledger is followed.
 */
export class DebugProgram {
  readonly updates: LoadedUpdate[] = [];
  private total = 0;

  append(update: ProgramUpdate): LoadedUpdate {
    const loaded = loadUpdate(update, this.total);
    this.updates.push(loaded);
    this.total += loaded.stops.length;
    return loaded;
  }

  get stopCount(): number {
    return this.total;
  }

  stopAt(p: Position): Stop {
    return this.updates[p.update].stops[p.stop];
  }

  /** The next position, or undefined past the last stop loaded. */
  next(p: Position): Position | undefined {
    const u = this.updates[p.update];
    if (p.stop + 1 < u.stops.length) return { update: p.update, stop: p.stop + 1 };
    return p.update + 1 < this.updates.length ? { update: p.update + 1, stop: 0 } : undefined;
  }

  previous(p: Position): Position | undefined {
    if (p.stop > 0) return { update: p.update, stop: p.stop - 1 };
    return p.update > 0 ? { update: p.update - 1, stop: this.updates[p.update - 1].stops.length - 1 } : undefined;
  }

  /**
   * Where a step goes. In: the next stop. Over: past an exercise's children to its exit. Out: to
   * the exit of the exercise the current frame is in (an exercise just entered is its own frame),
   * or to the next update at the top. Undefined: past the last stop loaded.
   */
  step(p: Position, kind: StepKind): Position | undefined {
    const u = this.updates[p.update];
    const s = u.stops[p.stop];
    if (kind === 'in' || s.node < 0) return this.next(p);
    const ownExit = s.phase === 'enter' ? u.exitOf[s.node] : -1;
    if (kind === 'over') return ownExit >= 0 ? { update: p.update, stop: ownExit } : this.next(p);
    if (ownExit >= 0) return { update: p.update, stop: ownExit };
    const parent = u.tree[s.node].parent;
    if (parent >= 0) return { update: p.update, stop: u.exitOf[parent] };
    return p.update + 1 < this.updates.length ? { update: p.update + 1, stop: 0 } : undefined;
  }

  /** The frames at a position, innermost first: the node, then the exercises enclosing it. */
  frames(p: Position): number[] {
    const u = this.updates[p.update];
    const s = u.stops[p.stop];
    const out: number[] = [];
    for (let n = s.node; n >= 0; n = u.tree[n].parent) out.push(n);
    return out;
  }

  /** Positions from `from` onwards (exclusive) in order, or backwards. */
  *walk(from: Position | undefined, backwards = false): Generator<Position> {
    let p = from ? (backwards ? this.previous(from) : this.next(from)) : this.updates.length > 0 ? { update: 0, stop: 0 } : undefined;
    while (p) {
      yield p;
      p = backwards ? this.previous(p) : this.next(p);
    }
  }
}

export function nodeAt(u: LoadedUpdate, node: number): TreeEvent | undefined {
  return node >= 0 ? u.tree[node]?.node : undefined;
}
