// A person opens a cloned repository without trusting it (Restricted Mode). Its
// .vscode/settings.json names a node; the same node is also in their user settings. Stored
// tokens go only to the user's entry: a workspace entry could point a familiar name anywhere.
import * as assert from 'node:assert/strict';
import { useWorkbench } from './uiFixture';

describe('UI: Restricted Mode keeps stored tokens from workspace nodes', function () {
  this.timeout(240_000);
  // One node, named twice: "team-node" in the cloned folder's .vscode/settings.json, "my-node" in
  // the user's settings. The folder is not trusted; tokens are set through the palette, whose
  // answer for the workspace node is tested.
  const ui = useWorkbench({
    nodes: { node: { version: '3.5' } },
    files: ({ node }) => ({
      '.vscode/settings.json': JSON.stringify(
        {
          'cantonLens.nodes': [{ name: 'team-node', url: node.url, parties: [node.ledger.parties.Alice] }],
          'cantonLens.activeNode': 'team-node',
        },
        null,
        2,
      ),
      'ledger.log': `contractId=${node.ledger.samples.activeContract}\n`,
    }),
    settings: ({ node }) => ({ 'cantonLens.nodes': [{ name: 'my-node', url: node.url, parties: [node.ledger.parties.Alice] }] }),
    distrustFolder: true,
    ready: async ({ wb, nodes: { node } }) => {
      await wb.setToken('team-node', node.mintToken('alice'));
      await wb.setToken('my-node', node.mintToken('alice'));
    },
  });

  it('runs in Restricted Mode and says in the tree that the workspace node gets no token', async () => {
    await ui.wb.page.locator('.statusbar', { hasText: 'Restricted Mode' }).waitFor({ timeout: 30_000 });
    // Storing the token said at once that it will not be sent.
    await ui.wb.page
      .locator('.notifications-toasts .notification-list-item', { hasText: 'Token stored for "team-node"' })
      .filter({ hasText: 'untrusted workspace: no stored token is sent to it' })
      .filter({ hasText: 'Manage Workspace Trust' })
      .first()
      .waitFor();
    await ui.wb.openView('Canton');
    await ui.wb.waitForTreeRow(/^Token not used \(untrusted workspace\)$/, ['team-node']);
    await ui.wb.waitForTreeRow(/^Token alice, expires in/, ['my-node']);
    await ui.wb.screenshot('restricted-mode-tree.png');
  });

  it('looks an id up on both: only the user-settings node is sent the token', async () => {
    ui.nodes.node.requests.length = 0;
    await ui.wb.openFile('ledger.log');
    await ui.wb.goTo(1, 20);
    await ui.wb.runCommand('Canton: Look Up on All Nodes');
    await ui.wb.webview().locator('.asked', { hasText: 'Visible on 1 of 1 node asked. 1 node could not be asked' }).waitFor({ timeout: 30_000 });
    const rows = await ui.wb.webview().locator('tbody tr').allInnerTexts();
    assert.match(rows.find((r) => r.startsWith('my-node')) ?? '', /active · Iou:Iou/);
    assert.match(
      rows.find((r) => r.startsWith('team-node')) ?? '',
      /requires a token \(401\) and none was sent\. This node comes from the settings of an untrusted workspace/,
    );
    const lookups = ui.nodes.node.requests.filter((r) => r.path === '/v2/events/events-by-contract-id');
    assert.equal(lookups.filter((r) => r.headers.authorization === undefined).length, 1, 'team-node asked without a token');
    assert.equal(lookups.filter((r) => String(r.headers.authorization ?? '').startsWith('Bearer ')).length, 1, 'my-node asked with its token');
  });
});
