// Reads what changed between two offsets, page by page, as the token's parties (optionally for
// some templates or interfaces): the range's updates in ACS-delta shape, read to the range's end
// (updateRange.ts: update pages, else lists the node may cut short), or the active sets at both
// ends compared, chosen by the range's length against the active set's size. Reads only: a page
// that fails for a transient reason is asked again. No `vscode` import.
import type { CreatedEvent, UpdateFormat } from '../ledger/apiTypes';
import type { LedgerClient } from '../ledger/ledgerClient';
import { DEFAULT_NODE_LIST_LIMIT } from '../ledger/ledgerApiError';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';
import { readActiveContracts } from './acsPaging';
import { readUpdateRange } from './updateRange';
import { browseEventFormat, type BrowseFilter } from './browseForms';
import { activeSetsCheaper, ChangeSet, compareActiveSets, methodReason, PROBE_FROM_OFFSETS, type ChangesMethod, type DeltaTransaction } from './ledgerChanges';

/** The largest active set compared: two sets of more would hold too much in the extension host. */
export const MAX_ACTIVE_SET = 100_000;

export type ChangesClient = Pick<LedgerClient, 'getUpdates' | 'getActiveContractsPage' | 'getActiveContracts' | 'getLedgerEnd'> &
  Partial<Pick<LedgerClient, 'getUpdatesPage'>>;

