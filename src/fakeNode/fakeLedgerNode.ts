// A loopback JSON Ledger API v2 node: the five endpoints of Canton Lens with real auth, status
// codes and error bodies (docs/ledger-api.md#errors), seeded data, a version switch and injectable faults.
// It backs the tests and the demo ledger; it has no `vscode` import.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EventFormat, GetLedgerApiVersionResponse } from '../ledger/apiTypes';
import {
  contractEventsNotFound,
  internalError,
  invalidArgument,
  invalidField,
  json,
  methodNotAllowed,
  missingField,
  noSuchRoute,
  redacted,
  undecodableBody,
  updateNotFound,
  type ErrorReply,
} from './cantonErrorBodies';
import { activeContractsStream, browseEndpoints, updatesStream, type BrowseContext } from './browseRoutes';
import { WebsocketChannels, type ChannelHost } from './websocketRoutes';
import { matchTemplate, userEndpoints } from './userRoutes';
import { buildDemoLedger, type DemoLedger, type DemoLedgerOptions, type UserRight } from './demoLedgerData';
import { judgeExecuteRequest, decodeExecuteRequest } from './executeChecks';
import { checkExternalSignatures, commitSubmission, executeAndWait, interactiveState, prepare, type CommitOptions } from './interactiveSubmissions';
import { resourcesAsSent } from './cantonErrorBodies';
import { completionResponse, completionsStream, interactiveEndpoints } from './interactiveRoutes';
import { packageEndpoints } from './packageRoutes';
import { commandCompletionsAfter, commandCompletionsRequest, commandEndpoints, type CommandContext } from './commandRoutes';
import { GeneratedLedger, type GeneratedLedgerOptions } from './generatedLedger';
import { mintHs256, type LedgerJwtClaims } from './hs256Jwt';
import { verifyLedgerJwt } from './jwksJwt';
import type { JsonWebKey } from 'node:crypto';
import { LedgerQueries, type FakeVersion, type UpdateFormatBody } from './ledgerQueries';
import { ApiSchemas, withoutNulls } from './spec/apiSchemas';

export type { FakeVersion } from './ledgerQueries';

export type Fault =
  | { type: 'latency'; ms: number }
  | { type: 'resetBeforeHeaders' }
  | { type: 'resetMidBody' }
  | { type: 'html500' }
  | { type: 'invalidJson' }
  | { type: 'plainText400'; text?: string }
  | { type: 'hugeBody'; bytes: number; declareLength?: boolean }
  | { type: 'redirect'; location: string; status?: 301 | 302 | 307 | 308 }
  | { type: 'reply'; status: number; contentType: string; body: string };

export interface FaultRule {
  fault: Fault;
  /** Only requests to this path (e.g. `/v2/version`); all when unset. */
  path?: string;
  /** How many requests it affects; unlimited when unset. */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The client's port: the same port on two requests means a kept-alive connection. */
  remotePort: number | undefined;
}

export interface FakeLedgerNodeOptions extends DemoLedgerOptions {
  version?: FakeVersion;
  port?: number;
  /** Served under this prefix, e.g. `/api/json`, like `http-ledger-api.path-prefix`. */
  pathPrefix?: string;
  /** HS256 secret of the node's auth service. */
  secret?: string;
  /** The identity provider's public keys (`jwt-jwks`): its RS256/ES256 tokens are accepted too. */
  jwks?: JsonWebKey[];
  /** Without auth (a default sandbox), any or no token works. */
  auth?: boolean;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  /**
   * Check every routed response against the version's spec and record problems in
   * `responseProblems` and `FakeLedgerNode.allResponseProblems` (tests). Defaults to on when
   * CANTON_LENS_CHECK_RESPONSES=1, as every test tier sets (test/support/specConformance.ts).
   */
  checkResponses?: boolean;
  /**
   * How many requests `requests` (and executions `executed`) keep, the oldest dropped first; 0
   * keeps none. Tests read them; the demo ledger, which runs for days, keeps none. Default 10,000.
   */
  requestLog?: number;
  /** Told of a handler that threw (the node answers 500 and stays up); stderr when unset. */
  onInternalError?: (error: unknown) => void;
  /**
   * The generated active contracts and live updates (browseRoutes.ts). Pass the `generated` of a
   * closed node to a new one on the same port: a restart that keeps offsets.
   */
  generated?: GeneratedLedgerOptions | GeneratedLedger;
  /** The advertised `partyManagement.maxPartiesPageSize` (default 10,000, as Canton's). */
  maxPartiesPageSize?: number;
  /** The advertised `userManagement.maxRightsPerUser` (default 1,000, as Canton's). */
  maxRightsPerUser?: number;
}

