// The fake node's state and update-stream routes: the ledger end, the active contracts (as a list
// with `limit` on every version, as pages from 3.5), the updates (a list that waits for new ones,
// as pages from 3.5), the pruning point. Each follows the node's stages (docs/fake-node.md); the
// data comes from GeneratedLedger, lazily. No `vscode` import.
import type { EventFormat } from './apiTypes';
import { cantonError, invalidField, json, missingField, type ErrorReply } from './cantonErrorBodies';
import { decodeToken, encodeToken, invalidAcsPageToken, invalidUpdatesPageToken, pageRequestHash, pageSizeRefusal, updatesRequestHash } from './pageTokens';
import { matchFormat, type GeneratedLedger } from './generatedLedger';
import { unknownIdentifiers } from './identifierChecks';
import { convertActiveContractsRequest, convertUpdatesRequest } from './legacyArguments';
import type { FakeVersion, LedgerQueries } from './ledgerQueries';

export interface BrowseContext {
  generated: () => GeneratedLedger;
  queries: () => LedgerQueries;
  version: () => FakeVersion;
  readRights: (user: string, format: EventFormat | undefined) => ErrorReply | undefined;
  checkEventFormat: (format: unknown, field: string) => ErrorReply | undefined;
  /** The participant's pruning point (the seeded ledger's, or the generated one's if higher). */
  prunedUpTo: () => number;
}

export interface BrowseEndpoint {
  method: 'GET' | 'POST';
  versions?: FakeVersion[];
  /** GET routes take no body: nothing to decode. */
  noBody?: boolean;
  /** The JSON layer's conversion, after decoding and before the rights (legacyArguments.ts). */
  decode?: (body: Record<string, unknown>) => ErrorReply | undefined;
  rights: (user: string, body: Record<string, unknown>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>, query: URLSearchParams) => ErrorReply | Promise<ErrorReply>;
}

const allowed = (): undefined => undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type UpdateFormatBody = { includeTransactions?: { eventFormat?: EventFormat; transactionShape?: string }; includeReassignments?: EventFormat };

/** The endpoints, by path, to spread into the node's table. */
export function browseEndpoints(ctx: BrowseContext): Record<string, BrowseEndpoint> {
  const updateRights = (user: string, b: Record<string, unknown>) => {
    const f = b.updateFormat as UpdateFormatBody | undefined;
    return ctx.readRights(user, f?.includeTransactions?.eventFormat) ?? ctx.readRights(user, f?.includeReassignments);
  };
  return {
    '/v2/state/ledger-end': { method: 'GET', noBody: true, rights: allowed, handle: () => json(200, { offset: ctx.generated().ledgerEnd() }) },
    '/v2/state/latest-pruned-offsets': {
      method: 'GET',
      noBody: true,
      rights: allowed,
      handle: () => json(200, { participantPrunedUpToInclusive: ctx.prunedUpTo(), allDivulgedContractsPrunedUpToInclusive: ctx.prunedUpTo() }),
    },
    '/v2/state/active-contracts': {
      method: 'POST',
      decode: convertActiveContractsRequest,
      rights: (user, b) => ctx.readRights(user, b.eventFormat as EventFormat | undefined),
      handle: (_u, b, q) => activeContractsList(ctx, b, q),
    },
    '/v2/state/active-contracts-page': {
      method: 'POST',
      versions: ['3.5', '3.6'],
      rights: (user, b) => ctx.readRights(user, b.eventFormat as EventFormat | undefined),
      handle: (_u, b) => activeContractsPage(ctx, b),
    },
    '/v2/updates': { method: 'POST', decode: convertUpdatesRequest, rights: updateRights, handle: (_u, b, q) => updatesList(ctx, b, q) },
    '/v2/updates/get-updates-page': { method: 'POST', versions: ['3.5', '3.6'], rights: updateRights, handle: (_u, b) => updatesPage(ctx, b) },
  };
}

