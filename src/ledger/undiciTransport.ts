// The undici-based transport: keep-alive pools per origin, a size cap while reading, no redirects.
// Built as its own bundle (dist/http.js) and loaded on first request, not at activation.
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { Agent, ProxyAgent, WebSocket, request, type Dispatcher } from 'undici';
import { LedgerApiError, previewBody, isLedgerApiError } from './ledgerApiError';
import type { HttpRequest, HttpResponse, HttpTransport, StreamSocket, TransportOptions } from './httpTransport';
import * as l10n from '../l10n/l10n';

export function createUndiciTransport(options: TransportOptions = {}): HttpTransport {
  const keepAliveTimeout = options.keepAliveMs ?? 30_000;
  const connect = options.ca ? { ca: options.ca } : undefined;
  // An Agent keeps one pool of keep-alive connections per origin; `pipelining: 0` opens a new
  // connection per request (for a read sent again after a kept-alive one turned out closed).
  const agent = (pipelining?: number): Dispatcher =>
    options.proxyUrl
      ? new ProxyAgent({ uri: options.proxyUrl, keepAliveTimeout, pipelining, requestTls: connect, proxyTls: connect })
      : new Agent({ keepAliveTimeout, pipelining, connect });
  const dispatcher = agent();
  let fresh: Dispatcher | undefined;
  watchConnections();
  return {
    send: (req) => send(dispatcher, () => (fresh ??= agent(0)), req),
    openStream: (url, protocols, signal) => openStream(dispatcher, url, protocols, signal),
    close: async () => {
      await Promise.all([dispatcher.close(), fresh?.close()]);
    },
  };
}

/** undici's requests: the socket each went out on, and how much that socket had read then. */
const sentOn = new WeakMap<object, { socket: Socket; bytesRead: number; reused: boolean }>();
/** How many requests each socket carried. */
const requestsOn = new WeakMap<Socket, number>();
/** Errors of requests that went out on a reused connection and failed before any byte of their answer. */
const staleFailures = new WeakSet<object>();
let watching = false;

/**
 * A server (or a proxy) may close an idle kept-alive connection just as a request is written on
 * it; undici then fails that request and never sends it again. undici's diagnostics channels are
 * the only place that tells which connection a request used, so the transport can tell that
 * case from a node that resets connections (docs/ledger-api.md#connections).
 */
function watchConnections(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const { request: sent, socket } = message as { request: object; socket: Socket };
    const before = requestsOn.get(socket) ?? 0;
    requestsOn.set(socket, before + 1);
    sentOn.set(sent, { socket, bytesRead: socket.bytesRead, reused: before > 0 });
  });
  subscribe('undici:request:error', (message) => {
    const { request: failed, error } = message as { request: object; error: unknown };
    const on = sentOn.get(failed);
    if (on?.reused && on.socket.bytesRead === on.bytesRead && typeof error === 'object' && error !== null) staleFailures.add(error);
  });
}

const SOCKET_ERRORS = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** A socket error on a kept-alive connection before any byte of the answer: nothing was wrong with the request. */
function failedOnStaleConnection(e: unknown): boolean {
  return typeof e === 'object' && e !== null && staleFailures.has(e) && SOCKET_ERRORS.has((e as { code?: string }).code ?? '');
}

/**
 * undici's WebSocket on the transport's dispatcher. Frames are queued as they arrive and taken
 * one at a time; the close ends the queue. An upgrade that fails rejects (routeMissing: the
 * channel cannot be reached this way, so the caller reads over HTTP).
 */
function openStream(dispatcher: Dispatcher, url: URL, protocols: string[], signal?: AbortSignal): Promise<StreamSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { protocols, dispatcher });
    const frames: string[] = [];
    let head = 0;
    let closed: { code: number; reason: string } | undefined;
    let wake: (() => void) | undefined;
    let opened = false;
    const refused = (why: string) =>
      new LedgerApiError({
        kind: 'network',
        routeMissing: true,
        path: url.pathname,
        explanation: l10n.t('The websocket connection to {0} was refused ({1}): the node or a proxy between does not pass it.', url.pathname, why),
      });
    const onAbort = () => ws.close(1000);
    signal?.addEventListener('abort', onAbort, { once: true });
    ws.addEventListener('open', () => {
      opened = true;
      resolve(socket);
    });
    ws.addEventListener('message', (ev) => {
      frames.push(typeof ev.data === 'string' ? ev.data : '');
      wake?.();
    });
    ws.addEventListener('close', (ev) => {
      closed = { code: ev.code, reason: ev.reason };
      signal?.removeEventListener('abort', onAbort);
      if (!opened) reject(refused(ev.code === 1006 ? l10n.t('no upgrade') : String(ev.code)));
      wake?.();
    });
    const socket: StreamSocket = {
      send: (text) => ws.send(text),
      close: (code = 1000) => ws.close(code),
      next: async () => {
        while (head === frames.length && !closed) await new Promise<void>((r) => (wake = r));
        wake = undefined;
        if (head === frames.length) return { closed: closed! };
        const frame = frames[head++];
        // Taken frames are dropped in batches (shift per frame is quadratic on a long stream).
        if (head > 4096 && head * 2 > frames.length) {
          frames.splice(0, head);
          head = 0;
        }
        return { frame };
      },
    };
  });
}

