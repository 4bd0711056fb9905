// Follows a node's updates from an offset, without a gap or a duplicate: the position is the
// offset of the last update shown or checkpoint passed, every request starts exactly there, and
// anything at or before it is dropped. After a timeout, a dropped connection or a node restart it
// waits and asks again from the same position. Two transports: `/v2/updates` as a list the node
// holds open until updates come (`limit`, `stream_idle_timeout_ms`; every version) and
// `get-updates-page` (3.5+), which answers at once and is asked again after a pause.
// No `vscode` import.
import type { JsGetUpdatesResponse, JsTransaction, UpdateFormat } from '../ledger/apiTypes';
import { earliestOffsetOf, isLedgerApiError, nodeListLimitOf, pageSizeLimitOf } from '../ledger/ledgerApiError';
import { streamChannel } from '../ledger/ledgerChannels';
import type { LedgerClient } from '../ledger/ledgerClient';
import { abortableSleep, isTransient } from './acsPaging';
import { splitTemplateId } from './acsGrouping';
import * as l10n from '../l10n/l10n';
import type { UpdateRow, UpdatesState } from '../protocol/updateRows';
import { formatCount } from '../l10n/forPeople';

export interface FetchResult {
  updates: JsGetUpdatesResponse['update'][];
  /** The node has read up to here (a page's highest offset): the position may move past it without rows. */
  readUpTo?: number;
  /** The node answered at once with nothing new: wait before asking again. */
  idle: boolean;
}

export type UpdatesFetch = (beginExclusive: number, signal: AbortSignal) => Promise<FetchResult>;

/**
 * `/v2/updates`: the node answers once it has `limit` updates, or when none came for `idleMs`. A
 * steady trickle never idles, so a fixed limit would hold rows back for limit / rate seconds (200
 * at 5 visible updates a second: 40 s). So the limit follows the rate: it starts small, halves (not
 * below MIN_LIMIT) when a full answer took longer than `targetMs`, and doubles (up to `maxLimit`)
 * when one filled in under half of it. A full answer whose last update committed more than
 * BACKLOG_MS ago is a backlog being read, however long the round trip: the limit grows then, so a
 * distant node is caught up at full pages. A 413 lowers `maxLimit` (followUpdates).
 */
export const MIN_LIMIT = 4;
export const BACKLOG_MS = 5_000;

function lastRecordTime(updates: FetchResult['updates']): number {
  for (let i = updates.length - 1; i >= 0; i--) {
    const t = (updates[i] as { Transaction?: { value?: { recordTime?: unknown } } } | undefined)?.Transaction?.value?.recordTime;
    if (typeof t === 'string') return Date.parse(t);
  }
  return Number.NaN;
}

export function updatesListFetch(
  client: Pick<LedgerClient, 'getUpdates'>,
  updateFormat: UpdateFormat,
  o: { limit: number; idleMs: number; targetMs?: number; now?: () => number },
): UpdatesFetch & { limit: number; maxLimit: number } {
  const targetMs = o.targetMs ?? 500;
  const now = o.now ?? Date.now;
  const f = async (beginExclusive: number, signal: AbortSignal): Promise<FetchResult> => {
    const asked = f.limit;
    const started = now();
    // No top-level `verbose` (or `filter`): Canton refuses them beside `updateFormat`, whose event format says it.
    const list = await client.getUpdates({ beginExclusive, updateFormat }, { limit: asked, streamIdleTimeoutMs: o.idleMs }, { signal });
    const updates = (Array.isArray(list) ? list : []).map((u) => u?.update);
    // Full: the node stopped at the limit, not at an idle pause (a checkpoint may follow the last update).
    const full = updates.filter((u) => !(u && typeof u === 'object' && 'OffsetCheckpoint' in u)).length >= asked;
    if (full) {
      const took = now() - started;
      const catchingUp = now() - lastRecordTime(updates) > BACKLOG_MS;
      if (catchingUp || took < targetMs / 2) f.limit = Math.min(f.maxLimit, asked * 2);
      else if (took > targetMs) f.limit = Math.max(MIN_LIMIT, Math.floor(asked / 2));
    }
    return { updates, idle: false };
  };
  f.maxLimit = o.limit;
  f.limit = Math.min(o.limit, 16);
  return f;
}

