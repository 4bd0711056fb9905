// A token's `aud` and `scope` as Canton reads them: the fake node answers each token as Canton's
// decoder and authorizer do (401 for a token it cannot read, 403 for another participant's), and
// the sign-in's warning names a problem exactly when the node refuses, and says which claim, what
// the node answers and what to change at the identity provider.
import * as assert from 'node:assert/strict';
import { cantonTokenProblem, PARTICIPANT_AUDIENCE } from '../../../src/auth/cantonTokenFormat';
import { ledgerTokenProblem } from '../../../src/auth/oidcAuth';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { TokenTargets } from '../../../fake-ledger/src/ledgerJwtPayload';
import { send } from '../../support/specBodies';
import { registryAs } from '../../support/registryAs';
import { eventFormatFor } from '../../../src/ledger/requestForms';

type Claims = { aud?: string | string[]; scope?: string; scp?: string | string[] };

/** Each case: the claims (beside sub, iss, exp), and the node's answer without target-audience or target-scope. */
const cases = (p: string): { name: string; claims: Claims; status: number; says?: RegExp }[] => [
  { name: 'the participant audience', claims: { aud: PARTICIPANT_AUDIENCE + p }, status: 200 },
  { name: 'the participant audience among others', claims: { aud: ['account', PARTICIPANT_AUDIENCE + p] }, status: 200 },
  { name: "another participant's audience", claims: { aud: `${PARTICIPANT_AUDIENCE}other` }, status: 403, says: /participant other .*403 PERMISSION_DENIED/ },
  {
    name: 'two participant audiences',
    claims: { aud: [PARTICIPANT_AUDIENCE + p, `${PARTICIPANT_AUDIENCE}other`] },
    status: 401,
    says: /exactly one participant audience/,
  },
  {
    name: 'a participant audience without an id',
    claims: { aud: PARTICIPANT_AUDIENCE, scope: 'daml_ledger_api' },
    status: 401,
    says: /without a participant id/,
  },
  { name: 'the scope without an audience', claims: { scope: 'openid daml_ledger_api' }, status: 200 },
  { name: 'the scope in scp', claims: { scp: ['daml_ledger_api'] }, status: 200 },
  { name: "the scope with the node's participant id as audience", claims: { aud: p, scope: 'daml_ledger_api' }, status: 200 },
  {
    name: 'the scope with a foreign audience',
    claims: { aud: 'account', scope: 'daml_ledger_api' },
    status: 403,
    says: /"aud" claim is "account" .*403 PERMISSION_DENIED.*no audience/,
  },
  { name: 'the scope with a one-element audience list', claims: { aud: ['account'], scope: 'daml_ledger_api' }, status: 403, says: /"account"/ },
  {
    name: 'the scope with two audiences',
    claims: { aud: [p, 'account'], scope: 'daml_ledger_api' },
    status: 401,
    says: /has 2 values .*401 UNAUTHENTICATED.*"account" audience/,
  },
  {
    name: 'neither scope nor participant audience',
    claims: { aud: 'account', scope: 'openid profile' },
    status: 401,
    says: /"scope" claim is "openid", "profile", without daml_ledger_api/,
  },
];

const statusOf = async (node: FakeLedgerNode, claims: Claims) =>
  (await send(node, 'GET', '/v2/authenticated-user', undefined, { authorization: `Bearer ${node.mintToken('alice', { aud: undefined, ...claims })}` })).status;

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`a token's aud and scope on a ${version} node without target-audience or target-scope`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    before(async () => (node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { contracts: 10, rate: 0 } })));
    after(() => node.close());

    it('the node answers as Canton reads the claims, and the sign-in warns exactly when it refuses, naming the claim and the answer', async () => {
      const p = node.ledger.participantId;
      for (const c of cases(p)) {
        assert.equal(await statusOf(node, c.claims), c.status, c.name);
        const token = node.mintToken('alice', { aud: undefined, ...c.claims });
        const known = ledgerTokenProblem(token, {}, p);
        if (c.status === 200) assert.equal(known, undefined, c.name);
        else assert.match(known ?? '', c.says!, c.name);
        // Without the participant id, a foreign single audience is still named.
        if (c.status === 403 && c.claims.scope) assert.match(ledgerTokenProblem(token, {}) ?? '', /unless that is its participant id/, c.name);
      }
    });
  });
}

