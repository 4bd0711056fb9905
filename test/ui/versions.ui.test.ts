// The packaged .vsix against nodes on Canton 3.4, 3.5 and 3.6 at once: "Look Up on All Nodes"
// puts one update side by side, and each row opens that node's own transaction panel, asked
// the way its version needs (transaction-by-id on 3.4 and 3.5, update-by-id on 3.6).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode, type FakeVersion } from '../../src/fakeNode/fakeLedgerNode';
import { Workbench } from './workbench';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

describe('UI: one id on nodes of Canton 3.4, 3.5 and 3.6', function () {
  this.timeout(240_000);
  const nodes = new Map<FakeVersion, FakeLedgerNode>();
  let wb: Workbench;
  let folder: string;

  before(async () => {
    for (const v of VERSIONS) nodes.set(v, await FakeLedgerNode.start({ version: v }));
    const any = nodes.get('3.5')!;
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-ws-'));
    fs.writeFileSync(path.join(folder, 'ledger.log'), `updateId=${any.ledger.samples.transferUpdate}\ncontractId=${any.ledger.samples.archivedContract}\n`);
    const settings = VERSIONS.map((v) => ({ name: `p${v}`, url: nodes.get(v)!.url, parties: [any.ledger.parties.Alice] }));
    wb = await Workbench.open({ folder, settings: { 'cantonLens.nodes': settings, 'cantonLens.activeNode': 'p3.5' } });
    for (const v of VERSIONS) await wb.setToken(`p${v}`, nodes.get(v)!.mintToken('alice'));
    await wb.openFile('ledger.log');
  });
  afterEach(async function () {
    await wb?.screenshotIfFailed(this.currentTest);
  });
  after(async () => {
    await wb?.close();
    for (const n of nodes.values()) await n.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('shows the update on every node side by side', async () => {
    await wb.goTo(1, 20);
    await wb.runCommand('Canton: Look Up on All Nodes');
    await wb.webview().locator('.asked', { hasText: 'Visible on 3 of 3 nodes' }).waitFor({ timeout: 30_000 });
    const rows = await wb.webview().locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 3);
    for (const v of VERSIONS) assert.ok(rows.some((r) => r.startsWith(`p${v}`)), `a row for p${v}: ${rows.join(' | ')}`);
    await wb.screenshot('all-nodes-panel.png');
  });

  for (const [version, route] of [['3.6', 'update-by-id'], ['3.4', 'transaction-by-id']] as const) {
    it(`opens the ${version} node's row as that node's transaction, asked through ${route}`, async () => {
      const node = nodes.get(version)!;
      // Panels share one column: a row's transaction opens as a tab beside the side-by-side panel's tab.
      const everywhere = await wb.webviewShowing(/on every node/, 2_000).catch(async () => {
        await wb.page.locator('.tabs-container .tab', { hasText: /^All nodes/ }).first().click();
        return wb.webviewShowing(/on every node/);
      });
      await everywhere.locator('tbody tr', { hasText: `p${version}` }).locator('a', { hasText: 'Open' }).first().click();
      const transaction = await wb.webviewShowing(new RegExp(`Transaction [\\s\\S]*Asked: an update on p${version.replace('.', '\\.')},.*via ${route}`));
      assert.match(await transaction.locator('main').innerText(), /transfer-alice-bob-7f3a/);
      const group = wb.page.locator('.tabs-container', { has: wb.page.locator('.tab', { hasText: /^All nodes/ }) });
      assert.ok(await group.locator('.tab', { hasText: /^Transaction/ }).count() >= 1, 'the transaction opened in the column of the side-by-side panel');
      const asked = node.requests.map((r) => r.path).filter((p) => p.startsWith('/v2/updates/'));
      assert.ok(asked.length > 0 && asked.every((p) => p === `/v2/updates/${route}`), `p${version} was asked through ${route} only: ${asked.join(', ')}`);
    });
  }
});