export interface ChangesReadOptions extends BrowseFilter {
  /** Exclusive. */
  from: number;
  /** Inclusive. */
  to: number;
  /** Default: chosen by the range's length against the active set's size. */
  method?: ChangesMethod;
  /** Ranges at least this long ask the active set's size first (default PROBE_FROM_OFFSETS). */
  probeFrom?: number;
  /**
   * Ledger effects: archives come as consuming exercises, with their choice, and contracts created
   * and archived in one transaction are seen; read only as updates.
   */
  ledgerEffects?: boolean;
  /** Updates per request (default 500 a page, 200 a list; smaller where the node's list limit is lower). */
  pageSize?: number;
  /** The node serves active-contracts-page and get-updates-page (3.5+). */
  paged: boolean;
  /** Read active sets over the websocket where there are no pages. */
  websocket?: boolean;
  signal?: AbortSignal;
  retries?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface ChangesProgress {
  method: ChangesMethod;
  /** Why this method, in words. */
  reason: string;
  changes: ChangeSet;
  /** The offset read up to (updates), or the phase's offset (active sets). */
  readUpTo: number;
  /** What is being read now, for the progress line. */
  phase: 'probing' | 'updates' | 'startSet' | 'endSet' | 'done';
  done: boolean;
  /** Something the person should know (a smaller page, a fallback). */
  notice?: string;
}

const offsetOf = (u: unknown): number | undefined => {
  const w = (u ?? {}) as Record<string, { value?: { offset?: unknown } } | undefined>;
  const o = (w.Transaction ?? w.Reassignment ?? w.TopologyTransaction ?? w.OffsetCheckpoint)?.value?.offset;
  return typeof o === 'number' && Number.isFinite(o) ? o : undefined;
};

/** The changes of the range; each yield is the whole set so far (new rows appended). */
export async function* readChanges(client: ChangesClient, o: ChangesReadOptions): AsyncGenerator<ChangesProgress> {
  const rangeLength = o.to - o.from;
  let method = o.method;
  let activeCount: number | undefined;
  let endSet: Map<string, CreatedEvent> | undefined;
  let notice: string | undefined;
  if (!method && o.ledgerEffects) method = 'updates';
  if (!method) {
    if (rangeLength < (o.probeFrom ?? PROBE_FROM_OFFSETS)) method = 'updates';
    else {
      // The active set at the end, read only as far as it stays cheaper than the range: when it ends
      // first it is half of the comparison already.
      yield {
        method: 'activeSets',
        reason: l10n.t('Counting the active contracts at offset {0}…', o.to),
        changes: new ChangeSet(),
        readUpTo: o.to,
        phase: 'probing',
        done: false,
      };
      const probe = await readSet(client, o, o.to, Math.min(Math.ceil(rangeLength / 2), MAX_ACTIVE_SET));
      activeCount = probe.set.size;
      notice = probe.notice;
      if (probe.complete && activeSetsCheaper(rangeLength, activeCount)) {
        method = 'activeSets';
        endSet = probe.set;
      } else method = 'updates';
    }
  }
  const reason = o.ledgerEffects
    ? l10n.t(
        'Read as the range’s updates in ledger-effects shape: each archive names its choice, and contracts created and archived in one transaction are seen.',
      )
    : methodReason(method, rangeLength, activeCount, o.method !== undefined);
  if (method === 'updates') {
    yield* byUpdates(client, o, reason, notice);
    return;
  }
  const changes = new ChangeSet();
  if (!endSet) {
    yield { method, reason, changes, readUpTo: o.to, phase: 'endSet', done: false };
    const read = await readSet(client, o, o.to, MAX_ACTIVE_SET);
    if (!read.complete) {
      yield* fallBack(client, o, read.notice ?? l10n.t('more than {0} active contracts', formatCount(MAX_ACTIVE_SET)));
      return;
    }
    endSet = read.set;
  }
  yield { method, reason, changes, readUpTo: o.from, phase: 'startSet', done: false, notice };
  const start = await readSet(client, o, o.from, MAX_ACTIVE_SET);
  if (!start.complete) {
    yield* fallBack(client, o, start.notice ?? l10n.t('more than {0} active contracts', formatCount(MAX_ACTIVE_SET)));
    return;
  }
  compareActiveSets(start.set, endSet, changes);
  yield { method, reason, changes, readUpTo: o.to, phase: 'done', done: true, notice };
}

/** An active set the node would not give whole (a 3.4 list limit): the updates instead. */
async function* fallBack(client: ChangesClient, o: ChangesReadOptions, why: string | undefined): AsyncGenerator<ChangesProgress> {
  const reason = l10n.t('Read as the range\u2019s updates: the node did not give a whole active set ({0}).', why ?? l10n.t('a list limit'));
  yield* byUpdates(client, o, reason, undefined);
}

async function readSet(
  client: ChangesClient,
  o: ChangesReadOptions,
  at: number,
  cap = Infinity,
): Promise<{ set: Map<string, CreatedEvent>; complete: boolean; notice?: string }> {
  const set = new Map<string, CreatedEvent>();
  let notice: string | undefined;
  const pages = readActiveContracts(client, {
    eventFormat: browseEventFormat(o),
    paged: o.paged,
    websocket: o.websocket,
    activeAtOffset: at,
    signal: o.signal,
    retries: o.retries,
    sleep: o.sleep,
  });
  for await (const page of pages) {
    if (page.restarted) set.clear();
    if (page.notice) notice = page.notice;
    for (const e of page.events) set.set(e.contractId, e);
    if (page.incomplete) return { set, complete: false, notice };
    if (set.size > cap) return { set, complete: false, notice };
  }
  return { set, complete: true, notice };
}

async function* byUpdates(client: ChangesClient, o: ChangesReadOptions, reason: string, firstNotice: string | undefined): AsyncGenerator<ChangesProgress> {
  const changes = new ChangeSet(o.parties);
  const transactionShape = o.ledgerEffects ? 'TRANSACTION_SHAPE_LEDGER_EFFECTS' : 'TRANSACTION_SHAPE_ACS_DELTA';
  const updateFormat: UpdateFormat = { includeTransactions: { eventFormat: browseEventFormat(o), transactionShape } };
  let notice = firstNotice;
  const batches = readUpdateRange(client, {
    beginExclusive: o.from,
    endInclusive: o.to,
    updateFormat,
    // Lists at Canton's default list limit, which a longer one passes (413) on a busy range.
    pageSize: o.pageSize ?? (o.paged ? 500 : DEFAULT_NODE_LIST_LIMIT),
    pages: o.paged,
    signal: o.signal,
    retries: o.retries,
    sleep: o.sleep,
  });
  // Done only once the node has read the range to its end: a short answer is not the end.
  for await (const b of batches) {
    for (const u of b.updates) {
      const t = (u as { Transaction?: { value?: DeltaTransaction } }).Transaction?.value;
      if (t) changes.addTransaction(t);
    }
    const done = b.readUpTo >= o.to;
    yield { method: 'updates', reason, changes, readUpTo: b.readUpTo, phase: done ? 'done' : 'updates', done, notice: b.notice ?? notice };
    notice = undefined;
    if (done) return;
  }
  yield { method: 'updates', reason, changes, readUpTo: o.to, phase: 'done', done: true, notice };
}

const recordTimeOf = (u: unknown): string | undefined => {
  const w = (u ?? {}) as {
    Transaction?: { value?: { recordTime?: unknown } };
    Reassignment?: { value?: { recordTime?: unknown } };
    OffsetCheckpoint?: { value?: { synchronizerTimes?: { recordTime?: unknown }[] } };
  };
  const t = w.Transaction?.value?.recordTime ?? w.Reassignment?.value?.recordTime ?? w.OffsetCheckpoint?.value?.synchronizerTimes?.[0]?.recordTime;
  return typeof t === 'string' ? t : undefined;
};

export interface OffsetAtTime {
  offset: number;
  /** The time is before the first update the node still has: the offset is its earliest. */
  beforeHistory?: boolean;
}

/**
 * The last offset whose update was recorded at or before `time`, found by halving the range with
 * one-element update lists (about log2 of the range's length reads). Record times grow with offsets
 * on one synchronizer; across several, the answer is the last offset seen at or before the time.
 */
export async function offsetAtTime(
  client: Pick<LedgerClient, 'getUpdates'>,
  o: BrowseFilter & { time: number; earliest: number; end: number; signal?: AbortSignal },
): Promise<OffsetAtTime> {
  const updateFormat: UpdateFormat = { includeTransactions: { eventFormat: browseEventFormat(o), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
  const firstAfter = async (offset: number) => {
    // No idle time: Canton cuts a list that names one when the next update is slow to find, and an
    // empty answer would read as "nothing after"; a bounded list without one ends at its first element.
    const list = await client.getUpdates({ beginExclusive: offset, endInclusive: o.end, updateFormat }, { limit: 1 }, { signal: o.signal });
    const u = (Array.isArray(list) ? list[0] : undefined)?.update;
    const at = offsetOf(u);
    const time = Date.parse(recordTimeOf(u) ?? '');
    return at === undefined || Number.isNaN(time) ? undefined : { at, time };
  };
  let lo = o.earliest;
  let hi = o.end;
  const first = await firstAfter(lo);
  if (!first || first.time > o.time) return { offset: lo, beforeHistory: first !== undefined };
  lo = first.at;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const next = await firstAfter(mid);
    if (next && next.time <= o.time) lo = Math.max(lo, next.at);
    else hi = mid;
  }
  return { offset: lo };
}
