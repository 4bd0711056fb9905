// Reads a node's active contracts page by page: `active-contracts-page` where the node has it
// (Canton 3.5+), else the websocket channel where it is asked for (no list limit), else one
// `active-contracts` list with `limit` at the ledger end (3.4 behind a proxy). Survives
// a dropped connection or a node restart mid-page (the same page is asked again), an expired page
// token (starts again, and says so), and a list the node refuses as too large (413: a smaller
// limit, and says so). No `vscode` import.
import type { CreatedEvent, EventFormat, JsGetActiveContractsResponse } from '../ledger/apiTypes';
import { DEFAULT_NODE_LIST_LIMIT, isLedgerApiError, nodeListLimitOf, pageSizeLimitOf } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import { streamChannel } from '../ledger/ledgerChannels';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';

export type AcsClient = Pick<LedgerClient, 'getActiveContractsPage' | 'getActiveContracts' | 'getLedgerEnd'>;

export interface AcsPage {
  activeAtOffset: number;
  events: CreatedEvent[];
  /** Everything read so far is void: the reading started again (an expired page token). */
  restarted?: boolean;
  /** Something the person should know (a list limit, a restart). */
  notice?: string;
  /** The last page. */
  done: boolean;
  /** The read stopped at a limit with contracts left unread: what was read is not all there is. */
  incomplete?: boolean;
}

export interface AcsReadOptions {
  eventFormat: EventFormat;
  /** Use active-contracts-page (the node's version has it, or is not known yet). Falls back when the route is missing. */
  paged: boolean;
  /**
   * Where the node has no paged endpoint (3.4), read the websocket channel first: it has no list
   * limit, so the whole set is read. Where the upgrade is refused (a proxy), the HTTP list, and the
   * first page says so. A node that pages is read in pages even so: the next page is asked only when
   * the last was taken, while a websocket stream cannot be paused from undici's client and buffers
   * whatever the reader has not taken yet (100,000 contracts: 180 MB more in the extension host).
   */
  websocket?: boolean;
  /** Contracts per page (the node may serve fewer). */
  pageSize?: number;
  /** The set as it was at this offset (default: the ledger end). */
  activeAtOffset?: number;
  /** At most this many contracts on a node without pages (default 100,000). */
  listLimit?: number;
  signal?: AbortSignal;
  /** Attempts per page when the connection fails or the node is unavailable (default 5). */
  retries?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const RETRYABLE = new Set(['network', 'timeout', 'unavailable', 'badResponse', 'serverError']);

/** A failure worth asking again for: the connection, a restarting node, a 5xx. */
export function isTransient(e: unknown): boolean {
  if (!isLedgerApiError(e)) return true;
  if (e.kind === 'cancelled') return false;
  if (e.status !== undefined && e.status >= 500) return true;
  return RETRYABLE.has(e.kind);
}

export const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', done);
      resolve();
    }, ms);
    const done = () => {
      clearTimeout(t);
      resolve();
    };
    signal?.addEventListener('abort', done, { once: true });
  });

export async function withRetries<T>(o: Pick<AcsReadOptions, 'retries' | 'sleep' | 'signal'>, fn: () => Promise<T>): Promise<T> {
  const attempts = o.retries ?? 5;
  const sleep = o.sleep ?? abortableSleep;
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (o.signal?.aborted || i >= attempts || !isTransient(e)) throw e;
      await sleep(Math.min(4000, 200 * 2 ** (i - 1)), o.signal);
      if (o.signal?.aborted) throw e;
    }
  }
}

const eventsOf = (list: JsGetActiveContractsResponse[] | undefined): CreatedEvent[] => {
  const out: CreatedEvent[] = [];
  for (const r of list ?? []) {
    const entry = r.contractEntry as { JsActiveContract?: { createdEvent?: CreatedEvent } } | undefined;
    const e = entry?.JsActiveContract?.createdEvent;
    if (e && typeof e.contractId === 'string') out.push(e);
  }
  return out;
};

/** A client that opens websocket channels (duck-typed: a client made by another bundle is another class). */
const isChannelClient = (c: AcsClient): c is AcsClient & LedgerClient => typeof (c as Partial<LedgerClient>).channelContext === 'function';

const isPageTokenRefusal = (e: unknown) =>
  isLedgerApiError(e) && e.status === 400 && /page[_ ]?token/i.test(`${e.cantonError?.cause ?? ''} ${e.plainText ?? ''}`);

/**
 * Yields the active contracts page by page; the caller shows each page as it arrives. The order:
 * pages where the node may have them (a version not yet known counts as one that may), then the
 * websocket channel, and the HTTP list only where the upgrade is refused: a 3.4 node whose version
 * was not known yet is read on the channel too, never stopped at its list limit.
 */
export async function* readActiveContracts(client: AcsClient, o: AcsReadOptions): AsyncGenerator<AcsPage> {
  if (o.paged) {
    let yielded = false;
    try {
      for await (const page of readPages(client, o)) {
        yielded = true;
        yield page;
      }
      return;
    } catch (e) {
      if (yielded || !(isLedgerApiError(e) && e.routeMissing)) throw e;
      // An older node after all (3.4): the channel, else the list.
    }
  }
  let fallback: string | undefined;
  // Duck-typed: a client made by another bundle is another class.
  if (o.websocket && isChannelClient(client)) {
    let yielded = false;
    try {
      for await (const page of readStream(client, o)) {
        yielded = true;
        yield page;
      }
      return;
    } catch (e) {
      if (yielded || !(isLedgerApiError(e) && e.routeMissing)) throw e;
      fallback = l10n.t('{0} Reading over HTTP instead.', e.explanation);
    }
  }
  let first = true;
  for await (const page of readList(client, o)) {
    if (first && fallback) page.notice = page.notice ? `${fallback} ${page.notice}` : fallback;
    first = false;
    yield page;
  }
}

