// The packaged .vsix against nodes on Canton 3.4, 3.5 and 3.6 at once: "Look Up on All Nodes"
// puts one update side by side, and each row opens that node's own transaction panel, asked
// the way its version needs (transaction-by-id on 3.4 and 3.5, update-by-id on 3.6).
import * as assert from 'node:assert/strict';
import type { FakeVersion } from '../../fake-ledger/src/testing';
import { useWorkbench } from './uiFixture';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

describe('UI: one id on nodes of Canton 3.4, 3.5 and 3.6', function () {
  this.timeout(240_000);
  // Three nodes, one per version, each holding alice's token; ids from the 3.5 node in a log, open.
  const ui = useWorkbench({
    nodes: { 'p3.4': { version: '3.4' }, 'p3.5': { version: '3.5' }, 'p3.6': { version: '3.6' } },
    activeNode: 'p3.5',
    parties: (_node, nodes) => [nodes['p3.5'].ledger.parties.Alice],
    files: ({ 'p3.5': any }) => ({ 'ledger.log': `updateId=${any.ledger.samples.transferUpdate}\ncontractId=${any.ledger.samples.archivedContract}\n` }),
    tokens: { 'p3.4': 'alice', 'p3.5': 'alice', 'p3.6': 'alice' },
    ready: ({ wb }) => wb.openFile('ledger.log'),
  });

  it('shows the update on every node side by side', async () => {
    await ui.wb.goTo(1, 20);
    await ui.wb.runCommand('Canton: Look Up on All Nodes');
    await ui.wb.webview().locator('.asked', { hasText: 'Visible on 3 of 3 nodes' }).waitFor({ timeout: 30_000 });
    const rows = await ui.wb.webview().locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 3);
    for (const v of VERSIONS)
      assert.ok(
        rows.some((r) => r.startsWith(`p${v}`)),
        `a row for p${v}: ${rows.join(' | ')}`,
      );
    await ui.wb.screenshot('all-nodes-panel.png');
  });

  for (const [version, route] of [
    ['3.6', 'update-by-id'],
    ['3.4', 'transaction-by-id'],
  ] as const) {
    it(`opens the ${version} node's row as that node's transaction, asked through ${route}`, async () => {
      const node = ui.nodes[`p${version}`];
      // Panels share one column: a row's transaction opens as a tab beside the side-by-side panel's tab.
      const everywhere = await ui.wb.webviewShowing(/on every node/, 2_000).catch(async () => {
        await ui.wb.page
          .locator('.tabs-container .tab', { hasText: /^All nodes/ })
          .first()
          .click();
        return ui.wb.webviewShowing(/on every node/);
      });
      await everywhere
        .locator('tbody tr', { hasText: `p${version}` })
        .locator('a', { hasText: 'Open' })
        .first()
        .click();
      const transaction = await ui.wb.webviewShowing(new RegExp(`Transaction [\\s\\S]*Asked: an update on p${version.replace('.', '\\.')},.*via ${route}`));
      assert.match(await transaction.locator('main').innerText(), /transfer-alice-bob-7f3a/);
      const group = ui.wb.page.locator('.tabs-container', { has: ui.wb.page.locator('.tab', { hasText: /^All nodes/ }) });
      assert.ok((await group.locator('.tab', { hasText: /^Transaction/ }).count()) >= 1, 'the transaction opened in the column of the side-by-side panel');
      const asked = node.requests.map((r) => r.path).filter((p) => p.startsWith('/v2/updates/'));
      assert.ok(asked.length > 0 && asked.every((p) => p === `/v2/updates/${route}`), `p${version} was asked through ${route} only: ${asked.join(', ')}`);
    });
  }
});
