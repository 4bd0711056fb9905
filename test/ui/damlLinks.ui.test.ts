// Code and ledger side by side, as a person uses it in the packaged extension: the
// template name in a contract panel opens its line in the Daml model, and the CodeLens above a
// template in that model opens the table of its active contracts.
import * as assert from 'node:assert/strict';
import { useWorkbench } from './uiFixture';

describe('UI: from a panel to the Daml line, from a CodeLens to the table', function () {
  this.timeout(240_000);
  // The Daml packages of the demo model beside a log with one active contract of the node.
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.5' } },
    parties: (node) => [node.ledger.parties.Alice],
    fixtures: ['daml-model', 'daml-holding'],
    files: ({ participant1 }) => ({ 'ledger.log': `created contractId=${participant1.ledger.samples.activeContract}\n` }),
    tokens: { participant1: 'alice' },
  });

  it('clicks the template of a contract panel and lands on "template Iou" in Iou.daml', async () => {
    await ui.wb.openFile('ledger.log');
    await ui.wb.goTo(1, 30);
    await ui.wb.runCommand('Canton: Inspect Id at Cursor');
    await ui.wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    const link = ui.wb.webview().locator('a.daml-link', { hasText: 'Iou:Iou' }).first();
    assert.match((await link.getAttribute('data-daml-template')) ?? '', /^[0-9a-f]{64}:Iou:Iou$/);
    assert.equal(await link.getAttribute('data-daml-package'), 'canton-lens-demo-model');
    await link.click();
    await ui.wb.page.locator('.tabs-container .tab.active', { hasText: 'Iou.daml' }).first().waitFor({ timeout: 30_000 });
    // The name is selected on its line: line 7, "Iou" after "template " (the cursor at its end).
    await ui.wb.page.locator('.statusbar', { hasText: /Ln 7, Col 13 \(3 selected\)/ }).waitFor({ timeout: 10_000 });
    assert.match(await ui.wb.page.locator('.view-lines .view-line', { hasText: /template\s+Iou/ }).innerText(), /^template\s+Iou/);
  });

  it('clicks the CodeLens above "template Iou" and sees the table of its active contracts', async () => {
    await ui.wb.openFile('Iou.daml');
    const lens = ui.wb.page.locator('.contentWidgets .codelens-decoration a', { hasText: /active · .* created in the last 24 h on participant1/ }).first();
    await lens.waitFor({ timeout: 60_000 });
    const title = await lens.innerText();
    await ui.wb.screenshot('daml-codelens.png');
    // The lenses are provided again when the node is checked again (its counts may have changed):
    // a click on one being replaced is lost, so it is clicked again until the table opens (opening
    // it only reads).
    const tab = ui.wb.page.locator('.tabs-container .tab', { hasText: 'Active Iou on participant1' }).first();
    for (let attempt = 1; ; attempt++) {
      await lens.click();
      const opened = await tab.waitFor({ timeout: 8_000 }).then(
        () => true,
        () => false,
      );
      if (opened) break;
      assert.ok(attempt < 8, 'the lens opened no table in 8 clicks');
    }
    // The table's page (beside the contract panel): its status says as many contracts as the lens.
    const count = /([\d,]+) active/.exec(title)![1];
    const deadline = Date.now() + 60_000;
    let status = '';
    while (!status.startsWith(`${count} contracts`)) {
      assert.ok(Date.now() < deadline, `the table's status: ${status}`);
      const outer = ui.wb.page.locator('iframe.webview.ready >> visible=true');
      for (let i = 0; i < (await outer.count()); i++) {
        const frame = outer.nth(i).contentFrame().frameLocator('iframe#active-frame');
        const text = await frame
          .locator('body.browse #status')
          .innerText({ timeout: 1_000 })
          .catch(() => '');
        if (text) status = text.trim();
      }
      await ui.wb.page.waitForTimeout(250);
    }
    assert.match(status, /active at offset \d+/);
  });
});
