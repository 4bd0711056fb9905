// A person opens a test log of the ledger, puts the cursor on an id and inspects it: the panel,
// a hover, a link click, a not-found id. The packaged .vsix against a fake node.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { useWorkbench } from './uiFixture';

const logLines = (node: FakeLedgerNode) => [
  '2026-11-21T09:14:05.120Z INFO  c.d.c.p.TransactionProcessor - committed',
  `contractId=${node.ledger.samples.activeContract}`,
  `updateId=${node.ledger.samples.transferUpdate}`,
  `missing=${node.ledger.samples.unknownContract}`,
];

describe('UI: inspecting ids from a log file', function () {
  this.timeout(240_000);
  // A 3.5 node whose transactions are large; a log of its ids, open; alice's token.
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.5', bigTransactionEvents: 60 } },
    parties: (node) => [node.ledger.parties.Alice],
    files: ({ participant1 }) => ({ 'ledger.log': `${logLines(participant1).join('\n')}\n` }),
    tokens: { participant1: 'alice' },
    ready: ({ wb }) => wb.openFile('ledger.log'),
  });

  it('inspects the contract id under the cursor: template, status and parties in the panel', async () => {
    await ui.wb.goTo(2, 20);
    await ui.wb.runCommand('Canton: Inspect Id at Cursor');
    await ui.wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    const text = await ui.wb.webviewText();
    assert.match(text, /Contract 00[0-9a-f]{8}…[0-9a-f]{6}/);
    assert.match(text, /Iou:Iou/);
    assert.match(text, /Signatories\s+Bank::1220[0-9a-f]{2}…/);
    assert.match(text, /Observers\s+Alice::1220[0-9a-f]{2}…/);
    assert.match(text, /amount\s*:?\s*"1000\.0000000000"/);
    await ui.wb.screenshot('contract-panel.png');
  });

  it('inspects an update id: the transaction with its events', async () => {
    await ui.wb.openFile('ledger.log');
    await ui.wb.goTo(3, 20);
    await ui.wb.runCommand('Canton: Inspect Id at Cursor');
    await ui.wb.webview().locator('.badge', { hasText: 'Committed' }).waitFor({ timeout: 30_000 });
    await ui.wb.webview().locator('#event-rows tr').first().waitFor();
    const text = await ui.wb.webviewText();
    assert.match(text, /transfer-alice-bob-7f3a/);
    assert.match(text, /archived\s+Iou:Iou/);
    await ui.wb.screenshot('transaction-panel.png');
  });

  it('shows a hover on an id with what the ledger says', async () => {
    await ui.wb.openFile('ledger.log');
    const line = ui.wb.page.locator('.view-lines .view-line', { hasText: 'contractId=' });
    const box = (await line.boundingBox())!;
    await ui.wb.page.mouse.move(box.x + 150, box.y + box.height / 2);
    const hover = ui.wb.page.locator('.monaco-hover', { hasText: 'Canton contract id' });
    await hover.waitFor({ timeout: 20_000 });
    assert.match(await hover.innerText(), /Active · Iou:Iou/);
    await ui.wb.screenshot('hover.png');
    await ui.wb.page.mouse.move(5, 5);
  });

  it('opens a panel from a link, and explains a contract that is not found', async () => {
    await ui.wb.openFile('ledger.log');
    const line = ui.wb.page.locator('.view-lines .view-line', { hasText: 'missing=' });
    const box = (await line.boundingBox())!;
    await ui.wb.page.keyboard.down('Control');
    await ui.wb.page.mouse.click(box.x + 150, box.y + box.height / 2);
    await ui.wb.page.keyboard.up('Control');
    await ui.wb.webview().locator('.badge', { hasText: 'Not found' }).waitFor({ timeout: 30_000 });
    assert.match(await ui.wb.webviewText(), /Contract not found on participant1 for (CanActAs )?Alice::1220[0-9a-f]{2}…/);
  });

  it('brings the panels back after a window reload', async () => {
    await ui.wb.reloadWindow();
    for (const title of [/^Contract 00/, /^Transaction 1220/])
      await ui.wb.page.locator('.tabs-container .tab', { hasText: title }).first().waitFor({ timeout: 60_000 });
    // The web workbench keeps secrets for the session only (desktop VS Code keeps them in the
    // OS keychain), so the restored panel may ask for the token again: set it, then Retry.
    const restored = ui.wb.webview().locator('.badge, .error').first();
    await restored.waitFor({ timeout: 60_000 });
    if (await ui.wb.webview().locator('.error').count()) {
      assert.match(await ui.wb.webviewText(), /requires a token \(401\) and none was sent\. Set a token for this node\./);
      await ui.wb.setToken('participant1', ui.nodes.participant1.mintToken('alice'));
      await ui.wb.webview().locator('button[data-action="retry"]').click();
    }
    await ui.wb.webview().locator('.badge').first().waitFor({ timeout: 30_000 });
    assert.match(await ui.wb.webviewText(), /Transaction 1220|Contract 00/);
  });
});
