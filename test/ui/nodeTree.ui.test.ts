// A person, from an empty profile, adds a ledger node through the command palette and reads
// its version and features in the Canton view. Uses the packaged .vsix.
import * as assert from 'node:assert/strict';
import { useWorkbench } from './uiFixture';

describe('UI: adding a ledger node from the palette', function () {
  this.timeout(180_000);
  // An empty profile: the node runs, but nothing names it until the test adds it.
  const ui = useWorkbench({ nodes: { participant1: { version: '3.5', bigTransactionEvents: 5 } }, settings: () => ({}) });

  it('shows the welcome content when no node is configured', async () => {
    await ui.wb.openView('Canton');
    const welcome = ui.wb.page.locator('.welcome-view-content');
    await welcome.waitFor({ timeout: 30_000 });
    const text = await welcome.innerText();
    assert.match(text, /No ledger node is configured yet/);
    assert.match(text, /Add Ledger Node/);
    assert.match(text, /Start Demo Ledger/);
  });

  it('adds the node by name and URL, and shows its version, latency and features', async () => {
    await ui.wb.runCommand('Canton: Add Ledger Node');
    await ui.wb.answerInput('Add Ledger Node (1/2)', 'participant1');
    await ui.wb.answerInput('Add Ledger Node (2/2)', ui.nodes.participant1.url);
    await ui.wb.page.locator('.notifications-toasts', { hasText: 'Added "participant1": Canton 3.5.10.' }).waitFor({ timeout: 30_000 });
    await ui.wb.openView('Canton');
    await ui.wb.waitForTreeRow(/participant1 3\.5\.10 · \d+ ms/);
    const rows = await ui.wb.waitForTreeRow(/^Offset checkpoint max delay/, ['participant1', 'Features']);
    for (const expected of [
      'Version 3.5.10',
      'Token No token',
      'User management supported',
      'Max parties page size 10,000',
      'Offset checkpoint max delay 1.5 s',
      'Static time (experimental) not supported',
    ]) {
      assert.ok(
        rows.some((r) => r.includes(expected)),
        `"${expected}" is not in the tree: ${rows.join(' | ')}`,
      );
    }
    const status = await ui.wb.page.locator('.statusbar-item', { hasText: 'participant1' }).innerText();
    assert.match(status, /participant1 3\.5\.10/);
    await ui.wb.widenSideBar(520);
    await ui.wb.screenshot('node-tree.png');
  });

  it('starts the embedded demo ledger from the palette, loading its bundle from the packaged extension', async () => {
    await ui.wb.runCommand('Canton: Start Demo Ledger');
    await ui.wb.page
      .locator('.notifications-toasts', { hasText: /The demo ledger \(Canton 3\.5\.10\) is running at http:\/\/127\.0\.0\.1:\d+ as the node "Demo Ledger"/ })
      .waitFor({ timeout: 30_000 });
    await ui.wb.openView('Canton');
    await ui.wb.waitForTreeRow(/^Demo Ledger 3\.5\.10 · \d+ ms$/);
    const rows = await ui.wb.waitForTreeRow(/^Token alice, expires in/, ['Demo Ledger']);
    assert.ok(
      rows.some((r) => /^Token alice, expires in (23|24) h$/.test(r)),
      rows.join(' | '),
    );
  });
});
