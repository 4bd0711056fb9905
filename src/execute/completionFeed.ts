// The rows of Follow Completions: the user's completions as they arrive (each offset once, in
// order, so a resumed stream repeats and loses nothing), and the commands the node refused at once
// when this editor submitted them (a refusal before the command reaches the ledger, such as a
// Daml assertion, is answered to the submitter and never becomes a completion). Bounded: the
// oldest rows go first. Filters by status, command id and party. Pure.
import type { Completion } from '../ledger/apiTypes';
import { explainFailure, factsFromStatus, type FailureExplanation, type FailureFacts } from './commandFailure';

export interface CompletionRow {
  /** The completion's offset; a refusal at submission has none. */
  offset?: number;
  commandId: string;
  submissionId?: string;
  userId?: string;
  actAs: string[];
  status: 'succeeded' | 'failed';
  updateId?: string;
  recordTime?: string;
  /** Where it came from: the node's completions, or this editor's submission answered with an error. */
  source: 'completion' | 'submission';
  why?: FailureExplanation;
  /** When the row was added (epoch ms), for the time column of refusals. */
  at: number;
}

export interface CompletionFilter {
  status?: 'succeeded' | 'failed';
  /** A part of the command id. */
  commandId?: string;
  /** A party (or a part of its id). */
  party?: string;
}

export const MAX_ROWS = 5_000;

/** How far back Follow Completions starts: it opens on the recent past, not only what comes next. */
export const RECENT_OFFSETS = 1_000;

/** The offset Follow Completions starts after: the last RECENT_OFFSETS offsets, none of them pruned. */
export function recentCompletionsStart(ledgerEnd: number, prunedUpTo = 0): number {
  return Math.max(0, prunedUpTo, ledgerEnd - RECENT_OFFSETS);
}

export class CompletionFeed {
  private readonly list: CompletionRow[] = [];
  private last = 0;
  /** Completions seen again after a restart (offsets at or before the last one): skipped. */
  repeats = 0;

  constructor(private readonly max = MAX_ROWS) {}

  /** The offset to resume after. */
  get lastOffset(): number {
    return this.last;
  }

  set startAfter(offset: number) {
    this.last = Math.max(this.last, offset);
  }

  get size(): number {
    return this.list.length;
  }

  /** A completion from the node; false when it was seen already. */
  addCompletion(c: Completion, now = Date.now()): CompletionRow | undefined {
    if (typeof c.offset !== 'number' || c.offset <= this.last) {
      this.repeats++;
      return undefined;
    }
    this.last = c.offset;
    const failed = (c.status?.code ?? 0) !== 0;
    const row: CompletionRow = {
      offset: c.offset,
      commandId: c.commandId,
      submissionId: c.submissionId || undefined,
      userId: c.userId,
      actAs: c.actAs ?? [],
      status: failed ? 'failed' : 'succeeded',
      updateId: c.updateId || undefined,
      recordTime: c.synchronizerTime?.recordTime,
      source: 'completion',
      why: failed ? explainFailure(factsFromStatus(c.status)) : undefined,
      at: now,
    };
    this.push(row);
    return row;
  }

  /** A command this editor submitted that the node refused in its answer. */
  addRefusal(r: { commandId: string; actAs: string[]; userId?: string; facts: FailureFacts }, now = Date.now()): CompletionRow {
    const row: CompletionRow = {
      commandId: r.commandId,
      actAs: r.actAs,
      userId: r.userId,
      status: 'failed',
      source: 'submission',
      why: explainFailure(r.facts),
      at: now,
    };
    this.push(row);
    return row;
  }

  rows(filter: CompletionFilter = {}): CompletionRow[] {
    const id = filter.commandId?.trim().toLowerCase();
    const party = filter.party?.trim().toLowerCase();
    return this.list.filter(
      (r) =>
        (!filter.status || r.status === filter.status) &&
        (!id || r.commandId.toLowerCase().includes(id)) &&
        (!party || r.actAs.some((p) => p.toLowerCase().includes(party))),
    );
  }

  private push(row: CompletionRow): void {
    this.list.push(row);
    if (this.list.length > this.max) this.list.splice(0, this.list.length - this.max);
  }
}
