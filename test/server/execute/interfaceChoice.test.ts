// Exercise… for an interface's choice, against a fake node over real HTTP on each version: the
// request the contract panel writes (the choice under the interface's id, its argument's skeleton
// from the node's Daml-LF) passes the checks before sending, and the node accepts it and commits
// it, the exercise through the interface on the contract's template.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { PARTNER_PACKAGE } from '../../../fake-ledger/src/partnerPackage';
import { nodeSignatures } from '../../../src/daml/lf/nodeSignatures';
import { SignatureCache } from '../../../src/daml/lf/lfPackages';
import { commandArgumentIssues, issueLines } from '../../../src/daml/lf/lfValueCheck';
import { checkCommandsRequest, exerciseRequest } from '../../../src/execute/commandsRequest';
import { choiceSkeleton, contractChoices } from '../../../src/execute/contractActions';
import { submitAndWaitForTransaction } from '../../../src/ledger/commandRequests';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { createPartner, PARTNER_TOKEN, tokenArgument, vetPartnerApp } from '../../support/partnerContracts';

type Json = Record<string, unknown>;

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`Exercise… of an interface's choice on a ${version} fake node`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, bigTransactionEvents: 1 });
      await vetPartnerApp(node);
      client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice') });
    });
    after(async () => {
      await client.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    for (const choiceName of ['Holding_Lock', 'Holding_Describe']) {
      it(`writes ${choiceName} under the Holding interface's id; the node accepts it and commits`, async () => {
        const { Alice } = node.ledger.parties;
        const token = await createPartner(node, 'alice', Alice, PARTNER_TOKEN, tokenArgument(Alice, Alice));
        const sigs = await nodeSignatures(client, undefined, new SignatureCache());
        const contract = { contractId: token, templateId: PARTNER_TOKEN, packageName: 'canton-lens-partner-app' };
        const choice = contractChoices(contract, sigs.packages).find((c) => c.choice === choiceName);
        assert.ok(choice, `${choiceName} is offered`);
        assert.equal(choice.viaInterface, '#canton-lens-partner-app:Partner.Token:Holding');
        const skeleton = choiceSkeleton(sigs.packages, choice, Alice);
        const text = exerciseRequest({
          commandId: `iface-${version}-${choiceName}`,
          party: Alice,
          templateId: choice.templateId,
          choice: choice.choice,
          contractId: token,
          choiceArgument: skeleton.value as Record<string, unknown>,
        });
        const checked = checkCommandsRequest(text);
        assert.deepEqual(checked.problems, []);
        assert.deepEqual(issueLines(commandArgumentIssues(sigs.packages, checked.request!.commands)), []);

        const answer = await submitAndWaitForTransaction(client, checked.request!, {});
        // The extension asks for the ledger effects: the exercise names the interface and the contract's template.
        const events = answer.transaction.events as Json[];
        const exercised = events[0].ExercisedEvent as Json;
        assert.equal(exercised.interfaceId, `${PARTNER_PACKAGE}:Partner.Token:Holding`);
        assert.equal(exercised.templateId, PARTNER_TOKEN);
        assert.equal(exercised.choice, choiceName);
        if (choiceName === 'Holding_Lock') {
          // Consumed, and a LockedToken made, which the exercise returns.
          assert.equal(exercised.consuming, true);
          const locked = events[1].CreatedEvent as Json;
          assert.equal(locked.templateId, `${PARTNER_PACKAGE}:Partner.Token:LockedToken`);
          assert.equal(exercised.exerciseResult, locked.contractId);
        } else {
          assert.equal(exercised.consuming, false);
          assert.equal(events.length, 1);
        }
        assert.ok(answer.transaction.updateId);
      });
    }
  });
}
