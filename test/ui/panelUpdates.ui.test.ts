/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// A lookup panel's page as LookupPanel drives it, in Debian's Chromium: the shell is loaded once
// and every view arrives as a content message (body, toolbar, navigation), built by the real
// lookupContent. An update of the same view keeps what the person did, a lookup under way in
// between included; a shape switch keeps the searches and filters; another view starts afresh;
// answers reach the row that asked. Not a workbench test: pages are served to a bare Chromium (pageFixture.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildDemoLedger } from '../../fake-ledger/src/demoLedgerData';
import { LedgerQueries } from '../../fake-ledger/src/ledgerQueries';
import { identityOfToken } from '../../src/auth/ledgerIdentity';
import { html } from '../../src/panels/html/safeHtml';
import { answerBody, eventDetail, identityHtml, lookingUpBody, lookupContent, notRefreshedNote, shownTree } from '../../src/panels/lookupContent';
import { busyMessage, type ContentMessage } from '../../src/protocol/panelMessages';
import { PanelHistory } from '../../src/panels/panelHistory';
import type { PanelTarget } from '../../src/panels/panelTargets';
import { EVIL, demoTransactionLookup } from '../support/hostileLookups';
import { usePanelPages, type PanelPage } from './pageFixture';
import { SCREENSHOT_DIR } from './workbench';

type Shape = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
const EFFECTS: Shape = 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

