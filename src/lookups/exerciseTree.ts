// The exercise tree of a ledger-effects transaction, as a debugger's call trace: root creates
// and exercises, and under each exercise the nodes from its nodeId up to its
// lastDescendantNodeId. One pass over the events in node order, so 10,000 nodes cost little.
import type { CreatedEvent, ExercisedEvent, LedgerEvent } from '../ledger/apiTypes';

export type TreeEvent =
  | { kind: 'created'; event: CreatedEvent }
  | { kind: 'exercised'; event: ExercisedEvent }
  | { kind: 'archived'; event: { nodeId: number; contractId: string; templateId: string } };

/** One node, flattened in pre-order: its parent's index in the list (-1 for a root), its depth, how many nodes it holds. */
export interface FlatTreeNode {
  index: number;
  parent: number;
  depth: number;
  descendants: number;
  node: TreeEvent;
}

export function treeEvent(e: LedgerEvent): TreeEvent {
  if ('CreatedEvent' in e) return { kind: 'created', event: e.CreatedEvent };
  if ('ExercisedEvent' in e) return { kind: 'exercised', event: e.ExercisedEvent };
  return { kind: 'archived', event: e.ArchivedEvent };
}

/**
 * The tree in pre-order. An exercise encloses the following nodes up to its lastDescendantNodeId
 * (inclusive); a node without one (a missing field from a real node) encloses nothing. Events out
 * of node order are sorted first.
 */
export function exerciseTree(events: readonly LedgerEvent[]): FlatTreeNode[] {
  const nodes = events.map(treeEvent);
  if (nodes.some((n, i) => i > 0 && n.event.nodeId < nodes[i - 1].event.nodeId)) nodes.sort((a, b) => a.event.nodeId - b.event.nodeId);
  const flat: FlatTreeNode[] = [];
  // Open exercises: their index and the last node id they enclose.
  const open: { index: number; last: number }[] = [];
  for (const node of nodes) {
    const id = node.event.nodeId;
    while (open.length > 0 && open.at(-1)!.last < id) open.pop();
    const parent = open.at(-1)?.index ?? -1;
    const index = flat.length;
    flat.push({ index, parent, depth: open.length, descendants: 0, node });
    for (const o of open) flat[o.index].descendants++;
    if (node.kind === 'exercised') {
      const last = node.event.lastDescendantNodeId;
      if (typeof last === 'number' && last > id) open.push({ index, last });
    }
  }
  return flat;
}

/** What a consuming exercise created (its direct and nested creates), for lineage: its index's subtree. */
export function createdUnder(tree: readonly FlatTreeNode[], index: number): CreatedEvent[] {
  const root = tree[index];
  if (!root) return [];
  return tree.slice(index + 1, index + 1 + root.descendants).flatMap((n) => (n.node.kind === 'created' ? [n.node.event] : []));
}
