// The fake node's interface views, per version: active contracts and a contract's events asked
// with an InterfaceFilter carry the view of each template that implements the interface (the
// partner app's Holding, behind Token and LockedToken); a view whose code fails carries its status
// and no value; an interface the node does not have is refused. Answers are checked against the spec.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { FAILED_VIEW_STATUS, PARTNER_HOLDING, PARTNER_LOCKED, PARTNER_PACKAGE_NAME, PARTNER_TOKEN } from '../src/partnerHoldings';
import { PARTNER_PACKAGE } from '../src/partnerPackage';
import { send } from '../../test/support/specBodies';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

interface View {
  interfaceId: string;
  viewStatus: { code: number; message: string };
  viewValue?: unknown;
  implementationPackageId?: string;
}
interface Created {
  contractId: string;
  templateId: string;
  interfaceViews: View[];
}

const holdingFilter = (interfaceId: string, includeInterfaceView = true) => ({
  cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView, includeCreatedEventBlob: false } } } }],
});

for (const version of VERSIONS) {
  describe(`the fake node's interface views on ${version}`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    const post = (path: string, body: unknown) => send(node, 'POST', path, JSON.stringify(body), { authorization: `Bearer ${node.mintToken('alice')}` });
    const acs = async (interfaceId: string, includeInterfaceView = true) => {
      const end = (await send(node, 'GET', '/v2/state/ledger-end', undefined, { authorization: `Bearer ${node.mintToken('alice')}` })).json!.offset;
      const alice = node.ledger.parties.Alice;
      return post('/v2/state/active-contracts', {
        activeAtOffset: end,
        eventFormat: { filtersByParty: { [alice]: holdingFilter(interfaceId, includeInterfaceView) }, verbose: true },
      });
    };
    const events = (json: unknown) =>
      (json as { contractEntry: { JsActiveContract: { createdEvent: Created } } }[]).map((r) => r.contractEntry.JsActiveContract.createdEvent);

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true });
    });
    after(() => node.close());
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('answers the views of both templates behind the interface, by package id and by package name', async () => {
      const { tokens, locked, failedView } = node.ledger.samples.partnerHoldings;
      for (const id of [PARTNER_HOLDING, `#${PARTNER_PACKAGE_NAME}:Partner.Token:Holding`]) {
        const r = await acs(id);
        assert.equal(r.status, 200, r.text);
        const got = events(r.json);
        // Alice sees her Token, her LockedToken and the one whose view fails; Bob's Token is not hers.
        assert.deepEqual(got.map((e) => e.contractId).sort(), [tokens[0], locked, failedView].sort());
        assert.deepEqual([...new Set(got.map((e) => e.templateId))].sort(), [PARTNER_LOCKED, PARTNER_TOKEN].sort());
        for (const e of got) {
          assert.equal(e.interfaceViews.length, 1);
          const v = e.interfaceViews[0];
          assert.equal(v.interfaceId, PARTNER_HOLDING);
          if (e.contractId === failedView) {
            assert.equal(v.viewStatus.code, 9, 'a view that fails is FAILED_PRECONDITION');
            assert.equal(v.viewStatus.message, FAILED_VIEW_STATUS.message);
            assert.ok(!('viewValue' in v), 'and has no value');
          } else {
            assert.equal(v.viewStatus.code, 0);
            assert.deepEqual(Object.keys(v.viewValue as object), ['owner', 'amount', 'instrument']);
          }
        }
        if (version !== '3.4') assert.ok(got.every((e) => e.interfaceViews[0].implementationPackageId === PARTNER_PACKAGE));
      }
    });

    it('computes no view unless asked for it', async () => {
      const r = await acs(PARTNER_HOLDING, false);
      assert.equal(r.status, 200, r.text);
      assert.ok(events(r.json).length === 3 && events(r.json).every((e) => e.interfaceViews.length === 0));
    });

    it("answers a failed view on a contract's events too", async () => {
      const alice = node.ledger.parties.Alice;
      const r = await post('/v2/events/events-by-contract-id', {
        contractId: node.ledger.samples.partnerHoldings.failedView,
        eventFormat: { filtersByParty: { [alice]: holdingFilter(PARTNER_HOLDING) }, verbose: true },
      });
      assert.equal(r.status, 200, r.text);
      const view = (r.json as { created: { createdEvent: Created } }).created.createdEvent.interfaceViews[0];
      assert.deepEqual([view.viewStatus.code, 'viewValue' in view], [9, false]);
    });

    it('refuses an interface the node does not have with 404', async () => {
      const byName = await acs(`#${PARTNER_PACKAGE_NAME}:Partner.Token:Nope`);
      assert.equal(byName.status, 404, byName.text);
      assert.equal(byName.json?.code, 'NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME');
      const byId = await acs(`${PARTNER_PACKAGE}:Partner.Token:Nope`);
      assert.equal(byId.status, 404, byId.text);
      assert.equal(byId.json?.code, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
    });
  });
}
