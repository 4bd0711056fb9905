// The whole execute flow as a person does it: an *.execute.json with schema help, the review
// panel, the confirmation naming node and party, the outcome. The packaged .vsix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PREAPPROVAL_PARTY, preapprovalExecuteRequest } from '../support/executeRequests';
import { useWorkbench } from './uiFixture';

describe('UI: executing a prepared transaction', function () {
  this.timeout(240_000);
  // A prepared transaction in the workspace; the node's token is the executor's, no parties configured.
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.5', bigTransactionEvents: 1 } },
    files: () => ({
      'preapproval.execute.json': `${JSON.stringify(preapprovalExecuteRequest(PREAPPROVAL_PARTY, '8a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'), null, 2)}\n`,
    }),
    tokens: { participant1: 'executor' },
  });

  it('reviews the request: what it does and the hash check', async () => {
    await ui.wb.openFile('preapproval.execute.json');
    await ui.wb.runCommand('Canton: Execute Prepared Transaction');
    await ui.wb.webview().locator('.hash-match').waitFor({ timeout: 60_000 });
    const text = await ui.wb.webviewText();
    assert.match(text, /The recomputed hash equals the hash the signatures cover/);
    assert.match(text, /Create\s+Splice\.Wallet\.TransferPreapproval:TransferPreapprovalProposal/);
    assert.match(text, /Submitting parties\s+bob::1220[0-9a-f]{2}…/);
    await ui.wb.screenshot('execute-review.png');
  });

  it('submits after the confirmation, which names the node and the party, and shows the outcome', async () => {
    const logs: string[] = [];
    ui.wb.page.on('console', (m) => logs.push(m.text()));
    await ui.wb.webview().locator('button[data-action="submit"]').click();
    const dialog = ui.wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10_000 }).catch((e) => {
      throw new Error(
        `${(e as Error).message}\n${logs
          .filter((l) => /canton|error|submit/i.test(l))
          .slice(-20)
          .join('\n')}`,
      );
    });
    assert.match(await dialog.innerText(), /Submit this transaction to "participant1" as bob::12205be3/);
    assert.equal(ui.nodes.participant1.executed.length, 0, 'nothing is sent before the confirmation');
    await dialog
      .locator('a.monaco-button, button', { hasText: /^Submit$/ })
      .first()
      .click();
    await ui.wb.webview().locator('.accepted').waitFor({ timeout: 30_000 });
    assert.match(await ui.wb.webviewText(), /Accepted by participant1 at \d{4}-\d\d-\d\dT/);
    assert.equal(ui.nodes.participant1.executed.length, 1);
    assert.equal(ui.nodes.participant1.executed[0].body.submissionId, '8a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    await ui.wb.screenshot('execute-accepted.png');
  });

  it('writes a new request from the template, with the JSON schema checking it as it is typed', async () => {
    await ui.wb.runCommand('Canton: New Execute Request');
    // The web workbench's own save dialog is a quick input with the proposed path.
    const input = ui.wb.page.locator('.quick-input-widget input');
    await input.waitFor();
    for (let i = 0; i < 50 && !(await input.inputValue()).endsWith('.json'); i++) await ui.wb.page.waitForTimeout(100);
    assert.match(await input.inputValue(), /submission\.execute\.json$/);
    await ui.wb.page.keyboard.press('Enter');
    await ui.wb.page.locator('.tabs-container .tab.active', { hasText: 'submission.execute.json' }).first().waitFor({ timeout: 30_000 });
    const written = JSON.parse(fs.readFileSync(path.join(ui.folder, 'submission.execute.json'), 'utf8'));
    assert.match(written.submissionId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The placeholders break the schema's base64 pattern: the editor shows the problems.
    await ui.wb.page.keyboard.press('Control+Shift+M');
    const problems = ui.wb.page.locator('.markers-panel .monaco-list-row', { hasText: /Must be base64 \(standard alphabet, with padding\)/ });
    await problems.first().waitFor({ timeout: 30_000 });
    assert.ok((await problems.count()) >= 1);
    await ui.wb.screenshot('execute-new-request.png');
  });
});
