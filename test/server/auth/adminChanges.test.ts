// The administration edits as the client sends them, against a fake node over real HTTP, per
// version: a user's annotations (a stale resource version refused, not overwritten), a party's local
// metadata, a user moved to another identity provider and read there, the identity providers
// listed, a package vetted; the view's readers over the node's own answers.
import * as assert from 'node:assert/strict';
import { PARTNER_PACKAGE } from '../../../fake-ledger/src/partnerPackage';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { readAdminIdp, readAdminParty, readAdminUser } from '../../../src/auth/adminRows';
import { moveUserChange, partyMetadataChange, userAnnotationsChange, vettingChange, type AdminChange } from '../../../src/auth/nodeAdmin';
import { getParty, getUser, listIdentityProviders } from '../../../src/ledger/adminRequests';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { isLedgerApiError } from '../../../src/ledger/ledgerApiError';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`administration edits on a ${version} node`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;
    const send = <T>(c: AdminChange) => client.request<T>(c.method, c.path, c.body, {});

    beforeEach(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, singleSynchronizer: true });
      client = new LedgerClient({
        baseUrl: node.url,
        transport: createUndiciTransport(),
        getToken: async () => node.mintToken('participant_admin'),
        timeoutMs: 5_000,
        maxResponseBytes: 1 << 22,
      });
    });
    afterEach(async () => {
      await client.close();
      assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows');
      await node.close();
    });

    it("edits a user's annotations with its resource version; a stale one is CONCURRENT_USER_UPDATE_DETECTED", async () => {
      const before = readAdminUser((await getUser(client, 'alice')).user)!;
      await send(userAnnotationsChange('alice', { team: 'ops' }, before.resourceVersion));
      const after = readAdminUser((await getUser(client, 'alice')).user)!;
      assert.deepEqual(after.annotations, { team: 'ops' });
      assert.notEqual(after.resourceVersion, before.resourceVersion);
      await send(userAnnotationsChange('alice', { team: '' }, after.resourceVersion));
      assert.deepEqual(readAdminUser((await getUser(client, 'alice')).user)!.annotations, {}, 'an empty value removes the key');
      await assert.rejects(send(userAnnotationsChange('alice', { x: '1' }, before.resourceVersion)), (e: unknown) => {
        assert.ok(isLedgerApiError(e));
        assert.equal(e.code, 'CONCURRENT_USER_UPDATE_DETECTED');
        return true;
      });
    });

    it("edits a party's local metadata, moves a user to another identity provider, lists the providers, vets a package", async () => {
      const alice = node.ledger.parties.Alice;
      const party = readAdminParty((await getParty(client, alice)).partyDetails?.[0])!;
      await send(partyMetadataChange(alice, { desk: 'fx' }, party.resourceVersion));
      assert.deepEqual(readAdminParty((await getParty(client, alice)).partyDetails?.[0])!.annotations, { desk: 'fx' });

      const idps = ((await listIdentityProviders(client)).identityProviderConfigs ?? []).map(readAdminIdp);
      assert.deepEqual(
        idps.map((i) => i?.id),
        ['acme-idp'],
      );
      await send(moveUserChange('bob', '', 'acme-idp'));
      assert.equal(readAdminUser((await getUser(client, 'bob', {}, 'acme-idp')).user)!.identityProviderId, 'acme-idp');
      await assert.rejects(getUser(client, 'bob'), (e: unknown) => isLedgerApiError(e) && e.status === 403, 'no longer in the default provider');

      const vetted = await send<{ newVettedPackages: { packages: { packageId: string }[] } }>(
        vettingChange('vet', { packageId: PARTNER_PACKAGE }, undefined, []),
      );
      assert.ok(vetted.newVettedPackages.packages.some((p) => p.packageId === PARTNER_PACKAGE));
    });
  });
}