/** A query parameter the node decodes as int64: a text/plain 400 when it is not one. */
function intParam(query: URLSearchParams, name: string): number | undefined | ErrorReply {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^-?\d{1,18}$/.test(raw)) return { status: 400, contentType: 'text/plain; charset=UTF-8', body: `Invalid value for: query parameter ${name}` };
  return Number(raw);
}

const isReply = (v: unknown): v is ErrorReply => typeof v === 'object' && v !== null && 'status' in v;

/** An offset after the ledger end (category 12, OUT_OF_RANGE → 400). */
export function offsetAfterLedgerEnd(what: string, offset: number, end: number): ErrorReply {
  return cantonError(400, 'OFFSET_AFTER_LEDGER_END', `${what} offset (${offset}) is after ledger end (${end})`, 12, 11);
}

/**
 * A request that reads pruned data (category 9, FAILED_PRECONDITION → 400). The earliest offset
 * is the error's metadata (`earliest_offset`), which the JSON body carries in `context`, not in
 * `resources` (`RequestValidationErrors.ParticipantPrunedDataAccessed`). The cause is the
 * reader's: `ACSReader` for active contracts, `UpdatesStreamReader` for updates.
 */
export function prunedDataAccessed(cause: string, prunedUpTo: number): ErrorReply {
  return cantonError(400, 'PARTICIPANT_PRUNED_DATA_ACCESSED', cause, 9, 9, [], null, { earliest_offset: String(prunedUpTo) });
}

/**
 * More elements than `http-list-max-elements-limit` on a list endpoint, as Canton words it
 * (`JsonApiErrors.MaximumNumberOfElements`: category 2, gRPC ABORTED, answered as 413).
 */
export function listTooLarge(limit: number): ErrorReply {
  return cantonError(
    413,
    'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
    `The number of matching elements (${limit + 1}) is greater than the node limit (${limit}).`,
    2,
    10,
  );
}

/**
 * An offset field as `ParticipantOffsetValidator` checks it: `NEGATIVE_OFFSET` below 0; an
 * optional end must be positive (`NON_POSITIVE_OFFSET`). Non-integers never get here (decoding).
 */
export function checkOffset(value: unknown, field: string, kind: 'nonNegative' | 'optionalPositive' = 'nonNegative'): ErrorReply | undefined {
  if (typeof value !== 'number') return undefined;
  if (kind === 'optionalPositive' && value <= 0)
    return cantonError(
      400,
      'NON_POSITIVE_OFFSET',
      `Offset ${value} in ${field} is not a positive integer: the offset has to be either a positive integer (>0) or not defined at all`,
      8,
      3,
    );
  if (value < 0)
    return cantonError(
      400,
      'NEGATIVE_OFFSET',
      `Offset ${value} in ${field} is a negative integer: the offset in ${field} field has to be a non-negative integer (>=0)`,
      8,
      3,
    );
  return undefined;
}

// --- Active contracts ---------------------------------------------------------------------------

interface AcsScan {
  entries: unknown[];
  next: number;
  more: boolean;
}

/** Active contracts at `activeAt` visible through `format`, from slot `start`, at most `max`. */
function scanAcs(g: GeneratedLedger, format: EventFormat, activeAt: number, start: number, max: number): AcsScan {
  const entries: unknown[] = [];
  const slots = g.slotsUpTo(activeAt);
  let i = start;
  for (; i < slots && entries.length < max; i++) {
    const meta = g.meta(i);
    if (meta.offset > activeAt || meta.archivedAt <= activeAt) continue;
    const seen = matchFormat(format, meta);
    if (!seen) continue;
    const { event, synchronizerId, workflowId } = g.createdEvent(meta, seen.witnesses, seen.blob, seen.views);
    entries.push({ workflowId, contractEntry: { JsActiveContract: { createdEvent: event, synchronizerId, reassignmentCounter: 0 } } });
  }
  let more = false;
  for (let j = i; j < slots; j++) {
    const meta = g.meta(j);
    if (meta.offset <= activeAt && meta.archivedAt > activeAt && matchFormat(format, meta)) {
      more = true;
      break;
    }
  }
  return { entries, next: i, more };
}

