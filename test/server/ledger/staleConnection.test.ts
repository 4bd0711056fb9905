// A kept-alive connection the server closes just as the next request goes out on it: a read is
// sent once more on a new connection, a write fails once with the usual error and is never sent twice.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { SPEC_VERSIONS } from '../../../fake-ledger/src/spec/specRoutes';
import { isReadRequest } from '../../../src/ledger/clientHelpers';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { allocateParty, grantRights } from '../../../src/ledger/adminRequests';
import { submitAndWaitForTransaction } from '../../../src/ledger/commandRequests';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { readSpec } from '../../support/apiSpecExtract';
import { startProxy } from '../../support/forwardProxy';
import { rejectsWith } from '../../support/rejectsWith';

const tlsDir = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'tls');
const read = (f: string) => fs.readFileSync(path.join(tlsDir, f), 'utf8');

/** What the server does with a request that arrives on a connection that already answered one. */
type OnReuse = 'close' | 'reset' | 'closeAfterStatusLine' | 'answer';

/**
 * A node:http server that answers `{}` to every request, counts them by path, and does `onReuse`
 * with a request that comes on a connection it already answered on: as if its idle timeout had
 * closed the connection as that request arrived (no `Connection: close`, no keep-alive hint).
 * `onFirst: 'close'` closes every new connection at its first request instead.
 */
class ClosingServer {
  readonly received = new Map<string, number>();
  /** Requests the server closed the connection under, by path. */
  readonly closedUnder: string[] = [];
  onReuse: OnReuse = 'close';
  onFirst: 'answer' | 'close' = 'answer';
  private readonly answered = new WeakSet<Socket>();
  private readonly server: Server | TlsServer;

  constructor(private readonly tls?: { key: string; cert: string }) {
    const handler = (req: IncomingMessage, res: ServerResponse) => this.handle(req, res);
    this.server = tls ? createTlsServer(tls, handler) : createServer(handler);
    // No idle timeout of its own, and so no `Keep-Alive: timeout=` hint (Pekko HTTP, Canton's server, sends none).
    this.server.keepAliveTimeout = 0;
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(path: string): number {
    return this.received.get(path) ?? 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '').split('?')[0];
    this.received.set(path, this.count(path) + 1);
    const socket = req.socket;
    const action = this.answered.has(socket) ? this.onReuse : this.onFirst;
    req.resume();
    req.on('end', () => {
      if (action === 'answer') {
        this.answered.add(socket);
        res.setHeader('content-type', 'application/json');
        res.end('{}');
        return;
      }
      this.closedUnder.push(path);
      if (action === 'closeAfterStatusLine') socket.write('HTTP/1.1 200 OK\r\n');
      if (action === 'reset') socket.resetAndDestroy();
      else socket.destroy();
    });
  }
}

/**
 * undici puts a connection back in its pool one event-loop turn after the answer (a setImmediate in
 * its client-h1.js); a request sent after this turn goes out on the kept-alive connection. Each test
 * checks that it did (`closedUnder`).
 */
const backInPool = () => new Promise<void>((r) => setImmediate(r));

