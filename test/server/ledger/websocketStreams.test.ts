// The websocket channels against the fake node over real websockets, per version: the whole ACS of
// a 3.4 node whose list limit is 200, a stream that breaks resumed without a gap or a duplicate,
// a refused upgrade read over HTTP instead (and said so), the token only in the subprotocol, error
// frames and close codes explained. Every frame is checked against the version's AsyncAPI file.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { readActiveContracts, type AcsPage } from '../../../src/browse/acsPaging';
import { followUpdates, UpdatesCursor, updatesListFetch, updatesStreamFetch } from '../../../src/browse/updatesFollower';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { tokenFromProtocols } from '../../../fake-ledger/src/websocketRoutes';
import { closeExplanation, streamChannel } from '../../../src/ledger/ledgerChannels';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { isLedgerApiError } from '../../../src/ledger/ledgerApiError';
import { eventFormatFor } from '../../../src/ledger/requestForms';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`websocket channels on ${version}`, function () {
    this.timeout(120_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;
    let token: string;
    const readAll = async (websocket = true) => {
      const pages: AcsPage[] = [];
      for await (const p of readActiveContracts(client, {
        eventFormat: eventFormatFor(undefined, false),
        paged: false,
        websocket,
        pageSize: 1000,
        sleep: async () => undefined,
      }))
        pages.push(p);
      return pages;
    };

    before(async () => {
      node = await FakeLedgerNode.start({
        version,
        checkResponses: true,
        generated: { contracts: version === '3.4' ? 100_000 : 5_000, listLimit: 200, rate: 0 },
      });
      token = node.mintToken('reader');
      client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 30_000 });
    });
    after(async () => {
      await client.close();
      await node.close();
    });
    afterEach(() => {
      node.channels.faults.refuseUpgrades = undefined;
      node.channels.faults.breakAfterFrames = undefined;
      assert.deepEqual(node.responseProblems, [], 'every frame is one the AsyncAPI file allows');
    });

    it('reads the whole ACS over the channel, past the list limit, each contract once; the token only in the subprotocol', async () => {
      const pages = await readAll();
      const ids = pages.flatMap((p) => p.events.map((e) => e.contractId));
      const expected = node.generated.contracts; // the reader (any party) sees every generated contract, and the seeded active ones
      assert.ok(ids.length >= expected, `${ids.length} of at least ${expected}`);
      assert.equal(new Set(ids).size, ids.length, 'no duplicate');
      assert.equal(pages.at(-1)!.done, true);
      assert.ok(pages.every((p) => !p.notice && !p.incomplete));
      const upgrade = node.channels.upgrades.at(-1)!;
      assert.ok(!upgrade.url.includes(token) && !upgrade.url.includes('token'), upgrade.url);
      assert.ok(upgrade.protocols.startsWith('jwt.token.'), 'the token entry comes first');
      assert.equal(node.requests.filter((r) => r.path === '/v2/state/active-contracts').length, 0, 'no HTTP list');
    });

    it('a stream that breaks mid-way is opened again and resumes: no gap, no duplicate', async () => {
      const whole = (await readAll()).flatMap((p) => p.events.map((e) => e.contractId));
      node.channels.faults.breakAfterFrames = 1_234;
      const again = (await readAll()).flatMap((p) => p.events.map((e) => e.contractId));
      assert.deepEqual(again, whole);
    });

    it('a refused upgrade (a proxy) reads over HTTP instead, and says so', async () => {
      node.channels.faults.refuseUpgrades = 502;
      const pages = await readAll();
      assert.match(pages[0].notice ?? '', /websocket connection .* was refused[\s\S]*Reading over HTTP instead/);
      assert.equal(pages[0].incomplete, true, 'the HTTP list stops at the node limit');
    });

    it('a node whose version is not known yet is asked for pages first, then read on the channel where it has none; never the HTTP list', async () => {
      const lists = () => node.requests.filter((r) => r.path === '/v2/state/active-contracts').length;
      const pagesAsked = () => node.requests.filter((r) => r.path === '/v2/state/active-contracts-page').length;
      const [listsBefore, pagesBefore, upgradesBefore] = [lists(), pagesAsked(), node.channels.upgrades.length];
      const pages: AcsPage[] = [];
      for await (const p of readActiveContracts(client, { eventFormat: eventFormatFor(undefined, false), paged: true, websocket: true, pageSize: 1000 }))
        pages.push(p);
      const ids = pages.flatMap((p) => p.events.map((e) => e.contractId));
      assert.ok(ids.length >= node.generated.contracts, `${ids.length} of at least ${node.generated.contracts}`);
      assert.ok(pages.every((p) => !p.notice && !p.incomplete));
      assert.equal(lists(), listsBefore, 'no HTTP list');
      if (version === '3.4') assert.equal(node.channels.upgrades.length, upgradesBefore + 1, 'read on the channel');
      else assert.equal(node.channels.upgrades.length, upgradesBefore, 'a node that pages is read in pages');
      assert.ok(pagesAsked() > pagesBefore);
    });

    it("an error frame is the node's error, explained; a bad token is refused before the upgrade", async () => {
      const stream = streamChannel(client, '/v2/state/active-contracts', {
        activeAtOffset: node.generated.ledgerEnd() + 50,
        eventFormat: eventFormatFor(undefined, false),
      });
      await assert.rejects(
        async () => {
          for await (const _ of stream) void _;
        },
        (e: unknown) => isLedgerApiError(e) && e.code === 'OFFSET_AFTER_LEDGER_END',
      );
      const bad = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => 'not-a-token', timeoutMs: 5_000 });
      try {
        await assert.rejects(
          async () => {
            for await (const _ of streamChannel(bad, '/v2/updates', {})) void _;
          },
          (e: unknown) => isLedgerApiError(e) && e.routeMissing,
        );
      } finally {
        await bad.close();
      }
    });
  });
}

