// A loopback JSON Ledger API v2 node: the five endpoints of Canton Lens with real auth, status
// codes and error bodies (NOTES.md), seeded data, a version switch and injectable faults.
// It backs the tests and the demo ledger; it has no `vscode` import.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { EventFormat, GetLedgerApiVersionResponse } from '../ledger/apiTypes';
import {
  contractEventsNotFound, invalidArgument, invalidField, json, missingField, noSuchRoute, redacted,
  undecodableBody, updateNotFound, type ErrorReply,
} from './cantonErrorBodies';
import { buildDemoLedger, type DemoLedger, type DemoLedgerOptions, type UserRight } from './demoLedgerData';
import { checkExecuteRequest } from './executeChecks';
import { mintHs256, verifyHs256, type LedgerJwtClaims } from './hs256Jwt';
import { LedgerQueries, type FakeVersion } from './ledgerQueries';

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
  /** Without auth (a default sandbox), any or no token works. */
  auth?: boolean;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
}

export const VERSION_STRINGS: Record<FakeVersion, string> = { '3.4': '3.4.12', '3.5': '3.5.10', '3.6': '3.6.0-SNAPSHOT' };

export class FakeLedgerNode {
  version: FakeVersion;
  readonly ledger: DemoLedger;
  readonly requests: RecordedRequest[] = [];
  readonly executed: { party: string; body: Record<string, unknown>; user: string }[] = [];
  private readonly queries: LedgerQueries;
  private readonly secret: string;
  private readonly auth: boolean;
  private readonly pathPrefix: string;
  private readonly server: ReturnType<typeof createServer>;
  private readonly scheme: 'http' | 'https';
  private readonly sockets = new Set<Socket>();
  private faults: FaultRule[] = [];
  private port = 0;

