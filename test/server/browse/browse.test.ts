// Paging, grouping and resume-without-gap: the pure modules alone, then against the fake
// node over real HTTP on each version, with 413s, expired page tokens and node restarts.
import * as assert from 'node:assert/strict';
import { TemplateCounter, splitTemplateId } from '../../../src/browse/acsGrouping';
import { readActiveContracts, type AcsPage } from '../../../src/browse/acsPaging';
import { followUpdates, RowBuffer, UpdatesCursor, updatesListFetch, updatesPageFetch, type FetchResult } from '../../../src/browse/updatesFollower';
import type { UpdateRow, UpdatesState } from '../../../src/protocol/updateRows';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { EventFormat, UpdateFormat } from '../../../src/ledger/apiTypes';
import { LedgerApiError } from '../../../src/ledger/ledgerApiError';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { eventFormatFor } from '../../../src/ledger/requestForms';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';

const tx = (offset: number) => ({
  Transaction: {
    value: {
      updateId: `u${offset}`,
      offset,
      commandId: 'c',
      workflowId: '',
      effectiveAt: '',
      recordTime: '2026-01-01T00:00:00Z',
      synchronizerId: 's',
      events: [{ CreatedEvent: { templateId: 'p:M.N:T', witnessParties: ['A::1'] } }],
    },
  },
});
const checkpoint = (offset: number) => ({ OffsetCheckpoint: { value: { offset } } });

describe('grouping active contracts by package, module and template', () => {
  it('counts and sorts, splitting ids at the first and last colon', () => {
    const c = new TemplateCounter();
    for (const [id, pkg] of [
      ['b1:Z.Mod:T', 'zeta'],
      ['a1:Finance.Holding:Cash', 'fin'],
      ['a1:Finance.Holding:Cash', 'fin'],
      ['a1:Finance.Holding:Bond', 'fin'],
      ['a2:Finance.Holding:Cash', 'fin'],
    ] as const)
      c.add(id, pkg);
    const g = c.groups();
    assert.deepEqual(
      g.map((p) => [p.packageName, p.count]),
      [
        ['fin', 4],
        ['zeta', 1],
      ],
    );
    assert.deepEqual(
      g[0].modules[0].templates.map((t) => [t.entity, t.count]),
      [
        ['Bond', 1],
        ['Cash', 2],
        ['Cash', 1],
      ],
    );
    assert.deepEqual(splitTemplateId('pkg:A.B:C'), { packageId: 'pkg', module: 'A.B', entity: 'C' });
    assert.deepEqual(splitTemplateId('<img src=x>'), { packageId: '', module: '', entity: '<img src=x>' });
  });

  it('groups 100,000 contracts of 10,000 templates (its speed: the browse bench)', () => {
    const c = new TemplateCounter();
    for (let i = 0; i < 100_000; i++) c.add(`p${i % 100}:Gen.M${i % 10}:T${i % 10_000}`, `pkg-${i % 100}`);
    const g = c.groups();
    assert.equal(c.templates, 10_000);
    assert.equal(
      g.reduce((n, p) => n + p.count, 0),
      100_000,
    );
  });
});

describe('the Follow Updates cursor', () => {
  it('drops what it has shown, moves past checkpoints and page bounds', () => {
    const c = new UpdatesCursor(10);
    assert.deepEqual(
      c.accept({ updates: [tx(9), tx(10), tx(11), checkpoint(15), tx(14), tx(16)] as never }).map((r) => r.offset),
      [11, 16],
    );
    assert.equal(c.duplicates, 3);
    assert.equal(c.position, 16);
    c.accept({ updates: [], readUpTo: 20 });
    assert.equal(c.position, 20);
  });

  it('keeps a bounded buffer and counts what it dropped', () => {
    const b = new RowBuffer<number>(3);
    b.push([1, 2]);
    b.push([3, 4, 5]);
    assert.deepEqual(b.all(), [3, 4, 5]);
    assert.equal(b.dropped, 2);
  });
});

