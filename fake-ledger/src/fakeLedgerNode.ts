// A loopback JSON Ledger API v2 node: the five endpoints of Canton Lens with real auth, status
// codes and error bodies (docs/ledger-api.md#errors), seeded data and a version switch (faults: testing.ts).
// It backs the tests and the demo ledger; it has no `vscode` import.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { GetLedgerApiVersionResponse } from './apiTypes';
import { internalError, json, methodNotAllowed, missingField, noSuchRoute, redacted, undecodableBody, type ErrorReply } from './cantonErrorBodies';
import { resourcesAsSent } from './cantonErrorBodies';
import { definitionsEndpoints } from './definitionsRoutes';
import { activeContractsStream, browseEndpoints, updatesStream, type BrowseContext } from './browseRoutes';
import { WebsocketChannels, type ChannelHost } from './websocketRoutes';
import { connectedSynchronizers, matchTemplate, userEndpoints } from './userRoutes';
import { adminEndpoints } from './adminRoutes';
import { buildDemoLedger, type DemoLedger } from './demoLedgerData';
import type { CommitOptions } from './interactiveCommits';
import { completionsStream, interactiveEndpoints } from './interactiveRoutes';
import { interactiveState } from './interactiveSubmissions';
import { packageEndpoints, servesVettingList } from './packageRoutes';
import { commandCompletionsStream, commandEndpoints, transcodePrepareCommands, type CommandContext } from './commandRoutes';
import { GeneratedLedger } from './generatedLedger';
import { mintHs256, type LedgerJwtClaims } from './hs256Jwt';
import { verifyLedgerJwt } from './jwksJwt';
import { readLedgerJwtPayload, type TokenTargets } from './ledgerJwtPayload';
import { lookupEndpoints, type LookupContext } from './lookupRoutes';
import { executeEndpoints, executeRights, type ExecuteContext } from './executeRoutes';
import { RightsAndFormats } from './rightsAndFormats';
import { readBody, send } from './httpReplies';
import type { JsonWebKey } from 'node:crypto';
import { LedgerQueries, type FakeVersion } from './ledgerQueries';
import { ApiSchemas, withoutNulls } from './spec/apiSchemas';

export type { FakeVersion } from './ledgerQueries';
export type { FakeLedgerNodeOptions, RecordedRequest } from './fakeNodeOptions';
import type { FakeLedgerNodeOptions, RecordedRequest } from './fakeNodeOptions';

