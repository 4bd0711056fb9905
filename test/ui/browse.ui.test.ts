/// <reference lib="dom" />
// Browsing as a person does it, in the packaged extension in the VS Code Server driven
// through Chromium, against a fake 3.5 node with a generated ledger: the Active Contracts table
// (search narrows, sort by time flips, a row opens the contract panel, hostile template names and
// arguments stay text) and Follow Updates (rows as the node commits, Pause stops them,
// Resume goes on without a gap, a restart of the node resumes without gap or duplicate). What the
// pages show is checked against what the fake node holds.
import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { AcsBatchEncoder } from '../../src/browse/acsBatchEncoder';
import { AcsRows } from '../../src/browse/acsTable';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { expectedAcs, expectedTailOffsets } from '../support/browseExpectations';
import { useWorkbench } from './uiFixture';

const num = (n: number) => n.toLocaleString('en-US');
const parseNum = (s: string) => Number(s.replace(/,/g, ''));
/** The rows as the page holds them, to ask what its search shows. */
function pageRows(events: Parameters<AcsBatchEncoder['encode']>[0]): AcsRows {
  const rows = new AcsRows();
  rows.append(new AcsBatchEncoder().encode(events));
  return rows;
}

describe('UI: browsing the ledger (Active Contracts, Follow Updates)', function () {
  this.timeout(240_000);
  const dialogs: string[] = [];
  // A generated ledger of 3,000 contracts, served in pages of at most 500, that commits new updates
  // when a test sets its rate; alice's token; any dialog a hostile value opened is recorded.
  const ui = useWorkbench({
    nodes: { browse: { version: '3.5', bigTransactionEvents: 10, generated: { contracts: 3000, maxPageSize: 500 } } },
    parties: (node) => [node.ledger.parties.Alice],
    tokens: { browse: 'alice' },
    // A file to open over the table, hiding its tab.
    files: () => ({ 'notes.txt': 'Open over the table.\n' }),
    ready: async ({ wb }) => {
      // A hostile value that ran as script would open a dialog (alert) somewhere in the page.
      wb.page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
    },
  });
  /** The node; the restart test replaces it. */
  const node = () => ui.nodes.browse;
  const alice = () => node().ledger.parties.Alice;

  describe('the Active Contracts table', () => {
    let table: FrameLocator;
    let expected: ReturnType<typeof expectedAcs>;
    const status = () => table.locator('#status');
    const bodyRows = () => table.locator('#table tbody tr[data-index]:not([hidden])');
    const cellTitles = (column: number) => bodyRows().evaluateAll((trs, c) => trs.map((tr) => (tr.children[c] as HTMLElement).title), column);

    before(async () => {
      await ui.wb.runCommand('Canton: Show Active Contracts');
      // The browse pages have no <main>: their status line is in the header.
      table = await ui.wb.webviewShowing(/active at offset/, 60_000, 'body');
      await status()
        .filter({ hasText: /^[\d,]+ contracts · active at offset [\d,]+$/ })
        .waitFor({ timeout: 60_000 });
      const [count, activeAt] = (await status().innerText()).match(/[\d,]+/g)!.map(parseNum);
      expected = expectedAcs(node(), [alice()], activeAt);
      assert.equal(count, expected.ids.length, 'every contract Alice sees at that offset');
      assert.ok(expected.ids.length > 300, String(expected.ids.length));
    });

    it('search narrows the rows to the contracts whose argument matches', async () => {
      const sample = expected.events.find((e) => /^Cash-\d{3,}$/.test(String((e.createArgument as { id?: string }).id)))!;
      const query = String((sample.createArgument as { id: string }).id).toLowerCase();
      const rows = pageRows(expected.events);
      const want = rows.matching(query).map((r) => rows.contractId(r));
      assert.ok(want.length >= 1 && want.length < 20, String(want.length));
      await table.locator('#search').fill(query);
      await status()
        .filter({ hasText: `${num(want.length)} of ${num(expected.ids.length)} contracts match` })
        .waitFor();
      assert.equal(await bodyRows().count(), want.length);
      assert.deepEqual((await cellTitles(0)).sort(), want.map((id) => `Open contract ${id}`).sort());
      await table.locator('#search').fill('');
      await status()
        .filter({ hasText: /^[\d,]+ contracts · / })
        .waitFor();
    });

    it('sorting by creation time puts the oldest, then the newest first', async () => {
      const times = expected.events.map((e) => String(e.createdAt)).sort();
      await table.locator('#sort').selectOption('asc');
      await table
        .locator('#table tbody tr[data-index="0"] td:nth-child(3)')
        .and(table.locator(`[title="${times[0]}"]`))
        .waitFor();
      const oldestFirst = await cellTitles(2);
      assert.deepEqual(oldestFirst, times.slice(0, oldestFirst.length));
      await table.locator('#sort').selectOption('desc');
      await table
        .locator('#table tbody tr[data-index="0"] td:nth-child(3)')
        .and(table.locator(`[title="${times.at(-1)}"]`))
        .waitFor();
      const newestFirst = await cellTitles(2);
      assert.deepEqual(newestFirst, times.slice().reverse().slice(0, newestFirst.length));
      assert.notEqual(oldestFirst[0], newestFirst[0]);
      await table.locator('#sort').selectOption('');
    });

    it('hostile template names and arguments show as text', async () => {
      await table.locator('#search').fill('onload=alert');
      const rows = pageRows(expected.events);
      const want = rows.matching('onload=alert');
      assert.ok(
        want.some((r) => rows.templateId(r).includes('Entity"><svg onload=alert(1)>')),
        'a hostile template among them',
      );
      await status()
        .filter({ hasText: `${num(want.length)} of ${num(expected.ids.length)} contracts match` })
        .waitFor();
      const text = await table.locator('#table').innerText();
      assert.ok(text.includes('Hostile.<script>alert(1)</script>:Entity"><svg onload=alert(1)>'), 'the template name, as written');
      assert.equal(await table.locator('#table img, #table svg, #table script, #table iframe').count(), 0, 'no element made of ledger data');
      assert.deepEqual(dialogs, []);
      await table.locator('#search').fill('');
      await status()
        .filter({ hasText: /^[\d,]+ contracts · / })
        .waitFor();
    });

    it('keeps its rows, search, sort and place while its tab is hidden and shown again', async () => {
      const rows = pageRows(expected.events);
      const want = rows.matching('usd').length;
      assert.ok(want > 100 && want < expected.ids.length, String(want));
      await table.locator('#search').fill('usd');
      const matching = status().filter({ hasText: `${num(want)} of ${num(expected.ids.length)} contracts match` });
      await matching.waitFor();
      await table.locator('#sort').selectOption('desc');
      await table.locator('.vt-scroller').evaluate((s) => (s.scrollTop = 50 * 22));
      await table.locator('#table tbody tr[data-index="50"]').waitFor();
      // Another editor in the same group hides the table; its tab brings it back.
      await ui.wb.openFile('notes.txt');
      await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Active Contracts on' }).first().click();
      table = await ui.wb.webviewShowing(/contracts match/, 30_000, 'body');
      await matching.waitFor();
      assert.equal(await table.locator('#search').inputValue(), 'usd');
      assert.equal(await table.locator('#sort').inputValue(), 'desc');
      assert.equal(await table.locator('.vt-scroller').evaluate((s) => s.scrollTop), 50 * 22);
      await table.locator('#table tbody tr[data-index="50"]').waitFor();
      await ui.wb.screenshot('active-contracts-table.png');
      await table.locator('#sort').selectOption('');
      await table.locator('#search').fill('');
      await status()
        .filter({ hasText: /^[\d,]+ contracts · / })
        .waitFor();
      await table.locator('.vt-scroller').evaluate((s) => (s.scrollTop = 0));
    });

    it('a click on a row opens its contract panel', async () => {
      const first = (await cellTitles(0))[0].replace('Open contract ', '');
      const event = expected.events.find((e) => e.contractId === first)!;
      await table.locator('#table tbody tr[data-index="0"] td').first().click();
      // The panel names the contract by its shortened id.
      const contract = await ui.wb.webviewShowing(new RegExp(`Contract ${first.slice(0, 10)}…${first.slice(-6)}`));
      const text = await contract.locator('main').innerText();
      assert.match(text, /Active/);
      assert.ok(text.includes(String(event.templateId).split(':').slice(1).join(':')), 'its template');
    });
    it("a template's table opened from the tree while every contract's table is open shows that template's contracts, and each tab keeps its own", async () => {
      const t = node().generated.template(3);
      await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Active Contracts on' }).first().click();
      await ui.wb.webviewShowing(/^[\d,]+ contracts · active at offset/m, 30_000, 'body');
      await ui.wb.openView('Canton');
      const rowText = new RegExp(`^${t.entity}\\s+\\d`);
      await ui.wb.waitForTreeRow(rowText, ['browse', 'Active Contracts', t.packageName, t.module], 60_000);
      await ui.wb.page
        .locator('.sidebar .monaco-list-row', { has: ui.wb.page.locator('.label-name', { hasText: rowText }) })
        .first()
        .click();
      const one = await ui.wb.webviewShowing(new RegExp(`Active ${t.entity} on browse`), 30_000, 'body');
      const oneStatus = one.locator('#status').filter({ hasText: /^[\d,]+ contracts · active at offset [\d,]+$/ });
      await oneStatus.waitFor({ timeout: 60_000 });
      const [count, activeAt] = (await oneStatus.innerText()).match(/[\d,]+/g)!.map(parseNum);
      const want = expectedAcs(node(), [alice()], activeAt, t.templateId);
      assert.ok(want.ids.length > 0 && want.ids.length < expected.ids.length, String(want.ids.length));
      assert.equal(count, want.ids.length, "the template's contracts, not every contract");
      const templates = await one.locator('#table tbody tr[data-index]:not([hidden])').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).innerText));
      assert.ok(templates.length > 0 && templates.every((x) => x.includes(`${t.module}:${t.entity}`)), templates.slice(0, 5).join(' | '));
      // The other tab still shows every contract.
      await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Active Contracts on' }).first().click();
      const all = await ui.wb.webviewShowing(new RegExp(`^${num(expected.ids.length)} contracts · active at offset`, 'm'), 30_000, 'body');
      assert.ok(all);
    });
  });

  describe('Follow Updates', () => {
    let tail: FrameLocator;
    const status = () => tail.locator('#status');
    const shown = async () => parseNum((await tail.locator('#counts').innerText()).match(/^([\d,]+) updates? shown/)![1]);
    const position = async () => parseNum(((await status().innerText()).match(/offset ([\d,]+)/) ?? ['', '-1'])[1]);
    const until = async (what: string, probe: () => Promise<boolean>, timeout = 30_000) => {
      const deadline = Date.now() + timeout;
      while (!(await probe())) {
        if (Date.now() > deadline)
          throw new Error(
            `Timed out waiting for ${what}; ledger end ${node().generated.ledgerEnd()}; last requests ${JSON.stringify(
              node()
                .requests.slice(-4)
                .map((r) => `${r.method} ${r.path} ${r.body.slice(0, 120)}`),
            )}`,
          );
        await ui.wb.page.waitForTimeout(200);
      }
    };
    let start = 0;

    before(async () => {
      await ui.wb.runCommand('View: Close All Editors');
      start = node().generated.ledgerEnd();
      await ui.wb.runCommand('Canton: Follow Updates');
      tail = await ui.wb.webviewShowing(/Following from offset/, 30_000, 'body');
      await status()
        .filter({ hasText: `Following from offset ${num(start)}` })
        .waitFor();
    });

    it('shows updates as the node commits them; Pause stops them, Resume goes on without a gap', async () => {
      node().generated.setRate(20);
      await until(
        'rows as the node commits',
        async () =>
          (
            await tail
              .locator('#counts')
              .innerText()
              .catch(() => '')
          ).match(/^([\d,]+) updates? shown/) !== null && (await shown()) >= 5,
      );
      await tail.locator('#pause').click();
      await status()
        .filter({ hasText: /^Paused at offset/ })
        .waitFor();
      await tail.locator('#pause', { hasText: 'Resume' }).waitFor();
      const held = { shown: await shown(), position: await position() };
      await until('the node commits past the paused position', async () => node().generated.ledgerEnd() > held.position + 20);
      assert.deepEqual({ shown: await shown(), position: await position() }, held, 'no new rows while paused');
      await tail.locator('#pause').click();
      await until('rows again after Resume', async () => (await shown()) > held.shown + 5);
      const offsets = await tail.locator('body').evaluate(() => (window as unknown as { cantonUpdates: { offsets(): number[] } }).cantonUpdates.offsets());
      const last = offsets.at(-1)!;
      assert.deepEqual(offsets, expectedTailOffsets(node(), [alice()], start, last), 'every update Alice sees, in order, once');
    });

    it('a restart of the node (offsets kept) resumes without a gap or a duplicate', async () => {
      const g = node().generated;
      const port = Number(new URL(node().url).port);
      await node().close();
      await status()
        .filter({ hasText: /^Reconnecting/ })
        .waitFor({ timeout: 30_000 });
      const endAtRestart = g.ledgerEnd();
      ui.nodes.browse = await FakeLedgerNode.start({ version: '3.5', port, bigTransactionEvents: 10, generated: g });
      await until('updates committed after the restart', async () => (await position()) > endAtRestart + 5);
      g.setRate(0);
      const end = g.ledgerEnd();
      await status()
        .filter({ hasText: `Following from offset ${num(end)}` })
        .waitFor({ timeout: 30_000 });
      const offsets = await tail.locator('body').evaluate(() => (window as unknown as { cantonUpdates: { offsets(): number[] } }).cantonUpdates.offsets());
      const want = expectedTailOffsets(node(), [alice()], start, end);
      assert.ok(
        want.some((o) => o > endAtRestart),
        'updates from after the restart',
      );
      assert.deepEqual(offsets, want, 'every update Alice sees, in order, once');
      assert.equal(await shown(), want.length);
      // Newest first: the top row is the last update.
      assert.equal(await tail.locator('#table tbody tr[data-index="0"] td').first().innerText(), num(want.at(-1)!));
      assert.equal(await tail.locator('#table img, #table svg, #table script, #table iframe').count(), 0);
      assert.deepEqual(dialogs, []);
    });
  });
});
