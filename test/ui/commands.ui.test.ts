// The inner loop as a person does it in the packaged extension: the project's DAR uploaded and
// vetted; Follow Completions open; the lens
// above a Daml choice writes the request; Submit Commands reviews it; the failed assertion is shown
// with its Daml choice (a link to its line) and in the completions; the fixed request commits and
// its transaction opens on the exercise tree.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildDemoLedger } from '../../fake-ledger/src/demoLedgerData';
import { dar } from '../support/darBuilder';
import { useWorkbench } from './uiFixture';

describe('UI: commands from the editor', function () {
  this.timeout(240_000);
  // A developer's sandbox user: acts as Alice, and administers the participant (uploads DARs).
  const { Alice } = buildDemoLedger({ bigTransactionEvents: 1 }).parties;
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.5', bigTransactionEvents: 1, extraUsers: { developer: [{ canActAs: Alice }, 'participantAdmin'] } } },
    fixtures: ['daml-model', 'daml-holding'],
    tokens: { participant1: 'developer' },
  });
  const requestFile = () => path.join(ui.folder, 'commands', 'Iou_Iou_Split.commands.json');

  it("uploads the workspace's build and vets it", async () => {
    fs.mkdirSync(path.join(ui.folder, 'daml-app', '.daml', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(ui.folder, 'daml-app', 'daml.yaml'), 'sdk-version: 3.4.0\nname: my-app\nversion: 0.1.0\nsource: daml\n');
    fs.writeFileSync(
      path.join(ui.folder, 'daml-app', '.daml', 'dist', 'my-app-0.1.0.dar'),
      dar({ name: 'my-app-0.1.0', payload: Buffer.from('my app, built') }),
    );
    await ui.wb.runCommand('Canton: Upload DAR');
    const build = ui.wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: 'my-app-0.1.0.dar' });
    await build.first().waitFor({ timeout: 30_000 });
    await build.first().click();
    const vet = ui.wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: 'Upload and Vet' });
    await vet.first().waitFor({ timeout: 30_000 });
    await vet.first().click();
    // The node is connected to two synchronizers: the person says on which one the DAR is vetted.
    const synchronizer = ui.wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: 'da1' });
    await synchronizer.first().waitFor({ timeout: 30_000 });
    await synchronizer.first().click();
    await ui.wb.page
      .locator('.notifications-toasts', { hasText: /Uploaded my-app-0\.1\.0 .* to "participant1" and vetted it on da1/ })
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(ui.nodes.participant1.requests.filter((r) => r.path === '/v2/dars').length, 1);
  });

  it('writes the request from the lens above the choice, on a contract picked from the node', async () => {
    await ui.wb.runCommand('Canton: Follow Completions');
    await ui.wb.webviewShowing(/Following \/v2\/commands\/command-completions live/, 60_000);
    await ui.wb.openFile('Iou.daml');
    const lenses = ui.wb.page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Exercise on the Ledger…' });
    await lenses.first().waitFor({ timeout: 60_000 });
    // The lens right above "choice Iou_Split" (within two lines of it), found once the lenses stop
    // moving: lenses of other declarations still arriving push the lines down.
    const lensAboveChoice = async (): Promise<number> => {
      const line = await ui.wb.page.locator('.view-lines .view-line', { hasText: /choice\s+Iou_Split/ }).boundingBox();
      if (!line) return -1;
      let best = -1;
      let bestGap = Infinity;
      for (let i = 0; i < (await lenses.count()); i++) {
        const box = await lenses.nth(i).boundingBox();
        const gap = box ? line.y - box.y : Infinity;
        if (gap > 0 && gap < bestGap) [best, bestGap] = [i, gap];
      }
      return bestGap <= 2 * line.height ? best : -1;
    };
    let best = -1;
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const [first, count] = [await lensAboveChoice(), await lenses.count()];
      await new Promise((r) => setTimeout(r, 300));
      // The same lens, and as many lenses, after a pause: the layout has settled.
      if (first >= 0 && first === (await lensAboveChoice()) && count === (await lenses.count())) {
        best = first;
        break;
      }
    }
    assert.ok(best >= 0, 'a lens right above the choice');
    // A click that lands while VS Code draws the lenses again (their counts resolving) opens nothing:
    // click again until the contract pick shows (it only reads, so a second click is harmless).
    const started = ui.wb.page
      .locator('.quick-input-widget input[placeholder^="Exercise on which Iou contract"]')
      .or(ui.wb.page.locator('.notifications-toasts', { hasText: 'Reading the active Iou contracts' }))
      .first();
    for (let attempt = 0; attempt < 4 && !(await started.isVisible()); attempt++) {
      const index = attempt === 0 ? best : await lensAboveChoice();
      if (index >= 0) await lenses.nth(index).click();
      await started.waitFor({ timeout: 10_000 }).catch(() => undefined);
    }
    // A contract reads as its fields; its id, shortened, is in the row's detail.
    const id = ui.nodes.participant1.ledger.samples.activeContract;
    const row = ui.wb.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: `${id.slice(0, 10)}…${id.slice(-6)}` });
    await row.first().waitFor({ timeout: 30_000 });
    await row.first().click();
    await ui.wb.page.locator('.tabs-container .tab.active', { hasText: 'Iou_Iou_Split.commands.json' }).first().waitFor({ timeout: 30_000 });
    const request = JSON.parse(fs.readFileSync(requestFile(), 'utf8'));
    assert.deepEqual(request.commands[0].ExerciseCommand.choiceArgument, { splitAmount: '0.0' });
  });

  it('reviews and submits it: the refusal names the choice, opens its line, and shows in the completions', async () => {
    await ui.wb.runCommand('Canton: Submit Commands');
    // The review itself, not the page that is still reading the rights.
    const review = await ui.wb.webviewShowing(/Exercise Iou_Split on Iou:Iou/, 60_000);
    await review.locator('button[data-action="submit"]').click();
    await review.locator('#why-h').waitFor({ timeout: 30_000 });
    const text = await review.locator('main').innerText();
    assert.match(text, /Not committed: DAML_FAILURE/);
    assert.match(text, /The Daml code says: .?the split amount must be more than 0 and less than the amount/);
    await ui.wb.screenshot('commands-refused.png');
    await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Completions · participant1' }).first().click();
    const completions = await ui.wb.webviewShowing(/at submission/, 30_000);
    assert.match(await completions.locator('main').innerText(), /DAML_FAILURE/);
    await review.locator('a.daml-link[data-daml-choice="Iou_Split"]').first().click();
    await ui.wb.page.locator('.tabs-container .tab.active', { hasText: 'Iou.daml' }).first().waitFor({ timeout: 30_000 });
    assert.equal(ui.nodes.participant1.requests.filter((r) => r.path === '/v2/commands/submit-and-wait-for-transaction').length, 1);
  });

  it('follows the fixed request file and submits it: it commits and its exercise tree opens', async () => {
    const request = JSON.parse(fs.readFileSync(requestFile(), 'utf8'));
    request.commands[0].ExerciseCommand.choiceArgument.splitAmount = '100.0';
    fs.writeFileSync(requestFile(), `${JSON.stringify(request, null, 2)}\n`);
    // The review follows the file: the fixed amount shows, ready to submit (the refusal committed nothing).
    await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Review Iou_Iou_Split.commands.json' }).first().click();
    const review = await ui.wb.webviewShowing(/100\.0/, 30_000);
    await review.locator('button[data-action="submit"]').first().click();
    // The committed transaction opens in the panels' group, over the review.
    const tree = await ui.wb.webviewShowing(/Exercise tree \(3 nodes\)/, 30_000);
    await tree.locator('#tree-rows tr', { hasText: 'Iou_Split' }).first().waitFor({ timeout: 30_000 });
    await ui.wb.screenshot('commands-committed.png');
    await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Completions · participant1' }).first().click();
    const completions = await ui.wb.webviewShowing(/succeeded/, 30_000);
    assert.match(await completions.locator('main').innerText(), new RegExp(request.commandId));
    await ui.wb.screenshot('completions.png');
    assert.equal(ui.nodes.participant1.requests.filter((r) => r.path === '/v2/commands/submit-and-wait-for-transaction').length, 2);
  });
});
