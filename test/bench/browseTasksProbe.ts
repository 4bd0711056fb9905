// `node out/test/bench/browseTasksProbe.js [acs|updates]`: only the long-task rows of the browse
// bench (the ACS table scrolled and searched; Follow Updates over the websocket channel), each with
// what Chromium's trace says its longest tasks spent their time on. For working on those pages; the
// figures the docs quote come from `CANTON_LENS_BENCH_ONLY=browse`.
import * as os from 'node:os';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readActiveContracts } from '../../src/browse/acsPaging';
import { AcsBatchEncoder } from '../../src/browse/acsBatchEncoder';
import { browseEventFormat, followedUpdateFormat } from '../../src/browse/browseForms';
import { updatesListFetch, updatesStreamFetch } from '../../src/browse/updatesFollower';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { acsPageHtml, updatesPageHtml } from '../../src/panels/html/browseHtml';
import { CHROMIUM, CHROMIUM_FLAGS } from '../vscode/vscodeServer';
import { followIntoPage, longestTask, pageOptions, postToPage, servePages, watchLongTasks } from './browsePages';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread time: what the task ran, not counting the time the machine gave other processes. */
  tdur?: number;
  tid: number;
  pid: number;
  args?: { data?: { frame?: string } };
}

/** The page's tasks over 40 ms, each with the time its named children took. */
async function traced(browser: Browser, page: Page, run: () => Promise<void>): Promise<string[]> {
  if (process.env.PROBE_PROFILE) return profiled(page, run);
  if (process.env.PROBE_PLAIN) return run().then(() => []);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8'] });
  await run();
  const buffer = await browser.stopTracing();
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && (e as unknown as { args: { name: string } }).args.name === 'CrRendererMain');
  const onMain = events.filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X');
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 40_000).sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
  // The machine's load stretches a task's wall time; its thread time is what the page asked for.
  const cpu = onMain
    .filter((e) => e.name === 'RunTask' && (e.tdur ?? 0) > 1000)
    .map((e) => (e.tdur ?? 0) / 1000)
    .sort((a, b) => a - b);
  const at = (q: number) => (cpu[Math.min(cpu.length - 1, Math.floor(cpu.length * q))] ?? 0).toFixed(1);
  const summary = `tasks over 1 ms of thread time: ${cpu.length}, median ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)} ms`;
  const wanted = [
    'FunctionCall',
    'TimerFire',
    'FireAnimationFrame',
    'EventDispatch',
    'UpdateLayoutTree',
    'Layout',
    'Paint',
    'PrePaint',
    'Layerize',
    'MajorGC',
    'MinorGC',
    'V8.GC_SCAVENGER',
    'V8.GC_MARK_COMPACTOR',
    'ParseHTML',
    'v8.run',
    'HitTest',
    'UpdateLayer',
    'CompositeLayers',
  ];
  // Where the page's thread time went over the whole run, by kind of work.
  const runTasks = onMain.filter((e) => e.name === 'RunTask');
  const total = runTasks.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;
  const byKind = new Map<string, { ms: number; n: number }>();
  for (const e of onMain) {
    if (!wanted.includes(e.name)) continue;
    const k = byKind.get(e.name) ?? { ms: 0, n: 0 };
    k.ms += (e.tdur ?? e.dur ?? 0) / 1000;
    k.n++;
    byKind.set(e.name, k);
  }
  const kinds = [...byKind].sort((a, b) => b[1].ms - a[1].ms).map(([n, k]) => `${n} ${k.ms.toFixed(0)} ms/${k.n}`);
  return [
    summary,
    `all ${runTasks.length} tasks: ${total.toFixed(0)} ms of thread time; ${kinds.join(', ')}`,
    ...tasks.slice(0, Number(process.env.PROBE_TASKS ?? 4)).map((t) => {
      const end = t.ts + (t.dur ?? 0);
      const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts < end);
      const by = new Map<string, number>();
      for (const e of inside) if (process.env.PROBE_ALL || wanted.includes(e.name)) by.set(e.name, (by.get(e.name) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
      const styles = inside.filter((e) => e.name === 'UpdateLayoutTree').map((e) => JSON.stringify(e.args));
      if (process.env.PROBE_STYLES) console.log(styles.join('\n'));
      const parts = [...by].sort((a, b) => b[1] - a[1]).map(([n, ms]) => `${n} ${ms.toFixed(1)}`);
      // Where the task waited: its parts whose wall time most exceeds their thread time.
      if (process.env.PROBE_WAITS) {
        const waits = inside
          .filter((e) => e.tdur !== undefined)
          .map((e) => [e.name, ((e.dur ?? 0) - (e.tdur ?? 0)) / 1000, (e.dur ?? 0) / 1000] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6);
        parts.push(`| waited in: ${waits.map(([n, w, d]) => `${n} ${w.toFixed(1)}/${d.toFixed(1)}`).join(', ')}`);
      }
      return `task ${((t.dur ?? 0) / 1000).toFixed(1)} ms (thread ${((t.tdur ?? 0) / 1000).toFixed(1)}): ${parts.join(', ')}`;
    }),
  ];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The page's script time by function (self time, V8's sampling profiler), for PROBE_PROFILE. */
