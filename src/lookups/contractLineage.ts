// Whether one contract became the other: the transaction that archived the older one created the
// newer one under its consuming exercise, directly or through a bounded chain of such
// transactions (a split, then transfers). The reads come from a reader the caller gives (the
// lookups of a node), so the walk is tested without a node. No `vscode` import.
import type { CreatedEvent, JsTransaction } from '../ledger/apiTypes';
import { createdUnder, exerciseTree } from './exerciseTree';
import * as l10n from '../l10n/l10n';

/** One link: the consuming exercise on `archived` and what it created. */
export interface ArchivingStep {
  archived: string;
  choice: string;
  templateId: string;
  updateId: string;
  offset: number;
  nodeId: number;
  created: CreatedEvent[];
}

/** Where a contract's archive is, as a node tells it. */
export type ArchiveSighting = { state: 'active' } | { state: 'archived'; offset: number } | { state: 'unknown'; explanation: string };

export interface LineageReader {
  archiveOf(contractId: string, signal: AbortSignal): Promise<ArchiveSighting>;
  /** The transaction at an offset in ledger-effects shape; undefined when these parties see none there. */
  transactionAt(offset: number, signal: AbortSignal): Promise<JsTransaction | undefined>;
}

export type Lineage =
  /** `steps[0]` archived the ancestor, the last step created the descendant. */
  | { found: true; ancestor: string; descendant: string; steps: ArchivingStep[] }
  | { found: false; ancestor: string; descendant: string; reason: 'same' }
  | { found: false; ancestor: string; descendant: string; reason: 'active' }
  /**
   * The ancestor's archiving exercise did not create the descendant, nor did the `followed`
   * archiving transactions (that one included) of its successors; `bounded`: the search stopped at a limit.
   */
  | {
      found: false;
      ancestor: string;
      descendant: string;
      reason: 'notCreated';
      first: ArchivingStep;
      followed: number;
      bounded: boolean;
      /** A read on the way failed: the lineage may be there all the same. */
      failed?: string;
    }
  | { found: false; ancestor: string; descendant: string; reason: 'unknown'; explanation: string };

/** Links followed at most, each one transaction (an archive read and a transaction read). */
export const MAX_LINEAGE_HOPS = 10;
/** Contracts whose archive is looked up at most, over all branches (splits fan out). */
export const MAX_LINEAGE_READS = 20;

/** The consuming exercise on `contractId` in a ledger-effects transaction, and the contracts created under it. */
export function archivingStep(tx: JsTransaction, contractId: string): ArchivingStep | undefined {
  const tree = exerciseTree(tx.events ?? []);
  const at = tree.find((n) => n.node.kind === 'exercised' && n.node.event.contractId === contractId && n.node.event.consuming);
  if (!at || at.node.kind !== 'exercised') return undefined;
  const e = at.node.event;
  return {
    archived: contractId,
    choice: e.choice,
    templateId: e.templateId,
    updateId: tx.updateId,
    offset: tx.offset,
    nodeId: e.nodeId,
    created: createdUnder(tree, at.index),
  };
}

/** The older of two contracts (by creation offset; the first when that does not tell) and the newer. */
export function olderFirst(left: CreatedEvent, right: CreatedEvent): [CreatedEvent, CreatedEvent] {
  return typeof left.offset === 'number' && typeof right.offset === 'number' && right.offset < left.offset ? [right, left] : [left, right];
}

const abortError = () => Object.assign(new Error('cancelled'), { name: 'AbortError' });

/**
 * Follows the older contract's successors breadth first until the newer one is among what a
 * consuming exercise created: at most MAX_LINEAGE_HOPS links deep and MAX_LINEAGE_READS archives
 * read. Only contracts created before the newer one can lead to it, so later ones are not followed.
 */
export async function traceLineage(reader: LineageReader, left: CreatedEvent, right: CreatedEvent, signal: AbortSignal): Promise<Lineage> {
  const [older, newer] = olderFirst(left, right);
  const ends = { ancestor: older.contractId, descendant: newer.contractId };
  if (older.contractId === newer.contractId) return { found: false, ...ends, reason: 'same' };
  let reads = 0;
  const follow = async (id: string): Promise<ArchiveSighting | ArchivingStep | undefined> => {
    if (signal.aborted) throw abortError();
    reads++;
    const archive = await reader.archiveOf(id, signal);
    if (archive.state !== 'archived') return archive;
    const tx = await reader.transactionAt(archive.offset, signal);
    return (tx && archivingStep(tx, id)) ?? undefined;
  };
  // The ancestor's own state is the answer when it was not archived by an exercise these parties see.
  const first = await follow(older.contractId);
  if (first === undefined) return { found: false, ...ends, reason: 'unknown', explanation: unseenArchive() };
  if ('state' in first) {
    return first.state === 'active'
      ? { found: false, ...ends, reason: 'active' }
      : { found: false, ...ends, reason: 'unknown', explanation: first.state === 'unknown' ? first.explanation : unseenArchive() };
  }
  const before = typeof newer.offset === 'number' ? newer.offset : Infinity;
  /** The steps that led to each contract reached. */
  const reached = new Map<string, ArchivingStep[]>([[older.contractId, []]]);
  let followed = 1;
  let failed: string | undefined;
  let frontier: string[] = [];
  const expand = (step: ArchivingStep, path: ArchivingStep[]): boolean => {
    if (step.created.some((c) => c.contractId === newer.contractId)) return true;
    // A successor created at or after the newer contract cannot have led to it.
    for (const c of step.created) {
      if (reached.has(c.contractId) || (typeof c.offset === 'number' && c.offset >= before)) continue;
      reached.set(c.contractId, path);
      frontier.push(c.contractId);
    }
    return false;
  };
  if (expand(first, [first])) return { found: true, ...ends, steps: [first] };
  for (let depth = 1; depth < MAX_LINEAGE_HOPS && frontier.length > 0 && reads < MAX_LINEAGE_READS; depth++) {
    const level = frontier;
    frontier = [];
    for (const [i, id] of level.entries()) {
      if (reads >= MAX_LINEAGE_READS) {
        frontier.push(...level.slice(i));
        break;
      }
      const step = await follow(id);
      if (step !== undefined && 'state' in step && step.state === 'unknown') failed ??= step.explanation;
      // A successor still active, or archived where these parties cannot see: its branch ends.
      if (step === undefined || 'state' in step) continue;
      followed++;
      const path = [...reached.get(id)!, step];
      if (expand(step, path)) return { found: true, ...ends, steps: path };
    }
  }
  return { found: false, ...ends, reason: 'notCreated', first, followed, bounded: frontier.length > 0, ...(failed ? { failed } : {}) };
}

function unseenArchive(): string {
  return l10n.t('It was archived, but the transaction that archived it is not visible to these parties (or was pruned).');
}
