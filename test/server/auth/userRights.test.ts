// The token's user and rights: the fake node's routes (per version), the client, the rights →
// parties rules and the cache that asks once per node and identity.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { identityOfToken } from '../../../src/auth/ledgerIdentity';
import {
  describeRightsUsed,
  effectiveParties,
  missingRightFor,
  parseRights,
  parseUser,
  readRightFor,
  rightsLines,
  type LearnedAccess,
} from '../../../src/auth/userRights';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { NodeAccessCache, learnAccess } from '../../../src/nodes/nodeAccess';
import { send } from '../../support/specBodies';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

for (const version of VERSIONS) {
  describe(`the fake node's user and party routes on ${version}`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    const get = (path: string, user?: string) => send(node, 'GET', path, undefined, user ? { authorization: `Bearer ${node.mintToken(user)}` } : {});
    before(async () => {
      node = await FakeLedgerNode.start({
        version,
        bigTransactionEvents: 3,
        checkResponses: true,
        extraHostedParties: 1000,
        maxPartiesPageSize: 300,
        extraUsers: { 'eve#<b>|x': [{ canReadAs: 'Alice::1220' }], many: Array.from({ length: 12 }, (_, i) => ({ canReadAs: `P${i}::1220ab` })) },
        maxRightsPerUser: 10,
      });
    });
    after(() => node.close());
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it("authenticated-user: the token's user with its primary party; 401 without a token; 403 for a deactivated or deleted user", async () => {
      const r = await get('/v2/authenticated-user', 'alice');
      assert.equal(r.status, 200);
      assert.deepEqual(parseUser(r.json), { id: 'alice', primaryParty: node.ledger.parties.Alice, isDeactivated: false });
      assert.equal((await get('/v2/authenticated-user')).status, 401);
      assert.equal((await get('/v2/authenticated-user', 'former')).status, 403);
      assert.equal((await get('/v2/authenticated-user', 'deleted-user')).status, 403);
    });

    it("users/{user-id}/rights: one's own, anyone's for a ParticipantAdmin, 403 for another user's, 404 for an unknown user; ids escaped in the path", async () => {
      const own = await get('/v2/users/alice/rights', 'alice');
      assert.equal(own.status, 200);
      assert.deepEqual(own.json, { rights: [{ kind: { CanActAs: { value: { party: node.ledger.parties.Alice } } } }] });
      assert.equal((await get('/v2/users/bob/rights', 'alice')).status, 403);
      assert.equal((await get('/v2/users/bob/rights', 'participant_admin')).status, 200);
      const unknown = await get('/v2/users/nobody/rights', 'participant_admin');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json?.code, 'USER_NOT_FOUND');
      const hostile = await get(`/v2/users/${encodeURIComponent('eve#<b>|x')}/rights`, 'participant_admin');
      assert.equal(hostile.status, 400, 'not a valid user id');
      const none = await get('/v2/users/participant_admin/rights', 'participant_admin');
      assert.deepEqual(none.json, { rights: [{ kind: { ParticipantAdmin: { value: {} } } }] });
      const many = await get('/v2/users/many/rights', 'many');
      assert.equal((many.json?.rights as unknown[]).length, 12, 'more than the advertised maxRightsPerUser (10)');
    });

    it('participant-id for any user; parties paged, for a ParticipantAdmin only; synchronizers as a readable party or an admin', async () => {
      assert.deepEqual((await get('/v2/parties/participant-id', 'alice')).json, { participantId: node.ledger.participantId });
      assert.equal((await get('/v2/parties', 'alice')).status, 403);
      const seen: string[] = [];
      let token = '';
      let pages = 0;
      do {
        const r = await get(`/v2/parties?pageSize=500${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`, 'participant_admin');
        assert.equal(r.status, 200);
        seen.push(...(r.json!.partyDetails as { party: string }[]).map((p) => p.party));
        token = r.json!.nextPageToken as string;
        pages++;
      } while (token);
      assert.equal(seen.length, 1005);
      assert.equal(pages, 4, 'pages of at most maxPartiesPageSize (300)');
      assert.equal((await get('/v2/parties?pageToken=garbage', 'participant_admin')).status, 400);
      assert.equal((await get('/v2/state/connected-synchronizers', 'alice')).status, 403);
      const mine = await get(`/v2/state/connected-synchronizers?party=${encodeURIComponent(node.ledger.parties.Alice)}`, 'alice');
      assert.equal(mine.status, 200);
      assert.equal((mine.json!.connectedSynchronizers as unknown[]).length, 2);
      assert.equal((await get(`/v2/state/connected-synchronizers?party=${encodeURIComponent(node.ledger.parties.Bob)}`, 'alice')).status, 403);
      assert.equal((await get('/v2/state/connected-synchronizers', 'participant_admin')).status, 200);
    });

    it("latest-pruned-offsets names the ledger's pruning point, and prune() moves it", async () => {
      const r = await get('/v2/state/latest-pruned-offsets', 'alice');
      assert.equal(r.json?.participantPrunedUpToInclusive, node.ledger.prunedUpTo);
      assert.equal(node.ledger.prunedUpTo, 10);
      node.prune(12);
      assert.equal((await get('/v2/state/latest-pruned-offsets', 'alice')).json?.participantPrunedUpToInclusive, 12);
    });
  });
}

