// `CANTON_LENS_BENCH_ONLY=browse npm run bench`: the Active Contracts table over
// 100,000 contracts and Follow Updates at 1,000 updates/s, each against a floor measured
// in the same run. The pages run in Chromium, served as a webview serves them, and get their rows
// as the extension sends them (postMessage); the host side runs in this process.
import { chromium } from 'playwright-core';
import { Agent, request } from 'undici';
import { readActiveContracts } from '../../src/browse/acsPaging';
import { AcsBatchEncoder } from '../../src/browse/acsBatchEncoder';
import { browseEventFormat, followedUpdateFormat } from '../../src/browse/browseForms';
import { updatesListFetch, updatesPageFetch, updatesStreamFetch } from '../../src/browse/updatesFollower';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { acsPageHtml, updatesPageHtml } from '../../src/panels/html/browseHtml';
import { CHROMIUM, CHROMIUM_FLAGS } from '../vscode/vscodeServer';
import { followIntoPage, longestTask, pageOptions, postToPage, servePages, watchLongTasks } from './browsePages';

export interface BenchRow {
  area: string;
  measure: string;
  value: number;
  unit: string;
  baseline?: number;
  target?: string;
  ok?: boolean;
}

const mb = (bytes: number) => bytes / (1024 * 1024);
const gc = () => (globalThis as { gc?: () => void }).gc?.();