/** As `IndexServiceImpl.getActiveContracts`: unknown identifiers, the ledger end, then (reading) pruning. */
function checkActiveAt(ctx: BrowseContext, format: EventFormat, activeAt: number): ErrorReply | undefined {
  const unknown = unknownIdentifiers(format, ctx.generated().catalog());
  if (unknown) return unknown;
  const end = ctx.generated().ledgerEnd();
  if (activeAt > end) return offsetAfterLedgerEnd('active_at_offset', activeAt, end);
  const pruned = ctx.generated().prunedUpTo;
  if (activeAt > 0 && activeAt < pruned) return prunedDataAccessed(`Active contracts request at offset ${activeAt} precedes pruned offset ${pruned}`, pruned);
  return undefined;
}

function activeContractsList(ctx: BrowseContext, b: Record<string, unknown>, q: URLSearchParams): ErrorReply {
  const limit = intParam(q, 'limit');
  if (isReply(limit)) return limit;
  const idle = intParam(q, 'stream_idle_timeout_ms');
  if (isReply(idle)) return idle;
  if (!b.eventFormat) return missingField('event_format');
  // ApiStateService: the event format, then the offset.
  const bad = ctx.checkEventFormat(b.eventFormat, 'event_format') ?? checkOffset(b.activeAtOffset, 'active_at_offset');
  if (bad) return bad;
  const activeAt = b.activeAtOffset as number;
  const late = checkActiveAt(ctx, b.eventFormat, activeAt);
  if (late) return late;
  const g = ctx.generated();
  const capped = limit !== undefined && limit >= 0 && limit <= g.listLimit;
  const scan = scanAcs(g, b.eventFormat, activeAt, 0, capped ? limit : g.listLimit + 1);
  if (!capped && scan.entries.length > g.listLimit) return listTooLarge(g.listLimit);
  return json(200, scan.entries);
}

interface AcsToken {
  v: 1;
  a: number;
  i: number;
  /** The request's checksum: its `activeAtOffset` as given (or none) and its event format. */
  h: string;
  t: number;
}

/** ApiStateService.getActiveContractsPage: the event format, the page size, the token, then the offset. */
function activeContractsPage(ctx: BrowseContext, b: Record<string, unknown>): ErrorReply {
  const g = ctx.generated();
  const badFormat = ctx.checkEventFormat(b.eventFormat, 'event_format') ?? pageSizeRefusal(b.maxPageSize, g.maxAcsPageSize);
  if (badFormat) return badFormat;
  const format = b.eventFormat as EventFormat;
  let start = 0;
  let tokenAt: number | undefined;
  if (typeof b.pageToken === 'string' && b.pageToken !== '') {
    const token = decodeToken<AcsToken>(b.pageToken);
    if (!token || token.v !== 1) return invalidAcsPageToken('Invalid page token for GetActiveContractsPageRequest');
    // A token holds for the very request that got it: an offset added, changed or left out is another request.
    if (token.h !== pageRequestHash(b)) return invalidAcsPageToken('The page token was prepared with different event_format or active_at_offset.');
    if (Date.now() - token.t > g.pageTokenTtlMs) return invalidField('page_token', 'the page token has expired; start again without one');
    start = token.i;
    tokenAt = token.a;
  }
  const badOffset = checkOffset(b.activeAtOffset, 'active_at_offset');
  if (badOffset) return badOffset;
  const activeAt = tokenAt ?? (b.activeAtOffset as number | undefined) ?? g.ledgerEnd();
  const late = checkActiveAt(ctx, format, activeAt);
  if (late) return late;
  // Canton's `default-acs-page-size` when none is asked (StateServiceConfig.scala).
  const size = typeof b.maxPageSize === 'number' ? b.maxPageSize : Math.min(2000, g.maxAcsPageSize);
  const scan = scanAcs(g, format, activeAt, start, size);
  const out: Record<string, unknown> = { activeContracts: scan.entries, activeAtOffset: activeAt };
  if (scan.more) out.nextPageToken = encodeToken<AcsToken>({ v: 1, a: activeAt, i: scan.next, h: pageRequestHash(b), t: Date.now() });
  return json(200, out);
}

