// The fake node administers users, rights and parties as Canton does (docs/fake-node.md cites each
// rule): who may (ParticipantAdmin; IdentityProviderAdmin within its provider), and the refusals
// (an existing user or hint, deleting oneself, bad ids), revoking a right the user lacks being no
// error. Per version, over real HTTP, every answer checked against the version's spec.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { send } from '../../test/support/specBodies';

type Json = Record<string, unknown>;
const MASK = (...paths: string[]) => ({ paths, unknownFields: { fields: {} } });
const canActAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
const canReadAs = (party: string) => ({ kind: { CanReadAs: { value: { party } } } });

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`the fake node administers users and parties as Canton ${version} does`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    const call = (method: string, path: string, body?: unknown, user = 'participant_admin') =>
      send(node, method, path, body === undefined ? undefined : JSON.stringify(body), { authorization: `Bearer ${node.mintToken(user)}` });
    const refused = (r: { status: number; json?: Json; text: string }, status: number, code?: string, cause?: RegExp) => {
      assert.equal(r.status, status, r.text);
      if (code) assert.equal(r.json?.code, code, r.text);
      if (cause) assert.match(String(r.json?.cause), cause);
    };
    const oneSync = () => ({ synchronizerId: node.ledger.synchronizerId });

    beforeEach(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true });
    });
    afterEach(async () => {
      assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows');
      await node.close();
    });

    it('allocates a party by hint once; the same hint again is INVALID_ARGUMENT (PartyAllocation, ApiPartyManagementService.alreadyExistsError)', async () => {
      const first = await call('POST', '/v2/parties', { partyIdHint: 'Shop', ...oneSync(), localMetadata: { annotations: { team: 'ops' } } });
      assert.equal(first.status, 200, first.text);
      const party = String(((first.json?.partyDetails ?? {}) as Json).party);
      assert.match(party, /^Shop::1220[0-9a-f]{64}$/);
      refused(
        await call('POST', '/v2/parties', { partyIdHint: 'Shop', ...oneSync() }),
        400,
        'INVALID_ARGUMENT',
        /Party already exists: party Shop::.* is already allocated on this node/,
      );
      // The seeded Alice is taken too.
      refused(await call('POST', '/v2/parties', { partyIdHint: 'Alice', ...oneSync() }), 400, 'INVALID_ARGUMENT', /already allocated/);
      const got = await call('GET', `/v2/parties/${encodeURIComponent(party)}`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(((got.json?.partyDetails as Json[])[0].localMetadata as Json).annotations, { team: 'ops' });
      const listed = await call('GET', '/v2/parties?filter-party=Shop');
      assert.deepEqual(
        (listed.json?.partyDetails as Json[]).map((p) => p.party),
        [party],
      );
    });

    it('refuses hints Canton refuses, needs a synchronizer on a node with two, and an admin (UniqueIdentifier, CantonSyncService)', async () => {
      refused(await call('POST', '/v2/parties', { partyIdHint: 'a::b', ...oneSync() }), 400, 'INVALID_ARGUMENT', /reserved delimiter/);
      refused(await call('POST', '/v2/parties', { partyIdHint: 'bad/hint', ...oneSync() }), 400, 'INVALID_ARGUMENT', /non expected character/);
      refused(await call('POST', '/v2/parties', { partyIdHint: 'x'.repeat(186), ...oneSync() }), 400, 'INVALID_ARGUMENT');
      refused(await call('POST', '/v2/parties', { partyIdHint: 'NoSync' }), 400, 'PARTY_ALLOCATION_CANNOT_DETERMINE_SYNCHRONIZER');
      refused(await call('POST', '/v2/parties', { partyIdHint: 'ByAlice', ...oneSync() }, 'alice'), 403);
      // A user allocating for itself passes the rights, then meets the quota of 0.
      refused(await call('POST', '/v2/parties', { partyIdHint: 'Self', userId: 'alice', ...oneSync() }, 'alice'), 403);
    });

    it('creates a user once, reads it back, and refuses an existing id and a bad one (ApiUserManagementService, Ref.UserId)', async () => {
      const alice = node.ledger.parties.Alice;
      const body = { user: { id: 'shop-backend', primaryParty: alice, isDeactivated: false, identityProviderId: '' }, rights: [canActAs(alice)] };
      const created = await call('POST', '/v2/users', body);
      assert.equal(created.status, 200, created.text);
      refused(await call('POST', '/v2/users', body), 409, 'USER_ALREADY_EXISTS', /creating user failed, as user "shop-backend" already exists/);
      refused(await call('POST', '/v2/users', { user: { id: 'bad/id' } }), 400, 'INVALID_FIELD');
      refused(await call('POST', '/v2/users', { user: { id: '' } }), 400, 'MISSING_FIELD');
      const got = await call('GET', '/v2/users/shop-backend');
      assert.equal((got.json?.user as Json).primaryParty, alice);
      const rights = await call('GET', '/v2/users/shop-backend/rights');
      assert.deepEqual(rights.json?.rights, [canActAs(alice)]);
      // Only an administrator creates; ParticipantAdmin in the rights needs a ParticipantAdmin.
      refused(await call('POST', '/v2/users', { user: { id: 'by-alice' } }, 'alice'), 403);
      refused(
        await call(
          'POST',
          '/v2/users',
          { user: { id: 'admin2', identityProviderId: 'acme-idp' }, rights: [{ kind: { ParticipantAdmin: { value: {} } } }] },
          'idp_admin',
        ),
        403,
      );
    });

    it('grants and revokes: only what changed is answered, revoking a right the user lacks is no error (PersistentUserManagementStore)', async () => {
      const bob = node.ledger.parties.Bob;
      const grant = (rights: unknown[]) => call('POST', '/v2/users/alice/rights', { userId: 'alice', rights });
      const revoke = (rights: unknown[]) => call('PATCH', '/v2/users/alice/rights', { userId: 'alice', rights });
      assert.deepEqual((await grant([canReadAs(bob)])).json?.newlyGrantedRights, [canReadAs(bob)]);
      assert.deepEqual((await grant([canReadAs(bob)])).json?.newlyGrantedRights, []);
      assert.deepEqual((await revoke([canReadAs(bob)])).json?.newlyRevokedRights, [canReadAs(bob)]);
      const again = await revoke([canReadAs(bob)]);
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.json?.newlyRevokedRights, []);
      refused(await call('POST', '/v2/users/alice/rights', { userId: 'bob', rights: [] }), 400, 'INVALID_ARGUMENT', /does not match user in body/);
      refused(await call('POST', '/v2/users/nobody/rights', { userId: 'nobody', rights: [canReadAs(bob)] }), 404, 'USER_NOT_FOUND');
      refused(
        await call('PATCH', '/v2/users/participant_admin/rights', { userId: 'participant_admin', rights: [{ kind: { ParticipantAdmin: { value: {} } } }] }),
        400,
        'INVALID_ARGUMENT',
        /cannot remove own admin rights/,
      );
      refused(await call('POST', '/v2/users/bob/rights', { userId: 'bob', rights: [canReadAs(bob)] }, 'alice'), 403);
    });

    it('updates a user by its mask, refuses self-deactivation and deleting oneself, deletes another (ApiUserManagementService)', async () => {
      const bob = node.ledger.parties.Bob;
      const patched = await call('PATCH', '/v2/users/alice', {
        user: { id: 'alice', primaryParty: bob, metadata: { annotations: { note: '<b>x</b>' } } },
        updateMask: MASK('primary_party', 'metadata.annotations'),
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((patched.json?.user as Json).primaryParty, bob);
      assert.deepEqual(((patched.json?.user as Json).metadata as Json).annotations, { note: '<b>x</b>' });
      refused(
        await call('PATCH', '/v2/users/alice', { user: { id: 'alice' }, updateMask: MASK('nonsense') }),
        400,
        'INVALID_USER_UPDATE_REQUEST',
        /unknown field/,
      );
      refused(
        await call('PATCH', '/v2/users/participant_admin', { user: { id: 'participant_admin', isDeactivated: true }, updateMask: MASK('is_deactivated') }),
        400,
        'INVALID_ARGUMENT',
        /cannot self-deactivate/,
      );
      refused(await call('DELETE', '/v2/users/participant_admin'), 400, 'INVALID_ARGUMENT', /cannot delete itself/);
      assert.equal((await call('DELETE', '/v2/users/bob')).status, 200);
      refused(await call('GET', '/v2/users/bob'), 404, 'USER_NOT_FOUND');
      refused(await call('DELETE', '/v2/users/bob'), 404, 'USER_NOT_FOUND');
    });

    it('an IdentityProviderAdmin sees and changes only its provider’s users; moving a user needs a ParticipantAdmin (Authorizer.MatchIdentityProviderId)', async () => {
      const listed = await call('GET', '/v2/users', undefined, 'idp_admin');
      assert.deepEqual(
        (listed.json?.users as Json[]).map((u) => u.id),
        ['acme_app', 'idp_admin'],
      );
      const adminList = await call('GET', '/v2/users');
      assert.ok(!(adminList.json?.users as Json[]).some((u) => u.id === 'acme_app'), 'the JSON layer lists the default provider’s users');
      refused(await call('GET', '/v2/users/alice', undefined, 'idp_admin'), 403);
      refused(await call('DELETE', '/v2/users/alice', undefined, 'idp_admin'), 403);
      refused(await call('GET', '/v2/users?pageSize=1', undefined, 'alice'), 403);
      const moved = await call('PATCH', '/v2/users/alice/identity-provider-id', {
        userId: 'alice',
        sourceIdentityProviderId: '',
        targetIdentityProviderId: 'acme-idp',
      });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(((await call('GET', '/v2/users/alice', undefined, 'idp_admin')).json?.user as Json).identityProviderId, 'acme-idp');
      refused(await call('PATCH', '/v2/users/bob/identity-provider-id', { userId: 'bob', targetIdentityProviderId: 'acme-idp' }, 'idp_admin'), 403);
      refused(
        await call('PATCH', '/v2/users/bob/identity-provider-id', { userId: 'bob', targetIdentityProviderId: 'nowhere' }),
        400,
        'INVALID_ARGUMENT',
        /has not been found/,
      );
      const idps = await call('GET', '/v2/idps');
      assert.equal((idps.json?.identityProviderConfigs as Json[])[0].identityProviderId, 'acme-idp');
      refused(await call('GET', '/v2/idps', undefined, 'idp_admin'), 403);
    });

    it('pages users by id with an opaque token; a bad token and a negative size are INVALID_ARGUMENT', async () => {
      const first = await call('GET', '/v2/users?pageSize=2');
      const ids = (first.json?.users as Json[]).map((u) => u.id);
      assert.deepEqual(ids, [...ids].sort());
      assert.ok(first.json?.nextPageToken);
      const second = await call('GET', `/v2/users?pageSize=2&pageToken=${encodeURIComponent(first.json?.nextPageToken as string)}`);
      assert.ok((second.json?.users as Json[]).every((u) => String(u.id) > String(ids[1])));
      refused(await call('GET', '/v2/users?pageToken=%25%25'), 400, 'INVALID_ARGUMENT', /Invalid page token/);
      refused(await call('GET', '/v2/users?pageSize=-1'), 400, 'INVALID_ARGUMENT', /non-negative/);
    });

    it('updates a party’s local metadata, an empty value removing a key (ApiPartyManagementService.updatePartyDetails)', async () => {
      const alice = node.ledger.parties.Alice;
      const path = `/v2/parties/${encodeURIComponent(alice)}`;
      const set = await call('PATCH', path, {
        partyDetails: { party: alice, localMetadata: { annotations: { a: '1', b: '2' } } },
        updateMask: MASK('local_metadata.annotations'),
      });
      assert.equal(set.status, 200, set.text);
      const unset = await call('PATCH', path, {
        partyDetails: { party: alice, localMetadata: { annotations: { a: '' } } },
        updateMask: MASK('local_metadata.annotations'),
      });
      assert.deepEqual(((unset.json?.partyDetails as Json).localMetadata as Json).annotations, { b: '2' });
      refused(await call('PATCH', path, { partyDetails: { party: alice }, updateMask: MASK() }), 400, 'INVALID_PARTY_DETAILS_UPDATE_REQUEST');
      refused(await call('PATCH', path, { partyDetails: { party: alice }, updateMask: MASK('local_metadata') }, 'alice'), 403);
    });
  });
}
