// Who asked: the identity of a token, the keys of remembered answers, and a token switched while a
// lookup is in flight (the answer stays the identity's that asked it).
import * as assert from 'node:assert/strict';
import {
  IdentityTracker,
  NO_TOKEN,
  askedAsLine,
  identityChangeNotice,
  identityName,
  identityOfToken,
  lookupKey,
  sameAsker,
  tokenDigest,
} from '../../../src/auth/ledgerIdentity';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { LookupCache } from '../../../src/lookups/lookupCache';
import { identityBar } from '../../../src/panels/html/identityHtml';
import type { Credentials } from '../../../src/auth/ledgerIdentity';
import { lookupContract, lookupTransaction, type LedgerLookup } from '../../../src/lookups/ledgerLookups';

const jwt = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('the identity of a token', () => {
  it('is the JWT subject when there is one', () => {
    const a = identityOfToken(jwt({ sub: 'alice', exp: 1 }));
    assert.deepEqual(a, { key: 'user:alice', kind: 'user', user: 'alice' });
    assert.equal(identityOfToken(jwt({ sub: 'alice', exp: 2, scope: 'other' })).key, a.key, 'another token of the same user is the same identity');
    assert.notEqual(identityOfToken(jwt({ sub: 'bob' })).key, a.key);
    assert.equal(identityName(a), 'alice');
  });

  it('is a digest of the token when it is not a JWT or has no subject: the token itself is never kept', () => {
    const opaque = 'opaque-secret-token-0123456789';
    const i = identityOfToken(opaque);
    assert.equal(i.kind, 'token');
    assert.match(i.key, /^token#[0-9a-f]{16}$/);
    assert.equal(i.key, tokenDigest(opaque));
    assert.ok(!JSON.stringify(i).includes(opaque), 'the token is not in the identity');
    assert.notEqual(identityOfToken(`${opaque}x`).key, i.key, 'two opaque tokens are two identities');
    const noSub = jwt({ exp: 1 });
    assert.equal(identityOfToken(noSub).kind, 'token');
    assert.ok(!JSON.stringify(identityOfToken(noSub)).includes(noSub));
    assert.equal(identityName(i), 'a token without a user id', 'named without the digest');
  });

  it('is the OAuth2 client for an opaque client-credentials token (a refresh is the same identity)', () => {
    const client = { tokenUrl: 'https://idp.example.com/token', clientId: 'canton-lens' };
    const a = identityOfToken('opaque-1', client);
    assert.equal(a.kind, 'client');
    assert.equal(identityOfToken('opaque-2', client).key, a.key);
    assert.equal(identityName(a), 'client canton-lens');
    assert.equal(identityOfToken(jwt({ sub: 'svc' }), client).key, 'user:svc', 'a subject wins');
  });

  it('is "no token" without one', () => {
    assert.equal(identityOfToken(undefined), NO_TOKEN);
    assert.equal(identityOfToken(''), NO_TOKEN);
    assert.equal(identityName(NO_TOKEN), 'no token');
  });
});

describe('the key of a remembered answer', () => {
  const reader = identityOfToken(jwt({ sub: 'reader' }));
  const admin = identityOfToken(jwt({ sub: 'participant_admin' }));
  const url = 'http://127.0.0.1:7575';

  it('holds the URL, who asked, the parties, the request form and the id: two identities never share one', () => {
    const k = lookupKey(url, reader, [], 'events-by-contract-id', '00ab');
    assert.notEqual(lookupKey(url, admin, [], 'events-by-contract-id', '00ab'), k);
    assert.notEqual(lookupKey(url, NO_TOKEN, [], 'events-by-contract-id', '00ab'), k);
    assert.notEqual(lookupKey(url, identityOfToken('opaque'), [], 'events-by-contract-id', '00ab'), k);
    assert.notEqual(lookupKey('http://127.0.0.1:7576', reader, [], 'events-by-contract-id', '00ab'), k);
    assert.notEqual(lookupKey(url, reader, ['Alice::1220'], 'events-by-contract-id', '00ab'), k);
    assert.notEqual(lookupKey(url, reader, [], 'transaction', '00ab'), k);
    assert.notEqual(lookupKey(url, reader, [], 'events-by-contract-id', '00ac'), k);
    assert.equal(lookupKey(url, reader, ['B', 'A'], 'f', 'i'), lookupKey(url, reader, ['A', 'B'], 'f', 'i'), 'the order of parties does not matter');
    assert.equal(lookupKey(url, reader, undefined, 'f', 'i'), lookupKey(url, reader, [], 'f', 'i'));
  });

  it("keeps two identities apart in the cache: B asks the node although A's answer is there", async () => {
    const cache = new LookupCache<string>(10);
    let requests = 0;
    const ask = (who: string) => async () => ({ value: `${who}-${++requests}`, final: true });
    const kA = lookupKey(url, reader, [], 'events-by-contract-id', '00ab');
    const kB = lookupKey(url, admin, [], 'events-by-contract-id', '00ab');
    assert.equal((await cache.get(kA, ask('reader'))).value, 'reader-1');
    assert.equal(cache.peek(kB), undefined, 'a hover as B finds nothing of A');
    assert.equal((await cache.get(kB, ask('admin'))).value, 'admin-2');
    assert.equal(requests, 2);
    // Concurrent callers of two identities never share one request either.
    const [a, b] = await Promise.all([cache.get(`${kA}x`, ask('reader')), cache.get(`${kB}x`, ask('admin'))]);
    assert.deepEqual([a.value.split('-')[0], b.value.split('-')[0]], ['reader', 'admin']);
  });
});

describe('saying who a panel shows', () => {
  const alice = { identity: identityOfToken(jwt({ sub: 'alice' })), parties: ['Alice::1220abcdef0123456789'] };
  const reader = { identity: identityOfToken(jwt({ sub: 'reader' })), parties: [] };
  const admin = { identity: identityOfToken(jwt({ sub: 'participant_admin' })), parties: [] };

  it('names the identity and the parties', () => {
    assert.equal(askedAsLine(alice), 'As seen by alice: Alice::1220ab…');
    assert.equal(askedAsLine(reader), 'As seen by reader: any party on the node');
  });

  it('says what changed, with the ask-again label, and nothing when nothing did', () => {
    assert.equal(identityChangeNotice('p1', reader, { ...reader }), undefined);
    assert.deepEqual(identityChangeNotice('p1', reader, admin), {
      text: 'Asked as reader; the token of p1 is now participant_admin.',
      button: 'Ask Again as participant_admin',
    });
    assert.match(
      identityChangeNotice('p1', alice, { ...alice, parties: ['Bob::1220abcdef0123456789'] })!.text,
      /^Asked as alice for Alice::1220ab…; p1 now reads as Bob::1220ab…\.$/,
    );
    const o1 = { identity: identityOfToken('opaque-1'), parties: [] };
    const o2 = { identity: identityOfToken('opaque-2'), parties: [] };
    const n = identityChangeNotice('p1', o1, o2)!;
    assert.match(n.text, /earlier token/);
    assert.ok(!n.text.includes('token#') && !n.button.includes('token#'), 'no digest in what the UI shows');
    assert.ok(sameAsker(alice, { identity: identityOfToken(jwt({ sub: 'alice', exp: 9 })), parties: [...alice.parties].reverse() }));
  });
});

describe('IdentityTracker', () => {
  it('reports a change of token, not the first sight or the same token again; a forced change always', () => {
    const t = new IdentityTracker();
    const a = identityOfToken(jwt({ sub: 'alice' }));
    const b = identityOfToken(jwt({ sub: 'bob' }));
    assert.equal(t.observe('p1', a, 'mark-a'), undefined, 'first sight');
    assert.equal(t.observe('p1', a, 'mark-a'), undefined, 'the same token');
    assert.deepEqual(t.observe('p1', b, 'mark-b'), { previous: a });
    assert.equal(t.current('p1'), b);
    assert.deepEqual(t.observe('p1', b, 'mark-b2'), { previous: b }, 'a new token of the same user is a change (nothing cached is reused)');
    assert.deepEqual(t.observe('p1', b, 'mark-b2', true), { previous: b }, 'forced: a token was set');
    assert.equal(t.observe('p2', a, 'mark-a'), undefined, 'nodes are apart');
    t.forget('p1');
    assert.equal(t.current('p1'), undefined);
  });
});

describe('a token switched while a lookup is in flight (fake node)', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  /** What the token store holds now. */
  let stored: string;

  before(async () => {
    node = await FakeLedgerNode.start();
    client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => stored });
  });
  after(async () => {
    await client.close();
    await node.close();
  });
  beforeEach(() => {
    node.clearFaults();
    node.requests.length = 0;
  });

  /** Resolved once, as LedgerNodes.credentials does: the token and whose it is. */
  const resolve = (): Credentials => ({ token: stored, identity: identityOfToken(stored) });
  const bearer = (path: string) => node.requests.filter((r) => r.path === path).map((r) => r.headers.authorization);

  it('sends the token it was resolved with, on every request of the lookup, and says so', async () => {
    stored = node.mintToken('reader');
    const asked = resolve();
    // The version check comes first and is slow: the token is switched before the lookup's own request.
    node.injectFault({ path: '/v2/version', fault: { type: 'latency', ms: 300 }, times: 1 });
    const pending = lookupTransaction(client, node.ledger.samples.transferUpdate, { nodeName: 'p1', credentials: asked });
    await new Promise((r) => setTimeout(r, 50));
    stored = node.mintToken('participant_admin');
    const l = await pending;
    assert.ok(l.found, 'read as reader, who may read every party');
    assert.equal(l.askedAs.identity.user, 'reader');
    assert.deepEqual(bearer('/v2/updates/transaction-by-id'), [`Bearer ${asked.token}`], 'the token the answer is filed under is the one sent');
  });

  it('files the late answer under the identity that asked; the new identity asks the node and gets its own 403', async () => {
    const cache = new LookupCache<LedgerLookup>(10);
    const id = node.ledger.samples.activeContract;
    const lookup = (c: Credentials) =>
      cache.get(lookupKey(node.url, c.identity, [], 'events-by-contract-id', id), async () => {
        const l = await lookupContract(client, id, { nodeName: 'p1', credentials: c });
        return { value: l, final: false };
      });
    stored = node.mintToken('reader');
    node.injectFault({ path: '/v2/events/events-by-contract-id', fault: { type: 'latency', ms: 300 }, times: 1 });
    const asReader = resolve();
    const late = lookup(asReader);
    await new Promise((r) => setTimeout(r, 50));
    stored = node.mintToken('participant_admin');
    const asAdmin = resolve();
    await assert.rejects(
      lookup(asAdmin),
      (e: { kind: string; status: number }) => e.kind === 'permissionDenied' && e.status === 403,
      "admin does not join the reader's request in flight",
    );
    const l = (await late).value;
    assert.ok(l.kind === 'contract' && l.found && l.status === 'active');
    assert.equal(l.askedAs.identity.user, 'reader');
    assert.ok(cache.peek(lookupKey(node.url, asReader.identity, [], 'events-by-contract-id', id)), 'filed under reader');
    assert.equal(cache.peek(lookupKey(node.url, asAdmin.identity, [], 'events-by-contract-id', id)), undefined, 'never under admin');
    assert.deepEqual(bearer('/v2/events/events-by-contract-id'), [`Bearer ${asReader.token}`, `Bearer ${asAdmin.token}`]);
    await assert.rejects(lookup(asAdmin), (e: { kind: string }) => e.kind === 'permissionDenied', 'a 403 is not cached: it asks again');
    assert.equal(bearer('/v2/events/events-by-contract-id').length, 3);
  });

  it('keys an opaque token by its digest: the node refuses it, and nothing of another identity is served', async () => {
    stored = 'not-a-jwt-at-all';
    const c = resolve();
    assert.match(c.identity.key, /^token#/);
    await assert.rejects(
      lookupContract(client, node.ledger.samples.activeContract, { nodeName: 'p1', credentials: c }),
      (e: { kind: string }) => e.kind === 'unauthenticated',
    );
  });
});

describe('the identity bar of a panel', () => {
  it("names who asked, says when the token is someone else's now, with one ask-again button; escaped, no digest", () => {
    const evil = '<img src=x onerror=alert(1)>';
    const asked = { identity: identityOfToken(jwt({ sub: evil })), parties: [] };
    const opaque = { identity: identityOfToken('opaque-token-value'), parties: [] };
    const notice = identityChangeNotice('p1', asked, opaque)!;
    const page = identityBar({ lines: [askedAsLine(asked)], notices: [notice] }).text;
    assert.ok(!page.includes('<img'), 'a subject is data, escaped');
    assert.match(page, /class="stale-identity" id="stale-identity" role="alert"/);
    assert.match(page, /the token of p1 is now a token without a user id\./);
    assert.equal((page.match(/data-action="askAgain"/g) ?? []).length, 1);
    assert.match(page, />Ask Again as a token without a user id</);
    assert.ok(!page.includes('token#') && !page.includes('opaque-token-value'), 'neither the digest nor the token');
    assert.ok(
      !identityBar({ lines: ['As seen by reader: any party on the node'], notices: [] }).text.includes('stale-identity'),
      'no banner when nothing changed',
    );
  });
});
