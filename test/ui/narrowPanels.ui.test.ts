/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The pages in half an editor (700 px wide), rendered by the real renderers and page scripts in
// Debian's Chromium: the Active Contracts and Follow Updates tables keep the head of every column
// (no header cut to a few letters), scroll sideways with their header, and their columns resize by
// mouse and keyboard and stay resized after a reload; a panel's table does the same; the toolbar
// is one row, its rarer actions in a menu that the keyboard opens and walks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AcsBatchEncoder } from '../../src/browse/acsBatchEncoder';
import type { UpdateRow } from '../../src/protocol/updateRows';
import { completionsBody } from '../../src/panels/html/completionsHtml';
import { acsPageHtml, updatesPageHtml } from '../../src/panels/html/browseHtml';
import { lookupActions } from '../../src/panels/html/panelPage';
import { transactionBody } from '../../src/panels/html/transactionHtml';
import { hostileTransaction } from '../support/hostileLookups';
import { usePanelPages, type PanelPage } from './pageFixture';
import { SCREENSHOT_DIR } from './workbench';

const HALF = { width: 700, height: 700 };
const hex = (i: number, n: number) =>
  (
    i
      .toString(16)
      .padStart(8, '0')
      .repeat(Math.ceil(n / 8)) + 'ab'
  ).slice(0, n);
const ALICE = `Alice::1220${hex(7, 64)}`;
const BANK = `Bank::1220${hex(9, 64)}`;
const ACS_ROWS = 2_000;

function acsEvents(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    contractId: `00${hex(i, 136)}`,
    templateId: `${hex(3, 64)}:Main.Finance.Iou:Iou`,
    packageName: 'finance',
    createdAt: new Date(Date.UTC(2026, 10, 2, 9, 42, i % 60)).toISOString(),
    signatories: [BANK],
    observers: [ALICE],
    createArgument: { issuer: BANK, owner: ALICE, amount: `${1000 + i}.0`, currency: 'EUR' },
  }));
}

function updateRows(n: number): UpdateRow[] {
  return Array.from({ length: n }, (_, i) => ({
    offset: 1_000 + i,
    updateId: `1220${hex(i, 64)}`,
    commandId: `settle-iou-command-${hex(i, 24)}`,
    workflowId: `workflow-${i}`,
    recordTime: new Date(Date.UTC(2026, 10, 2, 9, 42, i % 60, 123)).toISOString(),
    kinds: ['created', 'archived'],
    templates: ['Main.Finance.Iou:Iou', 'Main.Finance.Settlement:Settlement'],
    choices: ['Iou_Transfer'],
    parties: [ALICE, BANK],
    events: 3,
  }));
}

/** What the header cells of the page's first table show, against what their name's first 6 characters need. */
const headerRoom = (page: PanelPage, selector: string) =>
  page.evaluate((selector) => {
    return [...document.querySelectorAll<HTMLTableCellElement>(selector)].map((th) => {
      const label = th.querySelector('.col-label') ?? th;
      const text = [...label.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '') as Text | undefined;
      const range = document.createRange();
      if (text) {
        range.setStart(text, 0);
        range.setEnd(text, Math.min(6, text.length));
      }
      const style = getComputedStyle(th);
      const room = th.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { name: text?.textContent ?? '', need: text ? range.getBoundingClientRect().width : 0, room };
    });
  }, selector);

/** The tops of the toolbar's items, which are in one row if they are within a few pixels. */
async function oneRow(page: PanelPage): Promise<void> {
  const tops = await page
    .locator('nav.toolbar > :is(button, input, select, label, .more-actions, .node):visible')
    .evaluateAll((es) => es.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)));
  const widths = await page
    .locator('nav.toolbar > *')
    .evaluateAll((es) => es.map((e) => `${e.tagName}${e.id ? `#${e.id}` : ''} ${Math.round(e.getBoundingClientRect().width)}`));
  assert.ok(tops.length >= 4, String(tops.length));
  assert.ok(Math.max(...tops) - Math.min(...tops) < 4, `the toolbar wraps: ${tops.join(', ')} (${widths.join(', ')})`);
}

const width = (page: PanelPage, selector: string) => page.locator(selector).evaluate((e) => e.getBoundingClientRect().width);

/** Drags the handle at `selector` by `dx` pixels, as a person does with the mouse. */
async function drag(page: PanelPage, selector: string, dx: number): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = (await page.locator(selector).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 3 });
  await page.mouse.move(x + dx, y, { steps: 3 });
  await page.mouse.up();
}

