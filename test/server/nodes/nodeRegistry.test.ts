// The node registry, the one owner of node state, against the fake node over real HTTP: settings
// applied (problems once), status transitions, one client per node until what it is built from
// changes, whose token each node sends (read once per request), token expiry, learned facts.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { HttpTransport } from '../../../src/ledger/httpTransport';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { NodeRegistry, type IdentityChange, type NodeRegistryHost, type RegistryClock } from '../../../src/nodes/nodeRegistry';
import type { ClientCredentialsAuth } from '../../../src/auth/clientCredentials';
import { createOidcProtocol } from '../../../src/auth/oidcProtocol';
import type { NodeConfig } from '../../../src/nodes/nodeSettings';
import { LedgerLookupService } from '../../../src/services/lookupService';

/** Secrets in a map, counting reads: "one read per request" is measured, not assumed. */
class CountingSecrets {
  readonly tokens = new Map<string, string>();
  readonly clientSecrets = new Map<string, string>();
  reads = 0;
  token(node: NodeConfig): Promise<string | undefined> {
    this.reads++;
    return Promise.resolve(this.tokens.get(node.name));
  }
  clientSecret(node: NodeConfig, _auth: ClientCredentialsAuth): Promise<string | undefined> {
    this.reads++;
    return Promise.resolve(this.clientSecrets.get(node.name));
  }
  readonly refreshTokens = new Map<string, string>();
  refreshToken(node: NodeConfig): Promise<string | undefined> {
    this.reads++;
    return Promise.resolve(this.refreshTokens.get(node.name));
  }
  storeRefreshToken(node: NodeConfig, _auth: unknown, token: string | undefined): Promise<void> {
    if (token) this.refreshTokens.set(node.name, token);
    else this.refreshTokens.delete(node.name);
    return Promise.resolve();
  }
}

/** A clock that moves only when the test says: token expiry without waiting for it. */
class ManualClock implements RegistryClock {
  private at = Date.now();
  private timers: { due: number; fire: () => void }[] = [];
  now(): number {
    return this.at;
  }
  setTimer(fire: () => void, ms: number): () => void {
    const timer = { due: this.at + ms, fire };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((t) => t !== timer));
  }
  advance(ms: number): void {
    this.at += ms;
    const due = this.timers.filter((t) => t.due <= this.at);
    this.timers = this.timers.filter((t) => t.due > this.at);
    for (const t of due) t.fire();
  }
}

interface Harness {
  registry: NodeRegistry;
  clock: ManualClock;
  secrets: CountingSecrets;
  host: { trusted: boolean; active?: string; timeoutMs: number };
  events: { changed: number; nodes: number; tokens: number; identities: IdentityChange[]; refreshed: string[] };
}

function harness(): Harness {
  const secrets = new CountingSecrets();
  const clock = new ManualClock();
  const host = { trusted: true, active: undefined as string | undefined, timeoutMs: 5_000 };
  const options: NodeRegistryHost = {
    secrets,
    isTrusted: () => host.trusted,
    activeNodeName: () => host.active,
    connection: () => ({ timeoutMs: host.timeoutMs }),
    transport: () => {
      let t: HttpTransport | undefined;
      return () => Promise.resolve((t ??= createUndiciTransport()));
    },
    oidcProtocol: (auth, transport) => createOidcProtocol(auth, { transport }),
    userAgent: 'canton-lens-test',
    clock,
  };
  const registry = new NodeRegistry(options);
  const events = { changed: 0, nodes: 0, tokens: 0, identities: [] as IdentityChange[], refreshed: [] as string[] };
  registry.onDidChange(() => events.changed++);
  registry.onDidChangeNodes(() => events.nodes++);
  registry.onDidChangeTokens(() => events.tokens++);
  registry.onDidChangeIdentity((e) => events.identities.push(e));
  registry.onDidRequestRefresh((name) => events.refreshed.push(name));
  return { registry, clock, secrets, host, events };
}

const userNode = (name: string, url: string, extra: Partial<NodeConfig> = {}): NodeConfig => ({ name, url, scope: 'user', ...extra });

