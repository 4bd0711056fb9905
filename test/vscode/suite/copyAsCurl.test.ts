// Copy as cURL in VS Code: from a panel and from the log, with the token never in the clipboard.
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { cantonLens, resetNodes, until } from './testApi';

describe('Copy as cURL', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  let token: string;

  before(async () => {
    await resetNodes();
    node = await FakeLedgerNode.start({ version: '3.5', pathPrefix: '/api/json' });
    token = node.mintToken('alice');
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'curl', url: node.url, parties: [node.ledger.parties.Alice] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'curl', token);
    await vscode.commands.executeCommand('cantonLens.selectNode', 'curl');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await node.close();
  });

  it("copies a panel's lookup as the exact request, with $TOKEN for the token", async () => {
    const api = await cantonLens();
    const id = node.ledger.samples.activeContract;
    await vscode.commands.executeCommand('cantonLens.showContract', id, 'curl');
    const panel = await until('the contract panel', () => api.panels.panels.find((p) => p.current.id === id && p.lookupResult?.found));
    assert.match(panel.lastBody, /Copy as cURL|active/);
    await vscode.env.clipboard.writeText('');
    const copied = await panel.copyAsCurl();
    const clip = await vscode.env.clipboard.readText();
    assert.equal(clip, copied);
    assert.ok(clip.includes(`'${node.url}/v2/events/events-by-contract-id'`), clip);
    assert.ok(node.url.includes('/api/json'));
    assert.ok(clip.includes('"Authorization: Bearer $TOKEN"'));
    assert.ok(clip.includes(id));
    assert.ok(!clip.includes(token), 'the token is in the copy');
    // The logged request of the same lookup has the same body.
    const logged = api.log.requests.all().find((r) => r.path === '/v2/events/events-by-contract-id' && r.body?.includes(id));
    assert.ok(logged, 'the lookup is in the request history');
    assert.ok(clip.includes(logged.body!.replace(/'/g, `'\\''`)));
  });

  it('copies a request from the log by id; the copy runs in a shell and reaches the node', async function () {
    const api = await cantonLens();
    const logged = api.log.requests.all().find((r) => r.path === '/v2/events/events-by-contract-id');
    assert.ok(logged);
    assert.ok(!JSON.stringify(api.log.requests.all()).includes(token), 'the history holds the token');
    const text = await vscode.commands.executeCommand<string>('cantonLens.copyAsCurl', { requestId: logged.id });
    assert.equal(await vscode.env.clipboard.readText(), text);
    assert.ok(!text.includes(token));
    let hasCurl = true;
    try {
      execFileSync('curl', ['--version']);
    } catch {
      hasCurl = false;
    }
    if (!hasCurl) return;
    // Not execFileSync: the fake node answers from this very process.
    const { stdout: out } = await promisify(execFile)('/bin/sh', ['-c', text], {
      env: { PATH: process.env.PATH ?? '', TOKEN: token },
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(
      (JSON.parse(out) as { created?: { createdEvent: { contractId: string } } }).created?.createdEvent.contractId,
      node.ledger.samples.activeContract,
    );
  });

  it('opens the answer as a read-only JSON document that closes without asking to save', async () => {
    const api = await cantonLens();
    const panel = api.panels.panels.find((p) => p.lookupResult?.found);
    assert.ok(panel);
    const editor = await panel.openJson();
    assert.ok(editor);
    const doc = editor.document;
    assert.equal(doc.uri.scheme, 'cantonLens-json');
    assert.equal(doc.languageId, 'json');
    assert.equal(doc.isDirty, false);
    assert.equal(
      (JSON.parse(doc.getText()) as { created: { createdEvent: { contractId: string } } }).created.createdEvent.contractId,
      node.ledger.samples.activeContract,
    );
    // Not an untitled document holding the text (which is dirty from the start, so closing it asked
    // to save): a content provider's, shown read-only.
    assert.equal(doc.isUntitled, false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('says what to do for a request no longer in the log', async () => {
    const text = await vscode.commands.executeCommand<string | undefined>('cantonLens.copyAsCurl', { requestId: -1 });
    assert.equal(text, undefined);
  });
});