  constructor(options: FakeLedgerNodeOptions = {}) {
    this.version = options.version ?? '3.5';
    this.ledger = buildDemoLedger(options);
    this.queries = new LedgerQueries(this.ledger);
    this.secret = options.secret ?? 'canton-lens-fake-node-secret';
    this.auth = options.auth ?? true;
    this.pathPrefix = (options.pathPrefix ?? '').replace(/\/$/, '');
    this.port = options.port ?? 0;
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler);
    this.scheme = options.tls ? 'https' : 'http';
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
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
    return mintHs256({
      sub: user,
      aud: `https://daml.com/jwt/aud/participant/${this.ledger.participantId}`,
      iss: 'canton-lens-fake-idp',
      exp: Math.floor(Date.now() / 1000) + 3600,
      ...claims,
    }, this.secret);
  }

  injectFault(rule: FaultRule): void {
    this.faults.push({ ...rule });
  }

  clearFaults(): void {
    this.faults = [];
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private takeFault(path: string): Fault | undefined {
    const i = this.faults.findIndex((r) => r.path === undefined || r.path === path);
    if (i < 0) return undefined;
    const rule = this.faults[i]!;
    if (rule.times !== undefined && --rule.times <= 0) this.faults.splice(i, 1);
    return rule.fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const fullPath = (req.url ?? '/').split('?')[0]!;
    const path = fullPath.startsWith(`${this.pathPrefix}/`) ? fullPath.slice(this.pathPrefix.length) : fullPath;
    this.requests.push({ method: req.method ?? '', path, headers: { ...req.headers }, body, remotePort: req.socket.remotePort });
    let fault = this.takeFault(path);
    while (fault?.type === 'latency') {
      await sleep(fault.ms);
      if (res.destroyed || req.socket.destroyed) return;
      fault = this.takeFault(path);
    }
    if (fault) return this.applyFault(fault, req, res);
    const reply = fullPath.startsWith(`${this.pathPrefix}/`) ? this.route(req.method ?? 'GET', path, req, body) : noSuchRoute();
    send(res, reply);
  }

  private route(method: string, path: string, req: IncomingMessage, body: string): ErrorReply {
    const key = `${method} ${path}`;
    switch (key) {
      case 'GET /v2/version': return json(200, this.versionResponse());
      case 'GET /livez':
      case 'GET /readyz': return { status: 200, contentType: 'text/plain', body: 'OK' };
      case 'POST /v2/events/events-by-contract-id': return this.withAuth(req, body, (user, b) => this.eventsByContractId(user, b));
      case 'POST /v2/updates/update-by-id': return this.withAuth(req, body, (user, b) => this.updateById(user, b));
      case 'POST /v2/updates/transaction-by-id':
        if (this.version === '3.6') return noSuchRoute();
        return this.withAuth(req, body, (user, b) => this.transactionById(user, b));
      case 'POST /v2/interactive-submission/execute': return this.withAuth(req, body, (user, b) => this.execute(user, b));
      default: return noSuchRoute();
    }
  }

  private versionResponse(): GetLedgerApiVersionResponse {
    return {
      version: VERSION_STRINGS[this.version],
      features: {
        experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
        userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
        partyManagement: { maxPartiesPageSize: 10000 },
        offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 1, nanos: 500_000_000, unknownFields: { fields: {} } } },
        packageFeature: { maxVettedPackagesPageSize: 100 },
      },
    };
  }

  /** Authenticates the bearer token, then decodes the JSON body (auth comes first on a real node). */
  private withAuth(req: IncomingMessage, body: string, handler: (user: string, body: Record<string, unknown>) => ErrorReply): ErrorReply {
    let user = 'sandbox';
    const header = req.headers.authorization;
    if (this.auth) {
      if (header === undefined) return redacted(401);
      const m = /^Bearer (.*)$/i.exec(header);
      if (!m || m[1]!.trim() === '') return { status: 400, contentType: 'text/plain; charset=UTF-8', body: "Invalid value for: header Authorization (missing token)" };
      const check = verifyHs256(m[1]!.trim(), this.secret);
      if (!check.ok) return redacted(401);
      const claims = check.claims;
      const audOk = [claims.aud ?? []].flat().includes(`https://daml.com/jwt/aud/participant/${this.ledger.participantId}`)
        || (typeof claims.scope === 'string' && claims.scope.split(' ').includes('daml_ledger_api'));
      if (!audOk) return redacted(401);
      if (!this.ledger.users[claims.sub]) return redacted(403, true);
      user = claims.sub;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      return undecodableBody(`expected json value got '${body.slice(0, 20)}' (${(e as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return undecodableBody('Got value with wrong type, expecting object');
    }
    return handler(user, parsed as Record<string, unknown>);
  }

  private rights(user: string): UserRight[] {
    return this.auth ? (this.ledger.users[user] ?? []) : ['canActAsAnyParty'];
  }

  private canReadAs(user: string, party: string): boolean {
    return this.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty'
      || (typeof r === 'object' && ('canActAs' in r ? r.canActAs : 'canReadAs' in r ? r.canReadAs : undefined) === party));
  }

  private canExecuteAs(user: string, party: string): boolean {
    return this.rights(user).some((r) => r === 'canActAsAnyParty'
      || (typeof r === 'object' && ('canActAs' in r ? r.canActAs : 'canExecuteAs' in r ? r.canExecuteAs : undefined) === party));
  }

  /** Checks an event format and the user's read rights for it; undefined when allowed. */
  private checkEventFormat(user: string, format: unknown, field: string): ErrorReply | undefined {
    if (typeof format !== 'object' || format === null) return missingField(field);
    const f = format as EventFormat;
    const parties = Object.keys(f.filtersByParty ?? {});
    if (parties.length === 0 && !f.filtersForAnyParty) {
      return invalidArgument(`${field}: filters_by_party and filters_for_any_party cannot both be empty`);
    }
    for (const p of parties) {
      if (!/^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/.test(p) && !p.includes('::')) return invalidArgument(`Invalid field party: non expected character in "${p.slice(0, 64)}"`);
    }
    if (f.filtersForAnyParty && !this.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty')) return redacted(403);
    if (parties.some((p) => !this.canReadAs(user, p))) return redacted(403);
    return undefined;
  }

  private eventsByContractId(user: string, body: Record<string, unknown>): ErrorReply {
    const contractId = body.contractId;
    if (contractId !== undefined && typeof contractId !== 'string') return undecodableBody('Got value with wrong type, expecting string', 'contractId');
    if (!contractId) return missingField('contract_id');
    if (!/^(00[0-9a-f]{64}([0-9a-f]{2}){0,94}|01[0-9a-f]{24}([0-9a-f]{2}){0,33})$/.test(contractId)) {
      return invalidField('contract_id', `cannot parse ContractId "${contractId.slice(0, 80)}"`);
    }
    const denied = this.checkEventFormat(user, body.eventFormat, 'event_format');
    if (denied) return denied;
    const found = this.queries.eventsByContractId(contractId, body.eventFormat as EventFormat, this.version);
    return found ? json(200, found) : contractEventsNotFound(contractId);
  }

  private checkUpdateId(updateId: unknown): ErrorReply | undefined {
    if (updateId !== undefined && typeof updateId !== 'string') return undecodableBody('Got value with wrong type, expecting string', 'updateId');
    if (!updateId) return missingField('update_id');
    if (!/^1220[0-9a-f]{64}$/.test(updateId as string)) return invalidArgument(`Invalid field update_id: "${(updateId as string).slice(0, 80)}" is not a valid update id`);
    return undefined;
  }

  private transactionById(user: string, body: Record<string, unknown>): ErrorReply {
    const bad = this.checkUpdateId(body.updateId);
    if (bad) return bad;
    const parties = body.requestingParties;
    const format = body.transactionFormat as { eventFormat?: EventFormat; transactionShape?: string } | undefined;
    const hasParties = Array.isArray(parties) && parties.length > 0;
    if (hasParties === Boolean(format)) {
      return invalidArgument('Either transaction_format or requesting_parties is required, but not both');
    }
    let eventFormat: EventFormat;
    let shape = 'TRANSACTION_SHAPE_ACS_DELTA';
    if (hasParties) {
      const filtersByParty: NonNullable<EventFormat['filtersByParty']> = {};
      for (const p of parties as string[]) filtersByParty[p] = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
      eventFormat = { filtersByParty, verbose: true };
    } else {
      eventFormat = format!.eventFormat as EventFormat;
      shape = format!.transactionShape ?? shape;
    }
    const denied = this.checkEventFormat(user, eventFormat, 'transaction_format.event_format');
    if (denied) return denied;
    const t = this.queries.transaction(body.updateId as string, eventFormat, shape, this.version);
    return t ? json(200, { transaction: t }) : updateNotFound(body.updateId as string);
  }

  private updateById(user: string, body: Record<string, unknown>): ErrorReply {
    const bad = this.checkUpdateId(body.updateId);
    if (bad) return bad;
    const updateFormat = body.updateFormat as { includeTransactions?: { eventFormat?: EventFormat; transactionShape?: string } } | undefined;
    if (!updateFormat) return missingField('update_format');
    const tf = updateFormat.includeTransactions;
    if (!tf) return updateNotFound(body.updateId as string);
    const denied = this.checkEventFormat(user, tf.eventFormat, 'update_format.include_transactions.event_format');
    if (denied) return denied;
    const t = this.queries.transaction(body.updateId as string, tf.eventFormat as EventFormat, tf.transactionShape ?? 'TRANSACTION_SHAPE_ACS_DELTA', this.version);
    return t ? json(200, { update: { Transaction: { value: t } } }) : updateNotFound(body.updateId as string);
  }

  private execute(user: string, body: Record<string, unknown>): ErrorReply {
    const check = checkExecuteRequest(body, this.version);
    if (check.error) return check.error;
    const party = check.party!;
    if (body.userId && this.auth && body.userId !== user) return redacted(403);
    if (!this.canExecuteAs(user, party)) return redacted(403);
    this.executed.push({ party, body, user });
    return json(200, {});
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
        return send(res, { status: 500, contentType: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>nginx</p></body></html>' });
      case 'invalidJson':
        return send(res, { status: 200, contentType: 'application/json', body: '{"version":"3.5.10","features":{"experimental":{' });
      case 'plainText400':
        return send(res, undecodableBody(fault.text ?? 'expected json value got \'garbage\' (line 1, column 1)'));
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

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
