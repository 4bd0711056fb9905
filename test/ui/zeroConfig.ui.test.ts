// A new user's set-up is a URL and a token: with no parties configured, an ordinary user's token
// (CanActAs Alice) opens a contract on the first try, the lookup asking as the parties its rights
// give, and a contract that is not there is explained with the node's pruning point. The packaged
// .vsix against a fake node.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode } from '../../src/fakeNode/fakeLedgerNode';
import { Workbench } from './workbench';

describe('UI: a URL and a token, nothing else', function () {
  this.timeout(240_000);
  let node: FakeLedgerNode;
  let wb: Workbench;
  let folder: string;

  before(async () => {
    node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 10 });
    const s = node.ledger.samples;
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-ws-'));
    fs.writeFileSync(path.join(folder, 'ledger.log'), [`contractId=${s.activeContract}`, `missing=${s.unknownContract}`, ''].join('\n'));
    // No `parties`: the extension learns them from the token's rights.
    wb = await Workbench.open({ folder, settings: { 'cantonLens.nodes': [{ name: 'fresh', url: node.url }], 'cantonLens.activeNode': 'fresh' } });
    await wb.setToken('fresh', node.mintToken('alice'));
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

  it('opens a contract on the first try, asking as the parties the rights give', async () => {
    node.requests.length = 0;
    await wb.goTo(1, 20);
    await wb.runCommand('Canton: Inspect Id at Cursor');
    await wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    assert.match(await wb.webviewText(), /As seen by alice: .*CanActAs Alice::1220[0-9a-f]{2}…/);
    const lookups = node.requests.filter((r) => r.path === '/v2/events/events-by-contract-id');
    assert.equal(lookups.length, 1, 'one lookup, not refused first');
    const format = (JSON.parse(lookups[0]!.body) as { eventFormat: Record<string, unknown> }).eventFormat;
    assert.deepEqual(Object.keys(format.filtersByParty as object), [node.ledger.parties.Alice], 'filtersByParty from the rights, never filtersForAnyParty');
    assert.equal(format.filtersForAnyParty, undefined);
  });

  it('explains a contract that is not found with the node\'s pruning point', async () => {
    await wb.openFile('ledger.log');
    await wb.goTo(2, 20);
    await wb.runCommand('Canton: Inspect Id at Cursor');
    await wb.webview().locator('.badge', { hasText: 'Not found' }).waitFor({ timeout: 30_000 });
    assert.match(await wb.webviewText(), /This node has pruned up to offset 10/);
  });
});
