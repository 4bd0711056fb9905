// Panels open beside the editor once and then share that editor group, as the Markdown preview
// does: a contract, a comparison and a transaction opened one after another leave two groups, not four.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { cantonLens, resetNodes, until, useFakeNode } from './testApi';

describe('Panel layout', function () {
  this.timeout(60_000);
  let fake: FakeLedgerNode;
  before(async () => {
    await resetNodes();
    fake = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1 });
    await useFakeNode(await cantonLens(), fake, 'layout', 'alice');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await fake.close();
  });

  it('opens every panel in one group beside the editor, whichever has focus', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const doc = await vscode.workspace.openTextDocument({ content: fake.ledger.samples.activeContract, language: 'plaintext' });
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    const { activeContract, archivedContract, transferUpdate } = fake.ledger.samples;
    const webviews = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview).length;
    const opened = async (n: number) => until(`${n} panels`, () => (webviews() >= n ? true : undefined));
    await vscode.commands.executeCommand('cantonLens.showContract', activeContract, 'layout');
    await opened(1);
    const groups = () => vscode.window.tabGroups.all.filter((g) => g.tabs.length > 0).length;
    assert.equal(groups(), 2, 'the first panel opens beside the editor');
    // The panel has focus now: the next ones still go to its group, not beside it.
    await vscode.commands.executeCommand('cantonLens.compareContracts', activeContract, archivedContract, 'layout');
    await opened(2);
    await vscode.commands.executeCommand('cantonLens.showTransaction', transferUpdate, 'layout');
    await opened(3);
    // And from the editor again.
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('cantonLens.compareContracts', archivedContract, activeContract, 'layout');
    await opened(4);
    assert.equal(
      groups(),
      2,
      `one editor group and one of panels: ${vscode.window.tabGroups.all.map((g) => g.tabs.map((t) => t.label).join(' | ')).join(' || ')}`,
    );
    const panels = vscode.window.tabGroups.all.find((g) => g.viewColumn !== vscode.ViewColumn.One)!;
    assert.ok(panels.tabs.length >= 3, 'the panels share the group');
  });
});
