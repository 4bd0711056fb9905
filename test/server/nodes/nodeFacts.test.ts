// Bad input, as the facts under a node take it (through the node registry, against the
// fake node over real HTTP): 403 and 404 on each endpoint, no rights, 1,000 hosted parties paged,
// hostile user ids and party hints, a token whose user was deleted, more rights than advertised.
import * as assert from 'node:assert/strict';
import { effectiveParties, rightsLines } from '../../../src/auth/userRights';
import { redacted } from '../../../fake-ledger/src/cantonErrorBodies';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { NodeRegistry } from '../../../src/nodes/nodeRegistry';
import { registryAs } from '../../support/registryAs';

const HOSTILE_USER = 'eve#<b>|x';
const HOSTILE_PARTY = '<img src=x onerror=alert(1)>::1220ab';

/** The endpoints the tree's facts come from, as the fake node records their paths. */
const FACT_ROUTES = {
  participantId: '/v2/parties/participant-id',
  parties: '/v2/parties',
  ledgerEnd: '/v2/state/ledger-end',
  prunedUpTo: '/v2/state/latest-pruned-offsets',
  synchronizers: '/v2/state/connected-synchronizers',
} as const;

const routeMissing = { type: 'reply' as const, status: 404, contentType: 'text/plain', body: 'The requested resource could not be found.' };

