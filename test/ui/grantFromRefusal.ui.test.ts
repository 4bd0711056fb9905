// From a refusal to its fix, as a person meets it: alice's node asks as Bob, whom alice may not read
// as; the panel explains the 403 and offers "Grant CanReadAs Bob to alice (as admin)…" because an
// administrator's node of the same URL is configured; one click grants, and the lookup then works.
import * as assert from 'node:assert/strict';
import { buildDemoLedger } from '../../fake-ledger/src/demoLedgerData';
import { useWorkbench } from './uiFixture';

describe('UI: from a refusal to Grant, and the lookup that then works', function () {
  this.timeout(240_000);
  const { Bob } = buildDemoLedger({ bigTransactionEvents: 1 }).parties;
  const ui = useWorkbench({
    nodes: { p1: { version: '3.5', bigTransactionEvents: 1, singleSynchronizer: true } },
    settings: ({ p1 }) => ({
      'cantonLens.nodes': [
        { name: 'participant', url: p1.url, parties: [Bob] },
        { name: 'admin', url: p1.url },
      ],
      'cantonLens.activeNode': 'participant',
    }),
    files: ({ p1 }) => ({ 'ledger.log': `account=${p1.ledger.samples.keyedContract}\n` }),
    ready: async ({ wb, nodes }) => {
      await wb.setToken('participant', nodes.p1.mintToken('alice'));
      await wb.setToken('admin', nodes.p1.mintToken('participant_admin'));
      await wb.openFile('ledger.log');
    },
  });

  it('explains the 403 by the missing right, grants it through the admin node in one click, and shows the contract', async () => {
    await ui.wb.goTo(1, 20);
    await ui.wb.runCommand('Canton: Inspect Id at Cursor');
    const grant = ui.wb.webview().locator('button[data-action="grantMissingRight"]');
    await grant.waitFor({ timeout: 30_000 });
    assert.match(await grant.innerText(), /^Grant CanReadAs Bob::1220[0-9a-f]{2}… to alice \(as admin\)…$/);
    assert.match(await ui.wb.webviewText(), /alice lacks CanReadAs \(or CanActAs\) for Bob::1220/);
    await ui.wb.screenshot('grant-from-refusal.png');
    await grant.click();
    await ui.wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    const grants = ui.nodes.p1.requests.filter((r) => r.method === 'POST' && r.path === '/v2/users/alice/rights');
    assert.equal(grants.length, 1, 'granted once');
    assert.match(await ui.wb.webviewText(), /Observers\s+Bob::1220/);
  });
});