async function profiled(page: Page, run: () => Promise<void>): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await run();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.PROBE_PROFILE))
    .map(([n, ms]) => `${ms.toFixed(0)} ms ${n}`);
}

/** The ACS page from the first page's message to its first rows shown, traced. */
async function probeAcsFirst(browser: Browser, client: LedgerClient, origin: string): Promise<void> {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${origin}/acs`);
  // Playwright's first wait puts its own script into the page (tens of ms): not in the time measured.
  await page.waitForFunction(() => true);
  const encoder = new AcsBatchEncoder();
  for await (const p of readActiveContracts(client, { eventFormat: browseEventFormat({}), paged: true, pageSize: 1000 })) {
    const batch = encoder.encode(p.events);
    let ms = 0;
    const lines = await traced(browser, page, async () => {
      const t0 = performance.now();
      await postToPage(page, { type: 'rows', batch, activeAtOffset: p.activeAtOffset });
      await page.waitForFunction(() => document.querySelectorAll('.vt-body tr:not([hidden])').length > 0, undefined, { polling: 'raf' });
      ms = performance.now() - t0;
    });
    console.log(
      `ACS first rows shown ${ms.toFixed(0)} ms after the first page (${batch.ids.length} rows, ${JSON.stringify(batch).length} chars; load ${os.loadavg()[0].toFixed(1)})`,
    );
    for (const line of lines) console.log(`  ${line}`);
    break;
  }
  await page.close();
}

async function probeAcs(browser: Browser, client: LedgerClient, origin: string): Promise<void> {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${origin}/acs`);
  const encoder = new AcsBatchEncoder();
  let n = 0;
  let sent = Promise.resolve();
  for await (const p of readActiveContracts(client, { eventFormat: browseEventFormat({}), paged: true, pageSize: 1000 })) {
    const batch = encoder.encode(p.events);
    n += batch.ids.length;
    sent = sent.then(() => postToPage(page, { type: 'rows', batch, activeAtOffset: p.activeAtOffset }));
  }
  await sent;
  await postToPage(page, { type: 'done' });
  await page.waitForFunction((total) => (document.getElementById('status')?.textContent ?? '').includes(total), n.toLocaleString('en-US'));
  await new Promise((r) => setTimeout(r, 500));
  // The body's cells under the header's columns.
  const apart = await page.evaluate(() => {
    const th = [...document.querySelectorAll('#table .vt-head th')].map((e) => e.getBoundingClientRect());
    const td = [...document.querySelector('#table tbody tr[data-index="0"]')!.children].map((e) => e.getBoundingClientRect());
    return Math.max(...th.map((r, i) => Math.abs(r.left - td[i].left) + Math.abs(r.width - td[i].width)));
  });
  console.log(`header and rows apart by at most ${apart.toFixed(2)} px`);
  if (process.env.PROBE_SHOT) await page.screenshot({ path: process.env.PROBE_SHOT });
  await watchLongTasks(page);
  const scroll = await traced(browser, page, () =>
    page.evaluate(async () => {
      const s = document.querySelector('.vt-scroller')!;
      for (let i = 0; i < 200; i++) {
        s.scrollTop = (s.scrollHeight * i) / 200;
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      }
    }),
  );
  console.log(`ACS ${n} rows, scroll: longest task ${(await longestTask(page)).toFixed(0)} ms (load ${os.loadavg()[0].toFixed(1)})`);
  for (const line of scroll) console.log(`  ${line}`);
  await watchLongTasks(page);
  const search = await traced(browser, page, async () => {
    await page.evaluate(async () => {
      const input = document.getElementById('search') as HTMLInputElement;
      input.value = 'usd';
      input.dispatchEvent(new Event('input'));
      await new Promise((r) => setTimeout(r, 400));
    });
    await page.waitForFunction(() => /match/.test(document.getElementById('status')?.textContent ?? '') && !document.querySelector('#status .spinner'));
  });
  const status = await page.evaluate(() => document.getElementById('status')?.textContent);
  console.log(`ACS search: longest task ${(await longestTask(page)).toFixed(0)} ms (load ${os.loadavg()[0].toFixed(1)}): ${status}`);
  for (const line of search) console.log(`  ${line}`);
  await page.close();
}

