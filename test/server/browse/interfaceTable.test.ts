// The Active Contracts table and the tree read by interface, against the fake node over real HTTP on
// each version: the request the table sends, the columns named from the node's own Daml-LF, each
// row its view (a failed one as its status), the template kept; the tree's count of an interface.
import * as assert from 'node:assert/strict';
import { readActiveContracts, type AcsPage } from '../../../src/browse/acsPaging';
import { browseEventFormat, hasPagedEndpoints } from '../../../src/browse/browseForms';
import { countInterfaceContracts, interfaceRefs } from '../../../src/browse/interfaceCounts';
import { interfaceRows, VIEW_FAILED, viewColumnsFromLf } from '../../../src/browse/interfaceRows';
import { nodeSignatures } from '../../../src/daml/lf/nodeSignatures';
import { SignatureCache } from '../../../src/daml/lf/lfPackages';
import { LedgerApiError } from '../../../src/ledger/ledgerApiError';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { PARTNER_LOCKED, PARTNER_TOKEN } from '../../../fake-ledger/src/partnerHoldings';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];
const HOLDING = '#canton-lens-partner-app:Partner.Token:Holding';

for (const version of VERSIONS) {
  describe(`the interface table against the fake node on ${version}`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true });
      client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice'), timeoutMs: 10_000 });
    });
    after(async () => {
      await client.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    const read = async (interfaceId: string, parties: string[]) => {
      const events = [];
      for await (const page of readActiveContracts(client, {
        eventFormat: browseEventFormat({ parties, interfaces: [interfaceId] }),
        paged: hasPagedEndpoints(version),
        websocket: false,
        pageSize: 100,
      }) as AsyncIterable<AcsPage>)
        events.push(...page.events);
      return events;
    };

    it("shows each contract's view under the view type's columns, a failed view as its status", async () => {
      const sigs = await nodeSignatures(client, undefined, new SignatureCache());
      const columns = viewColumnsFromLf(sigs.packages, HOLDING);
      assert.deepEqual(columns, ['owner', 'amount', 'instrument'], "named from the node's own package");
      const alice = node.ledger.parties.Alice;
      const rows = interfaceRows(await read(HOLDING, [alice]), HOLDING, columns);
      const { tokens, locked, failedView } = node.ledger.samples.partnerHoldings;
      const byId = new Map(rows.map((r) => [r.contractId, r]));
      assert.deepEqual([...byId.keys()].sort(), [tokens[0], locked, failedView].sort());
      assert.equal(byId.get(tokens[0])!.templateId, PARTNER_TOKEN, "the row's template is the contract's");
      assert.equal(byId.get(locked)!.templateId, PARTNER_LOCKED);
      assert.deepEqual(byId.get(locked)!.createArgument, { owner: alice, amount: '100.0000000000', instrument: 'PTK' });
      const failed = byId.get(failedView)!.createArgument as Record<string, string>;
      assert.deepEqual(Object.keys(failed), [VIEW_FAILED]);
      assert.match(failed[VIEW_FAILED], /code 9.*DAML_FAILURE/);
    });

    it('counts the contracts behind each interface the tree lists, as the parties see them', async () => {
      const sigs = await nodeSignatures(client, undefined, new SignatureCache());
      assert.ok(interfaceRefs(sigs.packages).some((r) => r.interfaceId === HOLDING));
      const signal = new AbortController().signal;
      const asAlice = await countInterfaceContracts(client, HOLDING, { parties: [node.ledger.parties.Alice], version, signal });
      assert.deepEqual([asAlice.count, asAlice.incomplete], [3, false]);
      const bob = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('bob'), timeoutMs: 10_000 });
      try {
        assert.equal((await countInterfaceContracts(bob, HOLDING, { parties: [node.ledger.parties.Bob], version, signal })).count, 1, "Bob's Token alone");
      } finally {
        await bob.close();
      }
    });

    it("is refused for an interface the node's packages do not define", async () => {
      await assert.rejects(read('#canton-lens-partner-app:Partner.Token:Nope', [node.ledger.parties.Alice]), (e: unknown) => {
        assert.ok(e instanceof LedgerApiError);
        assert.match(e.explanation, /NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME|interface/i);
        return true;
      });
    });
  });
}