describe('following updates (a fake fetch)', () => {
  const run = async (answers: (FetchResult | Error)[], start = 0) => {
    const asked: number[] = [];
    const states: UpdatesState[] = [];
    const rows: UpdateRow[] = [];
    const ac = new AbortController();
    const fetch = Object.assign(
      async (begin: number) => {
        asked.push(begin);
        const a = answers.shift();
        if (!a) {
          ac.abort();
          return { updates: [], idle: false };
        }
        if (a instanceof Error) throw a;
        return a;
      },
      { limit: 100, maxLimit: 100 },
    );
    const end = await followUpdates({
      fetch,
      cursor: new UpdatesCursor(start),
      onRows: (r) => rows.push(...r),
      onState: (s) => states.push(s),
      signal: ac.signal,
      sleep: async () => undefined,
    });
    return { asked, states, rows, end, fetch };
  };
  const err = (d: Partial<ConstructorParameters<typeof LedgerApiError>[0]>) => new LedgerApiError({ kind: 'network', explanation: 'x', ...d });

  it('asks again from the last offset shown after a dropped connection or a timeout', async () => {
    const r = await run([
      { updates: [tx(1), tx(2)] as never, idle: false },
      err({ kind: 'network' }),
      err({ kind: 'timeout' }),
      { updates: [tx(2), tx(3)] as never, idle: false },
    ]);
    assert.deepEqual(r.asked, [0, 2, 2, 2, 3]);
    assert.deepEqual(
      r.rows.map((x) => x.offset),
      [1, 2, 3],
    );
    assert.ok(r.states.some((s) => s.state === 'reconnecting'));
  });

  it('takes the limit a 413 names (else halves), stops on a pruned or too late start with what to offer', async () => {
    const r = await run([err({ kind: 'invalidRequest', status: 413 })]);
    assert.equal(r.fetch.limit, 50);
    const named = await run([
      err({
        kind: 'invalidRequest',
        status: 413,
        cantonError: {
          code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
          cause: 'The number of matching elements (21) is greater than the node limit (20).',
          context: {},
          errorCategory: 2,
        },
      }),
    ]);
    assert.equal(named.fetch.limit, 20);
    assert.equal(named.fetch.maxLimit, 20);
    // Canton carries the earliest offset in the error's context (its metadata); a resource is read too.
    const prunedBy = async (cantonError: Record<string, unknown>) =>
      (
        await run([
          err({
            kind: 'invalidRequest',
            status: 400,
            cantonError: { code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', cause: '', errorCategory: 9, ...cantonError } as never,
          }),
        ])
      ).end;
    assert.deepEqual(await prunedBy({ context: { earliest_offset: '42' } }), { state: 'stopped', reason: 'pruned', error: 'x', earliest: 42 });
    assert.deepEqual(await prunedBy({ context: {}, resources: [['earliest_offset', '43']] }), { state: 'stopped', reason: 'pruned', error: 'x', earliest: 43 });
    assert.deepEqual(await prunedBy({ context: { earliest_offset: '<b>' } }), { state: 'stopped', reason: 'pruned', error: 'x', earliest: undefined });
    const late = await run([
      err({ kind: 'invalidRequest', status: 400, cantonError: { code: 'OFFSET_AFTER_LEDGER_END', cause: '', context: {}, errorCategory: 12 } }),
    ]);
    assert.equal(late.end.state === 'stopped' && late.end.reason, 'beyondEnd');
    const denied = await run([err({ kind: 'permissionDenied', status: 403 })]);
    assert.equal(denied.end.state === 'stopped' && denied.end.reason, 'error');
  });
});

describe('the /v2/updates limit follows the rate', () => {
  /** A node that answers `limit` updates after `msPerUpdate` each (a steady stream), on a clock of its own. */
  const steadyNode = (msPerUpdate: () => number, o: { roundTripMs?: number; startAt?: number } = {}) => {
    let clock = o.startAt ?? 0;
    const asked: number[] = [];
    const client = {
      getUpdates: async (_body: unknown, q: { limit?: number }) => {
        asked.push(q.limit!);
        clock += (o.roundTripMs ?? 0) + q.limit! * msPerUpdate();
        return Array.from({ length: q.limit! }, (_, i) => ({ update: tx(i + 1) })) as never;
      },
    };
    return { client, asked, now: () => clock };
  };
  const ask = async (f: (b: number, s: AbortSignal) => Promise<unknown>, n: number) => {
    for (let i = 0; i < n; i++) await f(0, new AbortController().signal);
  };

  it('starts small, so the first rows of a slow stream come within a second, and stays there', async () => {
    const node = steadyNode(() => 200); // 5 updates a second
    const f = updatesListFetch(node.client, {}, { limit: 200, idleMs: 1000, now: node.now });
    await ask(f, 8);
    assert.equal(node.asked[0], 16);
    assert.ok(
      node.asked.slice(-3).every((l) => l * 200 <= 1000),
      `limits ${node.asked.join(', ')}`,
    );
  });

  it('grows to the largest limit when full answers come fast, shrinks when they come slowly, and never grows past a 413', async () => {
    let ms = 1; // 1,000 updates a second
    const node = steadyNode(() => ms);
    const f = updatesListFetch(node.client, {}, { limit: 200, idleMs: 1000, now: node.now });
    await ask(f, 6);
    assert.equal(node.asked.at(-1), 200, `limits ${node.asked.join(', ')}`);
    ms = 100; // 10 a second
    await ask(f, 7);
    assert.ok(node.asked.at(-1)! * 100 <= 500, `limits ${node.asked.join(', ')}`);
    f.maxLimit = 20;
    ms = 1;
    await ask(f, 6);
    assert.equal(Math.max(...node.asked.slice(-3)), 20, `limits ${node.asked.join(', ')}`);
  });

  it('never shrinks below a floor, even on a node a second away', async () => {
    const node = steadyNode(() => 100, { roundTripMs: 1000 });
    const f = updatesListFetch(node.client, {}, { limit: 200, idleMs: 1000, now: node.now });
    await ask(f, 10);
    assert.equal(Math.min(...node.asked), 4, `limits ${node.asked.join(', ')}`);
  });

  it('reads a backlog at full pages however long the round trip (its updates committed long ago)', async () => {
    // The updates' record time is 2026-01-01T00:00Z; the clock is an hour later; each answer takes 800 ms.
    const node = steadyNode(() => 0, { roundTripMs: 800, startAt: Date.parse('2026-01-01T01:00:00Z') });
    const f = updatesListFetch(node.client, {}, { limit: 200, idleMs: 1000, now: node.now });
    await ask(f, 6);
    assert.equal(node.asked.at(-1), 200, `limits ${node.asked.join(', ')}`);
  });
});

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

for (const version of VERSIONS) {
  describe(`reading the ACS and following updates on a ${version} fake node`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;
    const alice = () => node.ledger.parties.Alice;
    const format = (): EventFormat => eventFormatFor([alice()], false);
    const updateFormat = (): UpdateFormat => ({ includeTransactions: { eventFormat: format(), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } });

    beforeEach(async () => {
      node = await FakeLedgerNode.start({
        version,
        bigTransactionEvents: 10,
        checkResponses: true,
        generated: { contracts: 4000, listLimit: 700, maxPageSize: 300 },
      });
      const token = node.mintToken('alice');
      client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 5000 });
    });
    afterEach(async () => {
      await client.close();
      await node.close();
      assert.deepEqual(node.responseProblems, []);
    });

    const readAll = async (o: Partial<Parameters<typeof readActiveContracts>[1]> = {}, onPage?: (p: AcsPage, i: number) => Promise<void> | void) => {
      const pages: AcsPage[] = [];
      for await (const p of readActiveContracts(client, {
        eventFormat: format(),
        paged: version !== '3.4',
        pageSize: 1000,
        sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 200))),
        ...o,
      })) {
        pages.push(p);
        await onPage?.(p, pages.length);
      }
      return pages;
    };
    if (version === '3.4') {
      it("reads one list with a limit; past the node's list limit it says so and shows the first ones", async () => {
        const pages = await readAll({ listLimit: 100_000 });
        assert.equal(pages.length, 1);
        assert.match(pages[0].notice ?? '', /refuses lists longer than its limit/);
        // The 413 names the node's limit: one refusal, then a list of exactly that many, marked incomplete.
        assert.equal(pages[0].events.length, 700);
        assert.equal(pages[0].incomplete, true);
        assert.equal(node.requests.filter((r) => r.path === '/v2/state/active-contracts').length, 2);
        // A limit of our own under the node's: served, and still said to be incomplete.
        const few = await readAll({ listLimit: 5 });
        assert.equal(few[0].events.length, 5);
        assert.equal(few[0].incomplete, true);
        assert.match(few[0].notice ?? '', /first 5 contracts, and there are more/);
      });
    } else {
      it('pages through the ACS at one offset, with every contract once', async () => {
        const pages = await readAll();
        const ids = pages.flatMap((p) => p.events.map((e) => e.contractId));
        assert.ok(pages.length >= 3);
        assert.equal(new Set(ids).size, ids.length);
        assert.ok(pages.every((p) => p.activeAtOffset === pages[0].activeAtOffset));
        assert.ok(pages.at(-1)!.done);
        assert.ok(ids.length > 700, String(ids.length));
        // Each next page is the first request with its token: Canton binds a token to the request
        // that got it (an `activeAtOffset` added later is another request), and the token holds the offset.
        const asked = node.requests.filter((r) => r.path === '/v2/state/active-contracts-page').map((r) => JSON.parse(r.body) as Record<string, unknown>);
        // The node serves at most 300: it refuses 1,000 naming its maximum, and is asked for that from then on.
        assert.equal(asked[0].maxPageSize, 1000);
        const served = asked.slice(1);
        assert.ok(served.every((b) => b.maxPageSize === 300));
        assert.equal(served[0].activeAtOffset, undefined, 'the first page at the ledger end');
        for (const b of served.slice(1)) {
          assert.equal(typeof b.pageToken, 'string');
          assert.deepEqual({ ...b, pageToken: undefined }, { ...served[0], pageToken: undefined });
        }
      });

      it('survives a node restart mid-page: asks for the same page again', async () => {
        const before = (await readAll()).flatMap((p) => p.events.map((e) => e.contractId));
        const port = Number(new URL(node.url).port);
        const pages = await readAll({}, async (_p, i) => {
          if (i !== 1) return;
          const g = node.generated;
          await node.close();
          setTimeout(
            () =>
              void FakeLedgerNode.start({ version, port, generated: g, checkResponses: true }).then((n) => {
                node = n;
              }),
            300,
          );
        });
        assert.deepEqual(
          pages.flatMap((p) => p.events.map((e) => e.contractId)),
          before,
        );
      });

      it('starts again when the page token has expired, and says so', async () => {
        await node.close();
        // A token lives 1 s: long enough for a busy machine to read the next page in time, except after the pause.
        node = await FakeLedgerNode.start({
          version,
          port: Number(new URL(node.url).port),
          generated: { contracts: 2000, pageTokenTtlMs: 1_000, maxPageSize: 300 },
          checkResponses: true,
        });
        let slept = false;
        const pages = await readAll({}, async (_p, i) => {
          if (i === 2 && !slept) {
            slept = true;
            await new Promise((r) => setTimeout(r, 1_200));
          }
        });
        const restart = pages.findIndex((p) => p.restarted);
        assert.ok(restart > 0, 'a restart was reported');
        assert.match(pages[restart].notice ?? '', /no longer accepted the page token/);
        // From the last start on, every contract once (a very slow machine may start again more than once).
        const last = pages.map((p) => Boolean(p.restarted)).lastIndexOf(true);
        const ids = pages.slice(last).flatMap((p) => p.events.map((e) => e.contractId));
        assert.equal(new Set(ids).size, ids.length);
      });
    }

    const visibleOffsets = (from: number, to: number) => {
      const out: number[] = [];
      for (let o = from + 1; o <= to; o++) if (node.generated.transactionAt(o, format(), 'TRANSACTION_SHAPE_LEDGER_EFFECTS')) out.push(o);
      return out;
    };

    if (version !== '3.4')
      it("asks for update pages at the node's maximum once it names it (300 here), and goes on at that size", async () => {
        const begin = 100;
        const fetch = updatesPageFetch(client, updateFormat(), { pageSize: 1000 });
        const signal = new AbortController().signal;
        const first = await fetch(begin, signal);
        const second = await fetch(first.readUpTo!, signal);
        assert.ok(
          first.updates.length > 0 && second.updates.length > 0,
          `${first.updates.length} then ${second.updates.length}, ${begin} to ${String(first.readUpTo)}`,
        );
        const asked = node.requests
          .filter((r) => r.path === '/v2/updates/get-updates-page')
          .map((r) => (JSON.parse(r.body) as { maxPageSize: number }).maxPageSize);
        assert.deepEqual(asked, [1000, 300, 300]);
      });

    for (const transport of version === '3.4' ? ['updates'] : ['updates', 'updatesPage']) {
      it(`follows updates through ${transport} across a node restart, without a gap or a duplicate`, async () => {
        const start = node.generated.ledgerEnd();
        node.generated.setRate(400);
        const rows: UpdateRow[] = [];
        const states: UpdatesState[] = [];
        const ac = new AbortController();
        const fetch =
          transport === 'updates'
            ? updatesListFetch(client, updateFormat(), { limit: 200, idleMs: 100 })
            : updatesPageFetch(client, updateFormat(), { pageSize: 200 });
        const cursor = new UpdatesCursor(start);
        const done = followUpdates({ fetch, cursor, onRows: (r) => rows.push(...r), onState: (s) => states.push(s), signal: ac.signal, pollMs: 50 });
        await new Promise((r) => setTimeout(r, 600));
        const g = node.generated;
        const port = Number(new URL(node.url).port);
        await node.close();
        await new Promise((r) => setTimeout(r, 400));
        node = await FakeLedgerNode.start({ version, port, generated: g, checkResponses: true });
        await new Promise((r) => setTimeout(r, 800));
        g.setRate(0);
        const end = g.ledgerEnd();
        const deadline = Date.now() + 5000;
        while (cursor.position < end && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        ac.abort();
        await done;
        assert.ok(
          states.some((s) => s.state === 'reconnecting'),
          'it noticed the restart',
        );
        const got = rows.map((r) => r.offset);
        assert.deepEqual(got, visibleOffsets(start, end), 'every update Alice sees, once, in order');
        assert.ok(got.length > 100, String(got.length));
      });
    }
  });
}