export async function browseBench(add: (r: BenchRow) => void): Promise<void> {
  const contracts = Number(process.env.CANTON_LENS_BENCH_ACS ?? 100_000);
  const updatesSeconds = Number(process.env.CANTON_LENS_BENCH_TAIL_SECONDS ?? 60);
  const node = await FakeLedgerNode.start({
    version: '3.5',
    requestLog: 0,
    bigTransactionEvents: 10,
    generated: { contracts, maxPageSize: 1000, listLimit: 1000 },
  });
  const token = node.mintToken('reader');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 60_000 });
  const served = await servePages({
    '/acs': (o) => acsPageHtml(pageOptions(o, 'acs.js')),
    '/tail': (o) => updatesPageHtml({ ...pageOptions(o, 'updates.js'), start: '' }),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const eventFormat = browseEventFormat({});
    // Floor: raw undici + JSON.parse of the same pages.
    const agent = new Agent({ keepAliveTimeout: 30_000 });
    const floor = async () => {
      const t0 = performance.now();
      let token2: string | undefined;
      let n = 0;
      do {
        const res = await request(`${node.url}/v2/state/active-contracts-page`, {
          dispatcher: agent,
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ eventFormat, maxPageSize: 1000, pageToken: token2 }),
        });
        const body = JSON.parse(await res.body.text()) as { activeContracts: unknown[]; nextPageToken?: string };
        n += body.activeContracts.length;
        token2 = body.nextPageToken;
      } while (token2);
      return { ms: performance.now() - t0, n };
    };
    await floor();
    const base = await floor();

    // The host side alone: the client, the paging, the rows.
    const h0 = performance.now();
    let hn = 0;
    const hostEncoder = new AcsBatchEncoder();
    for await (const p of readActiveContracts(client, { eventFormat, paged: true, pageSize: 1000 })) hn += hostEncoder.encode(p.events).ids.length;
    const hostMs = performance.now() - h0;
    add({
      area: 'browse',
      measure: `ACS ${hn.toLocaleString('en-US')} contracts: throughput of the host side alone (client + paging + rows; baseline: raw undici + JSON.parse)`,
      value: hn / (hostMs / 1000),
      unit: 'contracts/s',
      baseline: base.n / (base.ms / 1000),
      target: '≥ 0.5× the floor',
      ok: hn / hostMs >= 0.5 * (base.n / base.ms),
    });
    // The same over the websocket channel: one request, the whole set.
    const w0 = performance.now();
    let wn = 0;
    const upgradesBefore = node.channels.upgrades.length;
    const wsEncoder = new AcsBatchEncoder();
    for await (const p of readActiveContracts(client, { eventFormat, paged: false, websocket: true, pageSize: 1000 }))
      wn += wsEncoder.encode(p.events).ids.length;
    const wsMs = performance.now() - w0;
    add({
      area: 'browse',
      measure: `ACS ${wn.toLocaleString('en-US')} contracts over the websocket channel (${node.channels.upgrades.length - upgradesBefore} connection, no pages; baseline: raw undici + JSON.parse of the HTTP pages)`,
      value: wn / (wsMs / 1000),
      unit: 'contracts/s',
      baseline: base.n / (base.ms / 1000),
      target: '≥ 0.5× the floor, every contract',
      ok: wn === hn && wn / wsMs >= 0.5 * (base.n / base.ms),
    });
    // Ours: the client, the paging, the rows, and the page showing them.
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${served.origin}/acs`);
    // Playwright's first wait puts its own script into the page (tens of ms): not in what is measured.
    await page.waitForFunction(() => true);
    await watchLongTasks(page);
    gc();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const t0 = performance.now();
    let firstPageAt = 0;
    let firstRowsShown = 0;
    let n = 0;
    let sent = Promise.resolve();
    // As the panel does: one dictionary for the read, a batch of columns per page.
    const encoder = new AcsBatchEncoder();
    for await (const p of readActiveContracts(client, { eventFormat, paged: true, pageSize: 1000 })) {
      const batch = encoder.encode(p.events);
      n += batch.ids.length;
      if (!firstPageAt) {
        firstPageAt = performance.now();
        await postToPage(page, { type: 'rows', batch, activeAtOffset: p.activeAtOffset });
        await page.waitForFunction(() => document.querySelectorAll('.vt-body tr:not([hidden])').length > 0, undefined, { polling: 'raf' });
        firstRowsShown = performance.now();
      } else {
        // As the extension does: post and go on reading, with at most two pages on their way to the
        // page (the next read once the older one was taken).
        const previous = sent;
        sent = sent.then(() => postToPage(page, { type: 'rows', batch, activeAtOffset: p.activeAtOffset }));
        await previous;
      }
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    await sent;
    await postToPage(page, { type: 'done' });
    await page.waitForFunction((total) => (document.getElementById('status')?.textContent ?? '').includes(total), n.toLocaleString('en-US'));
    const ours = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 500));
    const loadTask = await longestTask(page);
    add({
      area: 'browse',
      measure: `ACS ${n.toLocaleString('en-US')} contracts: first rows shown after the first page arrived`,
      value: firstRowsShown - firstPageAt,
      unit: 'ms',
      target: '≤ 500 ms',
      ok: firstRowsShown - firstPageAt <= 500,
    });
    add({
      area: 'browse',
      measure: `ACS ${n.toLocaleString('en-US')} contracts: throughput, paging + rows + page (baseline: raw undici + JSON.parse, ${base.n.toLocaleString('en-US')})`,
      value: n / (ours / 1000),
      unit: 'contracts/s',
      baseline: base.n / (base.ms / 1000),
      target: '≥ 0.5× the floor',
      ok: n / ours >= 0.5 * (base.n / base.ms),
    });
    add({
      area: 'browse',
      measure: 'ACS: RSS growth of the reading process (host side) while reading',
      value: mb(rssPeak - rssBefore),
      unit: 'MB',
      target: '≤ 150 MB',
      ok: mb(rssPeak - rssBefore) <= 150,
    });
    add({ area: 'browse', measure: 'ACS: longest page task while rows arrived', value: loadTask, unit: 'ms', target: 'informational' });
    // Scrolling the whole table, then searching and sorting it.
    await watchLongTasks(page);
    await page.evaluate(async () => {
      const s = document.querySelector('.vt-scroller')!;
      for (let i = 0; i < 200; i++) {
        s.scrollTop = (s.scrollHeight * i) / 200;
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      }
    });
    const scrollTask = await longestTask(page);
    add({
      area: 'browse',
      measure: `ACS table of ${n.toLocaleString('en-US')} rows: longest task while scrolling top to bottom (200 frames)`,
      value: scrollTask,
      unit: 'ms',
      target: 'no task > 50 ms',
      ok: scrollTask <= 50,
    });
    await watchLongTasks(page);
    const searchMs = await page.evaluate(async () => {
      const input = document.getElementById('search') as HTMLInputElement;
      const t = performance.now();
      input.value = 'usd';
      input.dispatchEvent(new Event('input'));
      await new Promise((r) => setTimeout(r, 400));
      return performance.now() - t - 150;
    });
    const searchTask = await longestTask(page);
    add({
      area: 'browse',
      measure: `ACS table: search over ${n.toLocaleString('en-US')} arguments (longest task)`,
      value: searchTask,
      unit: 'ms',
      target: 'informational (one pass; < 50 ms wanted)',
      ok: undefined,
    });
    void searchMs;
    await page.close();
    add({ area: 'browse', measure: 'ACS: baseline time to read all pages raw', value: base.ms, unit: 'ms' });

    // Follow Updates at 1,000 updates/s.
    for (const transport of ['websocket', 'updates', 'updatesPage'] as const) {
      const seconds = transport === 'updatesPage' ? Math.min(10, updatesSeconds) : updatesSeconds;
      const upgrades0 = node.channels.upgrades.length;
      const tail = await browser.newPage();
      await tail.goto(`${served.origin}/tail`);
      await watchLongTasks(tail);
      const got: number[] = [];
      const lags: number[] = [];
      let requests = 0;
      const format = followedUpdateFormat({});
      const list = updatesListFetch(client, format, { limit: 200, idleMs: 1000 });
      const inner =
        transport === 'websocket'
          ? updatesStreamFetch(client, format, { idleMs: 1000, fallback: list })
          : transport === 'updates'
            ? list
            : updatesPageFetch(client, format, { pageSize: 500 });
      const fetch = Object.assign(
        (b: number, s: AbortSignal) => {
          requests++;
          return inner(b, s);
        },
        { limit: (inner as { limit?: number }).limit },
      );
      gc();
      const rss0 = process.memoryUsage().rss;
      let rssMax = rss0;
      const { start, end, cursor } = await followIntoPage({
        node,
        page: tail,
        fetch,
        seconds,
        onRows: (rows) => {
          const now = Date.now();
          for (const r of rows) {
            got.push(r.offset);
            lags.push(now - Date.parse(r.recordTime));
          }
          rssMax = Math.max(rssMax, process.memoryUsage().rss);
        },
      });
      const expected = node.generated.offsetsBetween(start, end);
      const seen = new Set(got);
      const lost = expected.filter((o) => !seen.has(o)).length;
      const duplicated = got.length - seen.size + cursor.duplicates;
      const task = await longestTask(tail);
      const heap = await tail.evaluate(() => ({
        shown: (window as unknown as { cantonUpdates: { shown: number; dropped: number } }).cantonUpdates.shown,
        dropped: (window as unknown as { cantonUpdates: { dropped: number } }).cantonUpdates.dropped,
        rows: document.querySelectorAll('.vt-body tr').length,
      }));
      const sorted = [...lags].sort((a, b) => a - b);
      const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
      const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
      // On the channel a request is a connection (the stream stays open).
      if (transport === 'websocket') requests = node.channels.upgrades.length - upgrades0;
      const label =
        transport === 'websocket'
          ? '/v2/updates websocket channel (one stream)'
          : transport === 'updates'
            ? '/v2/updates (held open, limit up to 200 following the rate)'
            : 'get-updates-page (polled every 100 ms when idle)';
      add({
        area: 'followUpdates',
        measure: `${label}, 1,000/s for ${seconds} s: updates lost / duplicated (against the fake node's ${expected.length.toLocaleString('en-US')} offsets)`,
        value: lost + duplicated,
        unit: 'updates',
        target: '0',
        ok: lost + duplicated === 0,
      });
      add({
        area: 'followUpdates',
        measure: `${label}: longest page task (Chromium long-task observer)`,
        value: task,
        unit: 'ms',
        target: 'no task > 50 ms',
        ok: task <= 50,
      });
      add({ area: 'followUpdates', measure: `${label}: commit-to-shown latency p50 / p95`, value: p50, unit: 'ms', baseline: p95 });
      add({ area: 'followUpdates', measure: `${label}: requests per second`, value: requests / seconds, unit: 'req/s' });
      add({
        area: 'followUpdates',
        measure: `${label}: rows kept in the page / dropped older (bounded)`,
        value: heap.shown,
        unit: 'rows',
        baseline: heap.dropped,
        target: '≤ 22,000 kept',
        ok: heap.shown <= 22_000 && heap.rows < 200,
      });
      add({ area: 'followUpdates', measure: `${label}: RSS growth of the following process`, value: mb(rssMax - rss0), unit: 'MB', target: 'bounded' });
      await tail.close();
    }
  } finally {
    await browser.close();
    served.close();
    await client.close();
    await node.close();
  }
}