describe('a kept-alive connection closed under a request', function () {
  this.timeout(20_000);
  let server: ClosingServer;
  let client: LedgerClient;

  beforeEach(async () => {
    server = new ClosingServer();
    const url = await server.start();
    client = new LedgerClient({ baseUrl: url, transport: createUndiciTransport(), getToken: async () => 'a-test-token', timeoutMs: 5_000 });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  const readEnd = () => client.getLedgerEnd();
  /** A read, and the connection it used back in the pool: the next request goes out on it. */
  const kept = async () => {
    await readEnd();
    await backInPool();
  };
  const readContracts = () => client.getActiveContracts({ activeAtOffset: 0 });

  it('a GET read: sent once more on a new connection, and answers', async () => {
    await kept();
    assert.deepEqual(await readEnd(), {});
    assert.deepEqual(server.closedUnder, ['/v2/state/ledger-end'], 'the second read went out on the kept-alive connection');
    assert.equal(server.count('/v2/state/ledger-end'), 3);
  });

  it('a read whose connection is reset (RST, not FIN): sent once more, and answers', async () => {
    await kept();
    server.onReuse = 'reset';
    assert.deepEqual(await readEnd(), {});
    assert.deepEqual(server.closedUnder, ['/v2/state/ledger-end']);
    assert.equal(server.count('/v2/state/ledger-end'), 3);
  });

  it('a POST read (active contracts): sent once more, and answers', async () => {
    await kept();
    assert.deepEqual(await readContracts(), {});
    assert.deepEqual(server.closedUnder, ['/v2/state/active-contracts']);
    assert.equal(server.count('/v2/state/active-contracts'), 2);
  });

  it('only once: a read whose new connection is closed too fails with the reset', async () => {
    await kept();
    server.onFirst = 'close';
    await rejectsWith(readEnd(), { kind: 'network', explanationMatches: /was reset before an answer came/ });
    assert.equal(server.count('/v2/state/ledger-end'), 3);
  });

  it('a read on a new connection that is reset is not sent again (nothing was kept alive)', async () => {
    server.onFirst = 'close';
    await rejectsWith(readEnd(), { kind: 'network', explanationMatches: /was reset before an answer came/ });
    assert.equal(server.count('/v2/state/ledger-end'), 1);
  });

  it('a read whose answer had begun is not sent again', async () => {
    await kept();
    server.onReuse = 'closeAfterStatusLine';
    await rejectsWith(readEnd(), { kind: 'network' });
    assert.deepEqual(server.closedUnder, ['/v2/state/ledger-end']);
    assert.equal(server.count('/v2/state/ledger-end'), 2);
  });

  const writes: [string, string, () => Promise<unknown>][] = [
    ['a submission', '/v2/commands/submit-and-wait-for-transaction', () => submitAndWaitForTransaction(client, { commands: [], actAs: ['Alice'] } as never)],
    ['a prepare', '/v2/interactive-submission/prepare', () => client.prepareSubmission({} as never)],
    ['an execute', '/v2/interactive-submission/execute', () => client.executeSubmission({} as never)],
    ['a party allocation', '/v2/parties', () => allocateParty(client, { partyIdHint: 'p' })],
    ['a rights grant', '/v2/users/u/rights', () => grantRights(client, 'u', [])],
  ];
  for (const [name, path, write] of writes) {
    it(`${name}: fails once with the reset, and the node received it once`, async () => {
      await kept();
      await rejectsWith(write(), { kind: 'network', path, explanationMatches: /was reset before an answer came/ });
      assert.deepEqual(server.closedUnder, [path], 'the write went out on the kept-alive connection');
      assert.equal(server.count(path), 1);
      // The connection is gone, not the node: the next request answers.
      assert.deepEqual(await readEnd(), {});
    });
  }
});

describe('a kept-alive connection closed under a request, over TLS and through a proxy', function () {
  this.timeout(20_000);

  const twoReadsAndAWrite = async (server: ClosingServer, client: LedgerClient) => {
    await client.getLedgerEnd();
    await backInPool();
    assert.deepEqual(await client.getLedgerEnd(), {});
    assert.deepEqual(server.closedUnder, ['/v2/state/ledger-end']);
    assert.equal(server.count('/v2/state/ledger-end'), 3);
    // The pool's connection is gone: a read opens another, which the write then meets closed.
    await client.getLedgerEnd();
    await backInPool();
    await rejectsWith(client.prepareSubmission({} as never), { kind: 'network' });
    assert.deepEqual(server.closedUnder, ['/v2/state/ledger-end', '/v2/interactive-submission/prepare']);
    assert.equal(server.count('/v2/interactive-submission/prepare'), 1);
  };

  it('over TLS: the read is sent once more, the write is not', async () => {
    const server = new ClosingServer({ key: read('node.key'), cert: read('node.pem') });
    const client = new LedgerClient({ baseUrl: await server.start(), transport: createUndiciTransport({ ca: read('ca.pem') }), timeoutMs: 5_000 });
    try {
      await twoReadsAndAWrite(server, client);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('through a proxy (a CONNECT tunnel): the read is sent once more, on a new tunnel; the write is not', async () => {
    const server = new ClosingServer();
    const proxy = await startProxy();
    const client = new LedgerClient({ baseUrl: await server.start(), transport: createUndiciTransport({ proxyUrl: proxy.url }), timeoutMs: 5_000 });
    try {
      await twoReadsAndAWrite(server, client);
      assert.ok(proxy.tunnels.length >= 2, `tunnels: ${proxy.tunnels.join(', ')}`);
    } finally {
      await client.close();
      await proxy.close();
      await server.close();
    }
  });
});

describe('which requests count as reads (sent again after a closed kept-alive connection)', () => {
  /** Every operation of the vendored specs, as `METHOD /path`. */
  const operations = new Set<string>();
  for (const version of SPEC_VERSIONS) {
    for (const [route, ops] of Object.entries(readSpec(version).paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) operations.add(`${method.toUpperCase()} ${route}`);
    }
  }
  const reads = (method: string) =>
    [...operations]
      .filter((op) => op.startsWith(`${method} `) && isReadRequest(method, op.slice(method.length + 1)))
      .map((op) => op.slice(method.length + 1))
      .sort();

  it('the POSTs that only read, each a route of the spec', () => {
    assert.deepEqual(reads('POST'), [
      '/v2/commands/completion-by-hash',
      '/v2/commands/completions',
      '/v2/events/events-by-contract-id',
      '/v2/package-vetting/list',
      '/v2/state/active-contracts',
      '/v2/state/active-contracts-page',
      '/v2/updates',
      '/v2/updates/flats',
      '/v2/updates/get-updates-page',
      '/v2/updates/transaction-by-id',
      '/v2/updates/trees',
      '/v2/updates/update-by-hash',
      '/v2/updates/update-by-id',
      '/v2/updates/update-by-offset',
    ]);
  });

  it('never a write: submissions, prepare, execute, allocations, uploads, users and rights', () => {
    for (const path of [
      '/v2/commands/submit-and-wait',
      '/v2/commands/submit-and-wait-for-transaction',
      '/v2/commands/async/submit',
      '/v2/interactive-submission/prepare',
      '/v2/interactive-submission/execute',
      '/v2/interactive-submission/executeAndWait',
      '/v2/interactive-submission/executeAndWaitForTransaction',
      '/v2/parties',
      '/v2/parties/external/allocate',
      '/v2/dars?vetAllPackages=true',
      '/v2/package-vetting/update',
      '/v2/users',
      '/v2/users/u/rights',
    ]) {
      assert.equal(isReadRequest('POST', path), false, path);
    }
    assert.deepEqual(reads('PATCH'), []);
    assert.deepEqual(reads('DELETE'), []);
    assert.equal(isReadRequest('PUT', '/v2/updates'), false);
  });

  it('every GET, with or without a query', () => {
    assert.ok(reads('GET').length > 10);
    assert.equal(isReadRequest('GET', '/v2/parties?pageSize=10'), true);
    assert.equal(isReadRequest('POST', '/v2/updates?limit=10&stream_idle_timeout_ms=100'), true);
  });
});
