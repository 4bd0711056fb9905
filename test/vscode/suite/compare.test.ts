// Compare Contracts in the extension host, on 3.4, 3.5 and 3.6: two contracts of the demo ledger
// read as the token's parties and compared; an unknown one is explained; whether one became the
// other, through a chain of transactions or not at all; Compare with JSON on an editor's selection.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { ContractDiffPanel, JsonDiffPanel } from '../../../src/panels/contractDiffPanel';
import { cantonLens, resetNodes, useFakeNode } from './testApi';

describe('Compare Contracts', function () {
  this.timeout(60_000);
  const fakes: FakeLedgerNode[] = [];
  before(resetNodes);
  after(async () => {
    await resetNodes();
    await Promise.all(fakes.map((f) => f.close()));
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: compares two contracts side by side, and says which one cannot be read`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `compare-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      const { activeContract, archivedContract, unknownContract } = fake.ledger.samples;
      const panel = await vscode.commands.executeCommand<ContractDiffPanel>('cantonLens.compareContracts', activeContract, archivedContract, name);
      assert.ok(panel.shown, 'both contracts read');
      assert.equal(panel.shown.differentTemplates, false);
      assert.ok(panel.shown.facts.some((f) => f.label === 'template' && f.same));
      assert.equal(panel.shown.facts.find((f) => f.label === 'offset')?.same, false, 'created at different offsets');
      panel.dispose();
      const missing = await vscode.commands.executeCommand<ContractDiffPanel>('cantonLens.compareContracts', activeContract, unknownContract, name);
      assert.equal(missing.shown, undefined, 'nothing compared when one is not found');
      missing.dispose();
    });

    it(`${version}: finds the lineage of a chain with its hop count, none for unrelated contracts, and compares a selection as JSON`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `lineage-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      const { workflowChain: chain, activeContract, upgradedContracts } = fake.ledger.samples;
      // The newer one first: the older is the ancestor whichever side it is on.
      const panel = await vscode.commands.executeCommand<ContractDiffPanel>('cantonLens.compareContracts', chain[3], chain[0], name);
      assert.ok(panel.shown, 'the diff is there before the lineage');
      const lineage = await panel.lineage;
      assert.ok(lineage?.found, `lineage found: ${JSON.stringify(lineage)?.slice(0, 300)}`);
      assert.equal(lineage.ancestor, chain[0]);
      assert.deepEqual(
        lineage.steps.map((s) => [s.archived, s.choice]),
        [
          [chain[0], 'Iou_Split'],
          [chain[1], 'Iou_Transfer'],
          [chain[2], 'Iou_Transfer'],
        ],
      );
      panel.dispose();

      const unrelated = await vscode.commands.executeCommand<ContractDiffPanel>('cantonLens.compareContracts', activeContract, chain[3], name);
      const none = await unrelated.lineage;
      assert.ok(none && !none.found && none.reason === 'active' && none.ancestor === activeContract, JSON.stringify(none)?.slice(0, 300));
      unrelated.dispose();

      const upgraded = await vscode.commands.executeCommand<ContractDiffPanel>('cantonLens.compareContracts', upgradedContracts.v1, upgradedContracts.v2, name);
      assert.equal(upgraded.shown?.upgraded, true, 'two package versions of one template');
      assert.equal(upgraded.shown?.counts.versionOnly, 1);
      upgraded.dispose();

      // The last link as expected, but with another owner and the amount as a JSON number.
      const { Alice, Bob } = fake.ledger.parties;
      const json = JSON.stringify({ issuer: Alice, owner: Bob, currency: 'USD', amount: 600, observers: [] }, null, 2);
      const doc = await vscode.workspace.openTextDocument({
        language: 'plaintext',
        content: `Expected after the transfers:
${json}
(notes)`,
      });
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(1, 0, 1 + json.split('\n').length - 1, json.split('\n').at(-1)!.length);
      const compared = await vscode.commands.executeCommand<JsonDiffPanel>('cantonLens.compareWithJson', chain[3], undefined, name);
      assert.ok(compared?.shown, 'the contract read and compared');
      assert.match(compared.expected.source, /^selection in /);
      assert.deepEqual(compared.shown.counts, { changed: 1, added: 0, removed: 0, versionOnly: 0 }, 'only the owner differs: 600 is 600.0000000000');
      compared.dispose();
      // Not JSON, in a document that is not JSON: nothing compared (the error names the line and column).
      const again = await vscode.window.showTextDocument(doc);
      again.selection = new vscode.Selection(0, 0, 0, 10);
      assert.equal(await vscode.commands.executeCommand('cantonLens.compareWithJson', chain[3], undefined, name), undefined);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
  }

  it("the pick of recent contracts says each one's state as the node says it now, not as it was seen", async function () {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1 });
    fakes.push(fake);
    const name = 'compare-recent';
    await useFakeNode(api, fake, name, 'alice');
    const { activeContract, archivedContract } = fake.ledger.samples;
    // Seen active a while ago; archived since.
    await api.recent.add({ kind: 'contract', id: archivedContract, node: name, summary: 'active · Iou:Iou', at: Date.now() - 60_000 });
    await api.recent.add({ kind: 'contract', id: activeContract, node: name, summary: 'active · Iou:Iou', at: Date.now() - 60_000 });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    type Window = { showQuickPick: typeof vscode.window.showQuickPick };
    const win = vscode.window as unknown as Window;
    const original = win.showQuickPick;
    let shown: { id?: string; detail?: string }[] = [];
    try {
      win.showQuickPick = (async (items: readonly { id?: string; detail?: string }[]) => {
        shown = [...items];
        return undefined;
      }) as unknown as typeof vscode.window.showQuickPick;
    } catch {
      this.skip();
    }
    if (vscode.window.showQuickPick !== win.showQuickPick) this.skip();
    try {
      await vscode.commands.executeCommand('cantonLens.compareContracts');
    } finally {
      win.showQuickPick = original;
    }
    assert.match(shown.find((i) => i.id === archivedContract)?.detail ?? '', /^archived · /, JSON.stringify(shown));
    assert.match(shown.find((i) => i.id === activeContract)?.detail ?? '', /^active · /);
  });
});