/** One route: its method, the versions that have it, and the stages a request passes (keyed `PATCH /path` for a path's other methods). */
interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  versions?: FakeVersion[];
  /** Whether this node serves the route at all (a patch version that lacks it: 404). */
  served?: () => boolean;
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
  /**
   * With `checkResponses`: each body Canton Lens's own client sent (user agent `canton-lens…`) that
   * the node could not decode, over every node of this process. A test run asserts it stays empty.
   */
  static readonly productBodiesRefused: string[] = [];
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
    readRights: (user, format) => this.judge.readRights(user, format),
    checkEventFormat: (format, field) => this.judge.checkEventFormat(format, field),
    prunedUpTo: () => this.prunedUpTo,
  };
  private readonly commands: CommandContext = {
    ledger: () => this.ledger,
    version: () => this.version,
    queries: () => this.queries,
    catalog: () => this.generated.catalog(),
    auth: () => this.auth,
    canActAs: (user, party) =>
      this.judge.rights(user).some((r) => r === 'canActAsAnyParty' || (typeof r === 'object' && 'canActAs' in r && r.canActAs === party)),
    canReadAs: (user, party) => this.judge.canReadAs(user, party),
    readsAnyParty: (user) => this.judge.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty'),
    checkEventFormat: (format, field) => this.judge.checkEventFormat(format, field),
    commitOptions: () => this.commitOptions(),
    ledgerEnd: () => this.generated.ledgerEnd(),
  };
  /** Rights and format checks (set in the constructor, once the ledger and auth are known). */
  readonly judge: RightsAndFormats;
  private readonly executes: ExecuteContext = {
    ledger: () => this.ledger,
    auth: () => this.auth,
    canReadAs: (user, party) => this.judge.canReadAs(user, party),
    canExecuteAs: (user, party) => this.judge.canExecuteAs(user, party),
    commitOptions: () => this.commitOptions(),
    recordExecution: (party, body, user) => this.keep(this.executed, { party, body, user }),
    queries: () => this.queries,
    transcodePrepareCommands: (body) => transcodePrepareCommands(this.commands, body),
  };
  private readonly lookups: LookupContext = {
    queries: () => this.queries,
    version: () => this.version,
    canReadAs: (user, party) => this.judge.canReadAs(user, party),
    readRights: (user, format) => this.judge.readRights(user, format),
    updateFormatRights: (user, f) => this.judge.updateFormatRights(user, f),
    checkEventFormat: (format, field) => this.judge.checkEventFormat(format, field),
    checkUpdateFormat: (f) => this.judge.checkUpdateFormat(f),
  };
  private readonly scheme: 'http' | 'https';
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private readonly onInternalError: (error: unknown) => void;
  private readonly maxPartiesPageSize: number;
  readonly maxRightsPerUser: number;
  private readonly jwks: JsonWebKey[] | undefined;
  private readonly tokenTargets: TokenTargets;
  readonly singleSynchronizer: boolean;
  definitionsService: boolean;
  private readonly versionString: string | undefined;

  constructor(options: FakeLedgerNodeOptions = {}) {
    this.version = options.version ?? '3.5';
    // The seeded ledger's hostile text goes with the generated ledger's (the demo turns both off).
    const generatedHostile = options.generated instanceof GeneratedLedger ? options.generated.hostile : options.generated?.hostile;
    this.ledger = buildDemoLedger({ ...options, hostile: options.hostile ?? generatedHostile });
    this.queries = new LedgerQueries(this.ledger);
    this.generated = options.generated instanceof GeneratedLedger ? options.generated : new GeneratedLedger(options.generated);
    this.generated.attach(this.ledger);
    this.secret = options.secret ?? 'canton-lens-fake-node-secret';
    this.jwks = options.jwks;
    this.tokenTargets = options.tokenTargets ?? {};
    this.auth = options.auth ?? true;
    this.judge = new RightsAndFormats(() => this.ledger, () => this.auth); // prettier-ignore
    this.pathPrefix = (options.pathPrefix ?? '').replace(/\/$/, '');
    this.port = options.port ?? 0;
    this.requestLog = options.requestLog ?? 10_000;
    if (options.wallClock) interactiveState(this.ledger).wallClock = true;
    this.maxPartiesPageSize = options.maxPartiesPageSize ?? 10_000;
    this.maxRightsPerUser = options.maxRightsPerUser ?? 1000;
    this.singleSynchronizer = options.singleSynchronizer ?? false;
    this.definitionsService = options.definitionsService ?? false;
    this.versionString = options.versionString;
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
    if (channel === '/v2/commands/command-completions') return commandCompletionsStream(this.commands, body, signal);
    return channel === '/v2/updates' ? updatesStream(this.browse, body, signal) : activeContractsStream(this.browse, body);
  }

  /** A node listening on loopback (a subclass's start makes one of that subclass). */
  static async start<T extends FakeLedgerNode>(this: new (options: FakeLedgerNodeOptions) => T, options: FakeLedgerNodeOptions = {}): Promise<T> {
    const node = new this(options);
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

  /** Before a request is routed: true when it has been answered (the testing entry's faults). */
  protected interpose(_path: string, _req: IncomingMessage, _res: ServerResponse): Promise<boolean> {
    return Promise.resolve(false);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bytes = await readBody(req);
    const body = bytes.toString('utf8');
    const fullPath = (req.url ?? '/').split('?')[0];
    const path = fullPath.startsWith(`${this.pathPrefix}/`) ? fullPath.slice(this.pathPrefix.length) : fullPath;
    this.keep(this.requests, {
      method: req.method ?? '',
      path,
      query: (req.url ?? '').split('?')[1] ?? '',
      headers: { ...req.headers },
      body: body.length > MAX_RECORDED_BODY ? body.slice(0, MAX_RECORDED_BODY) : body,
      remotePort: req.socket.remotePort,
    });
    if (await this.interpose(path, req, res)) return;
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
    const resolved = this.resolve(path);
    const route = `${req.method ?? ''} ${resolved?.route ?? path}`;
    // A route this patch version lacks answers as an unknown path, which no spec describes.
    if (this.checkResponses && this.schemas.route(route) && (!resolved || this.endpoints[resolved.route]?.served?.() !== false)) {
      // A binary body (a package's archive) is checked for its content type only.
      const problem = this.schemas.checkResponse(route, reply.status, reply.contentType, reply.bytes?.length ? '(bytes)' : reply.body);
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
    const endpoint = resolved && (this.endpoints[`${method} ${resolved.route}`] ?? this.endpoints[resolved.route]);
    if (!resolved || !endpoint || (endpoint.versions && !endpoint.versions.includes(this.version)) || endpoint.served?.() === false) return noSuchRoute();
    const { params } = resolved;
    if (endpoint.method !== method) return methodNotAllowed(endpoint.method);
    if (endpoint.public) return endpoint.handle('', {}, query, params);
    const user = this.authenticate(req.headers.authorization);
    if (typeof user !== 'string') return user;
    if (endpoint.noBody) return endpoint.rights(user, {}, query, params) ?? endpoint.handle(user, {}, query, params);
    if (endpoint.binary) return endpoint.rights(user, {}, query, params) ?? endpoint.binary(user, bytes, query);
    const decoded = this.schemas.checkRequest(`${method} ${resolved.route}`, text);
    if (!decoded.ok) {
      if (this.checkResponses && String(req.headers['user-agent']).startsWith('canton-lens'))
        FakeLedgerNode.productBodiesRefused.push(`${this.version} ${method} ${resolved.route}: ${decoded.reason} at '${decoded.at}'`);
      return undecodableBody(decoded.reason, decoded.at);
    }
    const extra = endpoint.decode?.(decoded.body);
    if (extra) return extra;
    const denied = endpoint.rights(user, decoded.body, query, params);
    if (denied) return denied;
    // The JSON layer's conversion may have filled a field the spec lists as required (a legacy filter).
    const missing = decoded.missing.filter((f) => decoded.body[f] === undefined || decoded.body[f] === null);
    if (missing.length > 0) return missingField(missing[0].replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)); // As the proto names it: hashing_scheme_version.
    return endpoint.handle(user, decoded.body, query, params);
  }

  /** The route a path takes: itself, or a templated route with its path parameters (each path has a key without a method). */
  private resolve(path: string): { route: string; params: Record<string, string> } | undefined {
    return this.endpoints[path] ? { route: path, params: {} } : matchTemplate(Object.keys(this.endpoints), path);
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
    // Contracts and updates by id or offset.
    ...lookupEndpoints(this.lookups),
    // Execute (and wait), prepare.
    ...executeEndpoints(this.executes),
    // Completions, completion-by-hash, update-by-hash, executeAndWaitForTransaction, external parties.
    ...interactiveEndpoints({
      ledger: () => this.ledger,
      version: () => this.version,
      queries: () => this.queries,
      auth: () => this.auth,
      rights: (user) => this.judge.rights(user),
      canReadAs: (user, party) => this.judge.canReadAs(user, party),
      executeRights: (user, b) => executeRights(this.executes, user, b),
      updateFormatRights: (user, f) => this.judge.updateFormatRights(user, f),
      checkUpdateFormat: (f) => this.judge.checkUpdateFormat(f),
      checkEventFormat: (f, field) => this.judge.checkEventFormat(f, field),
      commitOptions: () => this.commitOptions(),
      recordExecution: (party, body, user) => this.keep(this.executed, { party, body, user }),
      ledgerEnd: () => this.generated.ledgerEnd(),
    }),
    // Commands with the token's own rights, and every user's completions.
    ...commandEndpoints(this.commands),
    // Ledger end, active contracts, update streams.
    ...browseEndpoints(this.browse),
    // Packages, vetting, DAR upload and validation.
    ...packageEndpoints({
      ledger: () => this.ledger,
      catalog: () => this.generated.catalog(),
      isAdmin: (user) => !this.auth || this.judge.rights(user).includes('participantAdmin'),
      maxVettedPageSize: 100,
      version: () => this.version,
      connected: () => connectedSynchronizers(this.ledger, this.singleSynchronizer),
      hasVettingList: () => servesVettingList(this.versionString ?? VERSION_STRINGS[this.version]),
    }),
    // Users, rights, parties and identity providers administered (adminClaims.ts says who may).
    ...adminEndpoints(() => this),
    ...definitionsEndpoints(() => this),
    // The token's user, rights, participant id, hosted parties, synchronizers.
    ...userEndpoints({
      ledger: () => this.ledger,
      version: () => this.version,
      rights: (user) => this.judge.rights(user),
      canReadAs: (user, party) => this.judge.canReadAs(user, party),
      maxPartiesPageSize: () => this.maxPartiesPageSize,
      connected: () => connectedSynchronizers(this.ledger, this.singleSynchronizer),
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
    // `aud` and `scope` as Canton decodes them: a token it cannot read is unauthenticated.
    const reading = readLedgerJwtPayload(claims, this.tokenTargets);
    if (!reading.ok) return redacted(401, true);
    if (typeof claims.sub !== 'string' || !this.ledger.users[claims.sub]) return redacted(403, true);
    // A deactivated user is denied all access to the Ledger API.
    if (this.ledger.userDetails[claims.sub]?.isDeactivated) return redacted(403);
    // The authorizer: claims for another participant (Claims.validForParticipant).
    if (reading.participantId !== undefined && reading.participantId !== this.ledger.participantId) return redacted(403);
    return claims.sub;
  }

  private versionResponse(): GetLedgerApiVersionResponse {
    return {
      version: this.versionString ?? VERSION_STRINGS[this.version],
      features: {
        experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
        userManagement: { supported: true, maxRightsPerUser: this.maxRightsPerUser, maxUsersPageSize: 1000 },
        partyManagement: { maxPartiesPageSize: this.maxPartiesPageSize },
        offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 1, nanos: 500_000_000, unknownFields: { fields: {} } } },
        packageFeature: { maxVettedPackagesPageSize: 100 },
      },
    };
  }

  /** Commits follow the ledger end and each other; the committed transaction joins the ledger the lookups read. */
  private commitOptions(): CommitOptions {
    return {
      nextOffset: () => this.generated.reserveCommitOffset(),
      version: this.version,
      index: (t) => {
        this.queries.addTransaction(t);
        this.generated.recordCommit(t.offset, t.updateId);
        for (const e of t.events) if (e.kind === 'exercised' && e.event.consuming) this.generated.archiveSeeded(e.event.contractId, t.offset);
      },
    };
  }
}
