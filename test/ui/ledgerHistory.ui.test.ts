// The ledger history as a person asks about it in the packaged extension: a ledger point marked before
// a "test run", What Changed since it (rows by kind, a payload filter typed with its completion), the
// table as it was at the point; and Compare Contracts on two contracts typed in.
import * as assert from 'node:assert/strict';
import { useWorkbench } from './uiFixture';

describe('UI: the ledger history', function () {
  this.timeout(240_000);
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.6', bigTransactionEvents: 1, generated: { contracts: 20 } } },
    tokens: { participant1: 'bank' },
  });

  it('marks a point, and shows what changed since, narrowed by a payload filter', async () => {
    const fake = ui.nodes.participant1;
    await ui.wb.runCommand('Canton: Mark Ledger Point');
    // Asked a name (the time is the default), then told where the point is found, in a notification.
    await ui.wb.answerInput('Mark Ledger Point', 'Marked before the run');
    await ui.wb.page
      .locator('.notifications-toasts', { hasText: /Marked "Marked before the run": offset [\d,]+ on participant1/ })
      .first()
      .waitFor({ timeout: 30_000 });
    // The "test run": 12 updates, each creating a contract, every second one archiving the one before.
    fake.generated.advance(12);
    await ui.wb.runCommand('Canton: What Changed…');
    await ui.wb.pickItem('since when?', 'Marked before the run');
    await ui.wb.pickItem('until when?', 'The ledger end now');
    const panel = await ui.wb.webviewShowing(/Read 12 transactions/, 60_000);
    const text = await panel.locator('main').innerText();
    assert.match(text, /created \(6\)/);
    assert.match(text, /created and archived \(6\)/);
    assert.equal(await panel.locator('table.changes tbody tr').count(), 12);
    await ui.wb.screenshot('what-changed.png');
    await panel.locator('button[data-action="filterText"]').click();
    const input = ui.wb.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill('curr');
    // Completion of the field path from the rows, then the operator and the value typed.
    // The items of the typed text (the first applies it), not those of the empty text before.
    await ui.wb.page
      .locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: /Apply.*curr/ })
      .first()
      .waitFor({ timeout: 10_000 });
    const field = ui.wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: 'currency' });
    await field.first().waitFor({ timeout: 10_000 });
    await field.first().click();
    // The extension host sets the completed value: it arrives a moment after the click.
    for (let i = 0; i < 100 && !/^currency/.test(await input.inputValue()); i++) await ui.wb.page.waitForTimeout(100);
    assert.match(await input.inputValue(), /^currency/);
    await input.fill('currency = USD');
    await ui.wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: 'Apply' }).first().waitFor({ timeout: 10_000 });
    await ui.wb.page.keyboard.press('Enter');
    const filtered = await ui.wb.webviewShowing(/Payload filter: currency = USD/, 30_000);
    const rows = await filtered.locator('table.changes tbody tr').count();
    assert.ok(rows > 0 && rows < 12, `some rows, not all (${rows})`);
  });

  it('opens the table as it was at the marked point', async () => {
    // The filtered What Changed page may still be drawing: a page that takes the focus closes a quick pick.
    await ui.wb.runCommand('View: Close All Editors');
    await ui.wb.runCommand('Canton: Show Active Contracts at Offset…');
    await ui.wb.pickItem('as they were when?', 'Marked before the run');
    await ui.wb.page
      .locator('.tabs-container .tab.active', { hasText: /at offset/ })
      .first()
      .waitFor({ timeout: 30_000 });
    await ui.wb.webviewShowing(/as it was at offset/, 60_000, 'header');
  });

  it('compares two contracts typed in: changed fields marked, and the second made from the first', async () => {
    // Two links of the demo ledger's chain: the bank's Iou, transferred to Carol (the bank reads as Carol).
    const [, , older, newer] = ui.nodes.participant1.ledger.samples.workflowChain;
    await ui.wb.runCommand('View: Close All Editors');
    await ui.wb.runCommand('Canton: Compare Contracts');
    await ui.wb.answerInput('Compare Contracts: the first contract', older);
    // The second box, not the first one still closing.
    await ui.wb.answerInput('… with', newer);
    const panel = await ui.wb.webviewShowing(/Create argument/, 60_000);
    const text = await panel.locator('main').innerText();
    assert.match(text, /changed/);
    assert.match(text, /Signatories/);
    await panel.locator('.diff-lineage', { hasText: /was created by the archiving exercise/ }).waitFor({ timeout: 30_000 });
    await ui.wb.screenshot('compare-contracts.png');
  });
});
