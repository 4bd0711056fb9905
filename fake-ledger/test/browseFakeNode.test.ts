// The fake node's ledger end, active contracts and update streams, per version: paging,
// list limits, rights, offsets out of range, pruning, a restart that keeps offsets. Every answer is
// checked against the version's spec (checkResponses).
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { GeneratedLedger } from '../src/generatedLedger';
import { send } from '../../test/support/specBodies';
import { wildcard } from '../../test/support/specBodies';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

type Json = Record<string, unknown>;
const entriesOf = (list: Json[]) =>
  list.map(
    (e) => ((e.contractEntry as Json).JsActiveContract as { createdEvent: { contractId: string; witnessParties: string[]; templateId: string } }).createdEvent,
  );

for (const version of VERSIONS) {
  describe(`the fake node's ACS and update streams on ${version}`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    const post = async (path: string, body: unknown, user = 'alice') => {
      const r = await send(node, 'POST', path, JSON.stringify(body), { authorization: `Bearer ${node.mintToken(user)}` });
      return r;
    };
    const byParty = (p: string) => ({ filtersByParty: { [p]: wildcard }, verbose: true });
    const updatesFormat = (p: string) => ({ includeTransactions: { eventFormat: byParty(p), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } });

    before(async () => {
      node = await FakeLedgerNode.start({
        version,
        bigTransactionEvents: 10,
        checkResponses: true,
        generated: { contracts: 3000, listLimit: 500, maxPageSize: 400 },
      });
    });
    after(() => node.close());
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('tells the ledger end (GET, a token but no body)', async () => {
      const r = await send(node, 'GET', '/v2/state/ledger-end', undefined, { authorization: `Bearer ${node.mintToken('alice')}` });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json?.offset, node.generated.ledgerEnd());
      assert.equal((await send(node, 'GET', '/v2/state/ledger-end')).status, 401);
    });

    it('lists the active contracts with a limit, and refuses a list past its limit with 413', async () => {
      const alice = node.ledger.parties.Alice;
      const end = node.generated.ledgerEnd();
      const limited = await post('/v2/state/active-contracts?limit=50', { activeAtOffset: end, eventFormat: byParty(alice) });
      assert.equal(limited.status, 200, limited.text);
      const list = JSON.parse(limited.text) as Json[];
      assert.equal(list.length, 50);
      for (const e of entriesOf(list)) assert.deepEqual(e.witnessParties, [alice]);
      const tooMany = await post('/v2/state/active-contracts', { activeAtOffset: end, eventFormat: byParty(alice) });
      assert.equal(tooMany.status, 413, tooMany.text);
      assert.equal(tooMany.json?.code, 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
      assert.match(String(tooMany.json?.cause), /greater than the node limit \(500\)\.$/);
      // A limit at the node's own is served whole, without an error.
      assert.equal(
        (JSON.parse((await post('/v2/state/active-contracts?limit=500', { activeAtOffset: end, eventFormat: byParty(alice) })).text) as Json[]).length,
        500,
      );
      const bad = await post('/v2/state/active-contracts?limit=ten', { activeAtOffset: end, eventFormat: byParty(alice) });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /query parameter limit/);
    });

    it('checks rights: each filtersByParty party readable, filtersForAnyParty needs CanReadAsAnyParty', async () => {
      const end = node.generated.ledgerEnd();
      assert.equal(
        (await post('/v2/state/active-contracts?limit=5', { activeAtOffset: end, eventFormat: byParty(node.ledger.parties.Bob) }, 'alice')).status,
        403,
      );
      assert.equal(
        (await post('/v2/state/active-contracts?limit=5', { activeAtOffset: end, eventFormat: { filtersForAnyParty: wildcard } }, 'alice')).status,
        403,
      );
      assert.equal(
        (await post('/v2/state/active-contracts?limit=5', { activeAtOffset: end, eventFormat: { filtersForAnyParty: wildcard } }, 'reader')).status,
        200,
      );
    });

    it('refuses an active-at offset beyond the ledger end', async () => {
      const r = await post('/v2/state/active-contracts?limit=5', {
        activeAtOffset: node.generated.ledgerEnd() + 10,
        eventFormat: byParty(node.ledger.parties.Alice),
      });
      assert.equal(r.status, 400);
      assert.equal(r.json?.code, 'OFFSET_AFTER_LEDGER_END');
    });

    if (version !== '3.4') {
      it('pages through the whole ACS without duplicates, at one offset, while updates go on', async () => {
        const alice = node.ledger.parties.Alice;
        const ids: string[] = [];
        let token: string | undefined;
        let activeAt: number | undefined;
        let pages = 0;
        // Past the node's maximum (400 here, 10,000 by default) Canton refuses and names it (FieldValidator.validatePageSize).
        for (const [size, cause] of [
          [1000, /Requested page size must not exceed 400, but got 1000/],
          [0, /Requested page size must be positive, but got 0/],
        ] as const) {
          const refused = await post('/v2/state/active-contracts-page', { eventFormat: byParty(alice), maxPageSize: size });
          assert.equal(refused.status, 400);
          assert.equal(refused.json?.code, 'INVALID_ARGUMENT');
          assert.match(String(refused.json?.cause), cause);
        }
        do {
          const r = await post('/v2/state/active-contracts-page', { eventFormat: byParty(alice), maxPageSize: 400, pageToken: token });
          assert.equal(r.status, 200, r.text);
          const body = r.json as { activeContracts: Json[]; activeAtOffset: number; nextPageToken?: string };
          assert.ok(body.activeContracts.length <= 400, 'at most the page size');
          activeAt ??= body.activeAtOffset;
          assert.equal(body.activeAtOffset, activeAt);
          ids.push(...entriesOf(body.activeContracts).map((e) => e.contractId));
          token = body.nextPageToken;
          pages++;
          node.generated.advance(3);
        } while (token);
        assert.equal(new Set(ids).size, ids.length, 'no duplicates');
        // The same set as one big list at that offset (read as the any-party reader, then filtered).
        const all = await post('/v2/state/active-contracts?limit=500', { activeAtOffset: activeAt, eventFormat: byParty(alice) });
        assert.equal(all.status, 200);
        assert.ok(ids.length > 500 && pages >= 2, `${ids.length} contracts in ${pages} pages`);
        assert.deepEqual(
          entriesOf(JSON.parse(all.text) as Json[]).map((e) => e.contractId),
          ids.slice(0, 500),
        );
      });

      it('filters by template (by package name) and by interface', async () => {
        const reader = 'reader';
        const cash = node.generated.template(3);
        const r = await post(
          '/v2/state/active-contracts-page',
          {
            maxPageSize: 50,
            eventFormat: {
              filtersForAnyParty: {
                cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: `#${cash.packageName}:${cash.module}:${cash.entity}` } } } }],
              },
            },
          },
          reader,
        );
        assert.equal(r.status, 200, r.text);
        const events = entriesOf((r.json as { activeContracts: Json[] }).activeContracts);
        assert.ok(events.length > 0);
        for (const e of events) assert.equal(e.templateId, cash.templateId);
        const iface = await post(
          '/v2/state/active-contracts-page',
          {
            maxPageSize: 50,
            eventFormat: {
              filtersForAnyParty: {
                cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: cash.interfaces[0], includeInterfaceView: true } } } }],
              },
            },
          },
          reader,
        );
        const ievents = entriesOf((iface.json as { activeContracts: Json[] }).activeContracts) as unknown as { interfaceViews: unknown[] }[];
        assert.ok(ievents.length > 0 && ievents.every((e) => e.interfaceViews.length === 1));
      });

      it('refuses an expired or foreign page token', async () => {
        const g = new GeneratedLedger({ contracts: 300, pageTokenTtlMs: 0 });
        const other = await FakeLedgerNode.start({ version, generated: g, checkResponses: true });
        try {
          const alice = other.ledger.parties.Alice;
          const first = await send(other, 'POST', '/v2/state/active-contracts-page', JSON.stringify({ eventFormat: byParty(alice), maxPageSize: 10 }), {
            authorization: `Bearer ${other.mintToken('alice')}`,
          });
          const token = (first.json as { nextPageToken: string }).nextPageToken;
          await new Promise((r) => setTimeout(r, 5));
          const expired = await send(other, 'POST', '/v2/state/active-contracts-page', JSON.stringify({ eventFormat: byParty(alice), pageToken: token }), {
            authorization: `Bearer ${other.mintToken('alice')}`,
          });
          assert.equal(expired.status, 400);
          assert.match(String(expired.json?.cause), /expired/);
          const foreign = await post('/v2/state/active-contracts-page', { eventFormat: byParty(alice), pageToken: 'bm9wZQ' });
          assert.equal(foreign.status, 400);
          assert.deepEqual(other.responseProblems, []);
        } finally {
          await other.close();
        }
      });

      it('takes a page token back only with the request that got it: the same event format and `activeAtOffset`, absent where it was', async () => {
        const alice = node.ledger.parties.Alice;
        const first = await post('/v2/state/active-contracts-page', { eventFormat: byParty(alice), maxPageSize: 10 });
        assert.equal(first.status, 200, first.text);
        const { nextPageToken: token, activeAtOffset } = first.json as { nextPageToken: string; activeAtOffset: number };
        // Naming the offset the first page answered is another request to Canton (AcsPageToken's checksum).
        const named = await post('/v2/state/active-contracts-page', { eventFormat: byParty(alice), maxPageSize: 10, activeAtOffset, pageToken: token });
        assert.equal(named.status, 400);
        assert.equal(named.json?.code, 'INVALID_ACS_PAGE_TOKEN');
        assert.match(String(named.json?.cause), /different event_format or active_at_offset/);
        const otherFilter = await post('/v2/state/active-contracts-page', { eventFormat: { ...byParty(alice), verbose: false }, pageToken: token });
        assert.equal(otherFilter.json?.code, 'INVALID_ACS_PAGE_TOKEN');
        // The same message written in another key order is the same request.
        const reordered = Object.fromEntries(Object.entries(byParty(alice)).reverse());
        const same = await post('/v2/state/active-contracts-page', { pageToken: token, eventFormat: reordered });
        assert.equal(same.status, 200, same.text);
        assert.equal((same.json as { activeAtOffset: number }).activeAtOffset, activeAtOffset);
        // A first page that named its offset takes its token back naming the same offset.
        const at = await post('/v2/state/active-contracts-page', { eventFormat: byParty(alice), maxPageSize: 10, activeAtOffset });
        const next = await post('/v2/state/active-contracts-page', {
          eventFormat: byParty(alice),
          activeAtOffset,
          pageToken: (at.json as { nextPageToken: string }).nextPageToken,
        });
        assert.equal(next.status, 200, next.text);
      });

      it('serves update pages with checkpoint bounds', async () => {
        const alice = node.ledger.parties.Alice;
        const end = node.generated.ledgerEnd();
        const tooLarge = await post('/v2/updates/get-updates-page', { beginOffsetExclusive: end - 20, maxPageSize: 1000, updateFormat: updatesFormat(alice) });
        assert.match(String(tooLarge.json?.cause), /Requested page size must not exceed 400, but got 1000/);
        const r = await post('/v2/updates/get-updates-page', { beginOffsetExclusive: end - 20, maxPageSize: 400, updateFormat: updatesFormat(alice) });
        assert.equal(r.status, 200, r.text);
        // A token is taken back only with the same begin, end, page size and format (UpdatesPageToken.requestChecksum).
        const open = await post('/v2/updates/get-updates-page', { beginOffsetExclusive: end - 20, maxPageSize: 1, updateFormat: updatesFormat(alice) });
        const token = (open.json as { nextPageToken: string }).nextPageToken;
        const moved = await post('/v2/updates/get-updates-page', {
          beginOffsetExclusive: end - 19,
          maxPageSize: 1,
          updateFormat: updatesFormat(alice),
          pageToken: token,
        });
        assert.equal(moved.json?.code, 'INVALID_UPDATES_PAGE_TOKEN');
        assert.match(String(moved.json?.cause), /obtained with different request parameters/);
        const same = await post('/v2/updates/get-updates-page', {
          beginOffsetExclusive: end - 20,
          maxPageSize: 1,
          updateFormat: updatesFormat(alice),
          pageToken: token,
        });
        assert.equal(same.status, 200, same.text);
        const body = r.json as { updates: Json[]; lowestPageOffsetExclusive: number; highestPageOffsetInclusive: number };
        assert.equal(body.lowestPageOffsetExclusive, end - 20);
        assert.equal(body.highestPageOffsetInclusive, end);
        assert.ok(body.updates.length > 0 && body.updates.length < 20, 'only what Alice sees');
      });
    }

    it('streams updates as a list that waits for new ones, with checkpoints past invisible ones', async () => {
      const alice = node.ledger.parties.Alice;
      const begin = node.generated.ledgerEnd();
      const pending = post('/v2/updates?limit=100&stream_idle_timeout_ms=300', { beginExclusive: begin, updateFormat: updatesFormat(alice) });
      setTimeout(() => node.generated.advance(10), 50);
      const r = await pending;
      assert.equal(r.status, 200, r.text);
      const list = JSON.parse(r.text) as { update: Json }[];
      const txs = list.filter((u) => 'Transaction' in u.update);
      const last = list[list.length - 1].update as { OffsetCheckpoint?: { value: { offset: number } } };
      assert.ok(txs.length > 0 && txs.length < 10, `${txs.length} of 10 visible to Alice`);
      if (last.OffsetCheckpoint) assert.equal(last.OffsetCheckpoint.value.offset, begin + 10);
      const offsets = txs.map((u) => ((u.update.Transaction as Json).value as { offset: number }).offset);
      assert.deepEqual(
        offsets,
        [...offsets].sort((a, b) => a - b),
      );
      assert.ok(offsets.every((o) => o > begin && o <= begin + 10));
    });

    it('refuses updateFormat beside the legacy filter or verbose, as Canton does', async () => {
      const alice = node.ledger.parties.Alice;
      const begin = node.generated.ledgerEnd() - 3;
      const both = async (extra: Json) =>
        post('/v2/updates?limit=2&stream_idle_timeout_ms=10', { beginExclusive: begin, updateFormat: updatesFormat(alice), ...extra });
      const verbose = await both({ verbose: true });
      assert.equal(verbose.status, 400, verbose.text);
      assert.equal(verbose.json?.code, 'INVALID_ARGUMENT');
      assert.match(String(verbose.json?.cause), /Both update_format and verbose are set/);
      const filter = await both({ filter: { filtersByParty: { [alice]: wildcard } } });
      assert.equal(filter.status, 400, filter.text);
      assert.match(String(filter.json?.cause), /Both update_format and filter are set/);
      // verbose: false is the proto's default, so it is not "set".
      assert.equal((await both({ verbose: false })).status, 200);
    });

    it('refuses a begin offset beyond the ledger end or before the pruning point', async () => {
      const alice = node.ledger.parties.Alice;
      const late = await post('/v2/updates?limit=5&stream_idle_timeout_ms=10', {
        beginExclusive: node.generated.ledgerEnd() + 5,
        updateFormat: updatesFormat(alice),
      });
      assert.equal(late.status, 400);
      assert.equal(late.json?.code, 'OFFSET_AFTER_LEDGER_END');
      node.generated.prunedUpTo = 15;
      try {
        const pruned = await post('/v2/updates?limit=5&stream_idle_timeout_ms=10', { beginExclusive: 3, updateFormat: updatesFormat(alice) });
        assert.equal(pruned.status, 400);
        assert.equal(pruned.json?.code, 'PARTICIPANT_PRUNED_DATA_ACCESSED');
        // As Canton sends it: the earliest offset is the error's metadata, in `context`.
        assert.equal((pruned.json?.context as Json).earliest_offset, '15');
        assert.deepEqual(pruned.json?.resources, []);
      } finally {
        node.generated.prunedUpTo = 0;
      }
    });
  });
}