describe('UI: a lookup panel across content updates in Chromium', function () {
  this.timeout(120_000);
  const pages = usePanelPages({ viewport: { width: 1200, height: 700 } });
  const ledger = buildDemoLedger({ bigTransactionEvents: 200, bigTreeNodes: 300 });
  const queries = new LedgerQueries(ledger);
  const lookup = (updateId: string, shape?: Shape) => demoTransactionLookup(queries, updateId, shape);
  const big = ledger.samples.bigUpdate;
  const target = (id: string, shape?: Shape): PanelTarget => ({ kind: 'update', id, node: 'demo', ...(shape ? { shape } : {}) });

  /** What the panel sends for `history`'s current target: its answer, or the lookup under way. */
  const content = (history: PanelHistory, answered = true): ContentMessage => {
    const t = history.current;
    if (!answered) return lookupContent({ identity: html``, body: lookingUpBody(t, t.node), history, result: undefined });
    const l = lookup(t.id, t.shape);
    // Asked as the one identity of these tests (the panel numbers identities; another is 2).
    return lookupContent({ identity: identityHtml(t, new Map([[t.node, l.askedAs]]), []), body: answerBody(l, t), history, result: l, seenAs: `${t.node}=1` });
  };
  const send = (page: PanelPage, message: ContentMessage) => pages.post(page, message);
  const saved = (page: PanelPage) => page.savedState<{ history?: PanelTarget[]; ui?: Record<string, unknown> }>();
  /** Answers the detail requests posted so far, as LookupPanel does: by request id. */
  const answerDetails = async (page: PanelPage, history: PanelHistory) => {
    const t = history.current;
    const l = lookup(t.id, t.shape);
    for (const m of (await page.messages()).filter((p) => p.type === 'eventDetail'))
      await pages.post(page, { type: 'answer', requestId: m.requestId!, html: eventDetail(l, shownTree(l, t), m.source!, m.index!)?.text });
    await page.clearMessages();
  };

  /** The shell as the kit sets it (the lookup under way, no navigation), with a webview state that survives a reload. */
  const open = async (first: PanelTarget): Promise<PanelPage> => {
    const name = `shell-${first.id.slice(-8)}`;
    pages.publish(name, lookingUpBody(first, 'demo'), { title: 'Transaction', nodeName: 'demo' });
    return pages.open(name);
  };
  const status = (page: PanelPage) => page.locator('#filter-status');

  it('draws the toolbar from the message, as text, and keeps the navigation for a reload', async () => {
    const history = new PanelHistory({ history: [target(big)], index: 0 });
    const page = await open(history.current);
    assert.equal(await page.locator('[data-action="back"]').isDisabled(), true);
    await send(page, content(history));
    await page.locator('#event-rows tr').first().waitFor();
    assert.equal(await page.locator('[data-action="debug"]').count(), 1, 'a transaction adds Debug Transaction');
    history.navigate({ ...target(ledger.samples.settlementUpdate), node: EVIL });
    const message = content(history);
    await send(page, { ...message, actions: message.actions!.map((a) => (a.action === 'copyId' ? { ...a, label: EVIL } : a)) });
    await page.locator('[data-action="back"]:not([disabled])').waitFor();
    assert.equal(await page.locator('nav.toolbar .node strong').innerText(), EVIL, 'the node named as text');
    assert.equal(await page.locator('[data-action="copyId"]').innerText(), EVIL, 'a label is text, never markup');
    assert.equal(await page.locator('nav.toolbar img').count(), 0);
    assert.deepEqual(
      (await saved(page))?.history?.map((t) => t.id),
      [big, ledger.samples.settlementUpdate],
    );
    assert.deepEqual(await page.violations(), []);
    await page.close();
  });

  it('keeps filters, opened rows and the scroll position across a refresh of the same view, the lookup under way in between', async () => {
    const history = new PanelHistory({ history: [target(big)], index: 0 });
    const page = await open(history.current);
    await send(page, content(history));
    await page.locator('#event-rows tr').first().waitFor();
    await page.locator('#filter-party').fill('Bob');
    await status(page).filter({ hasText: '67 of 200 events match' }).waitFor();
    const filtered = await status(page).innerText();
    await page.locator('[data-detail="events"]').nth(1).click();
    await answerDetails(page, history);
    await page.locator('.detail-row').waitFor();
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForFunction(() => (JSON.parse(sessionStorage.getItem('state')!) as { ui: { scrollY?: number } }).ui.scrollY === 300);
    // Refresh: the lookup under way, then its answer.
    await send(page, content(history, false));
    await page.locator('#content > .loading').waitFor();
    await send(page, content(history));
    await page.locator('#event-rows tr').first().waitFor();
    assert.equal(await page.locator('#filter-party').inputValue(), 'Bob');
    assert.equal(await status(page).innerText(), filtered);
    assert.equal(await page.evaluate(() => window.scrollY), 300);
    const asked = (await page.messages()).filter((m) => m.type === 'eventDetail');
    assert.equal(asked.length, 1, 'the opened row asks again');
    await answerDetails(page, history);
    await page.locator('.detail-row').waitFor();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'panel-refreshed.png') });
    await page.close();
  });

  it('refreshes in place: the content stays, busy, with Cancel; the answer replaces it without moving what is in view', async () => {
    const history = new PanelHistory({ history: [target(big)], index: 0 });
    const page = await open(history.current);
    await send(page, content(history));
    await page.locator('#event-rows tr').first().waitFor();
    // A row opened above what is in view.
    await page.locator('[data-detail="events"]').nth(1).click();
    await answerDetails(page, history);
    await page.locator('.detail-row').waitFor();
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.waitForFunction(() => (JSON.parse(sessionStorage.getItem('state')!) as { ui: { scrollY?: number } }).ui.scrollY === 600);
    // The first event row in view, under the toolbar and the table's header.
    const row = await page.evaluate(() =>
      [...document.querySelectorAll('#event-rows tr[data-node-id]')].findIndex((tr) => tr.getBoundingClientRect().top > 100),
    );
    assert.ok(row > 1, 'the opened row is above what is in view');
    /** Where that row is in the viewport, once the page has handled `message` (if given). */
    const view = (message?: unknown) =>
      page.evaluate(
        ({ m, row }) =>
          new Promise<{ top: number; scrollY: number; details: number; busy: boolean }>((resolve) => {
            const measure = () =>
              resolve({
                top: document.querySelectorAll('#event-rows tr[data-node-id]')[row].getBoundingClientRect().top,
                scrollY: window.scrollY,
                details: document.querySelectorAll('.detail-row:not([hidden])').length,
                busy: document.getElementById('content')!.getAttribute('aria-busy') === 'true',
              });
            if (m === undefined) return measure();
            // After the page's own listener, which was added first.
            window.addEventListener('message', measure, { once: true });
            window.postMessage(m, '*');
          }),
        { m: message, row },
      );
    const before = await view();
    // Refresh: the content stays, marked busy, with a progress bar; Refresh turns into Cancel.
    const refresh = page.locator('nav.toolbar > button').nth(2);
    assert.equal(await refresh.getAttribute('data-action'), 'refresh');
    assert.deepEqual(await view(busyMessage(true)), { ...before, busy: true });
    assert.equal(await page.locator('#content > .loading').count(), 0, 'no lookup page in between');
    assert.equal(await page.locator('nav.toolbar .progress-bar').count(), 1);
    assert.equal(await refresh.getAttribute('data-action'), 'cancel');
    assert.equal(await refresh.innerText(), 'Cancel');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'panel-refreshing.png') });
    // Cancel: the page asks; the extension answers that the content was not refreshed.
    await refresh.click();
    assert.deepEqual(
      (await page.messages()).map((m) => m.type),
      ['cancel'],
    );
    await page.clearMessages();
    assert.deepEqual(await view(busyMessage(false, notRefreshedNote())), before);
    assert.equal(await page.locator('nav.toolbar .not-refreshed').innerText(), `${notRefreshedNote()}×`);
    assert.equal(await refresh.getAttribute('data-action'), 'refresh');
    assert.equal(await refresh.innerText(), 'Refresh');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action), 'refresh', 'the focus stays on the button');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'panel-not-refreshed.png') });
    // Refresh again, to its end: the answer replaces the content, the opened row and the scroll as they were.
    assert.deepEqual(await view(busyMessage(true)), { ...before, busy: true });
    assert.equal(await page.locator('nav.toolbar .not-refreshed').count(), 0);
    assert.deepEqual(await view(content(history)), before, 'nothing in view moved');
    assert.equal(await page.locator('nav.toolbar .progress-bar').count(), 0);
    assert.equal(await refresh.getAttribute('data-action'), 'refresh');
    const asked = (await page.messages()).filter((m) => m.type === 'eventDetail');
    assert.equal(asked.length, 1, 'the opened row asks for its event afresh');
    const l = lookup(big);
    const answer = { type: 'answer', requestId: asked[0].requestId, html: eventDetail(l, undefined, 'events', asked[0].index!)?.text };
    assert.deepEqual(await view(answer), before, 'and its answer takes the place of the one shown');
    // Asked as someone else: the opened row waits for its own answer (an event is never shown as another identity's).
    await page.clearMessages();
    const reader = { identity: identityOfToken(`e30.${Buffer.from('{"sub":"reader"}').toString('base64url')}.sig`), parties: [] };
    const t = history.current;
    const asReader = lookupContent({
      identity: identityHtml(t, new Map([[t.node, reader]]), []),
      body: answerBody(l, t),
      history,
      result: l,
      seenAs: `${t.node}=2`,
    });
    assert.equal((await view(asReader)).details, 0);
    assert.equal((await page.messages()).filter((m) => m.type === 'eventDetail').length, 1);
    assert.deepEqual(await page.violations(), []);
    await page.close();
  });

  it('keeps the tree search and folds across an update, and the searches and filters across a shape switch', async () => {
    const history = new PanelHistory({ history: [target(ledger.samples.settlementUpdate)], index: 0 });
    const page = await open(history.current);
    await send(page, content(history));
    await page.locator('#event-rows tr').first().waitFor();
    await page.locator('#filter-party').fill('Bob');
    await status(page).filter({ hasText: 'events match' }).waitFor();
    // What happened: the tree starts unfiltered, the table's filter waits for the table.
    history.replaceCurrent({ ...history.current, shape: EFFECTS });
    await send(page, content(history));
    const tree = page.locator('#tree-rows tr[data-index]');
    await tree.first().waitFor();
    assert.equal(await tree.count(), 7);
    await page.locator('[data-twisty="1"]').click();
    await page.locator('#tree-search').fill('split');
    await status(page).filter({ hasText: 'nodes match' }).waitFor();
    const matching = await tree.count();
    // The same view again (the identity banner, say): the search and the fold stay.
    await send(page, content(history));
    await status(page).filter({ hasText: 'nodes match' }).waitFor();
    assert.equal(await page.locator('#tree-search').inputValue(), 'split');
    assert.equal(await tree.count(), matching);
    await page.locator('#tree-search').fill('');
    await page.waitForFunction(() => document.getElementById('filter-status')?.textContent === '');
    assert.equal(await tree.count(), 6, 'node 1 is still folded');
    await page.locator('#tree-search').fill('split');
    await status(page).filter({ hasText: 'nodes match' }).waitFor();
    // Back to what changed: the party filter applies again.
    history.replaceCurrent({ ...history.current, shape: undefined });
    await send(page, content(history));
    await status(page).filter({ hasText: 'events match' }).waitFor();
    assert.equal(await page.locator('#filter-party').inputValue(), 'Bob');
    // And to the tree: its search applies again, the folds started afresh.
    history.replaceCurrent({ ...history.current, shape: EFFECTS });
    await send(page, content(history));
    await status(page).filter({ hasText: 'nodes match' }).waitFor();
    assert.equal(await page.locator('#tree-search').inputValue(), 'split');
    await page.close();
  });

  it('starts another view afresh, and comes back after a reload with what was done on it', async () => {
    const history = new PanelHistory({ history: [target(big)], index: 0 });
    const page = await open(history.current);
    await send(page, content(history));
    await page.locator('#filter-party').fill('Alice');
    await status(page).filter({ hasText: '133 of 200 events match' }).waitFor();
    // The page is reloaded (a hidden panel comes back): the shell, then the same view.
    await page.reload();
    await page.ready();
    await send(page, content(history));
    await status(page).filter({ hasText: '133 of 200 events match' }).waitFor();
    assert.equal(await page.locator('#filter-party').inputValue(), 'Alice');
    history.navigate(target(ledger.samples.settlementUpdate));
    await send(page, content(history));
    await page.locator('#event-rows tr').first().waitFor();
    assert.equal(await page.locator('#filter-party').inputValue(), '', 'another transaction: no filter');
    assert.equal(await status(page).innerText(), '');
    assert.equal((await saved(page))?.ui?.filters, undefined);
    await page.close();
  });

  it('gives an answer to the row that asked, and drops one whose row was replaced', async () => {
    const history = new PanelHistory({ history: [target(big)], index: 0 });
    const page = await open(history.current);
    await send(page, content(history));
    await page.locator('[data-detail="events"][data-index="2"]').click();
    const [first] = (await page.messages()).filter((m) => m.type === 'eventDetail');
    assert.equal(first.index, 2);
    // An answer to no request, and then new content before the answer: nothing is put anywhere.
    await pages.post(page, { type: 'answer', requestId: 999, html: '<p class="stray">x</p>' });
    history.navigate(target(ledger.samples.settlementUpdate));
    await send(page, content(history));
    await page.locator('#event-rows tr').first().waitFor();
    await pages.post(page, { type: 'answer', requestId: first.requestId!, html: '<p class="late">late</p>' });
    // A request after them is answered in its row: the ones before have been handled by then.
    await page.locator('[data-detail="events"][data-index="0"]').click();
    await answerDetails(page, history);
    await page.locator('.detail-row').waitFor();
    assert.equal(await page.locator('.detail-row').count(), 1);
    assert.equal(await page.locator('.stray, .late').count(), 0);
    await page.close();
  });
});
