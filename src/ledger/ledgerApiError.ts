// One typed error for everything that can go wrong talking to a node, with a one-line
// explanation a person can act on. Status and body rules: docs/ledger-api.md#errors.
import type { JsCantonError } from './apiTypes';
import * as l10n from '../l10n/l10n';

export type LedgerErrorKind =
  | 'unauthenticated'
  | 'permissionDenied'
  | 'notFound'
  | 'invalidRequest'
  | 'conflict'
  | 'unavailable'
  | 'timeout'
  | 'cancelled'
  | 'network'
  | 'badResponse'
  | 'serverError';

export interface LedgerApiErrorDetails {
  kind: LedgerErrorKind;
  explanation: string;
  method?: string;
  path?: string;
  status?: number;
  cantonError?: JsCantonError;
  /** The text of a `text/plain` error body (a request the node could not decode). */
  plainText?: string;
  /** The first bytes of a body that is not what the API promises (HTML, cut-off or invalid JSON). */
  bodyPreview?: string;
  /** A 404 without a JsCantonError body: the node has no such endpoint (for example 3.6 and transaction-by-id). */
  routeMissing?: boolean;
  /** A 403 the rights explain: the user and the parties it may not read as. */
  missingRight?: { user: string; parties: string[] };
  cause?: unknown;
}

export class LedgerApiError extends Error {
  readonly kind: LedgerErrorKind;
  readonly explanation: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly cantonError?: JsCantonError;
  readonly plainText?: string;
  readonly bodyPreview?: string;
  readonly routeMissing: boolean;
  readonly missingRight?: { user: string; parties: string[] };

