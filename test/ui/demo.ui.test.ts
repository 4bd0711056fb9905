// `npm run demo` as a new user meets it: the script's own process, its printed URL, and a hover on
// an id of the sample workspace with nothing pasted first. Run from the built output,
// as `npm run demo` does after its build.
// Not on the useWorkbench fixture (uiFixture.ts): the demo script starts its own node and VS Code Server,
// and the test attaches to the URL it prints.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROJECT_ROOT, freePort } from '../vscode/vscodeServer';
import { Workbench } from './workbench';

/** Starts the demo script and resolves with what it printed once it names its URL. */
function startDemo(root: string, port: number, ledgerPort: number): Promise<{ demo: ChildProcess; url: string; printed: string }> {
  const demo = spawn(
    process.execPath,
    [path.join(PROJECT_ROOT, 'out', 'test', 'demo', 'demo.js'), '--root', root, '--port', String(port), '--ledger-port', String(ledgerPort)],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The demo printed no URL in time:\n${printed}`)), 180_000);
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      const url = /^\s+(http:\/\/\S+\/\?folder=\S+)$/m.exec(printed)?.[1];
      if (url && printed.includes('Press Ctrl+C to stop.')) {
        clearTimeout(timer);
        resolve({ demo, url, printed });
      }
    };
    demo.stdout.on('data', onData);
    demo.stderr.on('data', onData);
    demo.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The demo exited (${code}) before it was ready:\n${printed}`));
    });
  });
}