describe("a token's aud and scope on a node with a target", function () {
  this.timeout(30_000);
  const withTargets = async (tokenTargets: TokenTargets, run: (node: FakeLedgerNode) => Promise<void>) => {
    const node = await FakeLedgerNode.start({ tokenTargets, checkResponses: true, generated: { contracts: 10, rate: 0 } });
    try {
      await run(node);
    } finally {
      await node.close();
    }
  };

  it('target-audience: aud must contain it, as a string or in a list; the scope and participant audiences are not read', async () => {
    const audience = 'https://ledger.example/api';
    await withTargets({ targetAudience: audience }, async (node) => {
      const checks: [Claims, number][] = [
        [{ aud: audience }, 200],
        [{ aud: ['account', audience] }, 200],
        [{ aud: `${PARTICIPANT_AUDIENCE}${node.ledger.participantId}`, scope: 'daml_ledger_api' }, 401],
        [{ scope: 'daml_ledger_api' }, 401],
      ];
      for (const [claims, status] of checks) {
        assert.equal(await statusOf(node, claims), status, JSON.stringify(claims));
        const problem = ledgerTokenProblem(node.mintToken('alice', { aud: undefined, ...claims }), { audience });
        if (status === 200) assert.equal(problem, undefined);
        else assert.match(problem ?? '', /"aud" claim is .*without "https:\/\/ledger\.example\/api".*target-audience.*401/);
      }
    });
  });

  it('target-scope: scope must contain it; aud is not read, however many values it has', async () => {
    await withTargets({ targetScope: 'ledger:read' }, async (node) => {
      const checks: [Claims, number][] = [
        [{ scope: 'openid ledger:read', aud: ['account', 'other'] }, 200],
        [{ scope: 'ledger:read', aud: 'account' }, 200],
        [{ scope: 'daml_ledger_api' }, 401],
      ];
      for (const [claims, status] of checks) {
        assert.equal(await statusOf(node, claims), status, JSON.stringify(claims));
        const problem = ledgerTokenProblem(node.mintToken('alice', { aud: undefined, ...claims }), { scope: 'ledger:read' });
        if (status === 200) assert.equal(problem, undefined);
        else assert.match(problem ?? '', /"scope" claim is "daml_ledger_api", without "ledger:read".*target-scope.*401/);
      }
    });
  });

  it('an opaque token is not judged', () => {
    assert.equal(cantonTokenProblem({ audiences: [], scopes: [] }, { audience: 'x' }) !== undefined, true);
    assert.equal(ledgerTokenProblem('not-a-jwt', {}), undefined);
  });
});

describe("a node's refusal of a token, explained from the token's aud against the participant id the node remembers", function () {
  this.timeout(30_000);
  let fake: FakeLedgerNode;
  before(async () => (fake = await FakeLedgerNode.start({ version: '3.5', checkResponses: true, generated: { contracts: 10, rate: 0 } })));
  after(() => fake.close());

  it('names the claim once any identity has read the id, says what it must be before, and leaves a refusal of rights as it is', async () => {
    let token = '';
    const { registry, node } = registryAs(fake, 'alice', undefined, () => token);
    const p = fake.ledger.participantId;
    const other = 'PAR::participant2::1220aa';
    const lookup = () =>
      registry.client(node).getEventsByContractId({ contractId: fake.ledger.samples.activeContract, eventFormat: eventFormatFor([fake.ledger.parties.Alice]) });
    const refusal = async (): Promise<{ status?: number; message: string }> => {
      try {
        await lookup();
      } catch (e) {
        return e as { status?: number; message: string };
      }
      throw new Error('the lookup was not refused');
    };
    try {
      token = fake.mintToken('alice', { aud: other, scope: 'daml_ledger_api' });
      let e = await refusal();
      assert.equal(e.status, 403);
      assert.match(
        e.message,
        /^The node refused the token \(403\)\. The token's "aud" claim is "PAR::participant2::1220aa" .*unless that is its participant id/,
      );
      assert.ok(!e.message.includes(token));
      assert.equal(registry.participantId(node), undefined, 'the refused token cannot read the id');

      // Another identity reads it: remembered for the node, whoever's token comes next.
      token = fake.mintToken('alice');
      assert.equal((await registry.client(node).getParticipantId()).participantId, p);
      assert.equal(registry.participantId(node), p);
      token = fake.mintToken('alice', { aud: other, scope: 'daml_ledger_api' });
      e = await refusal();
      assert.equal(e.status, 403);
      assert.ok(e.message.includes(`this node (${p}) refuses every request with it (403 PERMISSION_DENIED`), e.message);

      token = fake.mintToken('alice', { aud: [p, 'account'], scope: 'daml_ledger_api' });
      e = await refusal();
      assert.equal(e.status, 401);
      assert.match(e.message, /^The node refused the token \(401\)\. The token's "aud" claim has 2 values/);

      // A token the node reads (its own participant's) refused for want of rights: explained as rights.
      token = fake.mintToken('participant_admin', { aud: p, scope: 'daml_ledger_api' });
      e = await refusal();
      assert.equal(e.status, 403);
      assert.doesNotMatch(e.message, /refused the token|"aud"/);
    } finally {
      registry.dispose();
    }
  });
});
