// Code and ledger side by side (issue 13), as a person uses it in the packaged extension: the
// template name in a contract panel opens its line in the Daml model, and the CodeLens above a
// template in that model opens the table of its active contracts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode } from '../../src/fakeNode/fakeLedgerNode';
import { PROJECT_ROOT } from '../vscode/vscodeServer';
import { Workbench } from './workbench';

describe('UI: from a panel to the Daml line, from a CodeLens to the table', function () {
  this.timeout(240_000);
  let node: FakeLedgerNode;
  let wb: Workbench;
  let folder: string;

  before(async () => {
    node = await FakeLedgerNode.start({ version: '3.5' });
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-daml-'));
    for (const pkg of ['daml-model', 'daml-holding']) fs.cpSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'workspace', pkg), path.join(folder, pkg), { recursive: true });
    fs.writeFileSync(path.join(folder, 'ledger.log'), `created contractId=${node.ledger.samples.activeContract}\n`);
    wb = await Workbench.open({ folder, settings: { 'cantonLens.nodes': [{ name: 'participant1', url: node.url, parties: [node.ledger.parties.Alice] }], 'cantonLens.activeNode': 'participant1' } });
    await wb.setToken('participant1', node.mintToken('alice'));
  });
  afterEach(async function () {
    await wb?.screenshotIfFailed(this.currentTest);
  });
  after(async () => {
    await wb?.close();
    await node?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('clicks the template of a contract panel and lands on "template Iou" in Iou.daml', async () => {
    await wb.openFile('ledger.log');
    await wb.goTo(1, 30);
    await wb.runCommand('Canton: Inspect Id at Cursor');
    await wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    const link = wb.webview().locator('a.daml-link', { hasText: 'Iou:Iou' }).first();
    assert.match((await link.getAttribute('data-daml-template')) ?? '', /^[0-9a-f]{64}:Iou:Iou$/);
    assert.equal(await link.getAttribute('data-daml-package'), 'canton-lens-demo-model');
    await link.click();
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'Iou.daml' }).first().waitFor({ timeout: 30_000 });
    // The name is selected on its line: line 7, "Iou" after "template " (the cursor at its end).
    await wb.page.locator('.statusbar', { hasText: /Ln 7, Col 13 \(3 selected\)/ }).waitFor({ timeout: 10_000 });
    assert.match(await wb.page.locator('.view-lines .view-line', { hasText: /template\s+Iou/ }).innerText(), /^template\s+Iou/);
  });

  it('clicks the CodeLens above "template Iou" and sees the table of its active contracts', async () => {
    await wb.openFile('Iou.daml');
    const lens = wb.page.locator('.contentWidgets .codelens-decoration a', { hasText: /active · .* created in the last 24 h on participant1/ }).first();
    await lens.waitFor({ timeout: 60_000 });
    const title = await lens.innerText();
    await wb.screenshot('daml-codelens.png');
    await lens.click();
    await wb.page.locator('.tabs-container .tab', { hasText: 'Active Iou on participant1' }).first().waitFor({ timeout: 30_000 });
    // The table's page (beside the contract panel): its status says as many contracts as the lens.
    const count = /([\d,]+) active/.exec(title)![1]!;
    const deadline = Date.now() + 60_000;
    let status = '';
    while (!status.startsWith(`${count} contracts`)) {
      assert.ok(Date.now() < deadline, `the table's status: ${status}`);
      const outer = wb.page.locator('iframe.webview.ready >> visible=true');
      for (let i = 0; i < (await outer.count()); i++) {
        const frame = outer.nth(i).contentFrame().frameLocator('iframe#active-frame');
        const text = await frame.locator('body.browse #status').innerText({ timeout: 1_000 }).catch(() => '');
        if (text) status = text.trim();
      }
      await wb.page.waitForTimeout(250);
    }
    assert.match(status, /active at offset \d+/);
  });
});
