// The Administration view as a person meets it: collapsed under Ledger Nodes until opened, then the
// active node's users (rights by party, deactivated), parties and identity providers for an
// administrator's token; an ordinary user's token sees one row naming the right it needs.
import * as assert from 'node:assert/strict';
import { useWorkbench } from './uiFixture';

describe('UI: the Administration view', function () {
  this.timeout(240_000);
  const ui = useWorkbench({
    nodes: { p1: { version: '3.5', bigTransactionEvents: 1, singleSynchronizer: true } },
    settings: ({ p1 }) => ({
      'cantonLens.nodes': [
        { name: 'admin', url: p1.url },
        { name: 'participant', url: p1.url },
      ],
      'cantonLens.activeNode': 'admin',
    }),
    ready: async ({ wb, nodes }) => {
      await wb.setToken('admin', nodes.p1.mintToken('participant_admin'));
      await wb.setToken('participant', nodes.p1.mintToken('alice'));
    },
  });

  it("opens collapsed, then lists the node's users with their rights by party, its parties and identity providers", async () => {
    await ui.wb.openView('Canton');
    const header = ui.wb.page.locator('.sidebar .pane-header', { hasText: 'Administration' }).first();
    await header.waitFor({ timeout: 30_000 });
    assert.equal(await header.getAttribute('aria-expanded'), 'false', 'collapsed until opened');
    await header.click();
    // The Ledger Nodes tree folded away, as a person would to give the view the side bar's height.
    await ui.wb.page.locator('.sidebar .pane-header', { hasText: 'Ledger Nodes' }).first().click();
    const rows = await ui.wb.waitForTreeRow(/^Identity providers/);
    assert.ok(
      rows.some((r) => r.startsWith('Users')),
      rows.join(' | '),
    );
    assert.ok(
      rows.some((r) => r.startsWith('Parties')),
      rows.join(' | '),
    );
    const users = await ui.wb.waitForTreeRow(/^former .*deactivated/, ['Users']);
    assert.ok(
      users.some((r) => /^auditor\b/.test(r)),
      users.join(' | '),
    );
    const rights = await ui.wb.waitForTreeRow(/^Bob::\S+ CanReadAs$/, ['auditor']);
    assert.ok(
      rights.some((r) => /^Alice::\S+ CanReadAs$/.test(r)),
      rights.join(' | '),
    );
    await ui.wb.runCommand('Notifications: Clear All Notifications');
    await ui.wb.widenSideBar(560);
    await ui.wb.screenshot('admin-view.png');
    const parties = await ui.wb.waitForTreeRow(/^Alice::\S+ hosted here/, ['Parties']);
    assert.ok(parties.length > 0);
    await ui.wb.waitForTreeRow(/^acme-idp\b/, ['Identity providers']);
  });

  it('for a token that may not administer, shows one row naming the right it needs', async () => {
    await ui.wb.waitForTreeRow(/^former\b/);
    await ui.wb.runCommand('Canton: Select Active Ledger Node');
    await ui.wb.pickItem('Select the Active Ledger Node', 'participant');
    const rows = await ui.wb.waitForTreeRow(/ParticipantAdmin/);
    const row = rows.find((r) => /ParticipantAdmin/.test(r)) ?? '';
    assert.match(row, /alice/, rows.join(' | '));
    assert.ok(!rows.some((r) => /^former\b/.test(r)), 'no user of the administrator is still shown');
  });
});