describe('rights → parties', () => {
  const A = 'Alice::1220aa';
  const B = 'Bob::1220bb';
  const known = (rights: unknown[], user = 'u', isDeactivated = false): LearnedAccess => ({
    state: 'known',
    user: { id: user, isDeactivated },
    rights: parseRights({ rights }),
  });
  const actAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
  const readAs = (party: string) => ({ kind: { CanReadAs: { value: { party } } } });

  it('reads the rights defensively, grouped by party', () => {
    const r = parseRights({
      rights: [
        actAs(A),
        readAs(A),
        readAs(B),
        { kind: { CanExecuteAs: { value: { party: B } } } },
        { kind: { ParticipantAdmin: { value: {} } } },
        { kind: { Empty: {} } },
        { kind: { CanActAs: {} } },
        null,
        'x',
      ],
    });
    assert.deepEqual(
      [...r.byParty],
      [
        [A, ['CanActAs', 'CanReadAs']],
        [B, ['CanReadAs', 'CanExecuteAs']],
      ],
    );
    assert.deepEqual([...r.admin], ['ParticipantAdmin']);
    assert.equal(r.unknown, 4);
    assert.equal(r.total, 9);
    assert.equal(readRightFor(r, A), 'CanActAs');
    assert.equal(readRightFor(r, 'Carol::1220'), undefined);
    assert.deepEqual(parseRights(undefined).total, 0);
    assert.deepEqual(parseRights({ rights: 'no' }).total, 0);
    assert.ok(rightsLines(r).some((l) => l.label === 'ParticipantAdmin'));
  });

  it('an ordinary CanActAs user reads as its party, by party; the rights say which right gave it', () => {
    const e = effectiveParties(undefined, known([actAs(A)], 'alice'));
    assert.deepEqual(e, { parties: [A], source: 'rights', rightOf: { [A]: 'CanActAs' } });
    assert.equal(describeRightsUsed(e), 'CanActAs Alice::1220aa');
  });

  it('a readAs-only user reads as each of its parties', () => {
    assert.deepEqual(effectiveParties([], known([readAs(A), readAs(B)])).parties, [A, B]);
  });

  it('CanReadAsAnyParty (or CanActAsAnyParty): the any-party form, even beside party rights', () => {
    const e = effectiveParties(undefined, known([readAs(A), { kind: { CanReadAsAnyParty: { value: {} } } }]));
    assert.deepEqual(e, { parties: [], source: 'rights', rightOf: { '*': 'CanReadAsAnyParty' } });
    assert.deepEqual(effectiveParties(undefined, known([{ kind: { CanActAsAnyParty: { value: {} } } }])).rightOf, { '*': 'CanActAsAnyParty' });
  });

  it('no read right (ParticipantAdmin, CanExecuteAs only, no rights at all, deactivated): nothing to send, and why', () => {
    const admin = effectiveParties(undefined, known([{ kind: { ParticipantAdmin: { value: {} } } }], 'participant_admin'));
    assert.match(admin.refusal ?? '', /participant_admin holds ParticipantAdmin, but no right to read.*ParticipantAdmin alone reads nothing/);
    assert.match(effectiveParties(undefined, known([{ kind: { CanExecuteAs: { value: { party: A } } } }])).refusal ?? '', /holds CanExecuteAs Alice::1220aa/);
    assert.match(effectiveParties(undefined, known([], 'nobody')).refusal ?? '', /nobody has no rights on this node/);
    assert.match(effectiveParties(undefined, known([actAs(A)], 'former', true)).refusal ?? '', /former is deactivated/);
  });

  it('configured parties win; one without a right is named', () => {
    const e = effectiveParties([B], known([actAs(A)], 'alice'));
    assert.deepEqual(e.parties, [B]);
    assert.equal(e.source, 'settings');
    assert.match(e.note ?? '', /alice has no read right for Bob::1220bb/);
    assert.deepEqual(effectiveParties([A], { state: 'unknown', reason: 'x' }), { parties: [A], source: 'settings', rightOf: {} });
  });

  it('rights unknown (old node, proxy, 403 from an identity provider): the any-party form, saying why', () => {
    const e = effectiveParties(undefined, { state: 'unknown', reason: 'the node has no authenticated-user endpoint' });
    assert.deepEqual(e.parties, []);
    assert.equal(e.source, 'fallback');
    assert.match(e.note ?? '', /could not be read \(the node has no authenticated-user endpoint\): asking for any party/);
  });

  it('a 403 names the missing right and the party', () => {
    assert.equal(missingRightFor([B], known([actAs(A)], 'alice')), 'alice lacks CanReadAs (or CanActAs) for Bob::1220bb.');
    assert.equal(missingRightFor([], known([actAs(A)], 'alice')), 'alice lacks CanReadAsAnyParty, which asking for any party needs.');
    assert.equal(missingRightFor([A], known([actAs(A)], 'alice')), undefined);
    assert.equal(missingRightFor([A], undefined), undefined);
  });
});

