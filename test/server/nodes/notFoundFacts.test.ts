// "Not found" explained from facts: each case, and the lookups that configure themselves.
import * as assert from 'node:assert/strict';
import { identityOfToken } from '../../../src/auth/ledgerIdentity';
import { effectiveParties, parseRights, type LearnedAccess } from '../../../src/auth/userRights';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { lookupContract, lookupTransaction } from '../../../src/lookups/ledgerLookups';
import { NodeAccessCache } from '../../../src/nodes/nodeAccess';
import { explainNotFound, type NotFoundFacts } from '../../../src/lookups/notFoundFacts';
import { notFoundFactsHtml } from '../../../src/panels/html/errorDetailsHtml';

const A = 'Alice::1220aa';
const alice: LearnedAccess = {
  state: 'known',
  user: { id: 'alice', isDeactivated: false },
  rights: parseRights({ rights: [{ kind: { CanActAs: { value: { party: A } } } }] }),
};
const base = (over: Partial<NotFoundFacts> = {}): NotFoundFacts => ({
  kind: 'contract',
  id: '00ab',
  nodeName: 'p1',
  user: 'alice',
  effective: effectiveParties(undefined, alice),
  access: alice,
  prunedUpTo: 0,
  elsewhere: [],
  ...over,
});

describe('not found, explained from facts', () => {
  it('names the parties asked and the right that gave each, and where they came from', () => {
    const e = explainNotFound(base());
    assert.equal(e.case, 'notVisible');
    assert.deepEqual(e.facts[0], { label: 'Asked as', value: "alice: CanActAs Alice::1220aa (from the token's rights)" });
    assert.match(e.text, /Nothing is pruned here/);
  });

  it('a node that has pruned: the pruning offset, and "Look Up on All Nodes" to look further', () => {
    const e = explainNotFound(base({ prunedUpTo: 10 }));
    assert.equal(e.case, 'maybePruned');
    assert.match(e.text, /pruned up to offset 10/);
    assert.ok(e.facts.some((f) => f.label === 'Pruned up to' && f.value === 'offset 10'));
    assert.match(notFoundFactsHtml(e).toString(), /data-action="allNodes"/);
  });

  it("seen on another node at a lower offset than this node's pruning point: pruned here", () => {
    const e = explainNotFound(base({ prunedUpTo: 10, elsewhere: [{ node: 'p2', parties: [A], offset: 4, summary: 'archived · Notes:Note' }] }));
    assert.equal(e.case, 'prunedHere');
    assert.match(e.text, /pruned here\. p2 has it at offset 4, at or below this node's pruning point \(10\)/);
  });

  it('seen on another node above the pruning point: not visible here, and as which party it is seen there', () => {
    const e = explainNotFound(base({ prunedUpTo: 10, elsewhere: [{ node: 'p2', parties: ['Bob::1220bb'], offset: 40, summary: 'active · Iou:Iou' }] }));
    assert.equal(e.case, 'seenElsewhere');
    assert.match(e.text, /p2 sees it as Bob::1220bb/);
  });

  it('a deactivated user, and an id of another kind', () => {
    const off: LearnedAccess = { ...alice, user: { id: 'former', isDeactivated: true } };
    assert.equal(explainNotFound(base({ access: off })).case, 'deactivated');
    const wrong = explainNotFound(base({ otherKind: 'update' }));
    assert.equal(wrong.case, 'wrongKind');
    assert.match(wrong.text, /has the shape of an update id, not of a contract id/);
  });

  it('a pruning point that could not be read is said, not guessed; hostile text stays text', () => {
    const e = explainNotFound(
      base({ prunedUpTo: undefined, prunedUnknown: 'needs <b>x</b>', elsewhere: [{ node: '<img src=x onerror=alert(1)>', parties: [], summary: 'active' }] }),
    );
    assert.ok(e.facts.some((f) => f.value === 'not known (needs <b>x</b>)'));
    const h = notFoundFactsHtml(e).toString();
    assert.doesNotMatch(h, /<img|<b>/);
  });
});

describe('lookups that configure themselves', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 3 });
    client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport() });
  });
  after(async () => {
    await client.close();
    await node.close();
  });
  const ctxFor = async (user: string, parties?: string[]) => {
    const token = node.mintToken(user);
    const credentials = { token, identity: identityOfToken(token) };
    const access = await new NodeAccessCache().get({ url: node.url, identity: credentials.identity, token, client });
    const effective = effectiveParties(parties, access);
    return { nodeName: 'dev', parties: effective.parties, user, credentials, effective, access };
  };

  it('an ordinary CanActAs user with no parties configured finds its contract on the first try, asked by party', async () => {
    const l = await lookupContract(client, node.ledger.samples.activeContract, await ctxFor('alice'));
    assert.ok(l.found);
    assert.deepEqual(Object.keys(l.request.eventFormat.filtersByParty ?? {}), [node.ledger.parties.Alice]);
    assert.equal(l.request.eventFormat.filtersForAnyParty, undefined);
    assert.equal(l.askedAs.source, 'rights');
  });

  it('a readAs-only user reads as both its parties; CanReadAsAnyParty uses the any-party form', async () => {
    const t = await lookupTransaction(client, node.ledger.samples.transferUpdate, await ctxFor('auditor'));
    assert.ok(t.found);
    const any = await lookupContract(client, node.ledger.samples.bankOnlyContract, await ctxFor('reader'));
    assert.ok(any.found && any.request.eventFormat.filtersForAnyParty);
  });

  it('no read right: nothing is sent, and the refusal says why', async () => {
    const before = node.requests.filter((r) => r.path.includes('events-by-contract-id')).length;
    await assert.rejects(
      lookupContract(client, node.ledger.samples.activeContract, await ctxFor('participant_admin')),
      (e: { kind: string; explanation: string }) => e.kind === 'permissionDenied' && /ParticipantAdmin alone reads nothing/.test(e.explanation),
    );
    assert.equal(node.requests.filter((r) => r.path.includes('events-by-contract-id')).length, before);
  });

  it('a 403 names the missing right and the party', async () => {
    await assert.rejects(
      lookupContract(client, node.ledger.samples.activeContract, await ctxFor('alice', [node.ledger.parties.Bob])),
      (e: { kind: string; explanation: string }) => e.kind === 'permissionDenied' && /alice lacks CanReadAs \(or CanActAs\) for Bob::/.test(e.explanation),
    );
  });

  it('an update id asked as a contract is not sent, and comes back as not found of the wrong kind', async () => {
    const l = await lookupContract(client, node.ledger.samples.transferUpdate, await ctxFor('alice'));
    assert.equal(l.found, false);
  });
});
