// A person opens a test log of the ledger, puts the cursor on an id and inspects it: the panel,
// a hover, a link click, a not-found id. The packaged .vsix against a fake node.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode } from '../../src/fakeNode/fakeLedgerNode';
import { Workbench } from './workbench';

describe('UI: inspecting ids from a log file', function () {
  this.timeout(240_000);
  let node: FakeLedgerNode;
  let wb: Workbench;
  let folder: string;
  const lines: string[] = [];

  before(async () => {
    node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 60 });
    const s = node.ledger.samples;
    lines.push(
      '2026-11-21T09:14:05.120Z INFO  c.d.c.p.TransactionProcessor - committed',
      `contractId=${s.activeContract}`,
      `updateId=${s.transferUpdate}`,
      `missing=${s.unknownContract}`,
    );
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-ws-'));
    fs.writeFileSync(path.join(folder, 'ledger.log'), `${lines.join('\n')}\n`);
    wb = await Workbench.open({ folder, settings: { 'cantonLens.nodes': [{ name: 'participant1', url: node.url, parties: [node.ledger.parties.Alice] }], 'cantonLens.activeNode': 'participant1' } });
    await wb.setToken('participant1', node.mintToken('alice'));
    await wb.openFile('ledger.log');
  });
  afterEach(async function () {
    await wb?.screenshotIfFailed(this.currentTest);
  });
  after(async () => {
    await wb?.close();
    await node?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('inspects the contract id under the cursor: template, status and parties in the panel', async () => {
    await wb.goTo(2, 20);
    await wb.runCommand('Canton: Inspect Id at Cursor');
    await wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    const text = await wb.webviewText();
    assert.match(text, /Contract 00[0-9a-f]{8}…[0-9a-f]{6}/);
    assert.match(text, /Iou:Iou/);
    assert.match(text, /Signatories\s+Bank::1220[0-9a-f]{2}…/);
    assert.match(text, /Observers\s+Alice::1220[0-9a-f]{2}…/);
    assert.match(text, /amount\s*:?\s*"1000\.0000000000"/);
    await wb.screenshot('contract-panel.png');
  });

  it('inspects an update id: the transaction with its events', async () => {
    await wb.openFile('ledger.log');
    await wb.goTo(3, 20);
    await wb.runCommand('Canton: Inspect Id at Cursor');
    await wb.webview().locator('.badge', { hasText: 'Committed' }).waitFor({ timeout: 30_000 });
    await wb.webview().locator('#event-rows tr').first().waitFor();
    const text = await wb.webviewText();
    assert.match(text, /transfer-alice-bob-7f3a/);
    assert.match(text, /archived\s+Iou:Iou/);
    await wb.screenshot('transaction-panel.png');
  });

  it('shows a hover on an id with what the ledger says', async () => {
    await wb.openFile('ledger.log');
    const line = wb.page.locator('.view-lines .view-line', { hasText: 'contractId=' });
    const box = (await line.boundingBox())!;
    await wb.page.mouse.move(box.x + 150, box.y + box.height / 2);
    const hover = wb.page.locator('.monaco-hover', { hasText: 'Canton contract id' });
    await hover.waitFor({ timeout: 20_000 });
    assert.match(await hover.innerText(), /Active · Iou:Iou/);
    await wb.screenshot('hover.png');
    await wb.page.mouse.move(5, 5);
  });

  it('opens a panel from a link, and explains a contract that is not found', async () => {
    await wb.openFile('ledger.log');
    const line = wb.page.locator('.view-lines .view-line', { hasText: 'missing=' });
    const box = (await line.boundingBox())!;
    await wb.page.keyboard.down('Control');
    await wb.page.mouse.click(box.x + 150, box.y + box.height / 2);
    await wb.page.keyboard.up('Control');
    await wb.webview().locator('.badge', { hasText: 'Not found' }).waitFor({ timeout: 30_000 });
    assert.match(await wb.webviewText(), /Contract not found on participant1 for (CanActAs )?Alice::1220[0-9a-f]{2}…/);
  });

  it('brings the panels back after a window reload', async () => {
    await wb.reloadWindow();
    for (const title of [/^Contract 00/, /^Transaction 1220/]) await wb.page.locator('.tabs-container .tab', { hasText: title }).first().waitFor({ timeout: 60_000 });
    // The web workbench keeps secrets for the session only (desktop VS Code keeps them in the
    // OS keychain), so the restored panel may ask for the token again: set it, then Retry.
    const restored = wb.webview().locator('.badge, .error').first();
    await restored.waitFor({ timeout: 60_000 });
    if (await wb.webview().locator('.error').count()) {
      assert.match(await wb.webviewText(), /requires a token \(401\) and none was sent\. Set a token for this node\./);
      await wb.setToken('participant1', node.mintToken('alice'));
      await wb.webview().locator('button[data-action="retry"]').click();
    }
    await wb.webview().locator('.badge').first().waitFor({ timeout: 30_000 });
    assert.match(await wb.webviewText(), /Transaction 1220|Contract 00/);
  });
});