async function probeUpdates(browser: Browser, node: FakeLedgerNode, client: LedgerClient, origin: string, seconds: number): Promise<void> {
  const tail = await browser.newPage();
  await tail.goto(`${origin}/tail`);
  await watchLongTasks(tail);
  const format = followedUpdateFormat({});
  const list = updatesListFetch(client, format, { limit: 200, idleMs: 1000 });
  // PROBE_TRANSPORT=updates: the held-open /v2/updates list instead of the websocket.
  const fetch = process.env.PROBE_TRANSPORT === 'updates' ? list : updatesStreamFetch(client, format, { idleMs: 1000, fallback: list });
  let got = 0;
  const sizes: number[] = [];
  const lines = await traced(browser, tail, async () => {
    await followIntoPage({
      node,
      page: tail,
      fetch,
      seconds,
      onRows: (rows) => {
        got += rows.length;
        sizes.push(rows.length);
      },
    });
  });
  console.log(
    `Follow Updates (${process.env.PROBE_TRANSPORT === 'updates' ? '/v2/updates' : 'websocket'}) ${got} updates in ${seconds} s: longest task ${(await longestTask(tail)).toFixed(0)} ms (load ${os.loadavg()[0].toFixed(1)})`,
  );
  sizes.sort((a, b) => a - b);
  console.log(`  ${sizes.length} batches, median ${sizes[sizes.length >> 1]}, p95 ${sizes[Math.floor(sizes.length * 0.95)]}, max ${sizes.at(-1)} rows`);
  for (const line of lines) console.log(`  ${line}`);
  await tail.close();
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'all';
  const node = await FakeLedgerNode.start({
    version: '3.5',
    requestLog: 0,
    bigTransactionEvents: 10,
    generated: { contracts: Number(process.env.CANTON_LENS_BENCH_ACS ?? 100_000), maxPageSize: 1000, listLimit: 1000 },
  });
  const token = node.mintToken('reader');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 60_000 });
  const served = await servePages({
    '/acs': (o) => acsPageHtml(pageOptions(o, 'acs.js')),
    '/tail': (o) => updatesPageHtml({ ...pageOptions(o, 'updates.js'), start: '' }),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    if (which === 'first') await probeAcsFirst(browser, client, served.origin);
    else if (which !== 'updates') await probeAcs(browser, client, served.origin);
    if (which !== 'acs' && which !== 'first')
      await probeUpdates(browser, node, client, served.origin, Number(process.env.CANTON_LENS_BENCH_TAIL_SECONDS ?? 30));
  } finally {
    await browser.close();
    served.close();
    await client.close();
    await node.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
