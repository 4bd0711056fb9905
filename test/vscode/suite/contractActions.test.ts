// A contract panel's actions on commands files, on 3.4, 3.5 and 3.6, with the partner app (no source
// in the workspace; its package uploaded and vetted): Exercise… writes a request for a choice of the
// contract from the node's Daml-LF that the review accepts and that commits (a template's choice, and the
// Holding interface's under the interface's id); Add as Disclosed
// Contract puts an offer its receiver cannot see into the receiver's request, the review lists it
// with the command that uses it, and the request that was refused without it commits with it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FakeLedgerNode, FakeVersion } from '../../../fake-ledger/src/testing';
import type { CommandsReviewPanel } from '../../../src/panels/commandsReviewPanel';
import type { LookupPanel } from '../../../src/panels/lookupPanel';
import { createPartner, PARTNER_OFFER } from '../../support/partnerContracts';
import { cantonLens, resetNodes, startPartnerNode, until, usePartnerNode } from './testApi';

describe('Contract panel actions on commands files', function () {
  this.timeout(90_000);
  const fakes: FakeLedgerNode[] = [];
  const folder = () => vscode.workspace.workspaceFolders![0].uri;

  before(resetNodes);
  after(async () => {
    const api = await cantonLens();
    for (const p of [...api.panels.panels]) p.dispose();
    await resetNodes();
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), 'commands'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await Promise.all(fakes.map((f) => f.close()));
  });

  const openContract = async (id: string, node: string): Promise<LookupPanel> => {
    const api = await cantonLens();
    await vscode.commands.executeCommand('cantonLens.showContract', id, node);
    const panel = await until('the contract panel', () => api.panels.panels.find((p) => p.current.id === id && p.current.node === node));
    await until('the contract', () => (panel.lookupResult?.kind === 'contract' && panel.lookupResult.found ? panel.lookupResult : undefined));
    return panel;
  };

  /** The review of a written request, once its types are checked: nothing in it blocks the submit. */
  const reviewWithoutBlocks = async (written: vscode.Uri, node: string) => {
    const review = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', written, node);
    const view = await until('the types checked', () => (review.current?.findings.some((f) => f.id === 'types') ? review.current : undefined));
    assert.deepEqual(
      view.findings.filter((f) => f.severity === 'block'),
      [],
    );
    return { review, view };
  };

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: Exercise… on a partner Token writes a request from the node's Daml-LF that the review accepts, and it commits`, async () => {
      const api = await cantonLens();
      const name = `actions-${version}`;
      const { fake, token } = await usePartnerNode(api, version, name, fakes);
      const { Alice } = fake.ledger.parties;

      const panel = await openContract(token, name);
      const loop = api.commands.load();
      let offered: string[] = [];
      loop.contracts.pickChoice = async (choices) => {
        offered = choices.map((c) => `${c.choice}${c.viaInterface ? ' (interface)' : ''}`);
        return choices.find((c) => c.choice === 'Transfer');
      };
      const written = (await panel.exercise()) as vscode.Uri;
      assert.deepEqual(offered, ['Archive', 'Transfer', 'Token_Split', 'Token_Peek', 'Holding_Lock (interface)', 'Holding_Describe (interface)']);
      assert.match(written.path, /\/commands\/Token_Transfer\.commands\.json$/);
      const request = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(written)).toString('utf8'));
      assert.deepEqual(request.commands[0].ExerciseCommand, {
        templateId: '#canton-lens-partner-app:Partner.Token:Token',
        contractId: token,
        choice: 'Transfer',
        choiceArgument: { newOwner: Alice, amount: '0.0', kind: 'Direct' },
      });

      const { review, view } = await reviewWithoutBlocks(written, name);
      assert.ok(view.findings.some((f) => f.id === 'types' && f.severity === 'ok'));
      const outcome = await review.submit();
      assert.equal(outcome?.state, 'committed', JSON.stringify(outcome));
      review.dispose();
      panel.dispose();
    });

    it(`${version}: Exercise… of the Holding interface's choice writes it under the interface's id; the review accepts it and it commits`, async () => {
      const api = await cantonLens();
      const name = `interface-${version}`;
      const { token } = await usePartnerNode(api, version, name, fakes);

      const panel = await openContract(token, name);
      api.commands.load().contracts.pickChoice = async (choices) => choices.find((c) => c.choice === 'Holding_Lock' && c.viaInterface);
      const written = (await panel.exercise()) as vscode.Uri;
      assert.match(written.path, /\/commands\/Token_Holding_Lock\.commands\.json$/);
      const request = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(written)).toString('utf8'));
      assert.deepEqual(request.commands[0].ExerciseCommand, {
        templateId: '#canton-lens-partner-app:Partner.Token:Holding',
        contractId: token,
        choice: 'Holding_Lock',
        choiceArgument: { until: '1970-01-01T00:00:00Z' },
      });

      const { review } = await reviewWithoutBlocks(written, name);
      const outcome = await review.submit();
      assert.equal(outcome?.state, 'committed', JSON.stringify(outcome));
      assert.equal(outcome.state === 'committed' ? outcome.events : 0, 2, 'the exercise through the interface and the LockedToken it made');
      review.dispose();
      panel.dispose();
    });

    it(`${version}: Add as Disclosed Contract puts an offer Bob cannot see into his request; refused without it, it commits with it`, async () => {
      const api = await cantonLens();
      const { fake, token } = await startPartnerNode(version, fakes);
      const { Alice, Bob } = fake.ledger.parties;
      const offer = await createPartner(fake, 'alice', Alice, PARTNER_OFFER, {
        sender: Alice,
        receiver: Bob,
        token,
        memo: null,
        settlement: { tag: 'Immediate', value: {} },
      });
      const [alice, bob] = [`alice-${version}`, `bob-${version}`];
      await vscode.workspace.getConfiguration('cantonLens').update(
        'nodes',
        [
          { name: alice, url: fake.url },
          { name: bob, url: fake.url },
        ],
        vscode.ConfigurationTarget.Global,
      );
      await until('the nodes', () => api.nodes.find(alice) && api.nodes.find(bob));
      await vscode.commands.executeCommand('cantonLens.setToken', alice, fake.mintToken('alice'));
      await vscode.commands.executeCommand('cantonLens.setToken', bob, fake.mintToken('bob'));

      const uri = vscode.Uri.joinPath(folder(), 'commands', `accept-${version}.commands.json`);
      const first = vscode.Uri.joinPath(folder(), 'commands', `accept-undisclosed-${version}.commands.json`);
      const accept = (commandId: string) => ({
        commandId,
        actAs: [Bob],
        commands: [
          { ExerciseCommand: { templateId: '#canton-lens-partner-app:Partner.Token:TransferOffer', contractId: offer, choice: 'Accept', choiceArgument: {} } },
        ],
      });
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
      await vscode.workspace.fs.writeFile(first, Buffer.from(JSON.stringify(accept(`accept-${version}-1`), null, 2)));
      const refused = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', first, bob);
      const failed = await refused.submit();
      assert.equal(failed?.state === 'failed' ? failed.why.code : failed?.state, 'CONTRACT_NOT_FOUND', 'Bob does not see the offer');
      refused.dispose();

      // Alice's panel shows the offer; her Add as Disclosed Contract goes into Bob's request, open in the editor.
      const panel = await openContract(offer, alice);
      await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(accept(`accept-${version}-2`), null, 2)));
      await vscode.window.showTextDocument(uri);
      assert.equal((await panel.addDisclosed())?.toString(), uri.toString());
      const doc = await vscode.workspace.openTextDocument(uri);
      const disclosed = (JSON.parse(doc.getText()) as { disclosedContracts: Record<string, string>[] }).disclosedContracts;
      assert.equal(disclosed.length, 1);
      assert.equal(disclosed[0].contractId, offer);
      assert.equal(disclosed[0].templateId, PARTNER_OFFER);
      assert.equal(disclosed[0].synchronizerId, fake.ledger.synchronizerId);
      assert.ok(disclosed[0].createdEventBlob.length > 0, 'with its created event blob');

      const review = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', uri, bob);
      assert.deepEqual(
        review.current?.disclosed?.map((d) => [d.contractId, d.usedBy]),
        [[offer, [0]]],
      );
      const outcome = await review.submit();
      assert.equal(outcome?.state, 'committed', JSON.stringify(outcome));
      const sent = fake.requests.filter((r) => r.path === '/v2/commands/submit-and-wait-for-transaction').at(-1)!;
      assert.equal((JSON.parse(sent.body) as { commands: { disclosedContracts: unknown[] } }).commands.disclosedContracts.length, 1);
      review.dispose();
      panel.dispose();
    });
  }
});
