// Reads the updates of a bounded range (after `beginExclusive` up to `endInclusive`) to its end, a
// batch at a time. Canton cuts a `/v2/updates` list that names `stream_idle_timeout_ms` once no
// element came for that long and answers 200 with what came so far, so a short or empty answer is
// not the range's end: each batch says how far the node has read, and the next asks from there.
// Where the node serves update pages (3.5+) they are read instead: a page is never cut and says its
// upper bound. Reads only: a transient failure is asked again (withRetries). No `vscode` import.
import type { JsGetUpdatesResponse, UpdateFormat } from '../ledger/apiTypes';
import type { CallOptions, LedgerClient } from '../ledger/ledgerClient';
import { isLedgerApiError, nodeListLimitOf, pageSizeLimitOf } from '../ledger/ledgerApiError';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';
import { withRetries } from './acsPaging';

export type RangeClient = Pick<LedgerClient, 'getUpdates'> & Partial<Pick<LedgerClient, 'getUpdatesPage'>>;

export interface RangeBatch {
  /** The updates after the previous batch, in offset order (checkpoints left out). */
  updates: NonNullable<JsGetUpdatesResponse['update']>[];
  /** The node has read the range up to here. */
  readUpTo: number;
  /** Something the person should know (a smaller page). */
  notice?: string;
}

export interface RangeReadOptions {
  beginExclusive: number;
  endInclusive: number;
  updateFormat: UpdateFormat;
  /** Updates per request (lowered to the node's list limit when it names one). */
  pageSize: number;
  /** The node serves get-updates-page (3.5+). */
  pages?: boolean;
  /** How long the node may wait between two elements of a list before it answers (default 5 s). */
  idleMs?: number;
  signal?: AbortSignal;
  /** Extra call options (a token of its own). */
  call?: Omit<CallOptions, 'signal'>;
  retries?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const RANGE_IDLE_MS = 5_000;

const offsetOf = (u: unknown): number | undefined => {
  const w = (u ?? {}) as Record<string, { value?: { offset?: unknown } } | undefined>;
  const o = (w.Transaction ?? w.Reassignment ?? w.TopologyTransaction ?? w.OffsetCheckpoint)?.value?.offset;
  return typeof o === 'number' && Number.isFinite(o) ? o : undefined;
};

/** The page size a node names when it refuses a larger one ("must not exceed 2000"). */

/** The range's updates, batch by batch, until the node has read it to its end. */
export async function* readUpdateRange(client: RangeClient, o: RangeReadOptions): AsyncGenerator<RangeBatch> {
  if (!o.pages || !client.getUpdatesPage) {
    yield* byLists(client, o);
    return;
  }
  const pages = byPages(client as RangeClient & Pick<LedgerClient, 'getUpdatesPage'>, o);
  let readUpTo = o.beginExclusive;
  try {
    for await (const b of pages) {
      readUpTo = b.readUpTo;
      yield b;
    }
  } catch (e) {
    // A node without update pages (before 3.5, or a version not known yet): lists from where pages got to.
    if (!(isLedgerApiError(e) && e.routeMissing)) throw e;
    yield* byLists(client, { ...o, beginExclusive: readUpTo });
  }
}

async function* byPages(client: Pick<LedgerClient, 'getUpdatesPage'>, o: RangeReadOptions): AsyncGenerator<RangeBatch> {
  let pageSize = Math.max(1, o.pageSize);
  let begin = o.beginExclusive;
  let notice: string | undefined;
  while (begin < o.endInclusive) {
    let page;
    try {
      // Each page from the last one's upper bound, without its token: the same range either way.
      page = await withRetries(o, () =>
        client.getUpdatesPage(
          { beginOffsetExclusive: begin, endOffsetInclusive: o.endInclusive, updateFormat: o.updateFormat, maxPageSize: pageSize },
          { ...o.call, signal: o.signal },
        ),
      );
    } catch (e) {
      const limit = pageSizeLimitOf(e);
      if (limit !== undefined && limit < pageSize) {
        pageSize = limit;
        notice = l10n.t('The node refuses pages larger than {0} updates: reading {0} at a time.', formatCount(limit));
        continue;
      }
      throw e;
    }
    const updates: RangeBatch['updates'] = [];
    for (const element of page.updates ?? []) {
      const u = element?.update;
      if (u && (offsetOf(u) ?? -1) > begin && !('OffsetCheckpoint' in u)) updates.push(u);
    }
    const last = offsetOf(updates.at(-1)) ?? begin;
    const highest = typeof page.highestPageOffsetInclusive === 'number' ? page.highestPageOffsetInclusive : last;
    // A bounded page without a token is the range's last.
    const upTo = page.nextPageToken ? Math.max(highest, last) : o.endInclusive;
    if (upTo <= begin) throw stalled(begin);
    yield { updates, readUpTo: Math.min(upTo, o.endInclusive), notice };
    notice = undefined;
    begin = upTo;
  }
}

async function* byLists(client: Pick<LedgerClient, 'getUpdates'>, o: RangeReadOptions): AsyncGenerator<RangeBatch> {
  let pageSize = Math.max(1, o.pageSize);
  let begin = o.beginExclusive;
  let notice: string | undefined;
  // After an empty answer: one element asked for without an idle time, which Canton never cuts on a
  // bounded list; its answer (or none) is the truth about what is left.
  let probe = false;
  while (begin < o.endInclusive) {
    let list: JsGetUpdatesResponse[];
    try {
      const query = probe ? { limit: 1 } : { limit: pageSize, streamIdleTimeoutMs: o.idleMs ?? RANGE_IDLE_MS };
      list = await withRetries(o, () =>
        client.getUpdates({ beginExclusive: begin, endInclusive: o.endInclusive, updateFormat: o.updateFormat }, query, { ...o.call, signal: o.signal }),
      );
    } catch (e) {
      // A node whose list limit is below the page: pages of its limit (Canton names it), else halves.
      if (isLedgerApiError(e) && e.status === 413 && pageSize > 1 && !probe) {
        const named = nodeListLimitOf(e);
        pageSize = Math.max(1, named !== undefined && named < pageSize ? named : Math.floor(pageSize / 2));
        notice = l10n.t('The node refuses lists longer than its limit: reading {0} updates at a time.', formatCount(pageSize));
        continue;
      }
      throw e;
    }
    const updates: RangeBatch['updates'] = [];
    let moved = begin;
    for (const element of Array.isArray(list) ? list : []) {
      const u = element?.update;
      const at = offsetOf(u);
      if (!u || at === undefined || at <= moved || at > o.endInclusive) continue;
      moved = at;
      if (!('OffsetCheckpoint' in u)) updates.push(u);
    }
    if (moved === begin) {
      if (probe) {
        yield { updates, readUpTo: o.endInclusive, notice };
        return;
      }
      probe = true;
      continue;
    }
    probe = false;
    yield { updates, readUpTo: moved, notice };
    notice = undefined;
    begin = moved;
  }
}

function stalled(at: number): Error {
  return new Error(l10n.t('The node’s pages did not move past offset {0}: read the range again, or over a shorter range.', formatCount(at)));
}