describe('websocket details', () => {
  it("reads the token as Canton does: split on ',' and not trimmed", () => {
    assert.equal(tokenFromProtocols('jwt.token.abc, daml.ws.auth'), 'abc');
    assert.equal(tokenFromProtocols('daml.ws.auth, jwt.token.abc'), undefined, 'an entry after ", " starts with a space');
    assert.equal(tokenFromProtocols('daml.ws.auth,jwt.token.abc'), 'abc');
    assert.equal(tokenFromProtocols(undefined), undefined);
  });

  it('explains each close code, and which are worth a retry', () => {
    assert.equal(closeExplanation(1006, '').transient, true);
    assert.equal(closeExplanation(1011, 'boom').transient, true);
    assert.match(closeExplanation(1011, 'boom').explanation, /internal error \(boom\)/);
    assert.equal(closeExplanation(1008, '').transient, false);
    assert.match(closeExplanation(1001, '').explanation, /going away/);
  });

  it("a token entry after ', ' is not seen, as Canton reads the header: 401 before the upgrade", async () => {
    const node = await FakeLedgerNode.start({ version: '3.5' });
    try {
      const status = (protocols: string) =>
        new Promise<number>((resolve) => {
          const req = http.request(`${node.url}/v2/updates`, {
            headers: {
              connection: 'Upgrade',
              upgrade: 'websocket',
              'sec-websocket-version': '13',
              'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
              'sec-websocket-protocol': protocols,
            },
          });
          req.on('upgrade', (res, socket) => {
            socket.destroy();
            resolve(res.statusCode ?? 0);
          });
          req.on('response', (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.end();
        });
      const token = node.mintToken('alice');
      assert.equal(await status(`daml.ws.auth, jwt.token.${token}`), 401);
      assert.equal(await status(`jwt.token.${token}, daml.ws.auth`), 101);
    } finally {
      await node.close();
    }
  });
});

describe('following updates over the websocket channel', function () {
  this.timeout(60_000);
  for (const version of ['3.4', '3.6'] as FakeVersion[]) {
    it(`${version}: follows live updates on one stream, across a break, without a gap or a duplicate; a refused upgrade follows over HTTP`, async () => {
      const node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { contracts: 100, rate: 0 } });
      const token = node.mintToken('reader');
      const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 10_000 });
      try {
        const format = {
          includeTransactions: { eventFormat: eventFormatFor(undefined, false), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' as const },
        };
        const fallback = updatesListFetch(client, format, { limit: 200, idleMs: 50 });
        const fetch = updatesStreamFetch(client, format, { idleMs: 100, fallback });
        const start = node.generated.ledgerEnd();
        const cursor = new UpdatesCursor(start);
        const ac = new AbortController();
        const offsets: number[] = [];
        const following = followUpdates({
          fetch,
          cursor,
          signal: ac.signal,
          sleep: async () => undefined,
          onRows: (rows) => offsets.push(...rows.map((r) => r.offset)),
          onState: () => undefined,
        });
        node.generated.advance(40);
        await until(() => cursor.position >= start + 40);
        node.channels.faults.breakAfterFrames = 5;
        node.generated.advance(40);
        await until(() => cursor.position >= start + 80);
        ac.abort();
        await following;
        assert.deepEqual(
          offsets,
          Array.from({ length: 80 }, (_, i) => start + i + 1),
          'every update once, in order',
        );
        assert.equal(cursor.duplicates, 0);
        assert.equal(node.requests.filter((r) => r.path === '/v2/updates').length, 0, 'no HTTP list request');
        assert.ok(node.channels.upgrades.length >= 2, 'a new stream after the break');

        // Frames already there come several to a call, not one per call. The stream is open first (a
        // call with nothing to take), and the node has written all 50 before the calls that take them.
        // How many are in by the first call is the machine's: undici pauses the socket while more than
        // its parser's 16 KB wait, and reads on in a later turn, so a loaded machine may need more calls.
        const from = node.generated.ledgerEnd();
        const batchAc = new AbortController();
        const batch = updatesStreamFetch(client, format, { idleMs: 200, fallback });
        assert.deepEqual((await batch(from, batchAc.signal)).updates, [], 'nothing yet');
        const sent = node.channels.framesSent;
        node.generated.advance(50);
        await until(() => node.channels.framesSent >= sent + 50);
        const calls: number[] = [];
        for (let taken = 0; taken < 50; taken += calls[calls.length - 1]) calls.push((await batch(from + taken, batchAc.signal)).updates.length);
        batchAc.abort();
        assert.ok(calls[0] > 1, `the first call took the frames that were there: ${calls.join(', ')}`);
        assert.equal(
          calls.reduce((a, b) => a + b, 0),
          50,
          'all 50, none twice',
        );

        node.channels.faults.refuseUpgrades = 502;
        const refused = updatesStreamFetch(client, format, { idleMs: 100, fallback });
        const r = await refused(start, new AbortController().signal);
        assert.match(refused.fallbackReason ?? '', /refused/);
        assert.ok(r.updates.length > 0, 'read over HTTP');
        assert.deepEqual(node.responseProblems, []);
      } finally {
        await client.close();
        await node.close();
      }
    });
  }
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}