  constructor(details: LedgerApiErrorDetails) {
    super(details.explanation, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'LedgerApiError';
    this.kind = details.kind;
    this.explanation = details.explanation;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.cantonError = details.cantonError;
    this.plainText = details.plainText;
    this.bodyPreview = details.bodyPreview;
    this.routeMissing = details.routeMissing ?? false;
    this.missingRight = details.missingRight;
  }

  /** The Canton error code (`CONTRACT_EVENTS_NOT_FOUND`, `NA` for redacted errors), if the node sent one. */
  get code(): string | undefined {
    return this.cantonError?.code;
  }

  get correlationId(): string | undefined {
    return this.cantonError?.correlationId ?? undefined;
  }

  /** The same error with some details changed. */
  with(changes: Partial<LedgerApiErrorDetails>): LedgerApiError {
    const { kind, explanation, method, path, status, cantonError, plainText, bodyPreview, routeMissing, missingRight } = this;
    return new LedgerApiError({
      kind,
      explanation,
      method,
      path,
      status,
      cantonError,
      plainText,
      bodyPreview,
      routeMissing,
      missingRight,
      cause: this.cause,
      ...changes,
    });
  }
}

/**
 * Also true for one made by another bundle's copy of this module (the lazy bundles carry their
 * own): `instanceof` alone would not see it.
 */
export function isLedgerApiError(e: unknown): e is LedgerApiError {
  return (
    e instanceof LedgerApiError ||
    (e instanceof Error && e.name === 'LedgerApiError' && typeof (e as Partial<LedgerApiError>).explanation === 'string' && 'kind' in e)
  );
}

const PREVIEW_CHARS = 200;

/** A resource's key as Canton means it: 3.4 and 3.5 write `ErrorResource(CONTRACT_ID)`, 3.6 `CONTRACT_ID`. */
export const resourceKeyOf = (key: string) => /^ErrorResource\((.*)\)$/.exec(key)?.[1] ?? key;

/**
 * The earliest offset a pruning error names. Canton puts it in the error's metadata, which the
 * JSON body carries in `context` (`earliest_offset`); a resource of that name is read too.
 */
export function earliestOffsetOf(e: JsCantonError | undefined): number | undefined {
  if (!e) return undefined;
  const fromContext = (e.context as Record<string, unknown> | null | undefined)?.earliest_offset;
  const resource = Array.isArray(e.resources)
    ? e.resources.find((r) => Array.isArray(r) && typeof r[0] === 'string' && resourceKeyOf(r[0]) === 'earliest_offset')
    : undefined;
  for (const raw of [fromContext, resource?.[1]]) {
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    const n = Number(raw);
    if (Number.isSafeInteger(n) && n >= 0) return n;
  }
  return undefined;
}

/** Canton's default `http-list-max-elements-limit`. */
export const DEFAULT_NODE_LIST_LIMIT = 200;

/**
 * The node's list limit a 413 names: Canton answers `JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED`
 * with "The number of matching elements (201) is greater than the node limit (200)."
 */
export function nodeListLimitOf(e: LedgerApiError): number | undefined {
  const text = `${e.cantonError?.cause ?? ''} ${e.plainText ?? ''}`;
  const m = /node limit \((\d{1,9})\)/i.exec(text);
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * The largest page the node serves, where it refused a larger one: Canton's `validatePageSize`
 * answers INVALID_ARGUMENT "Requested page size must not exceed N, but got M".
 */
export function pageSizeLimitOf(e: unknown): number | undefined {
  if (!isLedgerApiError(e) || e.status !== 400) return undefined;
  const m = /must not exceed (\d{1,9})/i.exec(`${e.cantonError?.cause ?? ''} ${e.plainText ?? ''}`);
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export function scrubCredentials(text: string): string {
  return text.replace(/\b(Bearer|Basic)\s+[^\s"',;]+/gi, '$1 [token]').replace(/eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){0,2}/g, '[token]');
}

/** The first characters of a body, on one line and without credentials, for an error text. */
export function previewBody(body: string): string {
  const oneLine = scrubCredentials(body.slice(0, PREVIEW_CHARS * 4))
    .replace(/\s+/g, ' ')
    .trim();
  return oneLine.length > PREVIEW_CHARS ? `${oneLine.slice(0, PREVIEW_CHARS)}…` : oneLine;
}

/** Parses a JsCantonError body, or undefined when the body is not one. */
export function parseCantonError(body: string): JsCantonError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.code !== 'string' || typeof v.cause !== 'string') return undefined;
  return value as JsCantonError;
}

export interface HttpErrorResponse {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
}

/**
 * Turns a non-2xx response into a LedgerApiError with its explanation. `sent` says whether the
 * request carried a token: a 401 to a request without one is explained as that, and a refusal of
 * a token whose claims the node cannot accept as what to change in them.
 */
export function errorFromResponse(res: HttpErrorResponse, sent?: { token: boolean; noTokenHint?: string; refusal?: string }): LedgerApiError {
  const err = explainResponse(res);
  // The token's own claims say why: that, rather than a guess from the status.
  if (sent?.token && sent.refusal && (res.status === 401 || res.status === 403))
    return err.with({ explanation: l10n.t('The node refused the token ({0}). {1}', res.status, sent.refusal) });
  if (res.status !== 401 || !sent || sent.token) return err;
  return err.with({ explanation: l10n.t('The node requires a token (401) and none was sent. {0}', sent.noTokenHint ?? l10n.t('Set a token for this node.')) });
}

function explainResponse(res: HttpErrorResponse): LedgerApiError {
  const base = { method: res.method, path: res.path, status: res.status };
  const cantonError = isJson(res.contentType) || res.body.trimStart().startsWith('{') ? parseCantonError(res.body) : undefined;
  if (cantonError) {
    const kind = kindForStatus(res.status, cantonError);
    return new LedgerApiError({ ...base, kind, cantonError, explanation: explainCantonError(kind, res.status, cantonError, res.path) });
  }
  if (res.status === 400 && res.contentType.startsWith('text/plain')) {
    const plainText = scrubCredentials(res.body.trim());
    return new LedgerApiError({
      ...base,
      kind: 'invalidRequest',
      plainText,
      explanation: l10n.t('The node could not decode the request (400): {0}', previewBody(plainText)),
    });
  }
  if (res.status === 404) {
    return new LedgerApiError({
      ...base,
      kind: 'notFound',
      routeMissing: true,
      bodyPreview: previewBody(res.body),
      explanation: l10n.t(
        "The node has no endpoint {0} {1} (404 without a Canton error): check the node URL and its path prefix, or the node's version.",
        res.method,
        res.path,
      ),
    });
  }
  if (res.status >= 300 && res.status < 400) {
    return new LedgerApiError({
      ...base,
      kind: 'badResponse',
      bodyPreview: previewBody(res.body),
      explanation: l10n.t(
        "The node answered with a redirect ({0}); Canton Lens does not follow redirects so that a token never reaches another address: put the final URL in the node's settings.",
        res.status,
      ),
    });
  }
  const statusKind = kindForStatus(res.status, undefined);
  const html = looksLikeHtml(res.contentType, res.body);
  // An HTML page where the API promises JSON is a bad response, unless a proxy says the node is away.
  const kind =
    (html && statusKind !== 'unavailable' && statusKind !== 'timeout') || statusKind === 'invalidRequest' || statusKind === 'notFound'
      ? 'badResponse'
      : statusKind;
  const what = html
    ? l10n.t('an HTML page')
    : res.body.trim() === ''
      ? l10n.t('an empty body')
      : res.contentType
        ? l10n.t('a {0} body', res.contentType)
        : l10n.t('an untyped body');
  return new LedgerApiError({
    ...base,
    kind,
    bodyPreview: previewBody(res.body),
    explanation: `${statusSentence(statusKind, res.status)} ${
      res.body.trim()
        ? l10n.t('The node sent {0} instead of a Canton error: "{1}"', what, previewBody(res.body))
        : l10n.t('The node sent {0} instead of a Canton error.', what)
    } ${nextStep(kind)}`,
  });
}

function isJson(contentType: string): boolean {
  return /^application\/([\w.+-]*\+)?json/i.test(contentType);
}

export function looksLikeHtml(contentType: string, body: string): boolean {
  return /html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(body);
}

function kindForStatus(status: number, e: JsCantonError | undefined): LedgerErrorKind {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'permissionDenied';
  if (status === 404) return 'notFound';
  if (status === 409) return 'conflict';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 429 || status === 502 || status === 503) return 'unavailable';
  if (status === 499) return 'cancelled';
  if (status >= 400 && status < 500) return 'invalidRequest';
  if (e && e.errorCategory === 1) return 'unavailable';
  return 'serverError';
}

function statusSentence(kind: LedgerErrorKind, status: number): string {
  switch (kind) {
    case 'unauthenticated':
      return l10n.t('The node refused the token (401).');
    case 'permissionDenied':
      return l10n.t('The node denied access (403).');
    case 'unavailable':
      return l10n.t('The node is unavailable ({0}).', status);
    case 'timeout':
      return l10n.t('The node timed out ({0}).', status);
    default:
      return l10n.t('The node failed with HTTP {0}.', status);
  }
}

function nextStep(kind: LedgerErrorKind): string {
  switch (kind) {
    case 'unauthenticated':
      return l10n.t('Set a fresh token for this node.');
    case 'permissionDenied':
      return l10n.t("Check that the token's user has rights for the parties queried.");
    case 'unavailable':
    case 'timeout':
      return l10n.t('Try again in a moment.');
    default:
      return l10n.t('Check that the URL points at the JSON Ledger API, and the node logs.');
  }
}

const REDACTED_CODE = 'NA';

function explainCantonError(kind: LedgerErrorKind, status: number, e: JsCantonError, path: string): string {
  const redacted = e.code === REDACTED_CODE;
  const invalidToken = e.context?.ledger_api_error === 'invalid token';
  if (kind === 'unauthenticated') {
    return l10n.t('The node did not accept the token (401): it is missing, expired, or for another audience or scope. Set or refresh the token for this node.');
  }
  if (kind === 'permissionDenied') {
    if (invalidToken) {
      return l10n.t("The node does not know the token's user (403). Check the token's subject (sub) is a user on this participant.");
    }
    if (redacted) {
      return l10n.t("The token's user lacks the rights for this request (403): {0}", rightsHint(path));
    }
  }
  const code = redacted ? l10n.t('a redacted error') : e.code;
  const cause = redacted ? '' : `: ${e.cause}`;
  const correlation = e.correlationId ? ` ${l10n.t('(correlation id {0})', e.correlationId)}` : '';
  const label = `${kindLabel(kind)} (${status} ${code})${cause}${correlation}.`;
  return `${label} ${codeHint(e.code, kind)}`.trim();
}

function rightsHint(path: string): string {
  if (path.endsWith('/interactive-submission/execute')) {
    return l10n.t("it needs CanActAs or CanExecuteAs for the submitting party, and userId must be the token's user.");
  }
  return l10n.t(
    'reading needs CanReadAs or CanActAs for every party queried (CanReadAsAnyParty when no parties are set); ParticipantAdmin alone does not grant reads.',
  );
}

function kindLabel(kind: LedgerErrorKind): string {
  switch (kind) {
    case 'notFound':
      return l10n.t('Not found');
    case 'invalidRequest':
      return l10n.t('Invalid request');
    case 'conflict':
      return l10n.t('Conflict');
    case 'unavailable':
      return l10n.t('Node unavailable');
    case 'timeout':
      return l10n.t('Timed out on the node');
    case 'cancelled':
      return l10n.t('Cancelled on the node');
    case 'permissionDenied':
      return l10n.t('Permission denied');
    default:
      return l10n.t('Node error');
  }
}

function codeHint(code: string, kind: LedgerErrorKind): string {
  switch (code) {
    case 'CONTRACT_EVENTS_NOT_FOUND':
      return l10n.t('The contract never existed on this node, is not visible to the parties queried, or was pruned.');
    case 'UPDATE_NOT_FOUND':
      return l10n.t('The update never happened on this node, is not visible to the parties queried, or was pruned.');
    case 'MISSING_FIELD':
    case 'INVALID_FIELD':
    case 'INVALID_ARGUMENT':
      return l10n.t('Fix the request and try again.');
    case 'DUPLICATE_COMMAND':
      return l10n.t('This change was already submitted; to submit again use a new submission id.');
    default:
      break;
  }
  switch (kind) {
    case 'unavailable':
      return l10n.t('Try again in a moment.');
    case 'timeout':
      return l10n.t('The outcome is unknown; check before trying again.');
    case 'serverError':
      return l10n.t('See the node logs for the correlation id.');
    default:
      return '';
  }
}