/**
 * `get-updates-page` (3.5+): one page after `beginExclusive`, up to the ledger end. A page with no
 * end always has a next-page token (Canton's IndexServiceImpl), so the offsets say when it is caught
 * up: a page that is not full ran to the ledger end, its upper bound.
 */
export function updatesPageFetch(client: Pick<LedgerClient, 'getUpdatesPage'>, updateFormat: UpdateFormat, o: { pageSize: number }): UpdatesFetch {
  let pageSize = o.pageSize;
  return async (beginOffsetExclusive, signal) => {
    let page;
    for (;;) {
      try {
        page = await client.getUpdatesPage({ beginOffsetExclusive, updateFormat, maxPageSize: pageSize }, { signal });
        break;
      } catch (e) {
        // A node configured with smaller pages names its maximum: ask for that from now on.
        const limit = pageSizeLimitOf(e);
        if (limit === undefined || limit >= pageSize) throw e;
        pageSize = limit;
      }
    }
    const updates = (page.updates ?? []).map((u) => u.update);
    const upTo = page.highestPageOffsetInclusive;
    const caughtUp = updates.length < pageSize || typeof upTo !== 'number' || upTo <= beginOffsetExclusive;
    return { updates, readUpTo: upTo, idle: caughtUp };
  };
}

/**
 * The `/v2/updates` websocket channel as a fetch: one stream stays open while Follow Updates asks from
 * where it ended; each call takes what has arrived (waiting up to `idleMs` for the first), so no
 * request is sent per batch. A break throws (Follow Updates reconnects from its position, which opens a
 * new stream there). Where the upgrade is refused, it falls back to `fallback` for good and says
 * why in `fallbackReason`.
 */
export function updatesStreamFetch(
  client: LedgerClient,
  updateFormat: UpdateFormat,
  o: { idleMs: number; maxBatch?: number; fallback: UpdatesFetch },
): UpdatesFetch & { fallbackReason?: string } {
  let open: { it: AsyncIterator<JsGetUpdatesResponse>; ac: AbortController; upTo: number; pending?: Promise<IteratorResult<JsGetUpdatesResponse>> } | undefined;
  const maxBatch = o.maxBatch ?? 500;
  const offsetOf = (u: JsGetUpdatesResponse['update']): number | undefined => {
    const w = u as Record<string, { value?: { offset?: number } } | undefined>;
    return (w.Transaction ?? w.OffsetCheckpoint ?? w.Reassignment ?? w.TopologyTransaction)?.value?.offset;
  };
  const shut = () => {
    open?.ac.abort();
    open = undefined;
  };
  const f = async (beginExclusive: number, signal: AbortSignal): Promise<FetchResult> => {
    if (f.fallbackReason) return o.fallback(beginExclusive, signal);
    if (!open || open.upTo !== beginExclusive) {
      shut();
      const ac = new AbortController();
      const it = streamChannel<JsGetUpdatesResponse>(client, '/v2/updates', { beginExclusive, updateFormat }, { signal: ac.signal })[Symbol.asyncIterator]();
      open = { it, ac, upTo: beginExclusive };
    }
    const s = open;
    const onAbort = () => shut();
    signal.addEventListener('abort', onAbort, { once: true });
    const updates: JsGetUpdatesResponse['update'][] = [];
    let wait: ReturnType<typeof setTimeout> | undefined;
    try {
      const idle = new Promise<'idle'>((r) => (wait = setTimeout(() => r('idle'), o.idleMs)));
      while (updates.length < maxBatch) {
        if (!s.pending) {
          s.pending = s.it.next();
          // A break while no call waits is seen by the next call, not as an unhandled rejection.
          s.pending.catch(() => undefined);
        }
        // The first waits up to idleMs; the rest are taken while they are already there. A frame
        // that has arrived takes a few microtasks to come through the generators: the turn of the
        // event loop (setImmediate) lets it, where a resolved promise would end the batch at one.
        const next = await (updates.length === 0 ? Promise.race([s.pending, idle]) : Promise.race([s.pending, nextTurn()]));
        if (next === 'idle') break;
        s.pending = undefined;
        if (next.done) {
          shut();
          break;
        }
        updates.push(next.value.update);
        const at = offsetOf(next.value.update);
        if (typeof at === 'number') s.upTo = at;
      }
      return { updates, idle: false };
    } catch (e) {
      shut();
      if (isLedgerApiError(e) && e.routeMissing && updates.length === 0) {
        f.fallbackReason = e.explanation;
        return o.fallback(beginExclusive, signal);
      }
      throw e;
    } finally {
      clearTimeout(wait);
      signal.removeEventListener('abort', onAbort);
    }
  };
  f.fallbackReason = undefined as string | undefined;
  return f;
}