// --- Updates ------------------------------------------------------------------------------------

interface TxFormat {
  eventFormat: EventFormat;
  transactionShape: string;
}

function transactionFormatOf(b: Record<string, unknown>): TxFormat | ErrorReply {
  const f = b.updateFormat as UpdateFormatBody | undefined;
  if (!f) return missingField('update_format');
  const tf = f.includeTransactions;
  if (!tf?.eventFormat) return invalidField('update_format', 'include_transactions with an event format is required by this node');
  const shape = tf.transactionShape;
  if (shape !== 'TRANSACTION_SHAPE_ACS_DELTA' && shape !== 'TRANSACTION_SHAPE_LEDGER_EFFECTS') {
    return invalidField('update_format.include_transactions.transaction_shape', `the transaction shape must be specified, got ${String(shape)}`);
  }
  return { eventFormat: tf.eventFormat, transactionShape: shape };
}

/** The update at one offset as the reader sees it, or undefined. */
function updateAt(ctx: BrowseContext, offset: number, f: TxFormat): unknown {
  const g = ctx.generated();
  // Seeded transactions and interactive commits are the node's LedgerQueries'; the rest is generated.
  const seededId = g.seededUpdateIdAt(offset) ?? g.commitUpdateIdAt(offset);
  const t = seededId
    ? ctx.queries().transaction(seededId, f.eventFormat, f.transactionShape, ctx.version())
    : g.transactionAt(offset, f.eventFormat, f.transactionShape);
  return t ? { update: { Transaction: { value: t } } } : undefined;
}

function checkpoint(g: GeneratedLedger, offset: number): unknown {
  return { update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [{ synchronizerId: g.synchronizer, recordTime: g.recordTimeAt(offset) }] } } } };
}

/** The range as `UpdateServiceRequestValidator` then the reader check it: both ends before the ledger end, then pruning. */
function checkBegin(ctx: BrowseContext, f: TxFormat, begin: number, endInclusive?: number): ErrorReply | undefined {
  const end = ctx.generated().ledgerEnd();
  if (begin > end) return offsetAfterLedgerEnd('Begin', begin, end);
  if (endInclusive !== undefined && endInclusive > end) return offsetAfterLedgerEnd('End', endInclusive, end);
  const unknown = unknownIdentifiers(f.eventFormat, ctx.generated().catalog());
  if (unknown) return unknown;
  const pruned = ctx.generated().prunedUpTo;
  if (begin < pruned) return prunedDataAccessed(`Updates request from ${begin + 1} to ${endInclusive ?? end} precedes pruned offset ${pruned}`, pruned);
  return undefined;
}

/** A `/v2/updates` request's format and range, checked as the list and the channel both check them. */
function updatesRange(ctx: BrowseContext, b: Record<string, unknown>): ErrorReply | { f: TxFormat; begin: number; endInclusive?: number } {
  const f = transactionFormatOf(b);
  if (isReply(f)) return f;
  const bad =
    checkOffset(b.beginExclusive ?? 0, 'begin_exclusive') ??
    checkOffset(b.endInclusive, 'end_inclusive', 'optionalPositive') ??
    ctx.checkEventFormat(f.eventFormat, 'update_format.include_transactions.event_format');
  if (bad) return bad;
  const begin = (b.beginExclusive as number | undefined) ?? 0;
  const endInclusive = b.endInclusive as number | undefined;
  return checkBegin(ctx, f, begin, endInclusive) ?? { f, begin, endInclusive };
}

