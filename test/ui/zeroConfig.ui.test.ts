// A new user's set-up is a URL and a token: with no parties configured, an ordinary user's token
// (CanActAs Alice) opens a contract on the first try, the lookup asking as the parties its rights
// give, and a contract that is not there is explained with the node's pruning point. The packaged
// .vsix against a fake node.
import * as assert from 'node:assert/strict';
import { useWorkbench } from './uiFixture';

describe('UI: a URL and a token, nothing else', function () {
  this.timeout(240_000);
  // No `parties`: the extension learns them from the token's rights (alice: CanActAs Alice).
  const ui = useWorkbench({
    nodes: { fresh: { version: '3.5', bigTransactionEvents: 10 } },
    files: ({ fresh }) => ({
      'ledger.log': [`contractId=${fresh.ledger.samples.activeContract}`, `missing=${fresh.ledger.samples.unknownContract}`, ''].join('\n'),
    }),
    tokens: { fresh: 'alice' },
    ready: ({ wb }) => wb.openFile('ledger.log'),
  });

  it('opens a contract on the first try, asking as the parties the rights give', async () => {
    ui.nodes.fresh.requests.length = 0;
    await ui.wb.goTo(1, 20);
    await ui.wb.runCommand('Canton: Inspect Id at Cursor');
    await ui.wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    assert.match(await ui.wb.webviewText(), /As seen by alice: .*CanActAs Alice::1220[0-9a-f]{2}…/);
    const lookups = ui.nodes.fresh.requests.filter((r) => r.path === '/v2/events/events-by-contract-id');
    assert.equal(lookups.length, 1, 'one lookup, not refused first');
    const format = (JSON.parse(lookups[0].body) as { eventFormat: Record<string, unknown> }).eventFormat;
    assert.deepEqual(
      Object.keys(format.filtersByParty as object),
      [ui.nodes.fresh.ledger.parties.Alice],
      'filtersByParty from the rights, never filtersForAnyParty',
    );
    assert.equal(format.filtersForAnyParty, undefined);
  });

  it("explains a contract that is not found with the node's pruning point", async () => {
    await ui.wb.openFile('ledger.log');
    await ui.wb.goTo(2, 20);
    await ui.wb.runCommand('Canton: Inspect Id at Cursor');
    await ui.wb.webview().locator('.badge', { hasText: 'Not found' }).waitFor({ timeout: 30_000 });
    assert.match(await ui.wb.webviewText(), /This node has pruned up to offset 10/);
  });
});