function dispatch(dispatcher: Dispatcher, req: HttpRequest): Promise<Dispatcher.ResponseData> {
  return request(req.url, {
    dispatcher,
    method: req.method,
    // undici never sends a written request again; this only matters when pipelining (off).
    idempotent: req.method === 'GET',
    headers: req.headers,
    body: req.body,
    signal: req.signal,
    // undici's own timers, cheaper than an AbortSignal per request.
    headersTimeout: req.timeoutMs,
    bodyTimeout: req.timeoutMs,
  });
}

async function send(dispatcher: Dispatcher, fresh: () => Dispatcher, req: HttpRequest): Promise<HttpResponse> {
  const where = { method: req.method, path: req.url.pathname };
  let res: Dispatcher.ResponseData;
  try {
    res = await dispatch(dispatcher, req);
  } catch (e) {
    // A read that met a kept-alive connection the server was closing goes once more, on a new
    // connection. A write never does: the node may have taken it before the connection closed.
    if (!req.read || req.signal?.aborted || !failedOnStaleConnection(e)) throw transportError(e, req, where);
    try {
      res = await dispatch(fresh(), req);
    } catch (again) {
      throw transportError(again, req, where);
    }
  }
  const contentType = headerValue(res.headers['content-type']);
  const declared = Number(headerValue(res.headers['content-length']) || NaN);
  if (declared > req.maxResponseBytes) {
    res.body.destroy();
    throw tooLarge(req, where, res.statusCode, l10n.t('{0} declared', formatBytes(declared)));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > req.maxResponseBytes) {
        res.body.destroy();
        throw tooLarge(req, where, res.statusCode, l10n.t('more than {0} received', formatBytes(req.maxResponseBytes)));
      }
      chunks.push(chunk);
    }
  } catch (e) {
    if (isLedgerApiError(e)) throw e;
    if (req.signal?.aborted || isTimeout(e)) throw transportError(e, req, where);
    const partial = Buffer.concat(chunks).toString('utf8');
    throw new LedgerApiError({
      ...where,
      kind: 'badResponse',
      status: res.statusCode,
      bodyPreview: previewBody(partial),
      cause: e,
      explanation: partial
        ? l10n.t(
            'The response was cut off after {0} (the connection closed mid-body): "{1}". Try again; if it persists, check the node or a proxy in between.',
            formatBytes(size),
            previewBody(partial),
          )
        : l10n.t(
            'The response was cut off after {0} (the connection closed mid-body). Try again; if it persists, check the node or a proxy in between.',
            formatBytes(size),
          ),
    });
  }
  const bytes = Buffer.concat(chunks);
  return { status: res.statusCode, contentType, body: bytes.toString('utf8'), bytes };
}

function transportError(e: unknown, req: HttpRequest, where: { method: string; path: string }): LedgerApiError {
  if (isLedgerApiError(e)) return e;
  if (req.signal?.aborted) {
    const reason: unknown = req.signal.reason;
    if (isLedgerApiError(reason)) return reason;
    return new LedgerApiError({ ...where, kind: 'cancelled', cause: e, explanation: l10n.t('The request was cancelled.') });
  }
  if ((e as { code?: string }).code === 'UND_ERR_CONNECT_TIMEOUT') {
    // A connection that never opened timed out: a timeout (logged as one), not a network failure.
    return new LedgerApiError({
      ...where,
      kind: 'timeout',
      cause: e,
      explanation: l10n.t('Could not connect to {0} in time: check the URL, the network or a proxy.', req.url.origin),
    });
  }
  if (isTimeout(e)) {
    const s = req.timeoutMs % 1000 === 0 ? `${req.timeoutMs / 1000} s` : `${(req.timeoutMs / 1000).toFixed(1)} s`;
    return new LedgerApiError({
      ...where,
      kind: 'timeout',
      cause: e,
      explanation: l10n.t(
        'No answer from {0} within {1}: the node is slow or unreachable. Try again, or raise the timeout in the settings.',
        req.url.origin,
        s,
      ),
    });
  }
  const code = (e as { code?: string }).code ?? '';
  const origin = req.url.origin;
  const explanation = networkExplanation(code, origin, e);
  return new LedgerApiError({ ...where, kind: 'network', cause: e, explanation });
}

function networkExplanation(code: string, origin: string, e: unknown): string {
  switch (code) {
    case 'ECONNREFUSED':
      return l10n.t('Nothing is listening at {0} (connection refused): start the node or fix its URL.', origin);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return l10n.t('The host of {0} cannot be resolved: check the node URL.', origin);
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return l10n.t('The connection to {0} was reset before an answer came: try again; if it persists, check the node or a proxy in between.', origin);
    default:
      if (/certificate|self[- ]signed|SSL|TLS/i.test(`${code} ${(e as Error).message ?? ''}`)) {
        return l10n.t("The TLS certificate of {0} is not trusted ({1}): add the node's CA file to its settings.", origin, code || (e as Error).message);
      }
      return l10n.t('Could not reach {0} ({1}): check the URL and the network.', origin, code || (e as Error).message || l10n.t('network error'));
  }
}

function isTimeout(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

function tooLarge(req: HttpRequest, where: { method: string; path: string }, status: number, detail: string): LedgerApiError {
  return new LedgerApiError({
    ...where,
    kind: 'badResponse',
    status,
    explanation: l10n.t(
      'The response is larger than the {0} limit ({1}); raise the limit in the settings if you expect it.',
      formatBytes(req.maxResponseBytes),
      detail,
    ),
  });
}

function headerValue(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
