// What the external-signing review shows of a prepared transaction whose commands named packages
// by name or exercised an interface's choice, against the fake node (which builds the nodes as
// Canton does, from the resolved commands): the package ids the node chose, the contract's own
// template for an interface's choice, and a hash recomputed here that equals the node's.
import * as assert from 'node:assert/strict';
import { reviewPreparedTransaction } from '../../../src/execute/preparedTransactionReview';
import { reviewBody } from '../../../src/panels/html/reviewHtml';
import type { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { MODEL_PACKAGE_V2 } from '../../../fake-ledger/src/demoLedgerHistory';
import type { LedgerClient } from '../../../src/ledger/ledgerClient';
import { externalParty, startExternalPartyNode, type ExternalPartyNode } from '../../support/externalPartyNode';
import { noteCreate } from '../../support/demoCommands';
import { createPartner, PARTNER_TOKEN, tokenArgument, vetPartnerApp } from '../../support/partnerContracts';

describe('the review of a prepared transaction built from resolved commands', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  let started: ExternalPartyNode;
  const external = externalParty('Fern-ext');
  const { party } = external;

  before(async () => {
    started = await startExternalPartyNode(external);
    ({ node, client } = started);
    await vetPartnerApp(node);
  });
  after(() => started.close());
  afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

  const prepare = (commandId: string, commands: unknown[]) =>
    client.prepareSubmission({ commandId, actAs: [party], synchronizerId: '', packageIdSelectionPreference: [], commands } as never);
  const page = (prepared: { preparedTransaction: string; preparedTransactionHash: string }, review: Awaited<ReturnType<typeof reviewPreparedTransaction>>) =>
    reviewBody({
      fileName: 'a.execute.json',
      node: 'n',
      party,
      request: {
        preparedTransaction: prepared.preparedTransaction,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        submissionId: 's',
        partySignatures: { signatures: [{ party, signatures: [] }] },
      } as never,
      claimedHash: prepared.preparedTransactionHash,
      review,
      findings: [],
    }).text;

  it('shows the package id a `#name` reference resolved to, and the hash recomputed here is the node’s', async () => {
    const prepared = await prepare('by-name-1', [noteCreate(node, party, 'by name', '#canton-lens-demo-model:Notes:Note')]);
    const review = await reviewPreparedTransaction(prepared.preparedTransaction, prepared.hashingSchemeVersion);
    assert.equal(review.computedHash, prepared.preparedTransactionHash);
    assert.equal(review.nodes[0].templateId, `${MODEL_PACKAGE_V2}:Notes:Note`);
    const text = page(prepared, review);
    assert.ok(text.includes(`title="${MODEL_PACKAGE_V2}:Notes:Note"`), 'the template is named by its package id');
    assert.ok(!text.includes('#canton-lens-demo-model'), 'no package-name reference reaches the review');
  });

  it("shows an interface's choice on the contract's template, non-consuming as the interface says, with a hash that covers the interface", async () => {
    const token = await createPartner(node, 'alice', node.ledger.parties.Alice, PARTNER_TOKEN, tokenArgument(node.ledger.parties.Alice, party, '2.0'));
    const prepared = await prepare('iface-1', [
      { ExerciseCommand: { templateId: '#canton-lens-partner-app:Partner.Token:Holding', contractId: token, choice: 'Holding_Describe', choiceArgument: {} } },
    ]);
    const review = await reviewPreparedTransaction(prepared.preparedTransaction, prepared.hashingSchemeVersion);
    assert.equal(review.computedHash, prepared.preparedTransactionHash);
    assert.deepEqual(
      review.nodes.map((n) => [n.kind, n.templateId, n.choice, n.consuming]),
      [['exercise', PARTNER_TOKEN, 'Holding_Describe', false]],
    );
    assert.equal(review.inputContracts[0].contractId, token);
  });
});