const nextTurn = () => new Promise<'idle'>((r) => setImmediate(() => r('idle')));

/** The position, and what a batch of updates adds to the table. */
export class UpdatesCursor {
  /** Updates at or before it were shown or passed. */
  position: number;
  duplicates = 0;

  constructor(start: number) {
    this.position = start;
  }

  /** The rows of the updates after the position, in order; moves the position past them and past checkpoints. */
  accept(result: Pick<FetchResult, 'updates' | 'readUpTo'>): UpdateRow[] {
    const rows: UpdateRow[] = [];
    for (const u of result.updates) {
      if (!u || typeof u !== 'object') continue;
      const w = u as {
        Transaction?: { value?: JsTransaction };
        OffsetCheckpoint?: { value?: { offset?: number } };
        Reassignment?: { value?: { offset?: number } };
        TopologyTransaction?: { value?: { offset?: number } };
      };
      const t = w.Transaction?.value;
      const offset = t?.offset ?? w.OffsetCheckpoint?.value?.offset ?? w.Reassignment?.value?.offset ?? w.TopologyTransaction?.value?.offset;
      if (typeof offset !== 'number' || !Number.isFinite(offset)) continue;
      if (offset <= this.position) {
        if (!w.OffsetCheckpoint) this.duplicates++;
        continue;
      }
      this.position = offset;
      if (t) rows.push(updateRow(t));
    }
    if (typeof result.readUpTo === 'number' && result.readUpTo > this.position) this.position = result.readUpTo;
    return rows;
  }
}

export function updateRow(t: JsTransaction): UpdateRow {
  const kinds: string[] = [];
  const templates: string[] = [];
  const choices: string[] = [];
  const parties = new Set<string>();
  const once = (list: string[], v: string) => {
    if (!list.includes(v)) list.push(v);
  };
  const events = Array.isArray(t.events) ? t.events : [];
  for (const ev of events) {
    const [kind, e] = Object.entries(ev as Record<string, { templateId?: string; choice?: string; witnessParties?: string[] }>)[0] ?? [];
    if (!kind || !e) continue;
    once(kinds, kind === 'CreatedEvent' ? 'created' : kind === 'ArchivedEvent' ? 'archived' : kind === 'ExercisedEvent' ? 'exercised' : kind);
    if (typeof e.templateId === 'string') {
      const { module, entity } = splitTemplateId(e.templateId);
      once(templates, module ? `${module}:${entity}` : entity);
    }
    if (typeof e.choice === 'string') once(choices, e.choice);
    for (const p of e.witnessParties ?? []) parties.add(String(p));
  }
  return {
    offset: t.offset,
    updateId: String(t.updateId ?? ''),
    commandId: String(t.commandId ?? ''),
    workflowId: String(t.workflowId ?? ''),
    recordTime: String(t.recordTime ?? t.effectiveAt ?? ''),
    kinds,
    templates,
    choices,
    parties: [...parties],
    events: events.length,
  };
}

