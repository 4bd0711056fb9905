// TLS with a node's own CA file, and HTTP proxies, over real sockets.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { startProxy } from '../../support/forwardProxy';
import { rejectsWith } from '../../support/rejectsWith';

const tlsDir = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'tls');
const read = (f: string) => fs.readFileSync(path.join(tlsDir, f), 'utf8');

describe('TLS and proxies', function () {
  this.timeout(10_000);
  let node: FakeLedgerNode;

  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 1, tls: { key: read('node.key'), cert: read('node.pem') } });
  });
  after(() => node.close());

  it("trusts a node's certificate through its CA file", async () => {
    assert.match(node.url, /^https:\/\/127\.0\.0\.1:/);
    const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport({ ca: read('ca.pem') }) });
    assert.equal((await client.getVersion()).version, '3.5.10');
    await client.close();
  });

  it('refuses an untrusted certificate, and says to add the CA file (verification stays on)', async () => {
    const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport() });
    await rejectsWith(client.getVersion(), {
      kind: 'network',
      explanationMatches: /TLS certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted .*add the node's CA file/,
    });
    await client.close();
  });

  it('goes through an HTTP proxy when one is set, to http and https nodes', async () => {
    const proxy = await startProxy();
    const plain = await FakeLedgerNode.start({ bigTransactionEvents: 1 });
    try {
      const viaProxy = new LedgerClient({ baseUrl: plain.url, transport: createUndiciTransport({ proxyUrl: proxy.url }) });
      assert.equal((await viaProxy.getVersion()).version, '3.5.10');
      await viaProxy.close();
      const tlsViaProxy = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport({ proxyUrl: proxy.url, ca: read('ca.pem') }) });
      assert.equal((await tlsViaProxy.getVersion()).version, '3.5.10');
      await tlsViaProxy.close();
      const seen = [...proxy.tunnels, ...proxy.forwarded].join(' ');
      assert.ok(seen.includes(new URL(plain.url).host), `the proxy did not carry the http request: ${seen}`);
      assert.ok(proxy.tunnels.includes(new URL(node.url).host), `the proxy did not tunnel the https request: ${seen}`);
    } finally {
      await plain.close();
      await proxy.close();
    }
  });
});