describe('UI: pages in half an editor (700 px)', function () {
  this.timeout(120_000);
  const pages = usePanelPages({ viewport: HALF });
  const browse = (origin: string, script: string) => ({
    nonce: 'bm9uY2U=',
    cspSource: origin,
    scriptUris: [`${origin}/media/${script}`],
    styleUris: [`${origin}/media/panel.css`, `${origin}/media/browse.css`],
    title: 'Active Contracts',
    nodeName: 'Demo Ledger',
    scope: 'as Alice',
  });

  before(() => {
    pages.publishPage('acs', (origin) => acsPageHtml(browse(origin, 'acs.js')));
    pages.publishPage('tail', (origin) => updatesPageHtml({ ...browse(origin, 'updates.js'), start: '' }));
    pages.publish('transaction', transactionBody(hostileTransaction(50)), {
      actions: lookupActions({ canGoBack: true, canGoForward: false, hasResult: true, found: 'transaction' }),
    });
    const rows = updateRows(30).map((r, i) => ({
      offset: r.offset,
      commandId: r.commandId,
      actAs: [ALICE],
      status: i % 3 === 0 ? ('failed' as const) : ('succeeded' as const),
      ...(i % 3 === 0 ? {} : { updateId: r.updateId }),
      recordTime: r.recordTime,
      source: 'completion' as const,
      at: Date.parse(r.recordTime),
    }));
    pages.publish(
      'completions',
      completionsBody({
        node: 'n',
        user: 'alice',
        parties: [ALICE],
        state: 'Following',
        paused: false,
        filter: {},
        rows,
        total: rows.length,
        lastOffset: 1_030,
      }),
      {
        actions: [],
      },
    );
  });

  const noViolations = async (page: PanelPage) => assert.deepEqual(await page.violations(), [], 'the CSP had to block something');

  it('Active Contracts: every header shows its head, the table scrolls sideways with its header, columns resize and stay resized', async () => {
    const page = await pages.open('acs');
    await pages.post(page, { type: 'rows', batch: new AcsBatchEncoder().encode(acsEvents(ACS_ROWS) as never), activeAtOffset: 42 } as never);
    await pages.post(page, { type: 'done' } as never);
    await page.locator('#status', { hasText: `${ACS_ROWS.toLocaleString('en-US')} contracts` }).waitFor();
    await oneRow(page);
    // The rarer actions, from the menu.
    await page.locator('#more-actions').click();
    const items = await page.locator('#more-menu [role="menuitem"]').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.action));
    assert.deepEqual(items, ['filterPayload', 'showInactive', 'showAllInRange']);
    await page.locator('#more-menu [data-action="showInactive"]').click();
    await page.locator('#more-menu').waitFor({ state: 'hidden' });
    assert.ok((await page.messages()).some((m) => m.type === 'showInactive'));
    const heads = await headerRoom(page, '#table .vt-head th');
    assert.equal(heads.length, 9);
    for (const h of heads)
      assert.ok(h.need <= h.room + 0.5, `"${h.name}" has ${h.room.toFixed(1)} px for the ${h.need.toFixed(1)} px of its first 6 characters`);
    // Shortened ids and times are whole: their text fits their cell.
    for (const column of [1, 3]) {
      const fits = await page
        .locator(`#table tbody tr[data-index="0"] td:nth-child(${column})`)
        .evaluate((td) => ({ scroll: td.scrollWidth, client: td.clientWidth }));
      assert.ok(fits.scroll <= fits.client, `column ${column} is cut: ${JSON.stringify(fits)}`);
    }

    // Wider than the panel: the rows scroll sideways, and the header with them.
    const scroller = page.locator('#table .vt-scroller');
    const sizes = await scroller.evaluate((s) => ({ scroll: s.scrollWidth, client: s.clientWidth }));
    assert.ok(sizes.scroll > sizes.client + 100, `no sideways scroll: ${JSON.stringify(sizes)}`);
    await scroller.evaluate((s) => (s.scrollLeft = 250));
    await page.waitForFunction(() => document.querySelector('#table .vt-headwrap')!.scrollLeft === 250);
    const aligned = await page.evaluate(() => {
      const th = document.querySelectorAll('#table .vt-head th')[3].getBoundingClientRect();
      const td = document.querySelector('#table tbody tr[data-index="0"]')!.children[3].getBoundingClientRect();
      return { th: [th.left, th.width], td: [td.left, td.width] };
    });
    assert.ok(Math.abs(aligned.th[0] - aligned.td[0]) < 1 && Math.abs(aligned.th[1] - aligned.td[1]) < 1, `header and rows apart: ${JSON.stringify(aligned)}`);
    await scroller.evaluate((s) => (s.scrollLeft = 0));
    await page.waitForFunction(() => document.querySelector('#table .vt-headwrap')!.scrollLeft === 0);

    // A handle dragged: the column is wider, the rows' column with it, and the width is kept.
    const template = '#table .vt-head th:nth-child(2)';
    const before = await width(page, template);
    await drag(page, `${template} .col-resize`, 90);
    const after = await width(page, template);
    assert.ok(after > before + 60, `dragging the handle moved the column from ${before} to ${after} px`);
    const cell = await width(page, '#table tbody tr[data-index="0"] td:nth-child(2)');
    assert.ok(Math.abs(cell - after) < 1, `the rows' column is ${cell} px, its header ${after} px`);
    // From the keyboard: the handle takes the focus; the arrow keys narrow and widen.
    await page.locator(`${template} .col-resize`).focus();
    await page.keyboard.press('ArrowLeft');
    const narrower = await width(page, template);
    assert.ok(narrower < after, `ArrowLeft: ${after} → ${narrower}`);
    const kept = await page.savedState<{ columnWidths: Record<string, number[]> }>();
    assert.equal(kept?.columnWidths.acs?.[1], Math.round(narrower), JSON.stringify(kept));

    // Still a virtual table: a few dozen rows in the page, the last one reached by scrolling.
    assert.ok((await page.locator('#table tbody tr').count()) < 200);
    await scroller.evaluate((s) => (s.scrollTop = s.scrollHeight));
    await page.locator(`#table tbody tr[data-index="${ACS_ROWS - 1}"]`).waitFor();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'acs-half-width.png') });

    // Loaded again (the panel hidden and shown): the columns come back as the person left them.
    await page.reload();
    await page.ready();
    assert.ok(Math.abs((await width(page, template)) - narrower) < 1, 'the width was not kept');
    await noViolations(page);
  });

  it('Follow Updates: every header shows its head, the table scrolls sideways, a column resizes', async () => {
    const page = await pages.open('tail');
    await pages.post(page, { type: 'rows', rows: updateRows(300), position: 1_300 } as never);
    await page.locator('#counts', { hasText: '300 updates shown' }).waitFor();
    await oneRow(page);
    const heads = await headerRoom(page, '#table .vt-head th');
    assert.equal(heads.length, 8);
    for (const h of heads)
      assert.ok(h.need <= h.room + 0.5, `"${h.name}" has ${h.room.toFixed(1)} px for the ${h.need.toFixed(1)} px of its first 6 characters`);
    for (const column of [2, 3, 4]) {
      const fits = await page
        .locator(`#table tbody tr[data-index="0"] td:nth-child(${column})`)
        .evaluate((td) => ({ scroll: td.scrollWidth, client: td.clientWidth }));
      assert.ok(fits.scroll <= fits.client, `column ${column} is cut: ${JSON.stringify(fits)}`);
    }
    const sizes = await page.locator('#table .vt-scroller').evaluate((s) => ({ scroll: s.scrollWidth, client: s.clientWidth }));
    assert.ok(sizes.scroll > sizes.client, `no sideways scroll: ${JSON.stringify(sizes)}`);
    const before = await width(page, '#table .vt-head th:nth-child(4)');
    await drag(page, '#table .vt-head th:nth-child(4) .col-resize', -50);
    const after = await width(page, '#table .vt-head th:nth-child(4)');
    assert.ok(after < before - 30, `dragging the handle moved the column from ${before} to ${after} px`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'tail-half-width.png') });
    await noViolations(page);
  });

  it('Follow Updates: rows that stream in are shown together, newest first; once they stop, the rows just beyond the view are painted too', async () => {
    const page = await pages.open('tail');
    const rows = updateRows(300);
    // Ten batches one after the other, as the extension sends a fast stream.
    for (let i = 0; i < rows.length; i += 30) await pages.post(page, { type: 'rows', rows: rows.slice(i, i + 30), position: rows[i + 29].offset } as never);
    await page.locator('#counts', { hasText: '300 updates shown' }).waitFor();
    // The rows in view first while they come; the 5 below the view once none came for a while.
    await page.waitForFunction(() => {
      const scroller = document.querySelector('#table .vt-scroller')!;
      const inView = Math.ceil(scroller.clientHeight / 22);
      const shown = [...document.querySelectorAll<HTMLElement>('#table .vt-body tr:not([hidden])')].map((tr) => Number(tr.dataset.index));
      return shown.length >= inView + 5 && Array.from({ length: inView + 5 }, (_, i) => i).every((i) => shown.includes(i));
    });
    const top = await page.locator('#table tbody tr[data-index="0"] td:nth-child(1)').textContent();
    assert.equal(top, '1,299', 'the newest update is on top');
    await noViolations(page);
  });

  it("a panel's table: headers whole, times on one line, in a container that scrolls sideways; a handle resizes its column", async () => {
    const page = await pages.open('completions');
    const heads = await headerRoom(page, 'table.completions th');
    for (const h of heads) assert.ok(h.need <= h.room + 0.5, `"${h.name}" has ${h.room.toFixed(1)} px for ${h.need.toFixed(1)} px`);
    assert.equal(await page.locator('.table-scroll > table.completions').count(), 1, 'the table is in its scroll container');
    const time = await page
      .locator('table.completions tbody time')
      .first()
      .evaluate((t) => ({ height: t.getBoundingClientRect().height, font: parseFloat(getComputedStyle(t).fontSize) }));
    assert.ok(time.height < 2 * time.font, `a time breaks over lines: ${JSON.stringify(time)}`);
    const scroll = page.locator('.table-scroll');
    await page.setViewportSize({ width: 420, height: 700 });
    await page.waitForFunction(() => {
      const s = document.querySelector('.table-scroll')!;
      return s.scrollWidth > s.clientWidth;
    });
    assert.equal(await scroll.evaluate((s) => getComputedStyle(s).overflowX), 'auto');
    await page.setViewportSize(HALF);
    const before = await width(page, 'table.completions th:nth-child(4)');
    await drag(page, 'table.completions th:nth-child(4) .col-resize', 70);
    const after = await width(page, 'table.completions th:nth-child(4)');
    assert.ok(after > before + 40, `${before} → ${after}`);
    assert.ok(await page.locator('table.completions.sized').count(), 'the table holds the widths set');
    await noViolations(page);
  });

  it('the toolbar is one row; its rarer actions are in a menu the mouse and the keyboard open', async () => {
    const page = await pages.open('transaction');
    await oneRow(page);
    // Every action is there: the frequent ones on the toolbar, the rarer ones in the menu.
    const onBar = await page.locator('nav.toolbar > button').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.action));
    assert.deepEqual(onBar, ['back', 'forward', 'refresh', 'copyId', 'debug']);
    const menu = page.locator('#more-menu');
    assert.equal(await menu.isVisible(), false);
    await page.locator('#more-actions').click();
    await menu.waitFor();
    const inMenu = await menu.locator('[role="menuitem"]').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.action));
    assert.deepEqual(inMenu, ['openJson', 'copyMarkdown', 'copyCurl', 'allNodes']);
    const box = (await menu.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= HALF.width, `the menu runs out of the page: ${JSON.stringify(box)}`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'toolbar-menu-half-width.png') });
    await page.locator('[role="menuitem"][data-action="copyCurl"]').click();
    await menu.waitFor({ state: 'hidden' });
    assert.ok(
      (await page.messages()).some((m) => m.type === 'copyCurl'),
      'the chosen action reached the extension',
    );
    // The keyboard: Enter opens it on its first item, the arrows move, Escape closes it back to its button.
    await page.locator('#more-actions').focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.action), 'openJson');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.action), 'copyCurl');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'more-actions');
    await page.keyboard.press('ArrowDown');
    await menu.waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' });
    assert.ok(
      (await page.messages()).some((m) => m.type === 'allNodes'),
      'Enter on an item runs it',
    );
    // A click elsewhere closes it.
    await page.locator('#more-actions').click();
    await menu.waitFor();
    await page.locator('h1').first().click();
    await menu.waitFor({ state: 'hidden' });
    await noViolations(page);
  });
});
