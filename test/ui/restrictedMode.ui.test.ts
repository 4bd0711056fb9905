// A person opens a cloned repository without trusting it (Restricted Mode). Its
// .vscode/settings.json names a node; the same node is also in their user settings. Stored
// tokens go only to the user's entry: a workspace entry could point a familiar name anywhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode } from '../../src/fakeNode/fakeLedgerNode';
import { Workbench } from './workbench';

describe('UI: Restricted Mode keeps stored tokens from workspace nodes', function () {
  this.timeout(240_000);
  let node: FakeLedgerNode;
  let wb: Workbench;
  let folder: string;

  before(async () => {
    node = await FakeLedgerNode.start({ version: '3.5' });
    const alice = node.ledger.parties.Alice;
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-cloned-'));
    fs.mkdirSync(path.join(folder, '.vscode'));
    fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({
      'cantonLens.nodes': [{ name: 'team-node', url: node.url, parties: [alice] }],
      'cantonLens.activeNode': 'team-node',
    }, null, 2));
    fs.writeFileSync(path.join(folder, 'ledger.log'), `contractId=${node.ledger.samples.activeContract}\n`);
    wb = await Workbench.open({ folder, distrustFolder: true, settings: { 'cantonLens.nodes': [{ name: 'my-node', url: node.url, parties: [alice] }] } });
    await wb.setToken('team-node', node.mintToken('alice'));
    await wb.setToken('my-node', node.mintToken('alice'));
  });
  afterEach(async function () {
    await wb?.screenshotIfFailed(this.currentTest);
  });
  after(async () => {
    await wb?.close();
    await node?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('runs in Restricted Mode and says in the tree that the workspace node gets no token', async () => {
    await wb.page.locator('.statusbar', { hasText: 'Restricted Mode' }).waitFor({ timeout: 30_000 });
    // Storing the token said at once that it will not be sent.
    await wb.page.locator('.notifications-toasts .notification-list-item', { hasText: 'Token stored for "team-node"' })
      .filter({ hasText: 'untrusted workspace: no stored token is sent to it' }).filter({ hasText: 'Manage Workspace Trust' }).first().waitFor();
    await wb.openView('Canton');
    await wb.waitForTreeRow(/^Token not used \(untrusted workspace\)$/, ['team-node']);
    await wb.waitForTreeRow(/^Token alice, expires in/, ['my-node']);
    await wb.screenshot('restricted-mode-tree.png');
  });

  it('looks an id up on both: only the user-settings node is sent the token', async () => {
    node.requests.length = 0;
    await wb.openFile('ledger.log');
    await wb.goTo(1, 20);
    await wb.runCommand('Canton: Look Up on All Nodes');
    await wb.webview().locator('.asked', { hasText: 'Visible on 1 of 1 node asked. 1 node could not be asked' }).waitFor({ timeout: 30_000 });
    const rows = await wb.webview().locator('tbody tr').allInnerTexts();
    assert.match(rows.find((r) => r.startsWith('my-node')) ?? '', /active · Iou:Iou/);
    assert.match(rows.find((r) => r.startsWith('team-node')) ?? '', /requires a token \(401\) and none was sent\. This node comes from the settings of an untrusted workspace/);
    const lookups = node.requests.filter((r) => r.path === '/v2/events/events-by-contract-id');
    assert.equal(lookups.filter((r) => r.headers.authorization === undefined).length, 1, 'team-node asked without a token');
    assert.equal(lookups.filter((r) => String(r.headers.authorization ?? '').startsWith('Bearer ')).length, 1, 'my-node asked with its token');
  });
});
