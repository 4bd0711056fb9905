// The whole execute flow as a person does it: an *.execute.json with schema help, the review
// panel, the confirmation naming node and party, the outcome. The packaged .vsix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode } from '../../src/fakeNode/fakeLedgerNode';
import { PREAPPROVAL_PARTY, preapprovalExecuteRequest } from '../support/executeRequests';
import { Workbench } from './workbench';

describe('UI: executing a prepared transaction', function () {
  this.timeout(240_000);
  let node: FakeLedgerNode;
  let wb: Workbench;
  let folder: string;

  before(async () => {
    node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1 });
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-exec-ws-'));
    fs.writeFileSync(path.join(folder, 'preapproval.execute.json'), `${JSON.stringify(preapprovalExecuteRequest(PREAPPROVAL_PARTY, '8a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'), null, 2)}\n`);
    wb = await Workbench.open({ folder, settings: { 'cantonLens.nodes': [{ name: 'participant1', url: node.url }], 'cantonLens.activeNode': 'participant1' } });
    await wb.setToken('participant1', node.mintToken('executor'));
  });
  afterEach(async function () {
    await wb?.screenshotIfFailed(this.currentTest);
  });
  after(async () => {
    await wb?.close();
    await node?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('reviews the request: what it does and the hash check', async () => {
    await wb.openFile('preapproval.execute.json');
    await wb.runCommand('Canton: Execute Prepared Transaction');
    await wb.webview().locator('.hash-match').waitFor({ timeout: 60_000 });
    const text = await wb.webviewText();
    assert.match(text, /The recomputed hash equals the hash the signatures cover/);
    assert.match(text, /Create\s+Splice\.Wallet\.TransferPreapproval:TransferPreapprovalProposal/);
    assert.match(text, /Submitting parties\s+bob::1220[0-9a-f]{2}…/);
    await wb.screenshot('execute-review.png');
  });

  it('submits after the confirmation, which names the node and the party, and shows the outcome', async () => {
    const logs: string[] = [];
    wb.page.on('console', (m) => logs.push(m.text()));
    await wb.webview().locator('button[data-action="submit"]').click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10_000 }).catch((e) => {
      throw new Error(`${(e as Error).message}\n${logs.filter((l) => /canton|error|submit/i.test(l)).slice(-20).join('\n')}`);
    });
    assert.match(await dialog.innerText(), /Submit this transaction to "participant1" as bob::12205be3/);
    assert.equal(node.executed.length, 0, 'nothing is sent before the confirmation');
    await dialog.locator('a.monaco-button, button', { hasText: /^Submit$/ }).first().click();
    await wb.webview().locator('.accepted').waitFor({ timeout: 30_000 });
    assert.match(await wb.webviewText(), /Accepted by participant1 at \d{4}-\d\d-\d\dT/);
    assert.equal(node.executed.length, 1);
    assert.equal(node.executed[0]!.body.submissionId, '8a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    await wb.screenshot('execute-accepted.png');
  });

  it('writes a new request from the template, with the JSON schema checking it as it is typed', async () => {
    await wb.runCommand('Canton: New Execute Request');
    // The web workbench's own save dialog is a quick input with the proposed path.
    const input = wb.page.locator('.quick-input-widget input');
    await input.waitFor();
    for (let i = 0; i < 50 && !(await input.inputValue()).endsWith('.json'); i++) await wb.page.waitForTimeout(100);
    assert.match(await input.inputValue(), /submission\.execute\.json$/);
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'submission.execute.json' }).first().waitFor({ timeout: 30_000 });
    const written = JSON.parse(fs.readFileSync(path.join(folder, 'submission.execute.json'), 'utf8'));
    assert.match(written.submissionId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The placeholders break the schema's base64 pattern: the editor shows the problems.
    await wb.page.keyboard.press('Control+Shift+M');
    const problems = wb.page.locator('.markers-panel .monaco-list-row', { hasText: /Must be base64 \(standard alphabet, with padding\)/ });
    await problems.first().waitFor({ timeout: 30_000 });
    assert.ok(await problems.count() >= 1);
    await wb.screenshot('execute-new-request.png');
  });
});
