// The administration calls over real HTTP against the fake node: users paged to the end, grant and
// revoke answering only what changed, and a write whose connection is reset before the answer sent
// exactly once (the client and undici never send it again by themselves).
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { allocateParty, createUser, grantRights, listAllUsers, listUsers, revokeRights } from '../../../src/ledger/adminRequests';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { isLedgerApiError } from '../../../src/ledger/ledgerApiError';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { partyRight } from '../../../src/auth/nodeAdmin';

describe('administration requests', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;

  beforeEach(async () => {
    node = await FakeLedgerNode.start({ version: '3.5', checkResponses: true, singleSynchronizer: true });
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
    assert.deepEqual(node.responseProblems, []);
    await node.close();
  });

  it('lists every user of the default identity provider, page after page', async () => {
    const first = await listUsers(client, { pageSize: 3 });
    assert.equal(first.users?.length, 3);
    assert.ok(first.nextPageToken);
    const all = (await listAllUsers(client)).map((u) => u.id);
    assert.ok(all.includes('alice') && all.includes('participant_admin'));
    assert.ok(!all.includes('acme_app'), 'a user of another identity provider is not listed');
  });

  it('grants and revokes, answering only what changed', async () => {
    const bob = node.ledger.parties.Bob;
    assert.deepEqual((await grantRights(client, 'alice', [partyRight('CanReadAs', bob)])).newlyGrantedRights, [partyRight('CanReadAs', bob)]);
    assert.deepEqual((await revokeRights(client, 'alice', [partyRight('CanReadAs', bob)])).newlyRevokedRights, [partyRight('CanReadAs', bob)]);
    assert.deepEqual((await revokeRights(client, 'alice', [partyRight('CanReadAs', bob)])).newlyRevokedRights ?? [], []);
  });

  it('sends a write once when its connection is reset before the answer', async () => {
    for (const [path, write] of [
      ['/v2/parties', () => allocateParty(client, { partyIdHint: 'Once' })],
      ['/v2/users', () => createUser(client, { id: 'once', primaryParty: '', isDeactivated: false, identityProviderId: '' }, [])],
    ] as const) {
      node.injectFault({ path, fault: { type: 'resetBeforeHeaders' }, times: 1 });
      await assert.rejects(write(), (e) => isLedgerApiError(e) && e.kind === 'network');
      assert.equal(node.requests.filter((r) => r.path === path && r.method === 'POST').length, 1, path);
    }
  });
});