describe('the node registry (one owner of node state)', function () {
  this.timeout(20_000);
  let fake: FakeLedgerNode;
  let h: Harness;

  before(async () => {
    fake = await FakeLedgerNode.start({ version: '3.5', requestLog: 1000 });
  });
  after(() => fake.close());
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.registry.dispose());

  it('applies the settings: nodes replaced, each problem reported once, the active node from the setting or the only node', () => {
    const fresh = h.registry.applySettings([userNode('p1', fake.url)], ['node "x" has no URL']);
    assert.deepEqual(fresh, ['node "x" has no URL']);
    assert.deepEqual(h.registry.applySettings([userNode('p1', fake.url)], ['node "x" has no URL']), [], 'reported once');
    assert.equal(h.registry.active()?.name, 'p1', 'the only node');
    h.registry.applySettings([userNode('p1', fake.url), userNode('p2', fake.url)], []);
    assert.equal(h.registry.active(), undefined, 'two nodes, none chosen');
    h.host.active = 'p2';
    assert.equal(h.registry.active()?.name, 'p2');
    h.host.active = 'gone';
    assert.equal(h.registry.active(), undefined);
    assert.deepEqual(
      h.registry.all().map((n) => n.name),
      ['p1', 'p2'],
    );
    assert.equal(h.events.nodes, 3);
    assert.ok(h.events.changed >= 3);
  });

  it('status: unchecked, then checking (keeping what was shown), then reachable or unreachable', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    assert.deepEqual(h.registry.status(node), { state: 'unchecked' });
    const checking = h.registry.check(node);
    assert.equal(h.registry.status(node).state, 'checking');
    const reachable = await checking;
    assert.equal(reachable.state, 'reachable');
    assert.equal(h.registry.status(node), reachable);
    const again = h.registry.check(node);
    const shown = h.registry.status(node);
    assert.ok(shown.state === 'checking' && shown.previous === reachable, 'a re-check keeps the last answer to show');
    void h.registry.check(node);
    const twice = h.registry.status(node);
    assert.ok(twice.state === 'checking' && twice.previous === reachable, 'checking twice does not nest');
    await again;

    const closed = await FakeLedgerNode.start({ version: '3.5' });
    const url = closed.url;
    await closed.close();
    const down = userNode('down', url);
    h.registry.applySettings([node, down], []);
    const status = await h.registry.check(down);
    assert.equal(status.state, 'unreachable');
    assert.equal(status.state === 'unreachable' && status.error.kind, 'network');
  });

  it('a node removed while it is checked gets no status; one whose URL changed loses its client and status', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    const checking = h.registry.check(node);
    h.registry.applySettings([], []);
    await checking;
    assert.deepEqual(h.registry.status(node), { state: 'unchecked' });

    h.registry.applySettings([node], []);
    await h.registry.check(node);
    const client = h.registry.client(node);
    assert.equal(h.registry.client(node), client, 'one client per node');
    h.registry.applySettings([{ ...node }], []);
    assert.equal(h.registry.client(node), client, 'the same settings keep the client');
    assert.equal(h.registry.status(node).state, 'reachable');
    const moved = userNode('p1', `${fake.url}/api/json`);
    h.registry.applySettings([moved], []);
    assert.deepEqual(h.registry.status(moved), { state: 'unchecked' }, 'another URL is another node');
    assert.notEqual(h.registry.client(moved), client);
    const identityChanges = h.events.identities.filter((e) => e.node === 'p1');
    assert.equal(identityChanges.length, 1, 'a changed URL is an identity change');
  });

  it('a client is rebuilt when what it is built from changes (the request timeout, a proxy)', () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    const client = h.registry.client(node);
    h.host.timeoutMs = 9_000;
    assert.notEqual(h.registry.client(node), client);
  });

  it('credentials: the token and whose it is, one secret read; the identity is then known without reading', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    assert.equal(h.registry.knownIdentity(node), undefined);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    const c = await h.registry.credentials(node);
    assert.equal(c.identity.user, 'alice');
    assert.equal(h.secrets.reads, 1);
    assert.equal(h.registry.knownIdentity(node)?.user, 'alice');
    assert.equal(await h.registry.tokenUser(node), 'alice');
    assert.equal(h.secrets.reads, 1, 'naming the user reads no secret');
    assert.equal(h.events.identities.length, 0, 'the first identity seen is not a change');
  });

  it('a lookup, and a hover that asks, read the secret once', async () => {
    const node = userNode('p1', fake.url, { parties: [fake.ledger.parties.Alice] });
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    const lookups = new LedgerLookupService(h.registry, h.registry.facts);
    const id = fake.ledger.samples.archivedContract;
    // A hover: peek, then ask, then the next hover's peek.
    assert.equal(await lookups.peek(node, 'contract', id), undefined);
    assert.equal(h.secrets.reads, 0, 'a peek reads no secret');
    const first = await lookups.contract(node, id);
    assert.equal(h.secrets.reads, 1);
    assert.equal(first.askedAs.identity.user, 'alice');
    assert.ok(await lookups.peek(node, 'contract', id), 'the next hover is served from the cache');
    assert.equal(h.secrets.reads, 1);
    await lookups.contract(node, id, { refresh: true });
    assert.equal(h.secrets.reads, 2, 'one read per request');
    lookups.dispose();
  });

  it('a token set here is an identity change: facts forgotten, listeners told who it is now', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    const c = await h.registry.credentials(node);
    await h.registry.facts.accessFor(node, c);
    assert.ok(h.registry.facts.peekAccess(node, c.identity));
    h.secrets.tokens.set('p1', fake.mintToken('auditor'));
    await h.registry.tokenChanged(node);
    assert.deepEqual(
      h.events.identities.map((e) => [e.node, e.identity?.user]),
      [['p1', 'auditor']],
    );
    assert.equal(h.registry.facts.peekAccess(node, c.identity), undefined, 'what alice was allowed is forgotten');
    // Setting the same token again still sets aside what was asked (a deliberate act).
    await h.registry.tokenChanged(node);
    assert.equal(h.events.identities.length, 2);
  });

  it('a token changed in another window is noticed when the secrets change; the same token is no change', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    await h.registry.credentials(node);
    await h.registry.secretsChanged();
    assert.equal(h.events.identities.length, 0, 'unchanged');
    assert.equal(h.events.tokens, 1);
    h.secrets.tokens.set('p1', fake.mintToken('reader'));
    await h.registry.secretsChanged();
    assert.deepEqual(
      h.events.identities.map((e) => e.identity?.user),
      ['reader'],
    );
    h.secrets.tokens.delete('p1');
    await h.registry.secretsChanged();
    assert.deepEqual(
      h.events.identities.map((e) => e.identity?.kind),
      ['user', 'none'],
    );
  });

  it('changed parties or URL are an identity change; another origin or a removed node forgets the identity', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    await h.registry.credentials(node);
    h.registry.applySettings([{ ...node, parties: [fake.ledger.parties.Alice] }], []);
    assert.deepEqual(
      h.events.identities.map((e) => [e.node, e.identity?.user]),
      [['p1', 'alice']],
    );
    assert.equal(h.registry.knownIdentity(node)?.user, 'alice', 'the same token');
    h.registry.applySettings([{ ...node, url: fake.url.replace('127.0.0.1', 'localhost') }], []);
    assert.equal(h.events.identities.length, 2, 'another URL is an identity change');
    assert.equal(h.registry.knownIdentity(node), undefined, 'another origin is another stored token: not known until read');
    h.registry.applySettings([], []);
    assert.equal(h.registry.knownIdentity(node), undefined);
  });

  it('a workspace node in an untrusted workspace gets no stored token until trust is granted', async () => {
    const node: NodeConfig = { name: 'ws', url: fake.url, scope: 'workspace' };
    h.host.trusted = false;
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('ws', fake.mintToken('alice'));
    const info = await h.registry.tokenInfo(node);
    assert.equal(info.source, 'blocked');
    assert.match(h.registry.tokenBlockedReason(node)!, /untrusted workspace/);
    const c = await h.registry.credentials(node);
    assert.equal(c.token, undefined);
    assert.equal(c.identity.kind, 'none');
    assert.equal(h.secrets.reads, 0, 'the secret is not even read');
    h.host.trusted = true;
    await h.registry.trustChanged();
    assert.deepEqual(
      h.events.identities.map((e) => e.identity?.user),
      ['alice'],
      'trust granted: the stored token is the identity now',
    );
    assert.equal((await h.registry.credentials(node)).identity.user, 'alice');
  });

  it('token info: pasted (with its state), none, or client credentials without fetching a token', async () => {
    const node = userNode('p1', fake.url);
    const oauth = userNode('o', fake.url, { auth: { type: 'clientCredentials', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'canton-lens' } });
    h.registry.applySettings([node, oauth], []);
    assert.deepEqual(await h.registry.tokenInfo(node), { source: 'pasted', state: { state: 'none' } });
    h.secrets.tokens.set('p1', fake.mintToken('alice', { exp: Math.floor(Date.now() / 1000) + 3600 }));
    const pasted = await h.registry.tokenInfo(node);
    assert.ok(pasted.source === 'pasted' && pasted.state.state === 'valid' && pasted.state.claims.user === 'alice');
    assert.deepEqual(await h.registry.tokenInfo(oauth), { source: 'clientCredentials', state: { state: 'none' }, clientId: 'canton-lens' });
    h.secrets.clientSecrets.set('o', 'secret');
    assert.deepEqual(await h.registry.tokenInfo(oauth), { source: 'clientCredentials', state: { state: 'opaque' }, clientId: 'canton-lens' });
    assert.equal(await h.registry.currentIdentity(oauth), undefined, 'not known without fetching a token');
    assert.equal(await h.registry.tokenUser({ ...oauth, userId: 'svc' }), 'svc', 'the configured userId meanwhile');
  });

  it('a pasted token that expires redraws the view by itself', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice', { exp: Math.floor(h.clock.now() / 1000) + 1 }));
    await h.registry.tokenInfo(node);
    const before = h.events.changed;
    h.clock.advance(500);
    assert.equal(h.events.changed, before, 'nothing to redraw before expiry');
    h.clock.advance(2_100);
    assert.ok(h.events.changed > before, 'changed after expiry');
    const info = await h.registry.tokenInfo(node);
    assert.equal(info.source === 'pasted' && info.state.state, 'expired');
  });

  it('Refresh forgets what was learned of the node (user, rights) and says so', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    const c = await h.registry.credentials(node);
    await h.registry.facts.accessFor(node, c);
    const rightsAsked = () => fake.requests.filter((r) => r.path.includes('/rights')).length;
    const asked = rightsAsked();
    await h.registry.facts.accessFor(node, c);
    assert.equal(rightsAsked(), asked, 'remembered');
    h.registry.requestRefresh(node);
    assert.deepEqual(h.events.refreshed, ['p1']);
    assert.equal(h.registry.facts.peekAccess(node, c.identity), undefined);
    await h.registry.facts.accessFor(node, c);
    assert.equal(rightsAsked(), asked + 1, 'asked again after Refresh');
  });

  it('a URL moved away and back asks the rights again: what was learned at the old URL went with the move', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    const c = await h.registry.credentials(node);
    await h.registry.facts.accessFor(node, c);
    assert.ok(h.registry.facts.peekAccess(node, c.identity), 'learned');
    const moved = { ...node, url: `${fake.url}/elsewhere` };
    h.registry.applySettings([moved], []);
    h.registry.applySettings([node], []);
    assert.equal(h.registry.facts.peekAccess(node, c.identity), undefined, "the old URL's rights were kept through the move");
    await h.registry.facts.accessFor(node, c);
    h.registry.applySettings([], []);
    assert.equal(h.registry.facts.peekAccess(node, c.identity), undefined, "a removed node's rights were kept");
  });

  it('when the secret store cannot be read, the last identity is forgotten (nothing remembered for it is served)', async () => {
    const node = userNode('p1', fake.url);
    h.registry.applySettings([node], []);
    h.secrets.tokens.set('p1', fake.mintToken('alice'));
    await h.registry.credentials(node);
    assert.equal(h.registry.knownIdentity(node)?.user, 'alice');
    h.secrets.token = () => Promise.reject(new Error('secret storage unavailable'));
    await h.registry.secretsChanged();
    assert.equal(h.registry.knownIdentity(node), undefined);
    assert.deepEqual(
      h.events.identities.map((e) => [e.node, e.identity]),
      [['p1', undefined]],
    );
  });

  it('a listener that throws does not keep the others from hearing; a disposed subscription hears nothing', () => {
    let heard = 0;
    const bad = h.registry.onDidChangeNodes(() => {
      throw new Error('listener failure');
    });
    const good = h.registry.onDidChangeNodes(() => heard++);
    const error = console.error;
    console.error = () => undefined;
    try {
      h.registry.applySettings([], []);
    } finally {
      console.error = error;
    }
    assert.equal(heard, 1);
    good.dispose();
    bad.dispose();
    h.registry.applySettings([], []);
    assert.equal(heard, 1);
  });
});