async function updatesList(ctx: BrowseContext, b: Record<string, unknown>, q: URLSearchParams): Promise<ErrorReply> {
  const limit = intParam(q, 'limit');
  if (isReply(limit)) return limit;
  const idleParam = intParam(q, 'stream_idle_timeout_ms');
  if (isReply(idleParam)) return idleParam;
  const r = updatesRange(ctx, b);
  if (isReply(r)) return r;
  const { f, begin, endInclusive } = r;
  const g = ctx.generated();
  const capped = limit !== undefined && limit > 0 && limit <= g.listLimit;
  const max = capped ? limit : g.listLimit + 1;
  // Canton's asList cuts the answer when no element came for the idle time, on an open-ended
  // request or on one that names stream_idle_timeout_ms (else `http-list-wait-time`), and answers
  // 200 with what came so far (Endpoints.scala).
  const idleCuts = endInclusive === undefined || idleParam !== undefined;
  const idle = Math.min(Math.max(idleParam ?? g.defaultIdleTimeoutMs, 0), 60_000);
  const out: unknown[] = [];
  let cursor = begin;
  let lastShown = begin;
  let lastElementAt = Date.now();
  // The simulated scan time since the last element (scanMsPerOffset): the idle time elapsing, deterministically.
  let scanned = 0;
  let cut = false;
  for (;;) {
    const end = Math.min(endInclusive ?? Infinity, g.ledgerEnd());
    while (cursor < end && out.length < max) {
      if (idleCuts && g.scanMsPerOffset > 0 && scanned + g.scanMsPerOffset > idle) {
        cut = true;
        break;
      }
      cursor++;
      scanned += g.scanMsPerOffset;
      const u = updateAt(ctx, cursor, f);
      if (u) {
        out.push(u);
        lastShown = cursor;
        lastElementAt = Date.now();
        scanned = 0;
      }
    }
    if (cut || out.length >= max || (endInclusive !== undefined && cursor >= endInclusive)) break;
    if (idleCuts && Date.now() - lastElementAt >= idle) break;
    await sleep(Math.min(10, Math.max(idle, 1)));
  }
  if (!capped && out.length > g.listLimit) return listTooLarge(g.listLimit);
  // Offsets passed without a visible update: a checkpoint moves the reader past them (not on a cut,
  // whose scan stopped somewhere the reader is not told).
  if (!cut && cursor > lastShown && out.length < max) out.push(checkpoint(g, cursor));
  return json(200, out);
}

interface UpdatesToken {
  v: 1;
  b: number;
  /** The request's end; none: the ledger end when the next page is asked. */
  e?: number;
  h: string;
}

/**
 * Canton's page (IndexServiceImpl.scala buildAscendingPage): a full page ends just before the next
 * update; a last page ends at the range's end (the ledger end when none was given), and has a token
 * only when no end was given, so a page with no end always has one.
 */
