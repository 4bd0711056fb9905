// Party ids complete in a *.prepare.json from what the active node knows about the token's user.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { resetNodes } from './testApi';

describe('Party completion in a prepare request', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  let dir: string;

  before(async () => {
    await resetNodes();
    node = await FakeLedgerNode.start({ version: '3.5' });
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'parties', url: node.url });
    await vscode.commands.executeCommand('cantonLens.setToken', 'parties', node.mintToken('alice'));
    await vscode.commands.executeCommand('cantonLens.selectNode', 'parties');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-prepare-'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("offers the token user's parties in actAs, with the right each has", async () => {
    const file = path.join(dir, 'transfer.prepare.json');
    const text = '{\n  "actAs": [""],\n  "commands": []\n}\n';
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(file);
    const position = doc.positionAt(text.indexOf('[""]') + 2);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, position, '"');
    const alice = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === node.ledger.parties.Alice);
    assert.ok(alice, `Alice's party among ${list.items.length} items`);
    assert.match(String(alice.detail), /CanActAs/);
    // Outside a party field: nothing from Canton Lens.
    const none = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      doc.positionAt(text.indexOf('"commands"') + 3),
    );
    assert.ok(!none.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === node.ledger.parties.Alice));
  });
});
