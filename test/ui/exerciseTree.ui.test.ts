/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The exercise tree of ledger effects and the event table, rendered by the real renderers and
// page script in Debian's Chromium under the panel's CSP: fold and unfold, search, a row opened
// to its whole event (the host's answer), a lineage highlight, and a refresh that keeps what the
// person did (filters, search, folded nodes, opened rows, scroll).
// Not a workbench test: pages are served to a bare Chromium (pageFixture.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildDemoLedger } from '../../fake-ledger/src/demoLedgerData';
import { LedgerQueries } from '../../fake-ledger/src/ledgerQueries';
import { exerciseTree } from '../../src/lookups/exerciseTree';
import { eventDetailHtml } from '../../src/panels/html/eventDetailHtml';
import { eventRows, treeRowsFrom } from '../../src/panels/html/eventRowsData';
import { transactionBody } from '../../src/panels/html/transactionHtml';
import { EVENT_ROWS_CHUNK, FIRST_EVENT_ROWS } from '../../src/protocol/transactionRows';
import { demoTransactionLookup } from '../support/hostileLookups';
import { usePanelPages, type PanelPage, type RowsAnswerer } from './pageFixture';
import { SCREENSHOT_DIR } from './workbench';

describe('UI: the exercise tree and event details in Chromium', function () {
  this.timeout(120_000);
  const pages = usePanelPages({ viewport: { width: 1200, height: 800 } });
  const ledger = buildDemoLedger({ bigTransactionEvents: 30, bigTreeNodes: 2_000 });
  const queries = new LedgerQueries(ledger);
  const ledger10k = buildDemoLedger({ bigTransactionEvents: 3, bigTreeNodes: 10_000 });
  const big10k = demoTransactionLookup(new LedgerQueries(ledger10k), ledger10k.samples.bigTreeUpdate, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
  const tree10k = exerciseTree(big10k.transaction.events);
  const lookup = (updateId: string, shape?: 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS') =>
    demoTransactionLookup(queries, updateId, shape);
  const settlement = lookup(ledger.samples.settlementUpdate, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
  const settlementTree = exerciseTree(settlement.transaction.events);

  /** A transaction panel rendered with its navigation (the page keeps what is done on it for that view). */
  const publish = (name: string, body: ReturnType<typeof transactionBody>, target: object, eventRows?: RowsAnswerer) =>
    pages.publish(name, body, { title: 'Transaction', nodeName: 'demo', state: { history: [target], index: 0 }, ...(eventRows ? { eventRows } : {}) });
  /** The tree's rows as LookupPanel answers them. */
  const treeAnswer =
    (tree: ReturnType<typeof exerciseTree>): RowsAnswerer =>
    (from, source) =>
      source === 'tree' ? treeRowsFrom(tree, from) : undefined;
  /** The status of a tree with every row in. */
  const allIn = (page: PanelPage) => page.waitForFunction(() => document.getElementById('filter-status')!.textContent === '');
  /** A page with a stand-in for the webview API whose state survives a reload, as VS Code's does. */
  const open = (name: string) => pages.open(name);
  /** Answers the page's detail requests as the extension does (LookupPanel: the answer carries the request's id). */
  const answerDetails = async (page: PanelPage, tree = settlementTree) => {
    for (const m of await page.messages()) {
      if (m.type !== 'eventDetail' || typeof m.index !== 'number' || m.requestId === undefined) continue;
      const detail = eventDetailHtml(tree[m.index].node, tree, m.index).toString();
      await pages.post(page, { type: 'answer', requestId: m.requestId, html: detail });
    }
    await page.clearMessages();
  };
  const rows = (page: PanelPage) => page.locator('#tree-rows tr[data-index]');

  before(() => {
    const target = (id: string, shape?: string, highlight?: number) => ({ kind: 'update', id, node: 'demo', shape, highlight });
    publish('settlement', transactionBody(settlement, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'), target(settlement.updateId, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'));
    publish(
      'settlement-highlight',
      transactionBody(settlement, 'TRANSACTION_SHAPE_LEDGER_EFFECTS', 5),
      target(settlement.updateId, 'TRANSACTION_SHAPE_LEDGER_EFFECTS', 5),
    );
    const big = lookup(ledger.samples.bigTreeUpdate, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    publish(
      'big-tree',
      transactionBody(big, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
      target(big.updateId, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
      treeAnswer(exerciseTree(big.transaction.events)),
    );
    const effects = 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
    publish('tree-10k-asks', transactionBody(big10k, effects), target(big10k.updateId, effects));
    publish('tree-10k-highlight', transactionBody(big10k, effects, 9_998), target(big10k.updateId, effects, 9_998), treeAnswer(tree10k));
    const delta = lookup(ledger.samples.bigUpdate, 'TRANSACTION_SHAPE_ACS_DELTA');
    publish('events', transactionBody(delta), target(delta.updateId));
  });

  it('shows the call trace nested, folds and unfolds it, and searches with ancestors', async () => {
    const page = await open('settlement');
    assert.equal(await rows(page).count(), 7);
    assert.deepEqual(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('aria-level'))), ['1', '2', '3', '2', '3', '3', '2']);
    const text = await page.locator('#tree-rows').innerText();
    assert.match(text, /Settlement_Execute · consuming/);
    assert.match(text, /Holding_Split \(via Finance\.Holding:Holding\)/);
    await page.locator('[data-twisty="0"]').click();
    assert.equal(await rows(page).count(), 1, 'the root folds its six nodes');
    await page.locator('[data-tree="expandAll"]').click();
    assert.equal(await rows(page).count(), 7);
    await page.locator('#tree-search').fill('holding_split');
    await page.locator('#filter-status', { hasText: '1 of 7 nodes match' }).waitFor();
    assert.equal(await rows(page).count(), 2, 'the match and its root');
    assert.deepEqual(await page.violations(), []);
    await page.close();
  });

  it('opens a node to its whole event, built by the host, and keeps it, the search and the folds across a refresh', async () => {
    const page = await open('settlement');
    await page.locator('[data-twisty="1"]').click();
    await page.locator('[data-detail="tree"][data-index="3"]').click();
    assert.deepEqual(
      (await page.messages()).filter((m) => m.type === 'eventDetail').map((m) => [m.source, m.index]),
      [['tree', 3]],
      'details are asked for when the row is opened',
    );
    await answerDetails(page);
    const detail = page.locator('.detail-row');
    await detail.waitFor();
    assert.match(await detail.innerText(), /Through interface\s+Finance\.Holding:Holding/);
    assert.match(await detail.innerText(), /Choice argument/);
    assert.equal(await page.locator('.detail-row img, .detail-row svg, .detail-row script').count(), 0, 'hostile values stay text');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'exercise-tree.png'), fullPage: false });
    // A refresh renders the page again: what the person did comes back.
    await page.reload();
    await page.ready();
    assert.equal(await rows(page).count(), 6, 'node 1 is still folded');
    assert.deepEqual(
      (await page.messages()).filter((m) => m.type === 'eventDetail').map((m) => [m.source, m.index]),
      [['tree', 3]],
      'the opened row asks again',
    );
    await answerDetails(page);
    await page.locator('.detail-row').waitFor();
    await page.close();
  });

  it("brings a lineage link's node into view, highlighted", async () => {
    const page = await open('settlement-highlight');
    const highlighted = page.locator('tr.highlight');
    await highlighted.waitFor();
    assert.equal(await highlighted.getAttribute('data-node-id'), '5');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'lineage-highlight.png') });
    await page.close();
  });

  it('renders a 2,000-node tree page by page, and folds all of it', async () => {
    const page = await open('big-tree');
    assert.equal(await rows(page).count(), 100, 'the first page (as the event table, a hundred rows: enough for a screen)');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => document.querySelectorAll('#tree-rows tr[data-index]').length >= 600);
    await allIn(page);
    await page.locator('[data-tree="collapseAll"]').click();
    assert.equal(await rows(page).count(), 20, 'twenty jobs');
    await page.close();
  });

  it('paints the first rows of a 10,000-node tree, says it is loading as it searches and folds, and holds every row once all are in', async () => {
    const page = await open('tree-10k-asks');
    const status = page.locator('#filter-status');
    const asked = async () => {
      await page.waitForFunction(() => (window as unknown as { __messages: { type: string }[] }).__messages.some((m) => m.type === 'eventRows'));
      const [m] = (await page.messages()).filter((p) => p.type === 'eventRows');
      await page.clearMessages();
      return m;
    };
    const first = await asked();
    assert.deepEqual([first.source, first.from], ['tree', FIRST_EVENT_ROWS], 'the rows after those the content carried');
    assert.equal(await rows(page).count(), 100, 'the first page');
    assert.equal(await page.locator('#event-count').innerText(), '10,000');
    await status.filter({ hasText: `Loading nodes: ${FIRST_EVENT_ROWS} of 10,000` }).waitFor();
    // Search and Collapse all cover the rows in so far, and say the tree is still loading.
    await page.locator('#tree-search').fill('job_run');
    await status.filter({ hasText: `5 nodes match so far (loading: ${FIRST_EVENT_ROWS} of 10,000)` }).waitFor();
    await page.locator('#tree-search').fill('');
    await status.filter({ hasText: 'Loading nodes' }).waitFor();
    await page.locator('[data-tree="collapseAll"]').click();
    assert.equal(await rows(page).count(), 5, 'the five jobs in so far, folded');
    // Rows of another transaction (another total) are not taken.
    await pages.post(page, {
      type: 'eventRows',
      requestId: first.requestId!,
      source: 'tree',
      rows: { ...treeRowsFrom(tree10k, FIRST_EVENT_ROWS), total: 12_000 },
    });
    // The rest, a chunk at a time: each answer brings the next request.
    await page.reload();
    await page.ready();
    for (let next = await asked(); ; next = await asked()) {
      await pages.post(page, { type: 'eventRows', requestId: next.requestId!, source: 'tree', rows: treeRowsFrom(tree10k, next.from!) });
      if (next.from! + EVENT_ROWS_CHUNK >= 10_000) break;
    }
    await allIn(page);
    // Collapse all (kept across the reload) folds the jobs that came after it too: a hundred rows, rendered as the end comes into view.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => document.querySelectorAll('#tree-rows tr[data-index]').length === 100);
    assert.equal(await page.locator('#tree-rows [aria-expanded="true"]').count(), 0, 'every job folded');
    await page.locator('[data-tree="expandAll"]').click();
    await page.locator('#tree-search').fill('job_run');
    await status.filter({ hasText: '100 of 10,000 nodes match' }).waitFor();
    const last = tree10k.at(-1)!.node.event;
    await page.locator('#tree-search').fill(last.contractId);
    await status.filter({ hasText: '1 of 10,000 nodes match' }).waitFor();
    assert.deepEqual(
      await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-node-id'))),
      ['9900', String(last.nodeId)],
      'the last node and its job',
    );
    assert.deepEqual(await page.violations(), []);
    await page.close();
  });

  it("brings a lineage link's node into view when the chunk that holds it arrives", async () => {
    const page = await open('tree-10k-highlight');
    const highlighted = page.locator('tr.highlight');
    await highlighted.waitFor();
    assert.equal(await highlighted.getAttribute('data-node-id'), '9998');
    await allIn(page);
    await page.close();
  });

  it("keeps the event table's filters and scroll position across a refresh", async () => {
    const page = await open('events');
    await page.locator('#filter-kind').selectOption('created');
    await page.locator('#filter-party').fill('Bob');
    // Both filters applied (each is applied a moment after its input): the created events that name Bob.
    const delta = lookup(ledger.samples.bigUpdate, 'TRANSACTION_SHAPE_ACS_DELTA').transaction.events;
    const bobs = eventRows(delta).filter((r) => r[1] === 'created' && r[5].some((p) => p.toLowerCase().includes('bob'))).length;
    await page.locator('#filter-status', { hasText: `${bobs} of ${delta.length} events match` }).waitFor();
    const before = await page.locator('#filter-status').innerText();
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(400);
    await page.reload();
    await page.ready();
    assert.equal(await page.locator('#filter-kind').inputValue(), 'created');
    assert.equal(await page.locator('#filter-party').inputValue(), 'Bob');
    assert.equal(await page.locator('#filter-status').innerText(), before);
    await page.close();
  });
});