function updatesPage(ctx: BrowseContext, b: Record<string, unknown>): ErrorReply {
  // UpdateServiceRequestValidator.validateUpdatesPageRequest: the token, the offsets, the page size, then the format.
  const g = ctx.generated();
  let token: UpdatesToken | undefined;
  if (typeof b.pageToken === 'string' && b.pageToken !== '') {
    token = decodeToken<UpdatesToken>(b.pageToken);
    if (!token || token.v !== 1) return invalidUpdatesPageToken('Next page token was generated by a different Canton version');
    if (token.h !== updatesRequestHash(b)) return invalidUpdatesPageToken('Next page token was obtained with different request parameters');
  }
  const badBounds =
    checkOffset(b.endOffsetInclusive, 'endOffsetInclusive', 'optionalPositive') ??
    checkOffset(b.beginOffsetExclusive, 'beginOffsetExclusive') ??
    pageSizeRefusal(b.maxPageSize, g.maxUpdatesPageSize);
  if (badBounds) return badBounds;
  const f = transactionFormatOf(b);
  if (isReply(f)) return f;
  const bad = ctx.checkEventFormat(f.eventFormat, 'update_format.include_transactions.event_format');
  if (bad) return bad;
  if (b.descendingOrder === true) return invalidField('descending_order', 'this node serves ascending pages only');
  let begin = (b.beginOffsetExclusive as number | undefined) ?? 0;
  let endGiven = b.endOffsetInclusive as number | undefined;
  if (token) {
    begin = token.b;
    endGiven = token.e;
  }
  const end = endGiven ?? g.ledgerEnd();
  const late = checkBegin(ctx, f, begin, end);
  if (late) return late;
  // Canton's `default-updates-page-size` when none is asked (UpdateServiceConfig.scala).
  const max = typeof b.maxPageSize === 'number' ? b.maxPageSize : Math.min(100, g.maxUpdatesPageSize);
  const updates: unknown[] = [];
  let cursor = begin;
  let next: number | undefined;
  while (cursor < end && next === undefined) {
    cursor++;
    const u = updateAt(ctx, cursor, f);
    if (!u) continue;
    if (updates.length < max) updates.push(u);
    else next = cursor;
  }
  const highest = next !== undefined ? next - 1 : Math.max(end, begin);
  const out: Record<string, unknown> = { updates, lowestPageOffsetExclusive: begin, highestPageOffsetInclusive: highest };
  if (next !== undefined || endGiven === undefined) out.nextPageToken = encodeToken<UpdatesToken>({ v: 1, b: highest, e: endGiven, h: updatesRequestHash(b) });
  return json(200, out);
}

// --- The websocket channels' streams --------------------------------------------------------------

/**
 * The active contracts at `activeAtOffset` as a stream (the websocket channel): the same checks as
 * the list, no list limit; chunks of elements, in the order the list gives them.
 */
export function activeContractsStream(ctx: BrowseContext, b: Record<string, unknown>): ErrorReply | Iterable<unknown[]> {
  const bad = ctx.checkEventFormat(b.eventFormat, 'event_format') ?? checkOffset(b.activeAtOffset, 'active_at_offset');
  if (bad) return bad;
  const activeAt = (b.activeAtOffset as number | undefined) ?? 0;
  const format = b.eventFormat as EventFormat;
  const late = checkActiveAt(ctx, format, activeAt);
  if (late) return late;
  const g = ctx.generated();
  return (function* () {
    let start = 0;
    for (;;) {
      const scan = scanAcs(g, format, activeAt, start, 1000);
      if (scan.entries.length > 0) yield scan.entries;
      if (!scan.more) return;
      start = scan.next;
    }
  })();
}

/**
 * The updates after `beginExclusive` as a stream that follows the ledger (up to `endInclusive`
 * when given): the same checks as the list; a checkpoint when a stretch had nothing visible.
 */
export function updatesStream(ctx: BrowseContext, b: Record<string, unknown>, signal: AbortSignal): ErrorReply | AsyncIterable<unknown> {
  const r = updatesRange(ctx, b);
  if (isReply(r)) return r;
  const { f, begin, endInclusive } = r;
  const g = ctx.generated();
  return (async function* () {
    let cursor = begin;
    while (!signal.aborted) {
      const end = Math.min(endInclusive ?? Infinity, g.ledgerEnd());
      let lastShown = cursor;
      while (cursor < end && !signal.aborted) {
        cursor++;
        const u = updateAt(ctx, cursor, f);
        if (u) {
          lastShown = cursor;
          yield u;
        }
      }
      if (cursor > lastShown) yield checkpoint(g, cursor);
      if (endInclusive !== undefined && cursor >= endInclusive) return;
      await sleep(25);
    }
  })();
}