describe('the facts under a node, given bad input', function () {
  this.timeout(30_000);
  let fake: FakeLedgerNode;
  const open: NodeRegistry[] = [];
  const as = (user: string) => {
    const r = registryAs(fake, user);
    open.push(r.registry);
    return r;
  };

  before(async () => {
    fake = await FakeLedgerNode.start({
      version: '3.5',
      checkResponses: true,
      extraHostedParties: 1000,
      maxPartiesPageSize: 300,
      maxRightsPerUser: 10,
      extraUsers: {
        norights: [],
        [HOSTILE_USER]: [{ canReadAs: 'Alice::1220' }],
        hinted: [{ canReadAs: HOSTILE_PARTY }],
        many: Array.from({ length: 12 }, (_, i) => ({ canReadAs: `P${i}::1220ab` })),
      },
    });
  });
  after(() => fake.close());
  afterEach(() => {
    for (const r of open.splice(0)) r.dispose();
    assert.deepEqual(fake.responseProblems, [], 'every answer is one the spec allows');
  });

  for (const [fact, path] of Object.entries(FACT_ROUTES) as [keyof typeof FACT_ROUTES, string][]) {
    it(`403 on ${path}: the fact says so (for admin lists "needs ParticipantAdmin"); the others still show`, async () => {
      const { registry, node } = as('participant_admin');
      fake.injectFault({ path, fault: { type: 'reply', ...redacted(403) }, times: 1 });
      const { snapshot } = await registry.facts.snapshot(node);
      const failed = snapshot[fact];
      assert.equal(failed.ok, false);
      if (!failed.ok) {
        if (fact === 'parties' || fact === 'synchronizers') assert.equal(failed.needs, 'ParticipantAdmin');
        assert.ok(failed.reason.length > 0);
      }
      for (const other of Object.keys(FACT_ROUTES) as (keyof typeof FACT_ROUTES)[]) {
        if (other !== fact) assert.equal(snapshot[other].ok, true, `${other} still shows`);
      }
    });

    it(`404 on ${path} (an older node or a proxy): "not served by this node", not a failure of the others`, async () => {
      const { registry, node } = as('participant_admin');
      fake.injectFault({ path, fault: routeMissing, times: 1 });
      const { snapshot } = await registry.facts.snapshot(node);
      const failed = snapshot[fact];
      assert.deepEqual(failed, { ok: false, reason: 'not served by this node' });
      for (const other of Object.keys(FACT_ROUTES) as (keyof typeof FACT_ROUTES)[]) {
        if (other !== fact) assert.equal(snapshot[other].ok, true, `${other} still shows`);
      }
    });
  }

  it('403 and 404 on authenticated-user and on the rights: refused, or unknown with the reason; the tree still shows the rest', async () => {
    const cases: [string, object, RegExp, string][] = [
      ['/v2/authenticated-user', { type: 'reply', ...redacted(403) }, /deactivated|identity provider/, 'refused'],
      ['/v2/authenticated-user', routeMissing, /no authenticated-user endpoint/, 'unknown'],
      ['/v2/users/alice/rights', { type: 'reply', ...redacted(403) }, /rights was refused \(403\)/, 'unknown'],
      ['/v2/users/alice/rights', routeMissing, /no rights endpoint/, 'unknown'],
    ];
    for (const [path, fault, reason, state] of cases) {
      const { registry, node } = as('alice');
      fake.injectFault({ path, fault: fault as never, times: 1 });
      const { snapshot, access } = await registry.facts.snapshot(node);
      assert.equal(access.state, state, path);
      assert.match('reason' in access ? access.reason : '', reason, path);
      assert.equal(snapshot.participantId.ok, true);
      // Rights not read (refused or unknown): the any-party form, and the reason said.
      const effective = effectiveParties(undefined, access);
      assert.equal(effective.source, 'fallback');
      assert.ok(effective.note?.includes('reason' in access ? access.reason : '?'));
    }
  });

  it('a user with no rights at all: known, 0 rights, nothing it may read, and why', async () => {
    const { registry, node } = as('norights');
    const { access } = await registry.facts.snapshot(node);
    assert.ok(access.state === 'known' && access.rights.total === 0);
    assert.deepEqual(rightsLines(access.state === 'known' ? access.rights : (undefined as never)), []);
    const effective = effectiveParties(undefined, access);
    assert.ok(effective.refusal, 'nothing to send');
    assert.match(effective.refusal, /norights|no right/i);
  });

  it('1,000 hosted parties: every page read (maxPartiesPageSize 300), each party once', async () => {
    const { registry, node } = as('participant_admin');
    const before = fake.requests.length;
    const { snapshot } = await registry.facts.snapshot(node);
    assert.ok(snapshot.parties.ok);
    const parties = snapshot.parties.ok ? snapshot.parties.value : [];
    assert.ok(parties.length >= 1000, `${parties.length} parties`);
    assert.equal(new Set(parties).size, parties.length, 'no party twice');
    assert.ok(parties.includes('Hosted-0999::' + parties.find((p) => p.startsWith('Hosted-0000::'))!.split('::')[1]), 'the last page too');
    const pages = fake.requests.slice(before).filter((r) => r.path.startsWith('/v2/parties') && !r.path.includes('participant-id')).length;
    assert.equal(pages, Math.ceil(parties.length / 300));
  });

  it("a hostile user id is escaped in the rights path; the node's refusal is a reason, not a crash", async () => {
    const { registry, node } = as(HOSTILE_USER);
    const before = fake.requests.length;
    const { access } = await registry.facts.snapshot(node);
    const rightsPaths = fake.requests
      .slice(before)
      .map((r) => r.path)
      .filter((p) => p.startsWith('/v2/users/'));
    assert.ok(rightsPaths.length > 0);
    for (const p of rightsPaths) assert.ok(p.startsWith(`/v2/users/${encodeURIComponent(HOSTILE_USER)}/rights`), p);
    assert.notEqual(access.state, 'known', 'the node refuses the id (400)');
  });

  it('a hostile party hint stays the party it is: read as, named in the rights, unchanged', async () => {
    const { registry, node } = as('hinted');
    const c = await registry.credentials(node);
    const { effective, access } = await registry.facts.effective(node, c);
    assert.deepEqual(effective.parties, [HOSTILE_PARTY]);
    assert.ok(access.state === 'known');
    const line = rightsLines(access.state === 'known' ? access.rights : (undefined as never))[0];
    assert.equal(line.party, HOSTILE_PARTY);
    assert.equal(line.value, 'CanReadAs');
  });

  it('a token whose user was deleted: refused with that reason; facts needing a user say why, nothing throws', async () => {
    const { registry, node } = as('deleted-user');
    const { access, snapshot } = await registry.facts.snapshot(node);
    assert.equal(access.state, 'refused');
    assert.match(access.state === 'refused' ? access.reason : '', /deleted/);
    assert.match(effectiveParties(undefined, access).note ?? '', /deleted/, 'the reason reaches the "Asked:" line');
    for (const fact of Object.keys(FACT_ROUTES) as (keyof typeof FACT_ROUTES)[]) assert.equal(snapshot[fact].ok, false, fact);
  });

  it('a rights answer larger than the advertised maxRightsPerUser: every right kept, the excess noted', async () => {
    const { registry, node } = as('many');
    await registry.check(node);
    const c = await registry.credentials(node);
    const access = await registry.facts.accessFor(node, c);
    assert.ok(access.state === 'known');
    assert.equal(access.state === 'known' && access.rights.total, 12);
    assert.equal(access.state === 'known' && access.maxRightsPerUser, 10);
    assert.equal(effectiveParties(undefined, access).parties.length, 12);
  });
});
