// A client for one node's JSON Ledger API v2. No `vscode` import: tested over real HTTP.
import type {
  AllocateExternalPartyRequest,
  AllocateExternalPartyResponse,
  CompletionStreamRequest,
  CompletionStreamResponse,
  GenerateExternalPartyTopologyRequest,
  GenerateExternalPartyTopologyResponse,
  GetCompletionByHashResponse,
  GetUpdateByHashRequest,
  JsExecuteSubmissionAndWaitForTransactionRequest,
  JsExecuteSubmissionAndWaitForTransactionResponse,
  ExecuteSubmissionAndWaitResponse,
  ExecuteSubmissionResponse,
  GetActiveContractsPageRequest,
  GetActiveContractsRequest,
  GetLatestPrunedOffsetsResponse,
  GetConnectedSynchronizersResponse,
  GetParticipantIdResponse,
  GetUserResponse,
  ListKnownPartiesResponse,
  ListUserRightsResponse,
  GetLedgerEndResponse,
  GetUpdatesPageRequest,
  GetUpdatesRequest,
  JsGetActiveContractsPageResponse,
  JsGetActiveContractsResponse,
  JsGetUpdatesPageResponse,
  JsGetUpdatesResponse,
  GetEventsByContractIdRequest,
  GetLedgerApiVersionResponse,
  GetTransactionByIdRequest,
  GetUpdateByIdRequest,
  GetUpdateByOffsetRequest,
  JsExecuteSubmissionRequest,
  JsPrepareSubmissionRequest,
  JsPrepareSubmissionResponse,
  JsGetEventsByContractIdResponse,
  JsGetTransactionResponse,
  JsGetUpdateResponse,
  JsReassignment,
  JsTopologyTransaction,
  JsTransaction,
} from './apiTypes';
import type { HttpMethod, HttpTransport } from './httpTransport';
import { LedgerApiError, errorFromResponse, previewBody, isLedgerApiError } from './ledgerApiError';
import { hasTransactionById, parseLedgerVersion } from './ledgerVersion';
import { otherUpdatesFormat, transactionByIdRequest, updateByIdRequest, type TransactionQuery } from './requestForms';
import * as l10n from '../l10n/l10n';
import { abortOrNetwork, isAbort, isReadRequest, parseBaseUrl, parseJsonBody, queryString, redactToken, throwIfAborted } from './clientHelpers';

export interface LedgerClientOptions {
  /** The JSON API base, with an optional path prefix: `https://host/api/json`. */
  baseUrl: string;
  /** The HTTP layer, or a loader for it (so the HTTP library loads on the first request). */
  transport: HttpTransport | (() => Promise<HttpTransport>);
  /** Returns the bearer token to send, or undefined for none. Called per request, so tokens can refresh. */
  getToken?: () => Promise<string | undefined>;
  /** What to do when the node wants a token and none was sent (default: set one). */
  noTokenHint?: () => string | undefined;
  /** Why the node refused (401, 403) the token sent, as the token's claims tell, if they do. */
  explainRefusal?: (token: string, path: string) => Promise<string | undefined>;
  timeoutMs?: number;
  maxResponseBytes?: number;
  userAgent?: string;
  /** Told about every request (for a log and Copy as cURL). Never given the token or headers. */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The whole URL sent to (base with its path prefix, path, query). */
  url?: string;
  /** The JSON body sent, if any (bodies never hold a token: that goes in a header). */
  body?: string;
  /** Whether a bearer token was sent (never the token). */
  authenticated?: boolean;
  status?: number;
  durationMs: number;
  correlationId?: string;
  errorKind?: string;
}

/** A request body that is not JSON: the bytes of an upload and their content type. */
export interface RawBody {
  raw: Uint8Array;
  contentType: string;
}