/**
 * The websocket channel at the ledger end: pages of `pageSize` as frames arrive. A stream that
 * breaks is opened again at the same offset and the elements already given are skipped (the node
 * sends the active contracts of one offset in one order), so nothing is lost or repeated.
 */
async function* readStream(client: LedgerClient, o: AcsReadOptions): AsyncGenerator<AcsPage> {
  const activeAtOffset = o.activeAtOffset ?? (await withRetries(o, () => client.getLedgerEnd({ signal: o.signal }))).offset ?? 0;
  const pageSize = o.pageSize ?? 1000;
  const attempts = o.retries ?? 5;
  const sleep = o.sleep ?? abortableSleep;
  let delivered = 0;
  for (let attempt = 1; ; attempt++) {
    let seen = 0;
    let batch: CreatedEvent[] = [];
    try {
      const request = { activeAtOffset, eventFormat: o.eventFormat };
      for await (const r of streamChannel<JsGetActiveContractsResponse>(client, '/v2/state/active-contracts', request, { signal: o.signal })) {
        if (++seen <= delivered) continue;
        delivered++;
        batch.push(...eventsOf([r]));
        if (batch.length >= pageSize) {
          yield { activeAtOffset, events: batch, done: false };
          batch = [];
        }
      }
      yield { activeAtOffset, events: batch, done: true };
      return;
    } catch (e) {
      if (batch.length > 0) yield { activeAtOffset, events: batch, done: false };
      if (o.signal?.aborted || !isTransient(e) || (isLedgerApiError(e) && e.routeMissing) || attempt >= attempts) throw e;
      await sleep(Math.min(4000, 200 * 2 ** (attempt - 1)), o.signal);
      if (o.signal?.aborted) throw e;
    }
  }
}

async function* readPages(client: AcsClient, o: AcsReadOptions): AsyncGenerator<AcsPage> {
  let token: string | undefined;
  let restarts = 0;
  let restarted = false;
  let notice: string | undefined;
  let first = true;
  let pageSize = o.pageSize ?? 1000;
  for (;;) {
    let page;
    try {
      page = await withRetries(o, () =>
        client.getActiveContractsPage(
          {
            eventFormat: o.eventFormat,
            maxPageSize: pageSize,
            pageToken: token,
            // Canton binds a token to the request that got it (AcsPageToken's checksum): the same
            // event format and the same `activeAtOffset`, absent where it was. The token holds the
            // first page's offset, so a later page is of the same set without naming it.
            ...(o.activeAtOffset !== undefined ? { activeAtOffset: o.activeAtOffset } : {}),
          },
          { signal: o.signal },
        ),
      );
    } catch (e) {
      // A node configured with smaller pages names its maximum; the page size is no part of a token.
      const limit = pageSizeLimitOf(e);
      if (limit !== undefined && limit < pageSize) {
        pageSize = limit;
        continue;
      }
      if (token && isPageTokenRefusal(e) && restarts < 2) {
        restarts++;
        token = undefined;
        restarted = !first;
        notice = l10n.t(
          'The node no longer accepted the page token (it expires after a while, or the node was reconfigured): reading again from the start at the current ledger end.',
        );
        continue;
      }
      throw e;
    }
    first = false;
    token = page.nextPageToken || undefined;
    yield { activeAtOffset: page.activeAtOffset, events: eventsOf(page.activeContracts), done: !token, restarted: restarted || undefined, notice };
    restarted = false;
    notice = undefined;
    if (!token) return;
  }
}

/**
 * One list at the ledger end. Past the node's list limit Canton answers 413 and names its limit;
 * asking again with `limit` at it returns that many without an error. So one refusal at most
 * (two when the limit is not named: Canton's default, then halves).
 */
async function* readList(client: AcsClient, o: AcsReadOptions): AsyncGenerator<AcsPage> {
  const activeAtOffset = o.activeAtOffset ?? (await withRetries(o, () => client.getLedgerEnd({ signal: o.signal }))).offset ?? 0;
  let limit = o.listLimit ?? 100_000;
  let refused = false;
  for (;;) {
    try {
      const list = await withRetries(o, () => client.getActiveContracts({ activeAtOffset, eventFormat: o.eventFormat }, { limit }, { signal: o.signal }));
      const events = eventsOf(list);
      const incomplete = events.length >= limit;
      const shown = formatCount(limit);
      const notice = !incomplete
        ? undefined
        : refused
          ? l10n.t(
              'Showing the first {0} contracts, and there are more: the node refuses lists longer than its limit (http-list-max-elements-limit, {0}) and has no paged endpoint (Canton 3.4). Filter by template to see the others.',
              shown,
            )
          : l10n.t(
              'Showing the first {0} contracts, and there are more: this node (Canton 3.4) has no paged endpoint. Filter by template to see the others.',
              shown,
            );
      yield { activeAtOffset, events, done: true, notice, incomplete };
      return;
    } catch (e) {
      if (isLedgerApiError(e) && e.status === 413 && limit > 1) {
        const named = nodeListLimitOf(e);
        const next =
          named !== undefined && named < limit ? named : limit > DEFAULT_NODE_LIST_LIMIT && !refused ? DEFAULT_NODE_LIST_LIMIT : Math.floor(limit / 2);
        refused = true;
        limit = Math.max(1, next);
        continue;
      }
      throw e;
    }
  }
}
