/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Panel pages with hostile ledger data, rendered by the real renderers and page script and
// loaded in Debian's Chromium under their CSP: nothing executes, the page stays usable.
// Not a workbench test: pages are served to a bare Chromium (pageFixture.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contractBody } from '../../src/panels/html/contractHtml';
import { lookupActions } from '../../src/panels/html/panelPage';
import type { SafeHtml } from '../../src/panels/html/safeHtml';
import { transactionBody } from '../../src/panels/html/transactionHtml';
import { eventRowsAnswer } from '../../src/panels/lookupContent';
import { EVENT_ROWS_CHUNK, FIRST_EVENT_ROWS, type PackedEventRows } from '../../src/protocol/transactionRows';
import { EVIL, bigArgument, hostileContract, hostileTransaction } from '../support/hostileLookups';
import { usePanelPages, type PanelPage } from './pageFixture';
import { SCREENSHOT_DIR } from './workbench';

describe('UI: panels with hostile data in Chromium', function () {
  this.timeout(120_000);
  const pages = usePanelPages({ viewport: { width: 1100, height: 800 } });
  const publish = (name: string, body: SafeHtml, eventRows?: (from: number) => PackedEventRows | undefined) =>
    pages.publish(name, body, {
      title: EVIL,
      nodeName: EVIL,
      actions: lookupActions({ canGoBack: true, canGoForward: false, hasResult: true }),
      ...(eventRows ? { eventRows } : {}),
    });
  const open = (name: string) => pages.open(name);

  const nothingRan = async (page: PanelPage) => {
    const facts = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned,
      injected: document.querySelectorAll('img, svg, iframe, object, embed').length,
      scripts: [...document.scripts].map((s) => s.type || s.src),
      handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
      jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => a.getAttribute('href')!.trim().toLowerCase().startsWith('javascript:')).length,
    }));
    assert.equal(facts.pwned, undefined, 'hostile code ran');
    assert.deepEqual(await page.violations(), [], 'the CSP had to block something');
    assert.equal(facts.injected, 0, 'hostile elements were created');
    assert.equal(facts.handlers, 0, 'inline handlers exist');
    assert.equal(facts.jsLinks, 0);
    assert.ok(
      facts.scripts.every((s) => s === 'application/json' || s.endsWith('/media/panel.js')),
      facts.scripts.join(', '),
    );
    assert.deepEqual(page.dialogs(), []);
  };

  before(() => {
    publish('contract', contractBody(hostileContract()));
    publish('big-argument', contractBody(hostileContract(bigArgument(2 * 1024 * 1024))));
    // The extension's part as LookupPanel plays it: the rows after the first ones, as the page asks.
    const tx5k = hostileTransaction(5_000);
    const tx50k = hostileTransaction(50_000);
    publish('transaction-5k', transactionBody(tx5k), (from) => eventRowsAnswer(tx5k, from));
    publish('transaction-50k', transactionBody(tx50k), (from) => eventRowsAnswer(tx50k, from));
    publish('transaction-5k-asks', transactionBody(tx5k));
  });

  it('a contract whose every field is an attack executes nothing and stays usable', async () => {
    const page = await open('contract');
    await nothingRan(page);
    const text = await page.locator('main').innerText();
    assert.ok(text.includes('<img src=x onerror="window.__pwned=1'), 'the attack is shown as text');
    assert.ok((await page.locator('.ctrl', { hasText: '\\u202e' }).count()) > 0, 'a bidi override is made visible');
    // Usable: links, search, expand, copy.
    await page.locator('[data-action="expandAll"]').click();
    await page.locator('.value-tree .v-key', { hasText: 'level0' }).first().waitFor();
    const deepest = await page.evaluate(() => document.querySelectorAll('.value-tree details').length);
    assert.ok(deepest >= 50, `only ${deepest} levels rendered`);
    await page.locator('.tree-search').fill('level37');
    await page.locator('.search-status', { hasText: '1 match' }).waitFor();
    await page.locator('.id-link').first().click();
    await page.locator('.copy').first().click();
    const messages = (await page.messages()).map((m) => m.type);
    assert.ok(messages.includes('openId') && messages.includes('copy'), messages.join(', '));
    assert.equal(await page.savedState(), null, 'the test page has no panel state');
    await nothingRan(page);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'hostile-contract.png') });
    await page.close();
  });

  it('a 2 MB create argument loads and can be searched', async () => {
    const page = await open('big-argument');
    await nothingRan(page);
    await page.locator('.tree-search').fill('#4000');
    await page.locator('.search-status', { hasText: /^\d+ match/ }).waitFor({ timeout: 30_000 });
    await page.close();
  });

  for (const [name, count] of [
    ['transaction-5k', 5_000],
    ['transaction-50k', 50_000],
  ] as const) {
    it(`a transaction of ${count.toLocaleString('en-US')} hostile events renders in pages, filters and scrolls`, async () => {
      const page = await open(name);
      await nothingRan(page);
      assert.equal(await page.locator('#event-rows tr').count(), 100, 'the first page of rows');
      await page.locator('#filter-kind').selectOption('exercised');
      const expected = Math.floor(count / 3);
      await page.locator('#filter-status', { hasText: `${expected.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} events match` }).waitFor();
      await page.locator('#filter-kind').selectOption('');
      await page.locator('#filter-party').fill('eve');
      await page.locator('#filter-template').fill('Iou');
      await page.waitForFunction(() => document.getElementById('filter-status')!.textContent.includes('events match'));
      await page.locator('#filter-template').fill('');
      await page.locator('#filter-party').fill('');
      await page.waitForFunction(() => document.getElementById('filter-status')!.textContent === '');
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForFunction(() => document.querySelectorAll('#event-rows tr').length > 100);
      await nothingRan(page);
      await page.close();
    });
  }

  it('paints the first rows of a large transaction, says it is loading the rest, and takes them in as the extension sends them', async () => {
    const page = await open('transaction-5k-asks');
    const rowsAsked = async () => (await page.messages()).filter((m) => m.type === 'eventRows');
    await page.waitForFunction(() => (window as unknown as { __messages: { type: string }[] }).__messages.some((m) => m.type === 'eventRows'));
    const [asked] = await rowsAsked();
    assert.equal(asked.from, FIRST_EVENT_ROWS, 'the rows after those the content carried');
    const status = page.locator('#filter-status');
    await status.filter({ hasText: `Loading events: ${FIRST_EVENT_ROWS} of 5,000` }).waitFor();
    assert.equal(await page.locator('#event-count').innerText(), '5,000');
    // A filter meanwhile covers the rows in so far, and says so.
    await page.locator('#filter-kind').selectOption('exercised');
    const exercisedIn = Math.floor(FIRST_EVENT_ROWS / 3);
    await status.filter({ hasText: `${exercisedIn} events match so far (loading: ${FIRST_EVENT_ROWS} of 5,000)` }).waitFor();
    // Rows from elsewhere (the answer of another transaction, a stale request) are not taken.
    const l = hostileTransaction(5_000);
    await pages.post(page, {
      type: 'eventRows',
      requestId: asked.requestId!,
      source: 'events',
      rows: { ...eventRowsAnswer(l, FIRST_EVENT_ROWS)!, total: 6_000 },
    });
    await page.clearMessages();
    await pages.post(page, { type: 'eventRows', requestId: asked.requestId!, source: 'events', rows: eventRowsAnswer(l, FIRST_EVENT_ROWS) });
    assert.equal((await rowsAsked()).length, 0, 'the page does not ask again for an answered request');
    const again = await page.evaluate(() => document.getElementById('filter-status')!.textContent);
    assert.match(again, /so far/, 'an answer to a request already answered is dropped');
    // Asked afresh: each answer brings the next request, until every row is in.
    await page.locator('#filter-kind').selectOption('');
    await page.reload();
    await page.ready();
    for (let n = 0; n < 5_000 / EVENT_ROWS_CHUNK + 1; n++) {
      await page.waitForFunction(() => (window as unknown as { __messages: { type: string }[] }).__messages.some((m) => m.type === 'eventRows'));
      const [next] = await rowsAsked();
      await page.clearMessages();
      await pages.post(page, { type: 'eventRows', requestId: next.requestId!, source: 'events', rows: eventRowsAnswer(l, next.from!) });
      if (next.from! + EVENT_ROWS_CHUNK >= 5_000) break;
    }
    await page.waitForFunction(() => document.getElementById('filter-status')!.textContent === '');
    await page.locator('#filter-kind').selectOption('exercised');
    await status.filter({ hasText: '1,666 of 5,000 events match' }).waitFor();
    await nothingRan(page);
    await page.close();
  });

  it('works from the keyboard alone: Tab reaches the toolbar, the filters and the event links; Enter opens a link', async () => {
    const page = await open('transaction-5k');
    const reached: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(() => {
          const e = document.activeElement!;
          return `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.getAttribute('data-action') ? `[${e.getAttribute('data-action')}]` : ''}${e.classList.contains('id-link') ? '.id-link' : ''}`;
        }),
      );
    }
    for (const expected of ['button[refresh]', 'button#more-actions', 'select#filter-kind', 'input#filter-template', 'input#filter-party', 'a.id-link']) {
      assert.ok(reached.includes(expected), `Tab never reached ${expected}: ${reached.join(' ')}`);
    }
    // In a row: a button that opens the whole event, then its links.
    while (!(await page.evaluate(() => document.activeElement?.matches('#event-rows button.detail-toggle') === true))) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const asked = (await page.messages()).filter((m) => m.type === 'eventDetail').length;
    assert.equal(asked, 1, "Enter on the row's first button asks for the whole event");
    while (!(await page.evaluate(() => document.activeElement?.matches('#event-rows a.id-link') === true))) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const opened = (await page.messages()).filter((m) => m.type === 'openId');
    assert.equal(opened.length, 1, JSON.stringify(opened));
    assert.match(opened[0].id!, /^00[0-9a-f]{64}/);
    await page.close();
  });
});
