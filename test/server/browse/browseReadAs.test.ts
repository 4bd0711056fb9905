// Browsing reads as lookups do: with no parties in the settings, an ordinary user's token reads as
// the parties its rights name, on every view (Active Contracts, the counts, Follow Updates), not as any
// party (which the node refuses without CanReadAsAnyParty). Through the node registry, against the
// fake node over real HTTP.
import * as assert from 'node:assert/strict';
import { readActiveContracts } from '../../../src/browse/acsPaging';
import { browseEventFormat, followedUpdateFormat } from '../../../src/browse/browseForms';
import { updatesListFetch } from '../../../src/browse/updatesFollower';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { registryAs } from '../../support/registryAs';

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`browsing with no parties configured on ${version}: the token's rights decide`, function () {
    this.timeout(30_000);
    let fake: FakeLedgerNode;
    before(async () => {
      fake = await FakeLedgerNode.start({ version, checkResponses: true, generated: { contracts: 300, listLimit: 1000, rate: 0 } });
    });
    after(() => fake.close());
    afterEach(() => assert.deepEqual(fake.responseProblems, []));

    it("an ordinary user's token (CanActAs Alice) reads the ACS and follows updates as Alice, not as any party", async () => {
      const { registry, node } = registryAs(fake, 'alice');
      const readAs = await registry.facts.readAs(node);
      assert.deepEqual(readAs.parties, [fake.ledger.parties.Alice]);
      assert.equal(readAs.source, 'rights');
      const client = registry.client(node);
      let contracts = 0;
      for await (const page of readActiveContracts(client, { eventFormat: browseEventFormat({ parties: readAs.parties }), paged: version !== '3.4' }))
        contracts += page.events.length;
      assert.ok(contracts > 0);
      const begin = fake.generated.ledgerEnd() - 5;
      const fetch = updatesListFetch(client, followedUpdateFormat({ parties: readAs.parties }), { limit: 50, idleMs: 50 });
      const result = await fetch(begin, new AbortController().signal);
      // The node refuses updateFormat beside a top-level verbose or filter, as Canton does: it answered.
      assert.ok(result.updates.length > 0);
      registry.dispose();
    });

    it('parties named by the caller win; a token that may read nothing is refused before anything is sent', async () => {
      const given = registryAs(fake, 'alice');
      assert.deepEqual(await given.registry.facts.readAs(given.node, ['Someone::1220ab']), { parties: ['Someone::1220ab'], source: 'given', rightOf: {} });
      const admin = registryAs(fake, 'participant_admin');
      const before = fake.requests.filter((r) => r.path.startsWith('/v2/state/active-contracts')).length;
      const refused = await admin.registry.facts.readAs(admin.node);
      assert.match(refused.refusal ?? '', /no right to read/);
      assert.equal(fake.requests.filter((r) => r.path.startsWith('/v2/state/active-contracts')).length, before);
      // Any party only with CanReadAsAnyParty.
      const reader = registryAs(fake, 'reader');
      assert.deepEqual((await reader.registry.facts.readAs(reader.node)).parties, []);
      for (const r of [given, admin, reader]) r.registry.dispose();
    });

    it('configured parties still win over the rights', async () => {
      const { registry, node } = registryAs(fake, 'auditor', [fake.ledger.parties.Bob]);
      const readAs = await registry.facts.readAs(node);
      assert.deepEqual(readAs.parties, [fake.ledger.parties.Bob]);
      assert.equal(readAs.source, 'settings');
      registry.dispose();
    });
  });
}
