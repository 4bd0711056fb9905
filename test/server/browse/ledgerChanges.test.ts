// What changed between two offsets: the change set (created, archived, both), the active-set
// comparison, the range checks, and the reader against the fake node on each version (updates and
// active sets agree, pages survive a low list limit, a time finds its offset). Real HTTP.
import * as assert from 'node:assert/strict';
import { ChangeSet, checkRange, compareActiveSets, activeSetsCheaper, methodReason } from '../../../src/browse/ledgerChanges';
import { offsetAtTime, readChanges, type ChangesProgress } from '../../../src/browse/changesReader';
import { ChangeView } from '../../../src/browse/changeView';
import type { CreatedEvent } from '../../../src/ledger/apiTypes';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { HOSTILE_STRINGS } from '../../../fake-ledger/src/storedLedger';

const created = (contractId: string, extra: Partial<CreatedEvent> = {}) =>
  ({ CreatedEvent: { contractId, templateId: 'pkg:M:T', createArgument: { n: contractId }, offset: 1, nodeId: 0, ...extra } }) as unknown;
const archived = (contractId: string) => ({ ArchivedEvent: { contractId, templateId: 'pkg:M:T', offset: 1, nodeId: 0 } }) as unknown;

describe('what changed: the change set', () => {
  it('keeps one row per contract: created, archived before the range, or both inside it', () => {
    const s = new ChangeSet();
    s.addTransaction({ updateId: 'u1', offset: 11, events: [created('a'), created('b'), archived('old')] });
    s.addTransaction({ updateId: 'u2', offset: 12, events: [archived('a'), created('c')] });
    assert.deepEqual(
      s.ordered.map((r) => [r.contractId, r.kind]),
      [
        ['a', 'createdAndArchived'],
        ['b', 'created'],
        ['old', 'archived'],
        ['c', 'created'],
      ],
    );
    assert.deepEqual({ ...s.counts }, { created: 2, archived: 1, createdAndArchived: 1, transactions: 2 });
    const a = s.get('a');
    assert.equal(a?.created?.updateId, 'u1');
    assert.equal(a?.archived?.offset, 12);
    assert.equal(s.get('old')?.created, undefined, 'an archive of a contract created before the range has no create point');
  });

  it('skips malformed and unknown events, and keeps hostile strings as data', () => {
    const s = new ChangeSet();
    s.addTransaction({ offset: 3, events: [null, 7, 'x', { Unknown: {} }, { CreatedEvent: { contractId: 5 } }, created(HOSTILE_STRINGS[0])] as unknown[] });
    s.addTransaction({ events: 'not a list' as unknown as unknown[] });
    assert.equal(s.size, 1);
    assert.equal(s.ordered[0].contractId, HOSTILE_STRINGS[0]);
  });

  it('in ledger effects, keeps what the readers hold and leaves out what they only witnessed', () => {
    const s = new ChangeSet(['Alice::1220aa']);
    const ev = (contractId: string, signatories: string[], acsDelta: boolean) => ({
      CreatedEvent: { contractId, templateId: 'p:M:T', createArgument: {}, signatories, observers: [], acsDelta, offset: 1, nodeId: 0 },
    });
    const consumed = (contractId: string, acsDelta: boolean) => ({
      ExercisedEvent: { contractId, templateId: 'p:M:T', choice: 'Archive', consuming: true, acsDelta, offset: 1, nodeId: 1 },
    });
    s.addTransaction({
      offset: 5,
      updateId: 'u5',
      events: [
        ev('witnessed', ['Bob::1220bb'], false), // created under an exercise Alice saw: not hers
        ev('transient', ['Alice::1220aa'], false), // hers, created and archived in this transaction
        consumed('transient', false),
        consumed('someone-elses', false), // archived by a controller who is no stakeholder of it
        ev('mine', ['Alice::1220aa'], true),
        consumed('old', true),
      ],
    });
    assert.deepEqual(
      s.ordered.map((r) => [r.contractId, r.kind, r.archived?.choice]),
      [
        ['transient', 'createdAndArchived', 'Archive'],
        ['mine', 'created', undefined],
        ['old', 'archived', 'Archive'],
      ],
    );
  });

  it('compares two active sets: only the ends are seen, a contract both created and archived inside is not', () => {
    const ev = (id: string) => ({ contractId: id, templateId: 'p:M:T', createArgument: { id }, offset: 4, createdAt: '2026-11-26T10:00:00Z' }) as CreatedEvent;
    const start = new Map([
      ['kept', ev('kept')],
      ['gone', ev('gone')],
    ]);
    const end = new Map([
      ['kept', ev('kept')],
      ['new', ev('new')],
    ]);
    const s = compareActiveSets(start, end);
    assert.deepEqual(
      s.ordered.map((r) => [r.contractId, r.kind]),
      [
        ['new', 'created'],
        ['gone', 'archived'],
      ],
    );
    assert.deepEqual(s.get('gone')?.argument, { id: 'gone' }, 'an archived row keeps its argument from the start set');
  });

  it('checks a range before reading it, with the offsets to use instead', () => {
    const facts = { ledgerEnd: 100, prunedUpTo: 10 };
    assert.deepEqual(checkRange(20, 50, facts), { ok: true, from: 20, to: 50 });
    const pruned = checkRange(5, 50, facts);
    assert.equal(pruned.ok, false);
    assert.match(!pruned.ok ? pruned.message : '', /pruned its history up to offset 10/);
    assert.equal(!pruned.ok && pruned.from, 10);
    const late = checkRange(20, 150, facts);
    assert.match(!late.ok ? late.message : '', /after the node’s ledger end \(100\)/);
    assert.equal(!late.ok && late.to, 100);
    const swapped = checkRange(50, 20, facts);
    assert.deepEqual([!swapped.ok && swapped.from, !swapped.ok && swapped.to], [20, 50]);
    assert.match(!checkRange(30, 30, facts).ok ? (checkRange(30, 30, facts) as { message: string }).message : '', /empty/);
    assert.equal(checkRange(-1, 3, facts).ok, false);
    assert.equal(checkRange(1.5, 3, facts).ok, false);
  });

  it('chooses the active sets only when reading them twice costs less than the range, and says why', () => {
    assert.equal(activeSetsCheaper(100_000, 1_000), true);
    assert.equal(activeSetsCheaper(100_000, 50_000), false);
    assert.match(methodReason('activeSets', 100_000, 1_000, false), /1,000 active contracts twice cost less than the range’s 100,000 offsets/);
    assert.match(methodReason('updates', 500, undefined, false), /short range/);
    assert.match(methodReason('updates', 1, undefined, false), /\(1 offset\): a short range/, 'one offset, not "1 offsets"');
  });

  it('shows the rows of a kind and template, and evaluates a payload filter in slices', () => {
    const s = new ChangeSet();
    for (let i = 0; i < 12_000; i++)
      s.addTransaction({ offset: i + 1, updateId: `u${i}`, events: [created(`c${i}`, { templateId: i % 3 ? 'p:M:A' : 'p:M:B' })] });
    s.addTransaction({ offset: 20_000, events: [archived('c0')] });
    const view = new ChangeView(s, { limit: 10, test: (a) => Number((a as { n: string }).n.slice(1)) % 2 === 0, template: 'M:B' });
    assert.equal(view.evaluate(5_000), true, 'rows left after one slice');
    assert.equal(view.current().pending, 7_000);
    while (view.evaluate(5_000));
    const rows = view.current();
    assert.equal(rows.pending, 0);
    assert.equal(rows.matching, 2_000, 'even numbers of template B (every third, every other)');
    assert.equal(rows.rows.length, 10);
    assert.equal(rows.rows[0].kind, 'createdAndArchived');
    const archivedOnly = new ChangeView(s, { limit: 10, kind: 'createdAndArchived' });
    archivedOnly.evaluate(Infinity);
    assert.deepEqual(
      archivedOnly.current().rows.map((r) => r.contractId),
      ['c0'],
    );
  });
});

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