/** One route: its method, the versions that have it, and the stages a request passes. */
interface Endpoint {
  method: 'GET' | 'POST';
  versions?: FakeVersion[];
  /** No token needed (the version service and health checks). */
  public?: boolean;
  /** GET routes without a body: nothing to decode. */
  noBody?: boolean;
  /** Routes whose body is bytes (a DAR), not JSON: handled after the rights. */
  binary?: (user: string, bytes: Buffer, query: URLSearchParams) => ErrorReply | Promise<ErrorReply>;
  /** Decoding beyond the schema (base64, proto enums the spec leaves as strings): a text/plain 400. */
  decode?: (body: Record<string, unknown>) => ErrorReply | undefined;
  rights: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply | Promise<ErrorReply>;
}

const allowed = (): undefined => undefined;

const MAX_RECORDED_BODY = 1024 * 1024;

/** `hashingSchemeVersion` → `hashing_scheme_version`: the node names fields as in the proto. */
const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A transaction shape must be chosen: UNSPECIFIED is refused. */
function checkShape(shape: string, field: string): ErrorReply | undefined {
  return shape === 'TRANSACTION_SHAPE_ACS_DELTA' || shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS'
    ? undefined
    : invalidField(field, `the transaction shape must be specified, got ${shape}`);
}

export const VERSION_STRINGS: Record<FakeVersion, string> = { '3.4': '3.4.12', '3.5': '3.5.10', '3.6': '3.6.0-SNAPSHOT' };

export class FakeLedgerNode {
  version: FakeVersion;
  readonly ledger: DemoLedger;
  /** The generated ACS and live updates; it outlives the node (see `generated` in the options). */
  readonly generated: GeneratedLedger;
  /** The latest requests, oldest first, at most `requestLog` of them (bodies cut at 1 MB). */
  readonly requests: RecordedRequest[] = [];
  readonly executed: { party: string; body: Record<string, unknown>; user: string }[] = [];
  private readonly requestLog: number;
  /** With `checkResponses`: each response the spec does not allow, as "METHOD path: problem". */
  readonly responseProblems: string[] = [];
  /** The same, over every node of this process: a test run asserts it stays empty. */
  static readonly allResponseProblems: string[] = [];
  private readonly checkResponses: boolean;
  private readonly queries: LedgerQueries;
  private readonly secret: string;
  private readonly auth: boolean;
  private readonly pathPrefix: string;
  private readonly server: ReturnType<typeof createServer>;
  /** The websocket channels (AsyncAPI), with their faults (refused upgrades, broken streams). */
  readonly channels: WebsocketChannels;
  private readonly browse: BrowseContext = {
    generated: () => this.generated,
    queries: () => this.queries,
    version: () => this.version,
    readRights: (user, format) => this.readRights(user, format),
    checkEventFormat: (format, field) => this.checkEventFormat(format, field),
    prunedUpTo: () => this.prunedUpTo,
  };
  private readonly commands: CommandContext = {
    ledger: () => this.ledger,
    version: () => this.version,
    queries: () => this.queries,
    catalog: () => this.generated.catalog(),
    auth: () => this.auth,
    canActAs: (user, party) => this.rights(user).some((r) => r === 'canActAsAnyParty' || (typeof r === 'object' && 'canActAs' in r && r.canActAs === party)),
    canReadAs: (user, party) => this.canReadAs(user, party),
    readsAnyParty: (user) => this.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty'),
    checkEventFormat: (format, field) => this.checkEventFormat(format, field),
    commitOptions: () => this.commitOptions(),
    ledgerEnd: () => this.generated.ledgerEnd(),
  };
  private readonly scheme: 'http' | 'https';
  private readonly sockets = new Set<Socket>();
  private faults: FaultRule[] = [];
  private port = 0;
  private readonly onInternalError: (error: unknown) => void;
  private readonly maxPartiesPageSize: number;
  private readonly maxRightsPerUser: number;
  private readonly jwks: JsonWebKey[] | undefined;