describe('learning the access of a token', function () {
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
  const req = (user: string, token = node.mintToken(user)) => ({ url: node.url, identity: identityOfToken(token), token, client });

  it('an ordinary user: its id, primary party and rights, in two requests sent together', async () => {
    const before = node.requests.length;
    const a = await learnAccess(req('alice'));
    assert.equal(a.state, 'known');
    assert.ok(a.state === 'known' && a.user.primaryParty === node.ledger.parties.Alice && readRightFor(a.rights, node.ledger.parties.Alice) === 'CanActAs');
    assert.deepEqual(
      node.requests
        .slice(before)
        .map((r) => r.path)
        .sort(),
      ['/v2/authenticated-user', '/v2/users/alice/rights'],
    );
  });

  it("a token without a user id asks authenticated-user first, then that user's rights", async () => {
    const token = node.mintToken('auditor');
    const a = await learnAccess({ ...req('auditor', token), identity: { key: 'token#x', kind: 'token' } });
    assert.ok(a.state === 'known' && a.user.id === 'auditor');
    assert.deepEqual(effectiveParties(undefined, a).parties, [node.ledger.parties.Alice, node.ledger.parties.Bob]);
  });

  it('a deactivated user and a deleted one are refused; a node without the route is unknown, with the reason', async () => {
    const former = await learnAccess(req('former'));
    assert.equal(former.state, 'refused');
    assert.match(former.state === 'refused' ? former.reason : '', /deactivated/);
    const deleted = await learnAccess(req('deleted-user'));
    assert.match(deleted.state === 'refused' ? deleted.reason : '', /deleted/);
    node.injectFault({
      path: '/v2/authenticated-user',
      fault: { type: 'reply', status: 404, contentType: 'text/plain', body: 'The requested resource could not be found.' },
      times: 1,
    });
    const old = await learnAccess(req('bob'));
    assert.equal(old.state, 'unknown');
    assert.match(old.state === 'unknown' ? old.reason : '', /no authenticated-user endpoint/);
  });

  it('100 asks of one identity make one rights request; another token asks again; forget() clears', async () => {
    const cache = new NodeAccessCache();
    const count = () => node.requests.filter((r) => r.path.endsWith('/rights')).length;
    const start = count();
    const r = req('alice');
    await Promise.all(Array.from({ length: 100 }, () => cache.get(r)));
    assert.equal(count() - start, 1);
    assert.ok(cache.peek(node.url, r.identity));
    await cache.get(req('bob'));
    assert.equal(count() - start, 2);
    cache.forget(node.url);
    assert.equal(cache.peek(node.url, r.identity), undefined);
  });
});