const isRawBody = (b: unknown): b is RawBody => typeof b === 'object' && b !== null && (b as RawBody).raw instanceof Uint8Array;

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * The token to send, resolved by the caller (who then knows which identity the answer belongs
   * to); `getToken` is not asked. Unset: `getToken` decides.
   */
  auth?: { token: string | undefined };
}

export interface TransactionLookup {
  type: 'transaction';
  transaction: JsTransaction;
  /** Which endpoint answered. */
  route: 'transaction-by-id' | 'update-by-id';
}

/** What an update id turned out to be: a transaction, a reassignment or a topology transaction. */
export type UpdateAnswer =
  | TransactionLookup
  | { type: 'reassignment'; reassignment: JsReassignment; route: 'update-by-id' }
  | { type: 'topology'; topology: JsTopologyTransaction; route: 'update-by-id' };

/** The update in an update-by-id or update-by-offset answer (a one-key wrapper), if any. */
export function updateAnswer(res: JsGetUpdateResponse | undefined): UpdateAnswer | undefined {
  const update = res?.update as Record<string, { value?: unknown }> | undefined;
  if (!update || typeof update !== 'object') return undefined;
  if (update.Transaction?.value) return { type: 'transaction', transaction: update.Transaction.value as JsTransaction, route: 'update-by-id' };
  if (update.Reassignment?.value) return { type: 'reassignment', reassignment: update.Reassignment.value as JsReassignment, route: 'update-by-id' };
  if (update.TopologyTransaction?.value)
    return { type: 'topology', topology: update.TopologyTransaction.value as JsTopologyTransaction, route: 'update-by-id' };
  return undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export class LedgerClient {
  readonly baseUrl: URL;
  private readonly options: LedgerClientOptions;
  private transport: Promise<HttpTransport> | undefined;
  /** The transport once loaded, so requests after the first skip a promise hop. */
  private loadedTransport: HttpTransport | undefined;
  private readonly urls = new Map<string, URL>();
  /** Learned from the node's version or a missing route (a changed node gets a new client). */
  private transactionByIdAvailable: boolean | undefined;
  /** The node's participant id, once any identity read it: it does not change with the token. */
  participantIdKnown: string | undefined;

  constructor(options: LedgerClientOptions) {
    this.options = options;
    this.baseUrl = parseBaseUrl(options.baseUrl);
  }

  getVersion(opts: CallOptions = {}): Promise<GetLedgerApiVersionResponse> {
    return this.call<GetLedgerApiVersionResponse>('GET', '/v2/version', undefined, opts, { authenticate: false }).then((v) => {
      if (typeof v?.version !== 'string' || typeof v.features !== 'object' || v.features === null) {
        throw this.shapeError('GET', '/v2/version', l10n.t('a version response'), v);
      }
      this.transactionByIdAvailable = hasTransactionById(parseLedgerVersion(v.version));
      return v;
    });
  }

  getEventsByContractId(request: GetEventsByContractIdRequest, opts: CallOptions = {}): Promise<JsGetEventsByContractIdResponse> {
    return this.call('POST', '/v2/events/events-by-contract-id', request, opts);
  }

  /** Deprecated in 3.4/3.5, removed in 3.6: prefer `lookupTransaction`. */
  getTransactionById(request: GetTransactionByIdRequest, opts: CallOptions = {}): Promise<JsGetTransactionResponse> {
    const forms = Number(request.requestingParties !== undefined) + Number(request.transactionFormat !== undefined);
    if (forms !== 1) {
      return Promise.reject(
        new LedgerApiError({
          kind: 'invalidRequest',
          method: 'POST',
          path: '/v2/updates/transaction-by-id',
          explanation: l10n.t('A transaction lookup needs exactly one of requestingParties or transactionFormat.'),
        }),
      );
    }
    return this.call('POST', '/v2/updates/transaction-by-id', request, opts);
  }

  getUpdateById(request: GetUpdateByIdRequest, opts: CallOptions = {}): Promise<JsGetUpdateResponse> {
    return this.call('POST', '/v2/updates/update-by-id', request, opts);
  }

  /** Sends a prepared transaction with its signatures; the answer is `{}` (the outcome comes later). */
  executeSubmission(request: JsExecuteSubmissionRequest, opts: CallOptions = {}): Promise<ExecuteSubmissionResponse> {
    return this.call('POST', '/v2/interactive-submission/execute', request, opts);
  }

  getLedgerEnd(opts: CallOptions = {}): Promise<GetLedgerEndResponse> {
    return this.call('GET', '/v2/state/ledger-end', undefined, opts);
  }

  getLatestPrunedOffsets(opts: CallOptions = {}): Promise<GetLatestPrunedOffsetsResponse> {
    return this.call('GET', '/v2/state/latest-pruned-offsets', undefined, opts);
  }

  /** GET /v2/authenticated-user: the token's user (id, primary party, deactivated). */
  getAuthenticatedUser(opts: CallOptions = {}): Promise<GetUserResponse> {
    return this.call('GET', '/v2/authenticated-user', undefined, opts);
  }

  /** GET /v2/users/{user-id}/rights: a user's rights (its own, or anyone's for a ParticipantAdmin). */
  listUserRights(userId: string, opts: CallOptions = {}): Promise<ListUserRightsResponse> {
    return this.call('GET', `/v2/users/${encodeURIComponent(userId)}/rights`, undefined, opts);
  }

  /** GET /v2/parties/participant-id. */
  async getParticipantId(opts: CallOptions = {}): Promise<GetParticipantIdResponse> {
    const answer = await this.call<GetParticipantIdResponse>('GET', '/v2/parties/participant-id', undefined, opts);
    if (answer.participantId) this.participantIdKnown = answer.participantId;
    return answer;
  }

  /** GET /v2/parties: one page of the known parties (needs ParticipantAdmin or IdentityProviderAdmin). */
  listParties(query: { pageSize?: number; pageToken?: string } = {}, opts: CallOptions = {}): Promise<ListKnownPartiesResponse> {
    const params = new URLSearchParams();
    if (query.pageSize !== undefined && Number.isFinite(query.pageSize)) params.set('pageSize', String(Math.floor(query.pageSize)));
    if (query.pageToken) params.set('pageToken', query.pageToken);
    const qs = params.toString();
    return this.call('GET', `/v2/parties${qs ? `?${qs}` : ''}`, undefined, opts);
  }

  /** GET /v2/state/connected-synchronizers, for a party the user reads as (or all, for an admin). */
  getConnectedSynchronizers(party: string | undefined, opts: CallOptions = {}): Promise<GetConnectedSynchronizersResponse> {
    return this.call('GET', `/v2/state/connected-synchronizers${party ? `?party=${encodeURIComponent(party)}` : ''}`, undefined, opts);
  }

  /** The active contracts as one list (every version); past the node's list limit it answers 413. */
  getActiveContracts(request: GetActiveContractsRequest, query: { limit?: number } = {}, opts: CallOptions = {}): Promise<JsGetActiveContractsResponse[]> {
    return this.call('POST', '/v2/state/active-contracts' + queryString({ limit: query.limit }), request, opts);
  }

  /** A page of the active contracts (Canton 3.5+). */
  getActiveContractsPage(request: GetActiveContractsPageRequest, opts: CallOptions = {}): Promise<JsGetActiveContractsPageResponse> {
    return this.call('POST', '/v2/state/active-contracts-page', request, opts);
  }

  /** Updates after `beginExclusive` as a list; the node waits up to the idle timeout for new ones. */
  getUpdates(
    request: GetUpdatesRequest,
    query: { limit?: number; streamIdleTimeoutMs?: number } = {},
    opts: CallOptions = {},
  ): Promise<JsGetUpdatesResponse[]> {
    return this.call('POST', '/v2/updates' + queryString({ limit: query.limit, stream_idle_timeout_ms: query.streamIdleTimeoutMs }), request, opts);
  }

  /** A page of updates (Canton 3.5+). */
  getUpdatesPage(request: GetUpdatesPageRequest, opts: CallOptions = {}): Promise<JsGetUpdatesPageResponse> {
    return this.call('POST', '/v2/updates/get-updates-page', request, opts);
  }

  /** Executes and waits for the outcome: the update id and completion offset of the committed transaction. One POST, never retried. */
  executeSubmissionAndWait(request: JsExecuteSubmissionRequest, opts: CallOptions = {}): Promise<ExecuteSubmissionAndWaitResponse> {
    return this.call('POST', '/v2/interactive-submission/executeAndWait', request, opts);
  }

  /** Executes and waits for the committed transaction (every version of the spec). One POST, never retried. */
  executeSubmissionAndWaitForTransaction(
    request: JsExecuteSubmissionAndWaitForTransactionRequest,
    opts: CallOptions = {},
  ): Promise<JsExecuteSubmissionAndWaitForTransactionResponse> {
    return this.call('POST', '/v2/interactive-submission/executeAndWaitForTransaction', request, opts);
  }

  /** The user's completions for parties after an offset; the node waits up to the idle timeout for new ones. A read. */
  getCompletions(
    request: CompletionStreamRequest,
    query: { limit?: number; streamIdleTimeoutMs?: number } = {},
    opts: CallOptions = {},
  ): Promise<CompletionStreamResponse[]> {
    return this.call(
      'POST',
      '/v2/commands/completions' + queryString({ limit: query.limit, stream_idle_timeout_ms: query.streamIdleTimeoutMs }),
      request,
      opts,
    );
  }

  /** Canton 3.6: the completion of a prepared transaction by its hash (base64). A read. */
  getCompletionByHash(transactionHash: string, opts: CallOptions = {}): Promise<GetCompletionByHashResponse> {
    return this.call('POST', '/v2/commands/completion-by-hash', { transactionHash }, opts);
  }

  /** Canton 3.6: the update of a prepared transaction by its hash (base64). A read. */
  getUpdateByHash(request: GetUpdateByHashRequest, opts: CallOptions = {}): Promise<JsGetUpdateResponse> {
    return this.call('POST', '/v2/updates/update-by-hash', request, opts);
  }

  /** The onboarding transactions of an external party for a public key, and the multi-hash to sign. Writes nothing. */
  generateExternalPartyTopology(request: GenerateExternalPartyTopologyRequest, opts: CallOptions = {}): Promise<GenerateExternalPartyTopologyResponse> {
    return this.call('POST', '/v2/parties/external/generate-topology', request, opts);
  }

  /** Allocates an external party with its signed onboarding transactions. One POST, never retried. */
  allocateExternalParty(request: AllocateExternalPartyRequest, opts: CallOptions = {}): Promise<AllocateExternalPartyResponse> {
    return this.call('POST', '/v2/parties/external/allocate', request, opts);
  }

  /** Prepares commands for external signing: the prepared transaction and its hash. Nothing is submitted. */
  prepareSubmission(request: JsPrepareSubmissionRequest, opts: CallOptions = {}): Promise<JsPrepareSubmissionResponse> {
    return this.call('POST', '/v2/interactive-submission/prepare', request, opts);
  }

  /** POST /v2/updates/update-by-offset (every version): the update at an offset, for lineage. */
  getUpdateByOffset(request: GetUpdateByOffsetRequest, opts: CallOptions = {}): Promise<JsGetUpdateResponse> {
    return this.call('POST', '/v2/updates/update-by-offset', request, opts);
  }

  /** A transaction by update id, or a not-found error when the update is of another kind. */
  async lookupTransaction(updateId: string, query: TransactionQuery, opts: CallOptions = {}): Promise<TransactionLookup> {
    const found = await this.lookupUpdate(updateId, query, opts);
    if (found.type !== 'transaction') {
      throw new LedgerApiError({
        kind: 'notFound',
        method: 'POST',
        path: '/v2/updates/update-by-id',
        status: 200,
        explanation: l10n.t('Update {0} is a {1}, not a transaction.', updateId, found.type),
      });
    }
    return found;
  }

  /**
   * An update by id on any node: a transaction through transaction-by-id where the node has it
   * (3.4, 3.5), else update-by-id (3.6+, or the route turns out to be missing). An id that is not a
   * transaction there is asked once more through update-by-id for reassignments and topology
   * events; on update-by-id nodes all kinds are asked in one request.
   */
  async lookupUpdate(updateId: string, query: TransactionQuery, opts: CallOptions = {}): Promise<UpdateAnswer> {
    if (this.transactionByIdAvailable === undefined) {
      try {
        await this.getVersion(opts);
      } catch (e) {
        if (isAbort(e)) throw e;
        // The version endpoint is not essential here: try the old route and fall back.
      }
    }
    if (this.transactionByIdAvailable !== false) {
      try {
        const res = await this.getTransactionById(transactionByIdRequest(updateId, query), opts);
        if (typeof res?.transaction !== 'object' || res.transaction === null) {
          throw this.shapeError('POST', '/v2/updates/transaction-by-id', l10n.t('a transaction response'), res);
        }
        return { type: 'transaction', transaction: res.transaction, route: 'transaction-by-id' };
      } catch (e) {
        if (isLedgerApiError(e) && e.code === 'UPDATE_NOT_FOUND') {
          // Only "not found" again means it is none of the other kinds either; any other failure is told.
          const other = await this.otherUpdate(updateId, query, { ...opts }).catch((again: unknown) => {
            if (isLedgerApiError(again) && again.kind === 'notFound' && !again.routeMissing) return undefined;
            throw again;
          });
          if (other) return other;
          throw e;
        }
        if (!(isLedgerApiError(e) && e.routeMissing)) throw e;
        this.transactionByIdAvailable = false;
      }
    }
    const request = updateByIdRequest(updateId, query);
    request.updateFormat = { ...request.updateFormat, ...otherUpdatesFormat(query) };
    const res = await this.getUpdateById(request, opts);
    const answer = updateAnswer(res);
    if (!answer) {
      throw new LedgerApiError({
        kind: 'notFound',
        method: 'POST',
        path: '/v2/updates/update-by-id',
        status: 200,
        explanation: l10n.t('The node returned no update for {0}.', updateId),
      });
    }
    return answer;
  }

  /** update-by-id for the kinds transaction-by-id cannot return; undefined when it is none of them. */
  private async otherUpdate(updateId: string, query: TransactionQuery, opts: CallOptions): Promise<UpdateAnswer | undefined> {
    const res = await this.getUpdateById({ updateId, updateFormat: otherUpdatesFormat(query) }, opts);
    const answer = updateAnswer(res);
    return answer && answer.type !== 'transaction' ? answer : undefined;
  }

  async close(): Promise<void> {
    const t = this.transport;
    this.transport = undefined;
    this.loadedTransport = undefined;
    if (t) await (await t).close();
  }

  private loadTransport(): Promise<HttpTransport> {
    if (!this.transport) {
      const t = this.options.transport;
      this.transport = typeof t === 'function' ? t() : Promise.resolve(t);
      this.transport.then(
        (loaded) => (this.loadedTransport = loaded),
        () => (this.transport = undefined),
      );
    }
    return this.transport;
  }

  /**
   * A request to an endpoint this class has no method for (packageRequests.ts and the like): the
   * same token, errors, log and limits as every other call.
   */
  request<T>(method: HttpMethod, path: string, body: unknown, opts: CallOptions = {}): Promise<T> {
    return this.call<T>(method, path, body, opts);
  }

  /** A GET whose answer is bytes (`application/octet-stream`), such as a package's archive. */
  requestBytes(path: string, opts: CallOptions = {}): Promise<Buffer> {
    return this.call<Buffer>('GET', path, undefined, opts, { binary: true });
  }

  /** What a websocket channel needs (ledgerChannels.ts): the transport and the token to send. */
  async channelContext(opts: CallOptions = {}): Promise<{ transport: HttpTransport; token: string | undefined }> {
    const token = opts.auth ? opts.auth.token : await this.options.getToken?.();
    return { transport: this.loadedTransport ?? (await this.loadTransport()), token };
  }

  private async call<T>(method: HttpMethod, path: string, body: unknown, opts: CallOptions, { authenticate = true, binary = false } = {}): Promise<T> {
    const started = performance.now();
    let url = this.urls.get(path);
    if (!url) this.urls.set(path, (url = new URL(this.baseUrl.pathname.replace(/\/$/, '') + path, this.baseUrl)));
    const headers: Record<string, string> = {
      accept: binary ? 'application/octet-stream' : 'application/json',
      'user-agent': this.options.userAgent ?? 'canton-lens',
    };
    const raw = isRawBody(body) ? body : undefined;
    if (body !== undefined) headers['content-type'] = raw ? raw.contentType : 'application/json';
    const signal = opts.signal;
    let token: string | undefined;
    let status: number | undefined;
    let correlationId: string | undefined;
    let errorKind: string | undefined;
    const sentBody = raw ? raw.raw : body === undefined ? undefined : JSON.stringify(body);
    try {
      throwIfAborted(signal, method, path);
      if (authenticate) {
        token = opts.auth ? opts.auth.token : await this.options.getToken?.();
        if (token) headers.authorization = `Bearer ${token}`;
      }
      const transport = this.loadedTransport ?? (await this.loadTransport());
      throwIfAborted(signal, method, path);
      const res = await transport.send({
        method,
        url,
        headers,
        body: sentBody,
        signal,
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxResponseBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        read: isReadRequest(method, path),
      });
      status = res.status;
      if (res.status < 200 || res.status >= 300) {
        const refusal =
          token && (res.status === 401 || res.status === 403) ? await this.options.explainRefusal?.(token, path).catch(() => undefined) : undefined;
        const sent = authenticate ? { token: Boolean(token), noTokenHint: this.options.noTokenHint?.(), refusal } : undefined;
        const err = errorFromResponse({ method, path, status: res.status, contentType: res.contentType, body: res.body }, sent);
        correlationId = err.correlationId;
        throw err;
      }
      if (binary) {
        if (!res.bytes || !res.contentType.startsWith('application/octet-stream')) throw this.shapeError(method, path, 'bytes', res.body.slice(0, 200));
        return res.bytes as T;
      }
      // An answer without content (a DAR validated): nothing to parse.
      if (res.body === '' && raw) return undefined as T;
      return parseJsonBody<T>(res.contentType, res.body, method, path, res.status);
    } catch (e) {
      const err = isLedgerApiError(e) ? e : abortOrNetwork(e, signal, method, path);
      errorKind = err.kind;
      throw redactToken(err, token);
    } finally {
      this.options.onRequest?.({
        method,
        path,
        url: url.toString(),
        body: raw ? `[${raw.raw.byteLength} bytes of ${raw.contentType}]` : (sentBody as string | undefined),
        authenticated: Boolean(token),
        status,
        durationMs: performance.now() - started,
        correlationId,
        errorKind,
      });
    }
  }

  private shapeError(method: string, path: string, expected: string, value: unknown): LedgerApiError {
    const text = previewBody(JSON.stringify(value) ?? String(value));
    return new LedgerApiError({
      kind: 'badResponse',
      method,
      path,
      status: 200,
      bodyPreview: text,
      explanation: l10n.t('The node\'s answer is not {0}: "{1}". Is the URL a Canton JSON Ledger API v2?', expected, text),
    });
  }
}

/** `?limit=10&…` from the defined integer parameters (never a token: that goes in a header). */