async function lastOf(it: AsyncGenerator<ChangesProgress>): Promise<{ last: ChangesProgress; pages: number; notices: string[] }> {
  let last: ChangesProgress | undefined;
  let pages = 0;
  const notices: string[] = [];
  for await (const p of it) {
    last = p;
    pages++;
    if (p.notice) notices.push(p.notice);
  }
  assert.ok(last, 'at least one page');
  return { last, pages, notices };
}

for (const version of VERSIONS) {
  describe(`what changed on a fake node of ${version}`, function () {
    this.timeout(60_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;
    let from: number;
    let to: number;
    let bank: string;

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { contracts: 200, listLimit: 50, maxPageSize: 40 } });
      const token = node.mintToken('bank');
      client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 10_000 });
      bank = node.ledger.parties.Bank;
      from = node.generated.ledgerEnd();
      // Live update k creates live-k; an even k archives live-(k-1).
      node.generated.advance(121);
      to = node.generated.ledgerEnd();
    });
    after(async () => {
      await client.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('reads a range’s updates in pages below the node’s list limit, and counts creates and archives', async () => {
      const { last, pages } = await lastOf(readChanges(client, { parties: [bank], from, to, method: 'updates', pageSize: 30, paged: version !== '3.4' }));
      assert.equal(last.done, true);
      assert.equal(last.method, 'updates');
      assert.ok(pages >= 4, `121 updates in pages of 30 (${pages} pages)`);
      const c = last.changes.counts;
      assert.deepEqual([c.created, c.createdAndArchived, c.archived, c.transactions], [61, 60, 0, 121]);
    });

    it('halves a page the node refuses as longer than its list limit, and says so', async () => {
      const { last, notices } = await lastOf(readChanges(client, { parties: [bank], from, to, method: 'updates', pageSize: 500, paged: false }));
      assert.equal(last.changes.counts.transactions, 121);
      assert.ok(
        notices.some((n) => /refuses lists longer than its limit/.test(n)),
        notices.join(' | ') || 'no notice',
      );
    });

    it('agrees with the active sets at both ends compared, which miss what was created and archived inside', async () => {
      const start = from + 1; // live-1 created before the range: its archive is inside it
      const byUpdates = (await lastOf(readChanges(client, { parties: [bank], from: start, to, method: 'updates', paged: version !== '3.4' }))).last.changes;
      const bySets = (await lastOf(readChanges(client, { parties: [bank], from: start, to, method: 'activeSets', paged: version !== '3.4', websocket: true })))
        .last.changes;
      const kinds = (s: ChangeSet, k: string) =>
        s.ordered
          .filter((r) => r.kind === k)
          .map((r) => r.contractId)
          .sort();
      assert.deepEqual(kinds(bySets, 'created'), kinds(byUpdates, 'created'));
      assert.deepEqual(kinds(bySets, 'archived'), kinds(byUpdates, 'archived'));
      assert.equal(kinds(byUpdates, 'archived').length, 1);
      assert.equal(bySets.counts.createdAndArchived, 0);
      assert.equal(byUpdates.counts.createdAndArchived, 59);
    });

    it('chooses by the range’s length against the active set’s size, and says which and why', async () => {
      const paged = version !== '3.4';
      const wide = (await lastOf(readChanges(client, { parties: [bank], from, to, probeFrom: 1, paged, websocket: true }))).last;
      assert.equal(wide.method, 'updates');
      assert.match(wide.reason, /121 offsets cost less than the active sets/);
      assert.equal(wide.changes.counts.transactions, 121);
      const template = node.generated.template(1).templateId;
      const narrow = (await lastOf(readChanges(client, { parties: [bank], templates: [template], from, to, probeFrom: 1, paged, websocket: true }))).last;
      assert.equal(narrow.method, 'activeSets');
      assert.match(narrow.reason, /active contracts twice cost less than the range’s 121 offsets/);
      const forced = (await lastOf(readChanges(client, { parties: [bank], templates: [template], from, to, method: 'updates', paged }))).last;
      assert.equal(narrow.changes.counts.created, forced.changes.counts.created);
      assert.equal(narrow.changes.counts.archived, forced.changes.counts.archived);
    });

    it('reads ledger effects where asked: each archive names its choice', async () => {
      const { last } = await lastOf(readChanges(client, { parties: [bank], from: from + 1, to, ledgerEffects: true, paged: version !== '3.4' }));
      assert.equal(last.method, 'updates');
      assert.match(last.reason, /ledger-effects shape/);
      const gone = last.changes.ordered.filter((r) => r.kind !== 'created');
      assert.equal(gone.length, 60);
      assert.ok(
        gone.every((r) => typeof r.archived?.choice === 'string' && r.archived.choice.length > 0),
        'every archive has its choice',
      );
      const view = new ChangeView(last.changes, { limit: 100, kind: 'inactive' });
      view.evaluate(Infinity);
      assert.equal(view.current().matching, 60);
    });

    it('reads the active sets over the websocket with a client of another bundle (same shape, another class)', async () => {
      // What a lazily loaded bundle sees: the extension's client, not an instance of its own copy of the class.
      const foreign = {
        baseUrl: client.baseUrl,
        channelContext: client.channelContext.bind(client),
        getUpdates: client.getUpdates.bind(client),
        getActiveContracts: client.getActiveContracts.bind(client),
        getActiveContractsPage: client.getActiveContractsPage.bind(client),
        getLedgerEnd: client.getLedgerEnd.bind(client),
      };
      const { last } = await lastOf(readChanges(foreign, { parties: [bank], from, to, method: 'activeSets', paged: false, websocket: true }));
      assert.equal(last.method, 'activeSets', last.reason);
      assert.equal(last.changes.counts.created, 61, 'both sets whole, past the node’s list limit of 50');
    });

    it('refuses a pruned start as the node does (the range check says so first)', async () => {
      const pruned = node.prunedUpTo;
      assert.ok(pruned > 0);
      await assert.rejects(
        lastOf(readChanges(client, { parties: [bank], from: pruned - 1, to, method: 'updates', paged: false })),
        (e: Error & { cantonError?: { code?: string } }) => {
          assert.equal(e.cantonError?.code, 'PARTICIPANT_PRUNED_DATA_ACCESSED');
          return true;
        },
      );
      const check = checkRange(pruned - 1, to, { ledgerEnd: node.generated.ledgerEnd(), prunedUpTo: pruned });
      assert.equal(check.ok, false);
    });

    it('finds the offset of a time by halving the range (generated creates are 1 ms apart)', async () => {
      const list = await client.getUpdates(
        {
          beginExclusive: from - 100,
          endInclusive: to,
          updateFormat: {
            includeTransactions: { eventFormat: { filtersByParty: { [bank]: {} }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
          },
        },
        { limit: 1 },
      );
      const t = (list[0].update as { Transaction: { value: { offset: number; recordTime: string } } }).Transaction.value;
      const found = await offsetAtTime(client, { parties: [bank], time: Date.parse(t.recordTime), earliest: node.prunedUpTo, end: to });
      assert.equal(found.offset, t.offset);
      const before = await offsetAtTime(client, { parties: [bank], time: Date.parse('2000-01-01T00:00:00Z'), earliest: node.prunedUpTo, end: to });
      assert.equal(before.beforeHistory, true);
      assert.equal(before.offset, node.prunedUpTo);
    });
  });
}
