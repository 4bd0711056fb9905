// An ExerciseCommand may name an interface as its templateId: the choice is the interface's, run on
// a contract whose template implements it (the partner app's Holding, behind Token and LockedToken).
// A choice the interface lacks is the JSON layer's INVALID_ARGUMENT; a contract that does not
// implement the interface is the engine's CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE. Over HTTP, per version.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { PARTNER_PACKAGE } from '../src/partnerPackage';
import { createPartner, PARTNER_OFFER, PARTNER_TOKEN, tokenArgument, vetPartnerApp } from '../../test/support/partnerContracts';
import { send } from '../../test/support/specBodies';

type Json = Record<string, unknown>;
const HOLDING = `${PARTNER_PACKAGE}:Partner.Token:Holding`;

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`exercising an interface's choice on the fake node (${version})`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    let n = 0;
    const submit = (party: string, command: Json) =>
      send(
        node,
        'POST',
        '/v2/commands/submit-and-wait-for-transaction',
        JSON.stringify({
          commands: { commandId: `iface-${version}-${n++}`, actAs: [party], commands: [command] },
          transactionFormat: {
            eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } }, verbose: true },
            transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          },
        }),
        { authorization: `Bearer ${node.mintToken('alice')}` },
      );
    const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: Json = {}) => ({
      ExerciseCommand: { templateId, contractId, choice, choiceArgument },
    });
    const eventsOf = (r: { json?: Json }) => ((r.json?.transaction as Json).events ?? []) as Json[];

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true });
      await vetPartnerApp(node);
    });
    after(() => node.close());
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it("runs a non-consuming interface choice on a Token: the exercise names the interface and the contract's template", async () => {
      const { Alice } = node.ledger.parties;
      const token = await createPartner(node, 'alice', Alice, PARTNER_TOKEN, tokenArgument(Alice, Alice, '12.5'));
      for (const id of [HOLDING, '#canton-lens-partner-app:Partner.Token:Holding']) {
        const r = await submit(Alice, exercise(id, token, 'Holding_Describe'));
        assert.equal(r.status, 200, r.text);
        const [only] = eventsOf(r);
        const exercised = only.ExercisedEvent as Json;
        assert.equal(exercised.interfaceId, HOLDING);
        assert.equal(exercised.templateId, PARTNER_TOKEN);
        assert.equal(exercised.consuming, false);
        assert.equal(exercised.exerciseResult, `12.5 PTK held by ${Alice}`);
      }
    });

    it('runs a consuming interface choice on either template: Holding_Lock makes a LockedToken with its view', async () => {
      const { Alice } = node.ledger.parties;
      const token = await createPartner(node, 'alice', Alice, PARTNER_TOKEN, tokenArgument(Alice, Alice, '3.0'));
      const locked = await submit(Alice, exercise(HOLDING, token, 'Holding_Lock', { until: '2030-01-01T00:00:00Z' }));
      assert.equal(locked.status, 200, locked.text);
      const [archived, created] = eventsOf(locked);
      assert.equal((archived.ExercisedEvent as Json).consuming, true);
      const lockedToken = created.CreatedEvent as Json;
      assert.equal(lockedToken.templateId, `${PARTNER_PACKAGE}:Partner.Token:LockedToken`);
      assert.equal((archived.ExercisedEvent as Json).exerciseResult, lockedToken.contractId);
      // The LockedToken implements Holding too: locked again through the interface, until later.
      const again = await submit(Alice, exercise(HOLDING, lockedToken.contractId as string, 'Holding_Lock', { until: '2031-01-01T00:00:00Z' }));
      assert.equal(again.status, 200, again.text);
      const relocked = eventsOf(again)[1].CreatedEvent as Json;
      assert.equal((relocked.createArgument as Json).lockedUntil, '2031-01-01T00:00:00Z');
      const views = await send(
        node,
        'POST',
        '/v2/events/events-by-contract-id',
        JSON.stringify({
          contractId: relocked.contractId,
          eventFormat: {
            filtersByParty: {
              [Alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING, includeInterfaceView: true } } } }] },
            },
          },
        }),
        { authorization: `Bearer ${node.mintToken('alice')}` },
      );
      assert.equal(views.status, 200, views.text);
      const [view] = ((views.json?.created as Json).createdEvent as { interfaceViews: Json[] }).interfaceViews;
      assert.deepEqual(view.viewValue, { owner: Alice, amount: '3.0', instrument: 'PTK' });
    });

    it('refuses a choice the interface does not have, and a contract that does not implement it', async () => {
      const { Alice, Bob } = node.ledger.parties;
      const token = await createPartner(node, 'alice', Alice, PARTNER_TOKEN, tokenArgument(Alice, Alice));
      const wrongChoice = await submit(Alice, exercise(HOLDING, token, 'Transfer', { newOwner: Alice, amount: '1.0', kind: 'Direct' }));
      assert.equal(wrongChoice.status, 400, wrongChoice.text);
      assert.equal(wrongChoice.json?.code, 'INVALID_ARGUMENT');
      assert.equal(wrongChoice.json?.cause, `The submitted request has invalid arguments: Invalid template:${HOLDING} or choice:Transfer`);
      const offer = await createPartner(node, 'alice', Alice, PARTNER_OFFER, {
        sender: Alice,
        receiver: Bob,
        token,
        memo: null,
        settlement: { tag: 'Immediate', value: {} },
      });
      const notHolding = await submit(Alice, exercise(HOLDING, offer, 'Holding_Describe'));
      assert.equal(notHolding.status, 400, notHolding.text);
      assert.equal(notHolding.json?.code, 'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE');
      assert.match(
        String(notHolding.json?.cause),
        new RegExp(
          `^Interpretation error: Error: Update failed due to contract ${offer} not implementing an interface\\nExpected contract to implement interface Partner\\.Token:Holding@${PARTNER_PACKAGE.slice(0, 8)} but contract has type Partner\\.Token:TransferOffer@`,
        ),
      );
    });
  });
}
