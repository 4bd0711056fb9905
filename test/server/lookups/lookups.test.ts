// Lookups against the fake node, and the cache behind hovers and panels.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { LookupCache } from '../../../src/lookups/lookupCache';
import { lookupContract, lookupSummary, lookupTransaction } from '../../../src/lookups/ledgerLookups';
import { contractBody } from '../../../src/panels/html/contractHtml';
import { transactionBody } from '../../../src/panels/html/transactionHtml';

describe('lookups', function () {
  this.timeout(10_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  let token: string;
  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 30 });
    client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token });
  });
  after(async () => {
    await client.close();
    await node.close();
  });
  beforeEach(() => (token = node.mintToken('alice')));

  const ctx = () => ({ nodeName: 'dev', parties: [node.ledger.parties.Alice], user: 'alice' });

  it('finds active and archived contracts', async () => {
    const active = await lookupContract(client, node.ledger.samples.activeContract, ctx());
    assert.ok(active.found && active.status === 'active');
    assert.equal(lookupSummary(active), 'active · Iou:Iou');
    const archived = await lookupContract(client, node.ledger.samples.archivedContract, ctx());
    assert.ok(archived.found && archived.status === 'archived');
    assert.match(archived.asked, /events-by-contract-id on dev, as seen by Alice::1220[0-9a-f]{2}… \(token user alice\)/);
  });

  it('explains not found in terms of who asked', async () => {
    const l = await lookupContract(client, node.ledger.samples.bankOnlyContract, ctx());
    assert.equal(l.found, false);
    assert.ok(!l.found);
    assert.match(
      l.explanation,
      /Contract not found on dev for Alice::1220[0-9a-f]{2}… \(token user alice\)\. Either it never existed on this participant, it is not visible to these parties \(only stakeholders see a contract\), or it was pruned/,
    );
    assert.equal(l.error.code, 'CONTRACT_EVENTS_NOT_FOUND');
  });

  it('lets other errors through (a 401 is not "not found")', async () => {
    token = '';
    await assert.rejects(lookupContract(client, node.ledger.samples.activeContract, ctx()), (e: { kind: string }) => e.kind === 'unauthenticated');
  });

  it("finds transactions with the seed's request form, and explains what was asked", async () => {
    const t = await lookupTransaction(client, node.ledger.samples.bigUpdate, ctx());
    assert.ok(t.found && t.update === 'transaction');
    assert.equal(t.transaction.events.length, 20);
    assert.match(t.asked, /via transaction-by-id \(requestingParties\), token user alice/);
    token = node.mintToken('reader');
    const any = await lookupTransaction(client, node.ledger.samples.transferUpdate, { nodeName: 'dev' });
    assert.match(any.asked, /as seen by any party on the node, via transaction-by-id \(transactionFormat with filtersForAnyParty\)/);
    const missing = await lookupTransaction(client, node.ledger.samples.unknownUpdate, ctx());
    assert.equal(missing.found, false);
  });
});

describe('lookups of what the seed reported as not found', function () {
  this.timeout(10_000);
  let node: FakeLedgerNode;
  const ctx = () => ({ nodeName: 'dev', parties: [node.ledger.parties.Alice], user: 'alice' });
  const clientFor = () => new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice') });
  before(async () => {
    node = await FakeLedgerNode.start({ version: '3.6', bigTransactionEvents: 3 });
  });
  after(() => node.close());

  it('a contract whose create was pruned: found, archived, with its archive event and the reason', async () => {
    const client = clientFor();
    try {
      const l = await lookupContract(client, node.ledger.samples.prunedCreateContract, ctx());
      assert.ok(l.found && l.status === 'archived' && l.createPruned);
      assert.equal(l.response.created, undefined);
      assert.equal(lookupSummary(l), 'archived · Notes:Note');
      const body = contractBody(l).toString();
      assert.match(body, /create event of this contract was pruned/);
      assert.match(body, /Notes:Note/, "the archive event's template is shown");
    } finally {
      await client.close();
    }
  });

  it("a reassignment's update id opens as a reassignment, its synchronizers not called parties", async () => {
    const client = clientFor();
    try {
      const l = await lookupTransaction(client, node.ledger.samples.unassignUpdate, ctx());
      assert.ok(l.found && l.update === 'reassignment');
      assert.match(lookupSummary(l), /^reassignment · offset \d+/);
      const body = transactionBody(l).toString();
      assert.match(body, /Reassignment <code/);
      assert.match(body, /Target synchronizer/);
      assert.match(body, /class="synchronizer" title="Synchronizer global-domain::1220/);
      assert.doesNotMatch(body, /title="global-domain[^"]*"[^>]*class="party"|class="party" title="global-domain/);
      // On 3.6 the "Asked:" line names update-by-id and the filter actually sent.
      assert.match(l.asked, /via update-by-id \(updateFormat with filtersByParty\)/);
    } finally {
      await client.close();
    }
  });
});

describe('LookupCache', () => {
  it('makes one request for concurrent callers and keeps the answer', async () => {
    const cache = new LookupCache<number>(10);
    let calls = 0;
    const fetch = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return { value: 42, final: false };
    };
    const all = await Promise.all(Array.from({ length: 100 }, () => cache.get('k', fetch)));
    assert.ok(all.every((e) => e.value === 42));
    assert.equal(calls, 1);
    await cache.get('k', fetch);
    assert.equal(calls, 1, 'cached');
  });

  it('re-fetches what can change on refresh, keeps what cannot', async () => {
    const cache = new LookupCache<string>(10);
    let n = 0;
    await cache.get('active', async () => ({ value: `a${++n}`, final: false }));
    await cache.get('archived', async () => ({ value: `z${++n}`, final: true }));
    assert.equal((await cache.get('active', async () => ({ value: `a${++n}`, final: false }), { refresh: true })).value, 'a3');
    assert.equal((await cache.get('archived', async () => ({ value: 'never', final: true }), { refresh: true })).value, 'z2');
  });

  it('is bounded: the least recently used entry goes first', async () => {
    const cache = new LookupCache<number>(3);
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => ({ value: 1, final: true }));
    await cache.get('a', async () => ({ value: 2, final: true }));
    await cache.get('d', async () => ({ value: 1, final: true }));
    assert.equal(cache.size, 3);
    assert.equal(cache.peek('b'), undefined);
    assert.ok(cache.peek('a'));
  });

  it('does not cache failures', async () => {
    const cache = new LookupCache<number>(3);
    await assert.rejects(
      cache.get('k', async () => {
        throw new Error('down');
      }),
    );
    assert.equal((await cache.get('k', async () => ({ value: 7, final: false }))).value, 7);
  });
});