describe('a restart of the fake node', () => {
  it("keeps its offsets and port when given the old node's generated ledger", async () => {
    const first = await FakeLedgerNode.start({ generated: { contracts: 100, rate: 0 } });
    first.generated.advance(25);
    const end = first.generated.ledgerEnd();
    const url = first.url;
    await first.close();
    const second = await FakeLedgerNode.start({ port: Number(new URL(url).port), generated: first.generated });
    try {
      assert.equal(second.url, url);
      const r = await send(second, 'GET', '/v2/state/ledger-end', undefined, { authorization: `Bearer ${second.mintToken('alice')}` });
      assert.equal(r.json?.offset, end);
    } finally {
      await second.close();
    }
  });
});

for (const version of VERSIONS) {
  describe(`the fake node cuts update lists and pages as Canton does, on ${version}`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    let begin: number;
    let alice: string;
    const post = (path: string, body: unknown) => send(node, 'POST', path, JSON.stringify(body), { authorization: `Bearer ${node.mintToken('alice')}` });
    const format = () => ({
      includeTransactions: { eventFormat: { filtersByParty: { [alice]: wildcard }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    });
    const offsets = (list: Json[]) => list.map((e) => Object.values(e.update as Record<string, { value: { offset: number } }>)[0].value.offset);

    before(async () => {
      // Alice sees every 4th live update; a scan costs 200 simulated ms an offset: 800 ms between hers.
      node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { scanMsPerOffset: 200 } });
      alice = node.ledger.parties.Alice;
      begin = node.generated.ledgerEnd();
      node.generated.advance(40);
    });
    after(() => node.close());
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('cuts a bounded list that names an idle time once none came for it, with what came so far', async () => {
      const end = begin + 40;
      const whole = await post(`/v2/updates?limit=100&stream_idle_timeout_ms=1000`, { beginExclusive: begin, endInclusive: end, updateFormat: format() });
      assert.equal(whole.status, 200, whole.text);
      assert.equal((whole.json as unknown as Json[]).length, 10, '800 ms between hers is within 1,000: not cut');
      const cut = await post(`/v2/updates?limit=100&stream_idle_timeout_ms=700`, { beginExclusive: begin, endInclusive: end, updateFormat: format() });
      assert.equal(cut.status, 200, 'a cut is a plain 200');
      assert.deepEqual(cut.json, [], 'her first is 800 ms into the scan: cut before it');
      const one = await post(`/v2/updates?limit=100&stream_idle_timeout_ms=700`, { beginExclusive: begin + 3, endInclusive: end, updateFormat: format() });
      assert.deepEqual(offsets(one.json as unknown as Json[]), [begin + 4], 'one element, then cut; no checkpoint says how far it read');
    });

    it('never cuts a bounded list without an idle time, and cuts an open-ended one at the default idle time', async () => {
      const bounded = await post(`/v2/updates?limit=100`, { beginExclusive: begin, endInclusive: begin + 40, updateFormat: format() });
      assert.equal((bounded.json as unknown as Json[]).length, 10, 'the default 500 ms applies to open-ended lists only');
      const open = await post(`/v2/updates?limit=100`, { beginExclusive: begin, updateFormat: format() });
      assert.deepEqual(open.json, [], '800 ms to her first is past the default 500 ms');
    });

    if (version !== '3.4') {
      it('gives an update page without an end a token even when it reached the ledger end, and a bounded last page none', async () => {
        const end = node.generated.ledgerEnd();
        const tail = await post('/v2/updates/get-updates-page', { beginOffsetExclusive: end - 8, maxPageSize: 100, updateFormat: format() });
        const t = tail.json as { updates: Json[]; highestPageOffsetInclusive: number; nextPageToken?: string };
        assert.equal(t.updates.length, 2);
        assert.equal(t.highestPageOffsetInclusive, end, 'up to the ledger end');
        assert.ok(t.nextPageToken, 'always a token without an end');
        const bounded = await post('/v2/updates/get-updates-page', {
          beginOffsetExclusive: begin,
          endOffsetInclusive: end,
          maxPageSize: 3,
          updateFormat: format(),
        });
        const b = bounded.json as { updates: Json[]; highestPageOffsetInclusive: number; nextPageToken?: string };
        assert.deepEqual(offsets(b.updates), [begin + 4, begin + 8, begin + 12]);
        assert.equal(b.highestPageOffsetInclusive, begin + 15, 'a full page ends just before the next update');
        assert.ok(b.nextPageToken);
        const last = await post('/v2/updates/get-updates-page', {
          beginOffsetExclusive: begin,
          endOffsetInclusive: end,
          maxPageSize: 3,
          pageToken: b.nextPageToken,
          updateFormat: format(),
        });
        const l = last.json as { updates: Json[]; highestPageOffsetInclusive: number; nextPageToken?: string };
        assert.deepEqual(offsets(l.updates), [begin + 16, begin + 20, begin + 24]);
        const final = await post('/v2/updates/get-updates-page', {
          beginOffsetExclusive: begin + 32,
          endOffsetInclusive: end,
          maxPageSize: 3,
          updateFormat: format(),
        });
        const f = final.json as { updates: Json[]; highestPageOffsetInclusive: number; nextPageToken?: string };
        assert.equal(f.updates.length, 2);
        assert.equal(f.highestPageOffsetInclusive, end);
        assert.equal(f.nextPageToken, undefined, 'a bounded last page has none');
      });
    }
  });
}
