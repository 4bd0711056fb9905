// Ranges whose updates for the reader's party are slow to find, which a Canton node cuts: a
// `/v2/updates` list that names an idle time answers 200 with what came before the idle time
// elapsed. The fake node's scanMsPerOffset stands in for that time elapsing, deterministically.
// What Changed, the time-to-offset search and Follow Updates over pages read such a node whole.
import * as assert from 'node:assert/strict';
import { offsetAtTime, readChanges, type ChangesProgress } from '../../../src/browse/changesReader';
import { followUpdates, UpdatesCursor, updatesPageFetch } from '../../../src/browse/updatesFollower';
import type { UpdateRow } from '../../../src/protocol/updateRows';
import type { UpdateFormat } from '../../../src/ledger/apiTypes';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { LedgerApiError } from '../../../src/ledger/ledgerApiError';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];
/** Alice sees every 4th live update. */
const HERS = 74;

async function all(it: AsyncGenerator<ChangesProgress>): Promise<ChangesProgress[]> {
  const out: ChangesProgress[] = [];
  for await (const p of it) out.push(p);
  return out;
}

for (const version of VERSIONS) {
  describe(`a sparse range the node cuts, on ${version}`, function () {
    this.timeout(60_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;
    let alice: string;
    let from: number;
    let to: number;

    before(async () => {
      // 2 s of scan an offset: 8 s between Alice's updates, past the 5 s idle time the extension names.
      // Generated creates before the live updates, 1 ms apart, about one in five Alice's.
      node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { contracts: 400, scanMsPerOffset: 2_000 } });
      const token = node.mintToken('alice');
      client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 10_000 });
      alice = node.ledger.parties.Alice;
      from = node.generated.ledgerEnd();
      node.generated.advance(HERS * 4);
      to = node.generated.ledgerEnd();
    });
    after(async () => {
      await client.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    for (const paged of [false, true]) {
      const how = !paged ? ' over lists' : version === '3.4' ? ' over lists where update pages are refused' : ' over update pages';
      it(`What Changed reads every update of the range${how}, not the first`, async () => {
        const steps = await all(readChanges(client, { parties: [alice], from, to, method: 'updates', paged }));
        const last = steps.at(-1)!;
        assert.equal(last.done, true);
        assert.equal(last.changes.counts.transactions, HERS);
        assert.equal(last.changes.counts.created, HERS);
        assert.ok(
          steps.slice(0, -1).every((p) => !p.done && p.readUpTo < to),
          'done only at the end',
        );
      });
    }

    it('says a read that ended early did not reach the range’s end', async () => {
      let calls = 0;
      const failing = {
        getUpdates: (...args: Parameters<LedgerClient['getUpdates']>) => {
          if (++calls === 6)
            throw new LedgerApiError({ kind: 'serverError', status: 500, method: 'POST', path: '/v2/updates', explanation: 'the node failed' });
          return client.getUpdates(...args);
        },
        getActiveContracts: client.getActiveContracts.bind(client),
        getActiveContractsPage: client.getActiveContractsPage.bind(client),
        getLedgerEnd: client.getLedgerEnd.bind(client),
      };
      const seen: ChangesProgress[] = [];
      await assert.rejects(async () => {
        for await (const p of readChanges(failing, { parties: [alice], from, to, method: 'updates', paged: false, retries: 1 })) seen.push(p);
      }, /the node failed/);
      const last = seen.at(-1)!;
      assert.equal(last.done, false, 'not done');
      assert.ok(last.readUpTo > from && last.readUpTo < to, String(last.readUpTo));
      assert.ok(last.changes.counts.transactions < HERS);
    });

    it('finds the offset of a time although the next update is slow to find', async () => {
      const format = { filtersByParty: { [alice]: {} } };
      const hers: number[] = [];
      for (let o = node.prunedUpTo + 1; o <= from; o++) if (node.generated.transactionAt(o, format, 'TRANSACTION_SHAPE_ACS_DELTA')) hers.push(o);
      assert.ok(hers.length > 40, String(hers.length));
      const target = node.generated.transactionAt(hers[30], format, 'TRANSACTION_SHAPE_ACS_DELTA')!;
      const found = await offsetAtTime(client, { parties: [alice], time: Date.parse(target.recordTime), earliest: node.prunedUpTo, end: from });
      assert.equal(found.offset, hers[30]);
    });

    if (version !== '3.4') {
      it('Follow Updates over pages waits once caught up, although every page has a token', async () => {
        const updateFormat: UpdateFormat = {
          includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
        };
        const raw = await client.getUpdatesPage({ beginOffsetExclusive: to - 8, updateFormat, maxPageSize: 50 });
        assert.ok(raw.nextPageToken, 'a page without an end always has a token');
        const rows: UpdateRow[] = [];
        const ac = new AbortController();
        const waits: number[] = [];
        const cursor = new UpdatesCursor(from);
        const done = followUpdates({
          fetch: updatesPageFetch(client, updateFormat, { pageSize: 20 }),
          cursor,
          onRows: (r) => rows.push(...r),
          onState: () => undefined,
          signal: ac.signal,
          // The first wait is when it caught up: stop there.
          sleep: async (ms) => {
            waits.push(cursor.position);
            ac.abort();
            await Promise.resolve(ms);
          },
        });
        await done;
        assert.deepEqual(waits, [to], 'it waited once, at the ledger end, not before');
        assert.equal(rows.length, HERS, 'full pages of 20 first, without a wait');
      });
    }
  });
}