export interface FollowOptions {
  fetch: UpdatesFetch & { limit?: number; maxLimit?: number };
  cursor: UpdatesCursor;
  onRows: (rows: UpdateRow[], position: number) => void;
  onState: (s: UpdatesState) => void;
  signal: AbortSignal;
  /** Pause after an idle answer of a transport that does not wait (get-updates-page). */
  pollMs?: number;
  maxBackoffMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Runs until the signal aborts or the node refuses the position for good. */
export async function followUpdates(o: FollowOptions): Promise<UpdatesState> {
  const sleep = o.sleep ?? abortableSleep;
  let attempt = 0;
  let state: UpdatesState['state'] | undefined;
  const report = (s: UpdatesState) => {
    state = s.state;
    o.onState(s);
    return s;
  };
  report({ state: 'following' });
  while (!o.signal.aborted) {
    try {
      const result = await o.fetch(o.cursor.position, o.signal);
      if (o.signal.aborted) break;
      const rows = o.cursor.accept(result);
      if (attempt > 0 || state !== 'following') report({ state: 'following' });
      attempt = 0;
      o.onRows(rows, o.cursor.position);
      if (result.idle) await sleep(o.pollMs ?? 250, o.signal);
    } catch (e) {
      if (o.signal.aborted) break;
      const code = isLedgerApiError(e) ? e.cantonError?.code : undefined;
      const error = isLedgerApiError(e) ? e.explanation : ((e as Error)?.message ?? String(e));
      if (code === 'OFFSET_AFTER_LEDGER_END') return report({ state: 'stopped', reason: 'beyondEnd', error });
      if (code === 'PARTICIPANT_PRUNED_DATA_ACCESSED') {
        return report({ state: 'stopped', reason: 'pruned', error, earliest: earliestOffsetOf(isLedgerApiError(e) ? e.cantonError : undefined) });
      }
      if (isLedgerApiError(e) && e.status === 413 && o.fetch.limit !== undefined && o.fetch.limit > 1) {
        const named = nodeListLimitOf(e);
        o.fetch.limit = Math.max(1, named !== undefined && named < o.fetch.limit ? named : Math.floor(o.fetch.limit / 2));
        // The node's list limit is below it: never grow past it again.
        if (o.fetch.maxLimit !== undefined) o.fetch.maxLimit = o.fetch.limit;
        continue;
      }
      if (!isTransient(e)) return report({ state: 'stopped', reason: 'error', error, kind: isLedgerApiError(e) ? e.kind : 'unknown' });
      attempt++;
      report({ state: 'reconnecting', attempt, error });
      await sleep(Math.min(o.maxBackoffMs ?? 5000, 250 * 2 ** Math.min(attempt - 1, 5)), o.signal);
    }
  }
  return report({ state: 'stopped', reason: 'cancelled' });
}

/** The newest rows, at most `capacity`; older ones are dropped and counted. */
export class RowBuffer<T> {
  private rows: T[] = [];
  dropped = 0;

  constructor(readonly capacity: number) {}

  push(rows: readonly T[]): void {
    for (const r of rows) this.rows.push(r);
    const over = this.rows.length - this.capacity;
    if (over > 0) {
      this.rows.splice(0, over);
      this.dropped += over;
    }
  }

  all(): readonly T[] {
    return this.rows;
  }

  get size(): number {
    return this.rows.length;
  }
}

/** What to say when Follow Updates stopped, and what the person can do. */
export function describeStop(s: Extract<UpdatesState, { state: 'stopped' }>): string {
  switch (s.reason) {
    case 'cancelled':
      return l10n.t('Stopped.');
    case 'beyondEnd':
      return l10n.t('The start offset is after the ledger end: {0} Start at the ledger end instead.', s.error);
    case 'pruned':
      return s.earliest !== undefined
        ? l10n.t('The node has pruned the updates before offset {0}: {1} Start at the earliest offset instead.', formatCount(s.earliest), s.error)
        : l10n.t('The node has pruned the updates at the start offset: {0} Start at a later offset.', s.error);
    default:
      return s.error;
  }
}
