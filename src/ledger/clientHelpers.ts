// The client's request and response helpers: query strings, the base URL's checks, JSON bodies read
// defensively, aborts and network failures as LedgerApiErrors, and the token scrubbed from errors.
// No `vscode` import.
import { LedgerApiError, looksLikeHtml, previewBody, isLedgerApiError } from './ledgerApiError';
import * as l10n from '../l10n/l10n';

export function queryString(params: Record<string, number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined && Number.isFinite(v))
    .map(([k, v]) => `${k}=${Math.floor(v!)}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

export function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new LedgerApiError({
      kind: 'invalidRequest',
      explanation: l10n.t('"{0}" is not a URL; a node URL looks like http://localhost:7575 or https://host/api/json.', raw),
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LedgerApiError({ kind: 'invalidRequest', explanation: l10n.t('A node URL must start with http:// or https://, not {0}//.', url.protocol) });
  }
  if (url.username || url.password) {
    throw new LedgerApiError({ kind: 'invalidRequest', explanation: l10n.t('A node URL must not hold a user name or password; set a token instead.') });
  }
  url.search = '';
  url.hash = '';
  return url;
}

export function parseJsonBody<T>(contentType: string, body: string, method: string, path: string, status: number): T {
  if (looksLikeHtml(contentType, body)) {
    throw new LedgerApiError({
      kind: 'badResponse',
      method,
      path,
      status,
      bodyPreview: previewBody(body),
      explanation: l10n.t(
        'The node answered with an HTML page instead of JSON ("{0}"): is the URL the JSON Ledger API (with its path prefix), not a web page or a login proxy?',
        previewBody(body).slice(0, 80),
      ),
    });
  }
  try {
    return JSON.parse(body) as T;
  } catch (e) {
    throw new LedgerApiError({
      kind: 'badResponse',
      method,
      path,
      status,
      bodyPreview: previewBody(body),
      cause: e,
      explanation: l10n.t(
        'The node\'s answer is not valid JSON ({0}); it starts with "{1}". Try again; if it persists, check the node or a proxy in between.',
        (e as Error).message,
        previewBody(body).slice(0, 80),
      ),
    });
  }
}

export function isAbort(e: unknown): boolean {
  return isLedgerApiError(e) && (e.kind === 'cancelled' || e.kind === 'timeout');
}

export function throwIfAborted(signal: AbortSignal | undefined, method: string, path: string): void {
  if (signal?.aborted) throw abortOrNetwork(undefined, signal, method, path);
}

export function abortOrNetwork(e: unknown, signal: AbortSignal | undefined, method: string, path: string): LedgerApiError {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (isLedgerApiError(reason)) return reason;
    return new LedgerApiError({ kind: 'cancelled', method, path, explanation: l10n.t('The request was cancelled.') });
  }
  return new LedgerApiError({ kind: 'network', method, path, cause: e, explanation: l10n.t('The request failed: {0}', (e as Error)?.message ?? String(e)) });
}

const SCRUBBED = '[token]';

/** Nodes and proxies may echo headers back: make sure the token never reaches an error text. */
export function redactToken(err: LedgerApiError, token: string | undefined): LedgerApiError {
  if (!token || token.length < 8) return err;
  const texts = [err.explanation, err.bodyPreview, err.plainText, err.cantonError?.cause].join('\n');
  if (!texts.includes(token)) return err;
  const scrub = (s: string | undefined) => s?.split(token).join(SCRUBBED);
  return err.with({
    explanation: scrub(err.explanation) ?? '',
    bodyPreview: scrub(err.bodyPreview),
    plainText: scrub(err.plainText),
    cantonError: err.cantonError && { ...err.cantonError, cause: scrub(err.cantonError.cause) ?? '' },
    cause: undefined,
  });
}

/**
 * The POST endpoints that only read. Anything not named here (submit, prepare, execute, allocate,
 * upload, user and rights changes, and any endpoint added later) counts as a write.
 */
const READ_POSTS = new Set([
  '/v2/state/active-contracts',
  '/v2/state/active-contracts-page',
  '/v2/updates',
  '/v2/updates/flats',
  '/v2/updates/trees',
  '/v2/updates/get-updates-page',
  '/v2/updates/transaction-by-id',
  '/v2/updates/update-by-id',
  '/v2/updates/update-by-offset',
  '/v2/updates/update-by-hash',
  '/v2/events/events-by-contract-id',
  '/v2/commands/completions',
  '/v2/commands/completion-by-hash',
  '/v2/package-vetting/list',
]);

/** Whether a request only reads, so sending it twice changes nothing: every GET, and the POSTs above. */
export function isReadRequest(method: string, path: string): boolean {
  if (method === 'GET') return true;
  return method === 'POST' && READ_POSTS.has(path.split('?')[0]);
}