describe('UI: npm run demo, from its printed URL to a hover', function () {
  this.timeout(300_000);
  let root: string;
  let demo: ChildProcess | undefined;
  let printed = '';
  let wb: Workbench;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-demo-'));
    const started = await startDemo(root, await freePort(), await freePort());
    demo = started.demo;
    printed = started.printed;
    wb = await Workbench.attach(started.url);
  });

  afterEach(async function () {
    await wb?.screenshotIfFailed(this.currentTest);
  });

  after(async () => {
    await wb?.close();
    if (demo && demo.exitCode === null) {
      const exited = new Promise((r) => demo!.once('exit', r));
      demo.kill('SIGINT');
      await exited;
    }
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('prints the URL and what to do, without the packaging output before it', () => {
    const lines = printed.trim().split('\n');
    assert.ok(lines.length < 25, `the demo printed ${lines.length} lines:\n${printed}`);
    // vsce lists every file it packs under extension/ and ends with "DONE  Packaged".
    assert.doesNotMatch(printed, /extension\/package\.json|DONE {2}Packaged/);
    assert.match(printed, /hover an id/);
  });

  it('opens the walkthrough on first start, its node and token steps already ticked', async () => {
    await wb.page.locator('.gettingStartedContainer', { hasText: 'Canton Lens' }).first().waitFor({ timeout: 60_000 });
    // Done by the demo, not by the walkthrough's buttons: ticked all the same.
    for (const title of ['Add a ledger node', 'Set a token']) {
      await wb.page.locator('.getting-started-step[aria-checked="true"]', { hasText: title }).first().waitFor({ timeout: 30_000 });
    }
    assert.equal(await wb.page.locator('.getting-started-step[aria-checked="true"]', { hasText: 'Inspect' }).count(), 0);
  });

  it('shows what the ledger says in a hover, with no token pasted', async () => {
    // The walkthrough has the focus: closed as a person would, so the palette reaches the workbench.
    if ((await wb.page.locator('.tabs-container .tab', { hasText: 'Walkthrough: Canton Lens' }).count()) > 0) await wb.closeTab('Walkthrough: Canton Lens');
    await wb.openFile('ledger.log');
    // Line 2 holds "Created contract <id>": the cursor into the id, then the hover from the keyboard.
    const logLine = fs.readFileSync(path.join(root, 'workspace', 'ledger.log'), 'utf8').split('\n')[1];
    await wb.goTo(2, logLine.indexOf('Created contract ') + 'Created contract '.length + 20);
    await wb.runCommand('Show or Focus Hover');
    const hover = wb.page.locator('.monaco-hover', { hasText: 'Canton contract id' });
    await hover.waitFor({ timeout: 30_000 });
    const shown = await hover.innerText();
    assert.match(shown, /Active · Iou:Iou/);
    assert.doesNotMatch(shown, /token|Set Token/i);
  });

  it("walks step 2: the executor reviews the preapproval request, prepared at the demo's start, with no time warning, and the node accepts it", async () => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    await wb.runCommand('Canton: Select Active Ledger Node');
    await wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: 'Demo Ledger (executor)' }).first().click();
    await wb.openFile('preapproval.execute.json');
    await wb.runCommand('Canton: Execute Prepared Transaction');
    await wb.webview().locator('.hash-match').waitFor({ timeout: 60_000 });
    const review = await wb.webviewText();
    assert.match(review, /The recomputed hash equals the hash the signatures cover/);
    assert.doesNotMatch(review, /LOCAL_VERDICT|NOT_SEQUENCED_TIMEOUT|more than 24 hours/);
    await wb.screenshot('demo-execute-review.png');
    await wb.webview().locator('button[data-action="submit"]').click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10_000 });
    await dialog
      .locator('a.monaco-button, button', { hasText: /^Submit$/ })
      .first()
      .click();
    await wb.webview().locator('.accepted').waitFor({ timeout: 30_000 });
    assert.match(await wb.webviewText(), /Accepted by Demo Ledger \(executor\)/);
    await wb.screenshot('demo-execute-accepted.png');
    await wb.runCommand('View: Close All Editors');
  });

  it('walks step 3: the CodeLens above "template Iou" offers the node that can read, then counts and opens the table', async () => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    assert.match(printed, /3\. Open daml-model\/daml\/Iou\.daml/);
    // Step 2 left the executor active, which may not read: the lens says so briefly and offers the node that can.
    await wb.openFile('Iou.daml');
    const lenses = wb.page.locator('.contentWidgets .codelens-decoration a');
    const switchLens = lenses.filter({ hasText: /no read right on Demo Ledger \(executor\) · switch to Demo Ledger$/ }).first();
    await switchLens.waitFor({ timeout: 60_000 });
    const counts = lenses.filter({ hasText: /[\d,]+ active · .* on Demo Ledger$/ }).first();
    // A lens provided again while it is clicked loses the click: clicked until the counts show.
    for (let attempt = 1; ; attempt++) {
      await switchLens.click({ timeout: 10_000 }).catch(() => undefined);
      if (
        await counts.waitFor({ timeout: 10_000 }).then(
          () => true,
          () => false,
        )
      )
        break;
      assert.ok(attempt < 6, 'the lens switched to no reading node in 6 clicks');
    }
    await wb.screenshot('demo-codelens.png');
    const tab = wb.page.locator('.tabs-container .tab', { hasText: 'Active Iou on Demo Ledger' }).first();
    // A lens provided again as the node is checked again loses the click: clicked until the table opens.
    for (let attempt = 1; ; attempt++) {
      await counts.click();
      if (
        await tab.waitFor({ timeout: 8_000 }).then(
          () => true,
          () => false,
        )
      )
        break;
      assert.ok(attempt < 8, 'the lens opened no table in 8 clicks');
    }
    await wb.webviewShowing(/contracts/, 60_000, 'body');
    await wb.runCommand('View: Close All Editors');
  });

  it('walks step 4: the split is refused at its assertion, fixed in the file, submitted, and Follow Completions shows both', async () => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    await wb.openFile('split.commands.json');
    await wb.runCommand('Canton: Submit Commands');
    const review = await wb.webviewShowing(/Exercise Iou_Split on Iou:Iou/, 60_000);
    await review.locator('button[data-action="submit"]').click();
    await review.locator('#why-h').waitFor({ timeout: 30_000 });
    assert.match(await review.locator('main').innerText(), /Not committed: DAML_FAILURE/);
    await wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Submitting' }).first().waitFor({ state: 'hidden', timeout: 30_000 });
    await wb.screenshot('demo-commands-refused.png');
    // The fix, saved as the editor saves it: the review follows the file.
    const file = path.join(root, 'workspace', 'commands', 'split.commands.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"1500.0"', '"100.0"'));
    const fixed = await wb.webviewShowing(/100\.0/, 30_000);
    await fixed.locator('button[data-action="submit"]').first().click();
    // The committed transaction opens in the panels' group, over the review.
    await wb.webviewShowing(/Exercise tree/, 30_000);
    // Opened after both: it shows the recent past, the refusal and the success.
    await wb.runCommand('Canton: Follow Completions');
    const completions = await wb.webviewShowing(/succeeded/, 60_000);
    const text = await completions.locator('main').innerText();
    assert.match(text, /split-alice-iou-1/);
    // The refusal never became a completion: shown as this editor saw it, at submission.
    assert.match(text, /at submission/);
    assert.match(text, /DAML_FAILURE/);
    // The review, the committed transaction and the completions share one group beside the file.
    assert.equal(await wb.page.locator('.editor-group-container').count(), 2, 'the file, and one group of panels');
    await wb.screenshot('demo-completions.png');
    await wb.runCommand('View: Close All Editors');
  });

  it('walks the DAR loop of step 5: the admin node sees daml-model built and vetted, and validates its built DAR', async () => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    assert.match(printed, /5\. Select "Demo Ledger \(admin\)"/);
    const pick = (text: string | RegExp) => wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: text }).first();
    await wb.runCommand('Canton: Select Active Ledger Node');
    await pick('Demo Ledger (admin)').click();
    await wb.openView('Canton');
    await wb.waitForTreeRow(/^canton-lens-demo-model 1\.0\.0 workspace · vetted/, ['Demo Ledger (admin)', 'Packages'], 60_000);
    // Wide enough for the rows' descriptions in the screenshot.
    await wb.widenSideBar(560);
    await wb.screenshot('demo-packages-built.png');

    await wb.runCommand('Canton: Validate DAR on Node');
    const built = pick(/canton-lens-demo-model 1\.0\.0/);
    await built.waitFor({ timeout: 30_000 });
    assert.match(await built.innerText(), /daml-model · built/);
    await wb.screenshot('demo-dar-pick.png');
    await built.click();
    // The demo node has two synchronizers: asked once, then remembered.
    await pick(/da1::/).click({ timeout: 30_000 });
    const accepted = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'it is a valid DAR' }).first();
    await accepted.waitFor({ timeout: 60_000 });
    await wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Validating' }).first().waitFor({ state: 'hidden', timeout: 30_000 });
    assert.match(await accepted.innerText(), /"Demo Ledger \(admin\)" accepts canton-lens-demo-model-1\.0\.0/);
    await wb.screenshot('demo-dar-validated.png');
  });

  it('stops the demo ledger and VS Code on Ctrl+C', async () => {
    const exited = new Promise<number | null>((r) => demo!.once('exit', r));
    demo!.kill('SIGINT');
    assert.equal(await exited, 0);
    demo = undefined;
  });
});
