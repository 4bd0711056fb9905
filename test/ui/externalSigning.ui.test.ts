// The whole external-signing loop as a person does it in the packaged .vsix, on nodes of Canton
// 3.4, 3.5 and 3.6 in one workbench: a development key, an external party allocated for it, a new
// prepare request, prepared on the node, the review (hash and the node's hashing details), signed
// from the review, submitted (executeAndWait or executeAndWaitForTransaction, both on every
// version's spec), and the committed transaction's panel.
// Not on the workbench fixture (uiFixture.ts) yet: it was moved while its committed transaction's
// panel could open blank (now opened once the review's page has loaded; see executeReviewPanel.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode, type FakeVersion } from '../../fake-ledger/src/testing';
import { interactiveState } from '../../fake-ledger/src/interactiveSubmissions';
import { Workbench } from './workbench';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];
const nodeName = (v: FakeVersion) => `loop${v.replace('.', '')}`;
const TEMPLATE_PLACEHOLDER = '<package id or #package-name>:<Module>:<Template>';

describe('UI: the external signing loop', function () {
  this.timeout(240_000);
  const nodes = new Map<FakeVersion, FakeLedgerNode>();
  let wb: Workbench;
  let folder: string;
  const timings: string[] = [];

  before(async () => {
    // A developer's user on a development ledger: a participant admin, who may allocate parties.
    for (const v of VERSIONS)
      // Prepared at the wall clock's time, as by a real node: the review has no time to warn about.
      nodes.set(v, await FakeLedgerNode.start({ version: v, bigTransactionEvents: 1, wallClock: true, extraUsers: { developer: ['participantAdmin'] } }));
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-loop-ws-'));
    wb = await Workbench.open({
      folder,
      settings: { 'cantonLens.nodes': VERSIONS.map((v) => ({ name: nodeName(v), url: nodes.get(v)!.url })), 'cantonLens.activeNode': nodeName('3.4') },
    });
    for (const v of VERSIONS) await wb.setToken(nodeName(v), nodes.get(v)!.mintToken('developer'));
  });
  afterEach(async function () {
    await wb?.screenshotIfFailed(this.currentTest);
    if (this.currentTest?.state !== 'failed' || !wb) return;
    // What the nodes were asked and what the notifications said, for the failure's report.
    await wb.runCommand('Notifications: Show Notifications').catch(() => undefined);
    const said = await wb.page
      .locator('.notifications-center')
      .innerText({ timeout: 5_000 })
      .catch(() => '');
    console.log(`      notifications: ${said.replace(/\s+/g, ' ').slice(0, 3000)}`);
    for (const [v, n] of nodes)
      console.log(
        `      ${v} requests: ${n.requests
          .slice(-8)
          .map((r) => `${r.method} ${r.path}`)
          .join(', ')}`,
      );
  });
  after(async () => {
    await wb?.close();
    for (const n of nodes.values()) await n.close();
    fs.rmSync(folder, { recursive: true, force: true });
    if (timings.length > 0) console.log(`      loop timings: ${timings.join('; ')}`);
  });

  const toast = (text: RegExp) => wb.page.locator('.notifications-toasts .notification-toast', { hasText: text }).last();
  const clearToasts = () => wb.runCommand('Notifications: Clear All Notifications');

  for (const version of VERSIONS) {
    it(`${version}: key → party → prepare request → prepare → review → sign → submit and wait → committed transaction`, async () => {
      const started = Date.now();
      const node = nodes.get(version)!;
      const name = nodeName(version);
      const page = wb.page;
      await clearToasts();
      // A clean editor area: each version's files and panels open as on a first run.
      await wb.runCommand('View: Close All Editor Groups');
      await wb.runCommand('Canton: Select Active Ledger Node');
      await page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: name }).first().click();

      // A development key; its fingerprint is shown.
      await wb.runCommand('Canton: Generate Development Signing Key');
      const created = await toast(/Development signing key 1220[0-9a-f]{64} \(Ed25519\) created/).innerText({ timeout: 30_000 });
      const fingerprint = /1220[0-9a-f]{64}/.exec(created)![0];
      assert.match(created, /For development ledgers only/);

      // An external party for it: the keys made for the other versions' nodes are offered too.
      await wb.runCommand('Canton: Allocate External Party for Development Key');
      const keyPick = page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: fingerprint }).first();
      const hintBox = page.locator('.quick-input-widget .quick-input-title', { hasText: 'Party hint of the external party' });
      await keyPick.or(hintBox).first().waitFor({ timeout: 30_000 });
      if (await keyPick.isVisible()) await keyPick.click();
      await wb.answerInput('Party hint of the external party', `loop-${version.replace('.', '')}`);
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 30_000 });
      assert.match(await dialog.innerText(), new RegExp(`Allocate external party loop-${version.replace('.', '')}::${fingerprint}`));
      await dialog
        .locator('a.monaco-button, button', { hasText: /^Allocate$/ })
        .first()
        .click();
      const party = `loop-${version.replace('.', '')}::${fingerprint}`;
      // Its message can land in the notification centre while the modal closes: the node says it is allocated.
      for (let i = 0; i < 150 && !interactiveState(node.ledger).externalParties.has(party); i++) await page.waitForTimeout(100);
      assert.ok(interactiveState(node.ledger).externalParties.has(party), `${party} was allocated`);
      // 3.4 gives the user no right for the new party with the allocation: an administrator grants
      // CanReadAs with another tool (prepare needs it); executing needs more, which the review flags.
      if (version === '3.4') node.ledger.users.developer.push({ canReadAs: party });

      // A new prepare request: it acts as the party just allocated; the template id is filled in.
      await wb.runCommand('Canton: New Prepare Request');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor();
      for (let i = 0; i < 50 && !(await input.inputValue()).endsWith('.json'); i++) await page.waitForTimeout(100);
      await input.fill((await input.inputValue()).replace(/commands\.prepare\.json$/, `${name}.prepare.json`));
      await page.keyboard.press('Enter');
      await page
        .locator('.tabs-container .tab.active', { hasText: `${name}.prepare.json` })
        .first()
        .waitFor({ timeout: 30_000 });
      const prepareFile = path.join(folder, `${name}.prepare.json`);
      assert.deepEqual(JSON.parse(fs.readFileSync(prepareFile, 'utf8')).actAs, [party]);
      const editor = page.locator('.editor-group-container.active');
      await editor.locator('.monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+H');
      await editor.locator('.find-widget .find-part textarea, .find-widget .find-part input').first().fill(TEMPLATE_PLACEHOLDER);
      const replace = editor.locator('.find-widget .replace-part textarea, .find-widget .replace-part input').first();
      await replace.fill('#canton-lens-demo-model:Notes:Note');
      await replace.press('Control+Alt+Enter');
      // The Note's own fields, as a real node transcodes the arguments by the template's type.
      await editor.locator('.find-widget .find-part textarea, .find-widget .find-part input').first().fill(`"owner": "${party}"`);
      await replace.fill(`"author": "${party}", "reader": "${party}", "title": "signed loop", "body": "", "tags": []`);
      await replace.press('Control+Alt+Enter');
      await page.keyboard.press('Control+S');
      await page.keyboard.press('Escape');
      for (let i = 0; i < 50 && fs.readFileSync(prepareFile, 'utf8').includes(TEMPLATE_PLACEHOLDER); i++) await page.waitForTimeout(100);
      for (let i = 0; i < 50 && fs.readFileSync(prepareFile, 'utf8').includes('"owner"'); i++) await page.waitForTimeout(100);
      assert.ok(!fs.readFileSync(prepareFile, 'utf8').includes(TEMPLATE_PLACEHOLDER), 'the template id was replaced and saved');
      assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(prepareFile, 'utf8')).commands[0].CreateCommand.createArguments), [
        'author',
        'reader',
        'title',
        'body',
        'tags',
      ]);

      // Prepare: the review opens before signing, with the hash check and the node's hashing details.
      await wb.runCommand('Canton: Prepare Transaction');
      const review = await wb.webviewShowing(/Not signed yet/, 60_000);
      const reviewText = await review.locator('main').innerText();
      assert.match(reviewText, /The recomputed hash equals the hash the signatures cover/);
      assert.match(reviewText, /Hashing details \(verbose hashing\)/);
      assert.match(reviewText, /The hash recomputed here equals the node's/);
      assert.equal(await review.locator('.input-missing').count(), 0, "every input hashed here is in the node's hashing details");
      assert.equal(await review.locator('button[data-action="submitAndWait"]').count(), 0, 'nothing to submit before signing');
      const executeFile = path.join(folder, `${name}.execute.json`);
      assert.ok(fs.existsSync(executeFile));

      // Sign from the review: the key is found from the party's namespace; the review checks again.
      await review.locator('button[data-action="sign"]').click();
      await review.locator('.check-ok', { hasText: 'verifies over the hash' }).waitFor({ timeout: 30_000 });
      assert.equal(JSON.parse(fs.readFileSync(executeFile, 'utf8')).partySignatures.signatures[0].signatures[0].signedBy, fingerprint);
      if (version === '3.4') {
        // CanReadAs alone may prepare, not execute: flagged before any confirmation, naming the rights and the party.
        const block = review.locator('.check-block', { hasText: 'has neither CanActAs nor CanExecuteAs' });
        await block.waitFor({ timeout: 10_000 });
        assert.match(await block.innerText(), new RegExp(`developer has neither CanActAs nor CanExecuteAs for ${party}`));
        assert.equal(await review.locator('button[data-action="submitAndWait"]').count(), 0);
        // Granted with another tool, as an administrator does; Check Again asks the node again.
        node.ledger.users.developer.push({ canExecuteAs: party });
        await review.locator('button[data-action="reload"]').click();
      }
      await review.locator('.check-ok', { hasText: /User developer may execute as/ }).waitFor({ timeout: 30_000 });
      assert.doesNotMatch(await review.locator('main').innerText(), /LOCAL_VERDICT|NOT_SEQUENCED_TIMEOUT|Prepare it again/);
      const executedBefore = node.executed.length;

      // Submit and wait: 3.5 through executeAndWait (then the update link), the others for the transaction.
      const viaTransaction = version !== '3.5';
      await review.locator(`button[data-action="${viaTransaction ? 'submitAndWaitForTransaction' : 'submitAndWait'}"]`).click();
      await dialog.waitFor({ timeout: 30_000 });
      assert.match(await dialog.innerText(), new RegExp(`Submit this transaction to "${name}" as ${party}`));
      await dialog
        .locator('a.monaco-button, button', { hasText: /^Submit$/ })
        .first()
        .click();
      await review.locator('.accepted').waitFor({ timeout: 30_000 });
      const accepted = await review.locator('.accepted').innerText();
      assert.match(accepted, new RegExp(`POST /v2/interactive-submission/${viaTransaction ? 'executeAndWaitForTransaction' : 'executeAndWait'}`));
      assert.match(accepted, /Change id: user\s+developer/);
      if (viaTransaction) {
        assert.match(accepted, /The committed transaction has the same creates and exercises as the prepared one/);
        // Each prepared action beside the committed one, the local contract id matched to the one the node completed.
        assert.match(accepted, /Prepared against committed \(\d+ actions\)[\s\S]*as prepared/);
        assert.equal((await review.locator('.committed-actions a.id-link[data-kind="contract"]').count()) > 0, true);
      }
      if (version === '3.6') {
        await clearToasts();
        await review.locator('#hd-h').scrollIntoViewIfNeeded();
        await wb.screenshot('external-signing-loop.png');
      }
      // The review stays in view with its comparison; the committed update is a link away.
      await review.locator('.accepted a.id-link[data-kind="update"]').click();
      const committed = await wb.webviewShowing(/Effective at/, 60_000);
      const committedText = await committed.locator('main').innerText();
      assert.match(committedText, /Notes:Note/);
      assert.equal(node.executed.length - executedBefore, 1, 'one POST per click');
      timings.push(`${version} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });
  }
});
