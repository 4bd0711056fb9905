// A canton-setup.json brought to a fake node over real HTTP, per version: the first run allocates
// and creates what is missing, the second sends no write; a refusal stops the run at its step and
// each write was sent once.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { CantonSetup } from '../../../src/auth/cantonSetup';
import { runSetup } from '../../../src/auth/cantonSetupRun';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { isLedgerApiError } from '../../../src/ledger/ledgerApiError';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';

const SETUP: CantonSetup = {
  parties: ['Alice', 'Shop'],
  users: [
    { id: 'shop-backend', primaryParty: 'Shop', actAs: ['Shop'], readAs: ['Alice'], executeAs: [] },
    { id: 'alice', actAs: ['Alice'], readAs: ['Shop'], executeAs: [] },
  ],
};

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`canton-setup.json on a ${version} node`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;
    const writes = () => node.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    const clientFor = (user: string) =>
      new LedgerClient({
        baseUrl: node.url,
        transport: createUndiciTransport(),
        getToken: async () => node.mintToken(user),
        timeoutMs: 5_000,
        maxResponseBytes: 1 << 22,
      });

    beforeEach(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, singleSynchronizer: true });
      client = clientFor('participant_admin');
    });
    afterEach(async () => {
      await client.close();
      assert.deepEqual(node.responseProblems, []);
      await node.close();
    });

    it('creates what is missing, leaves what exists, and changes nothing the second time', async () => {
      const first = await runSetup(client, SETUP);
      assert.equal(first.failure, undefined, String((first.failure?.error as Error | undefined)?.message));
      assert.deepEqual(first.plan.existingParties, ['Alice']);
      assert.deepEqual(first.allocated, [`Shop::${node.ledger.participantId.split('::')[1]}`]);
      assert.deepEqual(first.createdUsers, ['shop-backend']);
      assert.deepEqual(first.grantedUsers, ['alice']);
      assert.deepEqual(writes(), ['POST /v2/parties', 'POST /v2/users', 'POST /v2/users/alice/rights']);
      const shop = first.allocated[0];
      assert.equal(first.after?.users.get('shop-backend')?.primaryParty, shop);
      node.requests.length = 0;
      const second = await runSetup(client, SETUP);
      assert.deepEqual(second.plan.steps, []);
      assert.deepEqual(writes(), [], 'the second run sends no write');
      assert.deepEqual(second.plan.existingUsers, ['shop-backend', 'alice']);
    });

    it('stops at a refusal with its Canton answer, each write sent once', async () => {
      const alice = clientFor('alice');
      try {
        // A non-administrator cannot list parties: the node says so before anything is sent.
        await assert.rejects(runSetup(alice, SETUP), (e) => isLedgerApiError(e) && e.status === 403);
        assert.deepEqual(writes(), []);
        // A hint the node refuses: the allocation is refused, the users after it are not sent.
        const report = await runSetup(client, { parties: ['Shop', 'Bad.Hint'], users: [{ id: 'later', actAs: ['Shop'], readAs: [], executeAs: [] }] });
        assert.ok(isLedgerApiError(report.failure?.error));
        assert.equal((report.failure?.error as { code?: string }).code, 'INVALID_ARGUMENT');
        assert.deepEqual(writes(), ['POST /v2/parties', 'POST /v2/parties']);
      } finally {
        await alice.close();
      }
    });
  });
}
