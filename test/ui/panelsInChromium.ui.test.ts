/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Panel pages with hostile ledger data, rendered by the real renderers and page script and
// loaded in Debian's Chromium under their CSP: nothing executes, the page stays usable.
// Not a workbench test, so not on the useWorkbench fixture (uiFixture.ts): pages are served to a bare Chromium.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { contractBody } from '../../src/panels/html/contractHtml';
import { lookupActions, renderPanelPage } from '../../src/panels/html/panelPage';
import type { SafeHtml } from '../../src/panels/html/safeHtml';
import { transactionBody } from '../../src/panels/html/transactionHtml';
import { CHROMIUM, CHROMIUM_FLAGS } from '../vscode/vscodeServer';
import { startPanelPageServer, type PanelPageServer } from '../support/panelPageServer';
import { EVIL, bigArgument, hostileContract, hostileTransaction } from '../support/hostileLookups';
import { SCREENSHOT_DIR } from './workbench';

describe('UI: panels with hostile data in Chromium', function () {
  this.timeout(120_000);
  let pages: PanelPageServer;
  let origin: string;
  let browser: Browser;

  const publish = (name: string, body: SafeHtml) => {
    pages.publish(
      name,
      renderPanelPage({
        nonce: 'dGVzdC1ub25jZQ==',
        cspSource: origin,
        scriptUri: `${origin}/media/panel.js`,
        styleUri: `${origin}/media/panel.css`,
        title: EVIL,
        nodeName: EVIL,
        actions: lookupActions({ canGoBack: true, canGoForward: false, hasResult: true }),
        body,
      }),
    );
  };

  const open = async (name: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown[]> & { acquireVsCodeApi: unknown };
      w.__messages = [];
      w.__violations = [];
      w.__states = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      w.acquireVsCodeApi = () => ({
        postMessage: (m: unknown) => w.__messages.push(m),
        setState: (s: unknown) => w.__states.push(s),
        getState: () => undefined,
      });
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    (page as unknown as { dialogs: string[] }).dialogs = dialogs;
    await page.goto(`${origin}/page/${name}`);
    await page.waitForFunction(() => (window as unknown as { __messages: { type: string }[] }).__messages.some((m) => m.type === 'ready'));
    return page;
  };

  const nothingRan = async (page: Page) => {
    const facts = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned,
      violations: (window as unknown as { __violations: string[] }).__violations,
      injected: document.querySelectorAll('img, svg, iframe, object, embed').length,
      scripts: [...document.scripts].map((s) => s.type || s.src),
      handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
      jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => a.getAttribute('href')!.trim().toLowerCase().startsWith('javascript:')).length,
    }));
    assert.equal(facts.pwned, undefined, 'hostile code ran');
    assert.deepEqual(facts.violations, [], 'the CSP had to block something');
    assert.equal(facts.injected, 0, 'hostile elements were created');
    assert.equal(facts.handlers, 0, 'inline handlers exist');
    assert.equal(facts.jsLinks, 0);
    assert.ok(
      facts.scripts.every((s) => s === 'application/json' || s.endsWith('/media/panel.js')),
      facts.scripts.join(', '),
    );
    assert.deepEqual((page as unknown as { dialogs: string[] }).dialogs, []);
  };

  before(async () => {
    pages = await startPanelPageServer();
    origin = pages.origin;
    publish('contract', contractBody(hostileContract()));
    publish('big-argument', contractBody(hostileContract(bigArgument(2 * 1024 * 1024))));
    publish('transaction-5k', transactionBody(hostileTransaction(5_000)));
    publish('transaction-50k', transactionBody(hostileTransaction(50_000)));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  });
  after(async () => {
    await browser?.close();
    await pages?.close();
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
    const messages = await page.evaluate(() => (window as unknown as { __messages: { type: string }[] }).__messages.map((m) => m.type));
    assert.ok(messages.includes('openId') && messages.includes('copy'), messages.join(', '));
    const state = await page.evaluate(() => (window as unknown as { __states: unknown[] }).__states);
    assert.equal(state.length, 0, 'the test page has no panel state');
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
      assert.equal(await page.locator('#event-rows tr').count(), 500, 'the first page of rows');
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
      await page.waitForFunction(() => document.querySelectorAll('#event-rows tr').length > 500);
      await nothingRan(page);
      await page.close();
    });
  }

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
    for (const expected of ['button[refresh]', 'button[openJson]', 'select#filter-kind', 'input#filter-template', 'input#filter-party', 'a.id-link']) {
      assert.ok(reached.includes(expected), `Tab never reached ${expected}: ${reached.join(' ')}`);
    }
    // In a row: a button that opens the whole event, then its links.
    while (!(await page.evaluate(() => document.activeElement?.matches('#event-rows button.detail-toggle') === true))) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const asked = await page.evaluate(
      () => (window as unknown as { __messages: { type: string }[] }).__messages.filter((m) => m.type === 'eventDetail').length,
    );
    assert.equal(asked, 1, "Enter on the row's first button asks for the whole event");
    while (!(await page.evaluate(() => document.activeElement?.matches('#event-rows a.id-link') === true))) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const opened = await page.evaluate(() =>
      (window as unknown as { __messages: { type: string; id?: string }[] }).__messages.filter((m) => m.type === 'openId'),
    );
    assert.equal(opened.length, 1, JSON.stringify(opened));
    assert.match(opened[0].id!, /^00[0-9a-f]{64}/);
    await page.close();
  });
});