  constructor(options: FakeLedgerNodeOptions = {}) {
    this.version = options.version ?? '3.5';
    this.ledger = buildDemoLedger(options);
    this.queries = new LedgerQueries(this.ledger);
    this.generated = options.generated instanceof GeneratedLedger ? options.generated : new GeneratedLedger(options.generated);
    this.generated.attach(this.ledger);
    this.secret = options.secret ?? 'canton-lens-fake-node-secret';
    this.jwks = options.jwks;
    this.auth = options.auth ?? true;
    this.pathPrefix = (options.pathPrefix ?? '').replace(/\/$/, '');
    this.port = options.port ?? 0;
    this.requestLog = options.requestLog ?? 10_000;
    this.maxPartiesPageSize = options.maxPartiesPageSize ?? 10_000;
    this.maxRightsPerUser = options.maxRightsPerUser ?? 1000;
    this.checkResponses = options.checkResponses ?? process.env.CANTON_LENS_CHECK_RESPONSES === '1';
    this.onInternalError =
      options.onInternalError ?? ((e) => process.stderr.write(`fake ledger node: a handler failed: ${(e as Error)?.stack ?? String(e)}\n`));
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler);
    this.scheme = options.tls ? 'https' : 'http';
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.channels = new WebsocketChannels({
      pathPrefix: this.pathPrefix,
      authenticate: (header) => this.authenticate(header),
      open: (channel, user, text, signal) => this.openChannel(channel, user, text, signal),
      serves: (channel) => channel !== '/v2/commands/command-completions' || this.version !== '3.4',
      checkFrame: (channel, text) => {
        if (!this.checkResponses) return;
        const problem = this.schemas.checkChannelMessage(channel, 'frame', text);
        if (problem) this.responseProblems.push(`${this.version} websocket ${channel}: ${problem}`);
      },
    });
    this.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.channels.upgrade(req, socket, head));
  }

  /** A websocket request goes through the HTTP route's stages (schema, the JSON layer, rights), then streams. */
  private openChannel(channel: string, user: string, text: string, signal: AbortSignal): ReturnType<ChannelHost['open']> {
    const problem = this.schemas.checkChannelMessage(channel, 'request', text);
    if (problem) return undecodableBody(problem, '');
    const body = withoutNulls(JSON.parse(text)) as Record<string, unknown>;
    const endpoint = this.endpoints[channel];
    const refused = endpoint.decode?.(body) ?? endpoint.rights(user, body, new URLSearchParams(), {});
    if (refused) return refused;
    if (channel === '/v2/commands/completions') return completionsStream(() => this.ledger, this.version, this.generated.ledgerEnd(), user, body, signal);
    if (channel === '/v2/commands/command-completions') return this.commandCompletionsStream(body, signal);
    return channel === '/v2/updates' ? updatesStream(this.browse, body, signal) : activeContractsStream(this.browse, body);
  }

  /** Every user's completions for the parties, then each new one, until the client closes. */
  private commandCompletionsStream(body: Record<string, unknown>, signal: AbortSignal): ErrorReply | AsyncIterable<unknown> {
    const q = commandCompletionsRequest(this.commands, body);
    if ('status' in q) return q;
    const ledger = () => this.ledger;
    const version = this.version;
    return (async function* () {
      let begin = q.begin;
      while (!signal.aborted) {
        const found = commandCompletionsAfter(ledger(), q.parties, begin);
        for (const r of found) {
          yield completionResponse(r, version);
          begin = r.completionOffset;
        }
        if (found.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
    })();
  }

  static async start(options: FakeLedgerNodeOptions = {}): Promise<FakeLedgerNode> {
    const node = new FakeLedgerNode(options);
    await new Promise<void>((resolve, reject) => {
      node.server.once('error', reject);
      node.server.listen(node.port, '127.0.0.1', () => resolve());
    });
    node.port = (node.server.address() as AddressInfo).port;
    return node;
  }

  /** The base URL a client uses, with the path prefix. */
  get url(): string {
    return `${this.scheme}://127.0.0.1:${this.port}${this.pathPrefix}`;
  }

  /** A token for one of the node's users (alice, bob, bank, dana, reader, participant_admin). */
  mintToken(user: string, claims: Partial<LedgerJwtClaims> = {}): string {
    return mintHs256(
      {
        sub: user,
        aud: `https://daml.com/jwt/aud/participant/${this.ledger.participantId}`,
        iss: 'canton-lens-fake-idp',
        exp: Math.floor(Date.now() / 1000) + 3600,
        ...claims,
      },
      this.secret,
    );
  }

  /** Prunes the ledger up to `offset` (inclusive): updates at or below it and creates of contracts archived after it are gone. */
  prune(offset: number): void {
    this.ledger.prunedUpTo = Math.max(this.ledger.prunedUpTo, offset);
  }

  /** The participant's pruning point: the seeded ledger's, or the generated ledger's if higher. */
  get prunedUpTo(): number {
    return Math.max(this.ledger.prunedUpTo, this.generated.prunedUpTo);
  }

  injectFault(rule: FaultRule): void {
    this.faults.push({ ...rule });
  }

  clearFaults(): void {
    this.faults = [];
  }

  async close(): Promise<void> {
    this.channels.close();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Appends to a bounded record: past the limit (and a quarter more, so trimming is rare) the oldest go. */
  private keep<T>(record: T[], entry: T): void {
    if (this.requestLog <= 0) return;
    record.push(entry);
    if (record.length > this.requestLog * 1.25) record.splice(0, record.length - this.requestLog);
  }

  private takeFault(path: string): Fault | undefined {
    const i = this.faults.findIndex((r) => r.path === undefined || r.path === path);
    if (i < 0) return undefined;
    const rule = this.faults[i];
    if (rule.times !== undefined && --rule.times <= 0) this.faults.splice(i, 1);
    return rule.fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bytes = await readBody(req);
    const body = bytes.toString('utf8');
    const fullPath = (req.url ?? '/').split('?')[0];
    const path = fullPath.startsWith(`${this.pathPrefix}/`) ? fullPath.slice(this.pathPrefix.length) : fullPath;
    this.keep(this.requests, {
      method: req.method ?? '',
      path,
      headers: { ...req.headers },
      body: body.length > MAX_RECORDED_BODY ? body.slice(0, MAX_RECORDED_BODY) : body,
      remotePort: req.socket.remotePort,
    });
    let fault = this.takeFault(path);
    while (fault?.type === 'latency') {
      // Ends early when the client goes away (a timeout, a cancel, the node closing): a latency
      // nobody waits for must not keep the process (a test run) alive.
      await sleepUntilClosed(fault.ms, res);
      if (res.destroyed || req.socket.destroyed) return;
      fault = this.takeFault(path);
    }
    if (fault) return this.applyFault(fault, req, res);
    if (!fullPath.startsWith(`${this.pathPrefix}/`)) return send(res, noSuchRoute());
    let reply: ErrorReply;
    try {
      reply = await this.route(req.method ?? 'GET', path, req, body, new URLSearchParams((req.url ?? '').split('?')[1] ?? ''), bytes);
    } catch (e) {
      // A node answers an unexpected failure with 500 and stays up.
      this.onInternalError(e);
      reply = internalError();
    }
    reply = resourcesAsSent(reply, this.version);
    const route = `${req.method ?? ''} ${this.resolve(path)?.route ?? path}`;
    if (this.checkResponses && this.schemas.route(route)) {
      const problem = this.schemas.checkResponse(route, reply.status, reply.contentType, reply.body);
      if (problem) {
        this.responseProblems.push(`${this.version} ${route}: ${problem}`);
        FakeLedgerNode.allResponseProblems.push(`${this.version} ${route}: ${problem}`);
      }
    }
    send(res, reply);
  }

  /**
   * A request goes through the node's stages in its order: the route, authentication, decoding
   * of the body against the spec, the user's rights, the semantic checks, then the ledger
   * (docs/fake-node.md says where each comes from).
   */
  private route(method: string, path: string, req: IncomingMessage, text: string, query: URLSearchParams, bytes: Buffer): ErrorReply | Promise<ErrorReply> {
    const resolved = this.resolve(path);
    const endpoint = resolved && this.endpoints[resolved.route];
    if (!resolved || !endpoint || (endpoint.versions && !endpoint.versions.includes(this.version))) return noSuchRoute();
    const { params } = resolved;
    if (endpoint.method !== method) return methodNotAllowed(endpoint.method);
    if (endpoint.public) return endpoint.handle('', {}, query, params);
    const user = this.authenticate(req.headers.authorization);
    if (typeof user !== 'string') return user;
    if (endpoint.noBody) return endpoint.rights(user, {}, query, params) ?? endpoint.handle(user, {}, query, params);
    if (endpoint.binary) return endpoint.rights(user, {}, query, params) ?? endpoint.binary(user, bytes, query);
    const decoded = this.schemas.checkRequest(`${method} ${resolved.route}`, text);
    if (!decoded.ok) return undecodableBody(decoded.reason, decoded.at);
    const extra = endpoint.decode?.(decoded.body);
    if (extra) return extra;
    const denied = endpoint.rights(user, decoded.body, query, params);
    if (denied) return denied;
    // The JSON layer's conversion may have filled a field the spec lists as required (a legacy filter).
    const missing = decoded.missing.filter((f) => decoded.body[f] === undefined || decoded.body[f] === null);
    if (missing.length > 0) return missingField(snakeCase(missing[0]));
    return endpoint.handle(user, decoded.body, query, params);
  }

  /** The route a path takes: itself, or a templated route with its path parameters. */
  private resolve(path: string): { route: string; params: Record<string, string> } | undefined {
    if (this.endpoints[path]) return { route: path, params: {} };
    return matchTemplate(Object.keys(this.endpoints), path);
  }

  private get schemas(): ApiSchemas {
    return ApiSchemas.for(this.version);
  }

  /** The routes, by path: what a request must pass before its handler reads it. */
  private readonly endpoints: Record<string, Endpoint> = {
    '/v2/version': { method: 'GET', public: true, rights: allowed, handle: () => json(200, this.versionResponse()) },
    // Health checks are in the 3.5 and 3.6 specs, not in 3.4's.
    '/livez': { method: 'GET', public: true, versions: ['3.5', '3.6'], rights: allowed, handle: () => ({ status: 200, contentType: 'text/plain', body: '' }) },
    '/readyz': {
      method: 'GET',
      public: true,
      versions: ['3.5', '3.6'],
      rights: allowed,
      handle: () => ({ status: 200, contentType: 'text/plain; charset=UTF-8', body: 'OK' }),
    },
    '/v2/events/events-by-contract-id': {
      method: 'POST',
      rights: (user, b) => this.readRights(user, b.eventFormat as EventFormat | undefined),
      handle: (_user, b) => this.eventsByContractId(b),
    },
    '/v2/updates/update-by-id': {
      method: 'POST',
      rights: (user, b) => this.updateFormatRights(user, b.updateFormat as UpdateFormatBody | undefined),
      handle: (_user, b) => this.updateById(b),
    },
    '/v2/updates/update-by-offset': {
      method: 'POST',
      rights: (user, b) => this.updateFormatRights(user, b.updateFormat as UpdateFormatBody | undefined),
      handle: (_user, b) => this.updateByOffset(b),
    },
    '/v2/updates/transaction-by-id': {
      method: 'POST',
      versions: ['3.4', '3.5'],
      rights: (user, b) => {
        const parties = Array.isArray(b.requestingParties) ? (b.requestingParties as string[]) : [];
        if (parties.some((p) => !this.canReadAs(user, p))) return redacted(403);
        return this.readRights(user, (b.transactionFormat as { eventFormat?: EventFormat } | undefined)?.eventFormat);
      },
      handle: (_user, b) => this.transactionById(b),
    },
    '/v2/interactive-submission/execute': {
      method: 'POST',
      decode: (b) => decodeExecuteRequest(b),
      rights: (user, b) => {
        // MatchUserId: a userId in the request must be the token's user.
        if (this.auth && typeof b.userId === 'string' && b.userId !== '' && b.userId !== user) return redacted(403);
        const signing = ((b.partySignatures as { signatures?: { party?: string }[] } | undefined)?.signatures ?? []).map((s) => s.party ?? '');
        return signing.some((p) => !this.canExecuteAs(user, p)) ? redacted(403) : undefined;
      },
      handle: async (user, b) => (await checkExternalSignatures(this.ledger, b)) ?? this.execute(user, b),
    },
    // Completions, completion-by-hash, update-by-hash, executeAndWaitForTransaction, external parties.
    ...interactiveEndpoints({
      ledger: () => this.ledger,
      version: () => this.version,
      queries: () => this.queries,
      auth: () => this.auth,
      rights: (user) => this.rights(user),
      canReadAs: (user, party) => this.canReadAs(user, party),
      executeRights: (user, b) => this.endpoints['/v2/interactive-submission/execute'].rights(user, b, new URLSearchParams(), {}),
      updateFormatRights: (user, f) => this.updateFormatRights(user, f),
      checkUpdateFormat: (f) => this.checkUpdateFormat(f),
      checkEventFormat: (f, field) => this.checkEventFormat(f, field),
      commitOptions: () => this.commitOptions(),
      recordExecution: (party, body, user) => this.keep(this.executed, { party, body, user }),
      ledgerEnd: () => this.generated.ledgerEnd(),
    }),
    '/v2/interactive-submission/prepare': {
      method: 'POST',
      // MatchUserId, and read or execute rights for each acting and reading party.
      rights: (user, b) => {
        if (this.auth && typeof b.userId === 'string' && b.userId !== '' && b.userId !== user) return redacted(403);
        const parties = [...(Array.isArray(b.actAs) ? (b.actAs as string[]) : []), ...(Array.isArray(b.readAs) ? (b.readAs as string[]) : [])];
        return parties.some((p) => !this.canReadAs(user, p) && !this.canExecuteAs(user, p)) ? redacted(403) : undefined;
      },
      handle: (user, b) =>
        prepare(this.ledger, user, b, (p) => Object.values(this.ledger.parties).includes(p) || interactiveState(this.ledger).externalParties.has(p)),
    },
    '/v2/interactive-submission/executeAndWait': {
      method: 'POST',
      decode: (b) => decodeExecuteRequest(b),
      rights: (user, b, q, p) => this.endpoints['/v2/interactive-submission/execute'].rights(user, b, q, p),
      handle: async (user, b) => {
        const check = judgeExecuteRequest(b);
        if (check.error) return check.error;
        const refused = await checkExternalSignatures(this.ledger, b);
        if (refused) return refused;
        this.keep(this.executed, { party: check.party!, body: b, user });
        return executeAndWait(this.ledger, user, b, check.party!, this.commitOptions());
      },
    },
    // Commands with the token's own rights, and every user's completions.
    ...commandEndpoints(this.commands),
    // Ledger end, active contracts, update streams.
    ...browseEndpoints(this.browse),
    // Packages, vetting, DAR upload and validation.
    ...packageEndpoints({
      ledger: () => this.ledger,
      catalog: () => this.generated.catalog(),
      isAdmin: (user) => !this.auth || this.rights(user).includes('participantAdmin'),
      maxVettedPageSize: 100,
    }),
    // The token's user, rights, participant id, hosted parties, synchronizers.
    ...userEndpoints({
      ledger: () => this.ledger,
      version: () => this.version,
      rights: (user) => this.rights(user),
      canReadAs: (user, party) => this.canReadAs(user, party),
      maxPartiesPageSize: () => this.maxPartiesPageSize,
    }),
  };

  /** The token's user, or the node's answer to a missing, malformed, tampered or unknown token. */
  private authenticate(header: string | undefined): string | ErrorReply {
    if (!this.auth) return 'sandbox';
    if (header === undefined) return redacted(401);
    const m = /^Bearer(?: (.*))?$/i.exec(header);
    if (!m) return redacted(401, true);
    if ((m[1] ?? '').trim() === '')
      return { status: 400, contentType: 'text/plain; charset=UTF-8', body: 'Invalid value for: header Authorization (missing token)' };
    const check = verifyLedgerJwt(m[1].trim(), this.secret, this.jwks);
    if (!check.ok) return redacted(401, true);
    const claims = check.claims;
    const audOk =
      [claims.aud ?? []].flat().includes(`https://daml.com/jwt/aud/participant/${this.ledger.participantId}`) ||
      (typeof claims.scope === 'string' && claims.scope.split(' ').includes('daml_ledger_api'));
    if (!audOk) return redacted(401, true);
    if (typeof claims.sub !== 'string' || !this.ledger.users[claims.sub]) return redacted(403, true);
    // A deactivated user is denied all access to the Ledger API.
    if (this.ledger.userDetails[claims.sub]?.isDeactivated) return redacted(403);
    return claims.sub;
  }

  private versionResponse(): GetLedgerApiVersionResponse {
    return {
      version: VERSION_STRINGS[this.version],
      features: {
        experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
        userManagement: { supported: true, maxRightsPerUser: this.maxRightsPerUser, maxUsersPageSize: 1000 },
        partyManagement: { maxPartiesPageSize: this.maxPartiesPageSize },
        offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 1, nanos: 500_000_000, unknownFields: { fields: {} } } },
        packageFeature: { maxVettedPackagesPageSize: 100 },
      },
    };
  }

  private rights(user: string): UserRight[] {
    return this.auth ? (this.ledger.users[user] ?? []) : ['canActAsAnyParty'];
  }

  private canReadAs(user: string, party: string): boolean {
    return this.rights(user).some(
      (r) =>
        r === 'canReadAsAnyParty' ||
        r === 'canActAsAnyParty' ||
        (typeof r === 'object' && ('canActAs' in r ? r.canActAs : 'canReadAs' in r ? r.canReadAs : undefined) === party),
    );
  }

  private canExecuteAs(user: string, party: string): boolean {
    return this.rights(user).some(
      (r) =>
        r === 'canActAsAnyParty' ||
        r === 'canExecuteAsAnyParty' ||
        (typeof r === 'object' && ('canActAs' in r ? r.canActAs : 'canExecuteAs' in r ? r.canExecuteAs : undefined) === party),
    );
  }

  /** readAs for every `filtersByParty` party; the any-party right for `filtersForAnyParty`. */
  private readRights(user: string, format: EventFormat | undefined): ErrorReply | undefined {
    if (!format) return undefined;
    if (format.filtersForAnyParty && !this.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty')) return redacted(403);
    if (Object.keys(format.filtersByParty ?? {}).some((p) => !this.canReadAs(user, p))) return redacted(403);
    return undefined;
  }

  /** Read rights for each part of an update format; topology events of every party need the any-party right. */
  private updateFormatRights(user: string, f: UpdateFormatBody | undefined): ErrorReply | undefined {
    const denied = this.readRights(user, f?.includeTransactions?.eventFormat) ?? this.readRights(user, f?.includeReassignments);
    if (denied) return denied;
    const topology = f?.includeTopologyEvents?.includeParticipantAuthorizationEvents;
    if (!topology) return undefined;
    const parties = topology.parties ?? [];
    if (parties.length === 0) return this.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty') ? undefined : redacted(403);
    return parties.some((p) => !this.canReadAs(user, p)) ? redacted(403) : undefined;
  }

  /** The semantic checks of an update format: at least one part, each part valid. */
  private checkUpdateFormat(f: UpdateFormatBody | undefined): ErrorReply | undefined {
    if (!f) return missingField('update_format');
    if (!f.includeTransactions && !f.includeReassignments && !f.includeTopologyEvents) {
      return invalidArgument('update_format: include_transactions, include_reassignments and include_topology_events cannot all be empty');
    }
    if (f.includeTransactions) {
      const badShape = checkShape(f.includeTransactions.transactionShape, 'update_format.include_transactions.transaction_shape');
      if (badShape) return badShape;
      const bad = this.checkEventFormat(f.includeTransactions.eventFormat, 'update_format.include_transactions.event_format');
      if (bad) return bad;
    }
    return f.includeReassignments ? this.checkEventFormat(f.includeReassignments, 'update_format.include_reassignments') : undefined;
  }

  /** The semantic checks of an event format, after the rights. */
  private checkEventFormat(format: unknown, field: string): ErrorReply | undefined {
    if (typeof format !== 'object' || format === null) return missingField(field);
    const f = format as EventFormat;
    const parties = Object.keys(f.filtersByParty ?? {});
    if (parties.length === 0 && !f.filtersForAnyParty) {
      // FormatValidator.validate
      return invalidArgument('filtersByParty and filtersForAnyParty cannot be empty simultaneously');
    }
    for (const p of parties) {
      if (!/^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/.test(p) && !p.includes('::'))
        return invalidArgument(`Invalid field party: non expected character in "${p.slice(0, 64)}"`);
    }
    return undefined;
  }

  private eventsByContractId(body: Record<string, unknown>): ErrorReply {
    const contractId = body.contractId as string | undefined;
    if (!contractId) return missingField('contract_id');
    if (!/^(00[0-9a-f]{64}([0-9a-f]{2}){0,94}|01[0-9a-f]{24}([0-9a-f]{2}){0,33})$/.test(contractId)) {
      return invalidField('contract_id', `cannot parse ContractId "${contractId.slice(0, 80)}"`);
    }
    const bad = this.checkEventFormat(body.eventFormat, 'event_format');
    if (bad) return bad;
    const found = this.queries.eventsByContractId(contractId, body.eventFormat as EventFormat, this.version);
    return found ? json(200, found) : contractEventsNotFound(contractId);
  }

  private checkUpdateId(updateId: unknown): ErrorReply | undefined {
    if (!updateId) return missingField('update_id');
    if (!/^1220[0-9a-f]{64}$/.test(updateId as string))
      return invalidArgument(`Invalid field update_id: "${(updateId as string).slice(0, 80)}" is not a valid update id`);
    return undefined;
  }

  private transactionById(body: Record<string, unknown>): ErrorReply {
    const bad = this.checkUpdateId(body.updateId);
    if (bad) return bad;
    const parties = body.requestingParties as string[] | undefined;
    const format = body.transactionFormat as { eventFormat: EventFormat; transactionShape: string } | undefined;
    const hasParties = Array.isArray(parties) && parties.length > 0;
    if (hasParties === Boolean(format)) {
      return invalidArgument('Either transaction_format or requesting_parties is required, but not both');
    }
    let eventFormat: EventFormat;
    let shape = 'TRANSACTION_SHAPE_ACS_DELTA';
    if (hasParties) {
      const filtersByParty: NonNullable<EventFormat['filtersByParty']> = {};
      for (const p of parties) filtersByParty[p] = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
      eventFormat = { filtersByParty, verbose: true };
    } else {
      eventFormat = format!.eventFormat;
      shape = format!.transactionShape;
      const badShape = checkShape(shape, 'transaction_format.transaction_shape');
      if (badShape) return badShape;
    }
    const badFormat = this.checkEventFormat(eventFormat, 'transaction_format.event_format');
    if (badFormat) return badFormat;
    const t = this.queries.transaction(body.updateId as string, eventFormat, shape, this.version);
    return t ? json(200, { transaction: t }) : updateNotFound(body.updateId as string);
  }

  private updateById(body: Record<string, unknown>): ErrorReply {
    const bad = this.checkUpdateId(body.updateId) ?? this.checkUpdateFormat(body.updateFormat as UpdateFormatBody | undefined);
    if (bad) return bad;
    const update = this.queries.update(body.updateId as string, body.updateFormat as UpdateFormatBody, this.version);
    return update ? json(200, { update }) : updateNotFound(body.updateId as string);
  }

  private updateByOffset(body: Record<string, unknown>): ErrorReply {
    const offset = body.offset as number | undefined;
    if (!offset) return missingField('offset');
    if (!Number.isInteger(offset) || offset < 0) return invalidArgument(`Invalid field offset: ${offset} is not a valid absolute offset`);
    const bad = this.checkUpdateFormat(body.updateFormat as UpdateFormatBody | undefined);
    if (bad) return bad;
    const update = this.queries.updateAt(offset, body.updateFormat as UpdateFormatBody, this.version);
    return update ? json(200, { update }) : updateNotFound(String(offset));
  }

  /** execute answers at once; the submission then commits (its completion and transaction appear). */
  private async execute(user: string, body: Record<string, unknown>): Promise<ErrorReply> {
    const check = judgeExecuteRequest(body);
    if (check.error) return check.error;
    this.keep(this.executed, { party: check.party!, body, user });
    await commitSubmission(this.ledger, user, body, check.party!, this.commitOptions());
    return json(200, {});
  }

  /** Commits follow the ledger end and each other; the committed transaction joins the ledger the lookups read. */
  private commitOptions(): CommitOptions {
    return {
      nextOffset: () => this.generated.reserveCommitOffset(),
      index: (t) => {
        this.queries.addTransaction(t);
        this.generated.recordCommit(t.offset, t.updateId);
        for (const e of t.events) if (e.kind === 'exercised' && e.event.consuming) this.generated.archiveSeeded(e.event.contractId, t.offset);
      },
    };
  }

  private applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse): void {
    switch (fault.type) {
      case 'resetBeforeHeaders':
        req.socket.destroy();
        return;
      case 'resetMidBody': {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.write('{"version":"3.5.10","features":{"experimental":');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      case 'html500':
        return send(res, {
          status: 500,
          contentType: 'text/html; charset=utf-8',
          body: '<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>nginx</p></body></html>',
        });
      case 'invalidJson':
        return send(res, { status: 200, contentType: 'application/json', body: '{"version":"3.5.10","features":{"experimental":{' });
      case 'plainText400':
        return send(res, undecodableBody(fault.text ?? "expected json value got 'garbage' (line 1, column 1)"));
      case 'redirect':
        res.writeHead(fault.status ?? 307, { location: fault.location, 'content-length': '0' });
        res.end();
        return;
      case 'reply':
        return send(res, fault);
      case 'hugeBody': {
        res.writeHead(200, { 'content-type': 'application/json', ...(fault.declareLength ? { 'content-length': String(fault.bytes) } : {}) });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let left = fault.bytes;
        const pump = () => {
          while (left > 0) {
            const n = Math.min(left, chunk.length);
            left -= n;
            if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      default:
        return;
    }
  }
}

function send(res: ServerResponse, reply: ErrorReply): void {
  if (res.destroyed) return;
  res.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
  res.end(reply.body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.alloc(0)));
  });
}

/** Waits `ms`, or less if the response is closed first (its timer cleared, nothing left pending). */
function sleepUntilClosed(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}
