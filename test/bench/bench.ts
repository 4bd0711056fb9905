// `npm run bench`: what Canton Lens costs, each figure beside a baseline measured in the same run.
// Prints a table and writes bench-results.json. Timings vary with the machine: read the ratios.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, request } from 'undici';
import { chromium } from 'playwright-core';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { findLedgerIds } from '../../src/ids/ledgerIds';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { eventFormatFor, transactionQueryFor } from '../../src/ledger/requestForms';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { LookupCache } from '../../src/lookups/lookupCache';
import { lookupContract, type LedgerLookup } from '../../src/lookups/ledgerLookups';
import { contractBody } from '../../src/panels/html/contractHtml';
import type { SafeHtml } from '../../src/panels/html/safeHtml';
import { transactionBody } from '../../src/panels/html/transactionHtml';
import { bigArgument, hostileContract, hostileTransaction } from '../support/hostileLookups';
import { CHROMIUM, CHROMIUM_FLAGS, PROJECT_ROOT } from '../vscode/vscodeServer';
import { soakDemoLedger } from './soak';
import { panelPageAt, startPanelPageServer } from '../support/panelPageServer';
import { transactionRows } from './transactionsBench';
import { rightsRows } from './rightsBench';
import { browseBench } from './browseBench';
import { interfaceBench } from './interfaceBench';
import { damlBench } from './damlBench';
import { packagesBench } from './packagesBench';
import { unitTierTime } from './unitTierBench';
import { commandsBench } from './commandsBench';
import { debugBench } from './debugBench';
import { compareBench } from './compareBench';
import { changesBench } from './changesBench';
import { activationBench } from './activationBench';
import { runTests } from '@vscode/test-electron';
import { ensureVsCodeServer } from '../vscode/vscodeServer';
import type { HostMemoryResult } from './hostMemory/index';
import type { HostAcsMemoryResult } from './hostMemory/acs';

interface Row {
  area: string;
  measure: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target?: string;
  ok?: boolean;
}
const rows: Row[] = [];
const add = (r: Row) => {
  if (r.baseline !== undefined && r.baseline > 0) r.ratio = r.value / r.baseline;
  rows.push(r);
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
async function time(fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return ms(t0);
}

async function requestOverhead(node: FakeLedgerNode): Promise<void> {
  const token = node.mintToken('alice');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const alice = node.ledger.parties.Alice;
  const contractBodyJson = JSON.stringify({ contractId: node.ledger.samples.activeContract, eventFormat: eventFormatFor([alice]) });
  const raw = async (p: string, body?: string) => {
    const res = await request(`${node.url}${p}`, {
      dispatcher: agent,
      method: body ? 'POST' : 'GET',
      body,
      headers: { accept: 'application/json', 'user-agent': 'bench', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    return res.body.json();
  };
  const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    ['getVersion', () => client.getVersion(), () => raw('/v2/version')],
    ['contract lookup', () => client.getEventsByContractId(JSON.parse(contractBodyJson)), () => raw('/v2/events/events-by-contract-id', contractBodyJson)],
    [
      'transaction lookup',
      () => client.lookupTransaction(node.ledger.samples.transferUpdate, transactionQueryFor([alice])),
      () => raw('/v2/updates/transaction-by-id', JSON.stringify({ updateId: node.ledger.samples.transferUpdate, requestingParties: [alice] })),
    ],
  ];
  for (const [name, ours, floor] of cases) {
    for (let i = 0; i < 50; i++) {
      await ours();
      await floor();
    }
    const a: number[] = [];
    const b: number[] = [];
    // Interleaved, so drift affects both alike.
    for (let i = 0; i < 400; i++) {
      a.push(await time(ours));
      b.push(await time(floor));
    }
    add({
      area: 'requests',
      measure: `${name}: client median`,
      value: median(a),
      unit: 'ms',
      baseline: median(b),
      target: '≤ 1.2× raw undici',
      ok: median(a) / median(b) <= 1.2,
    });
    add({ area: 'requests', measure: `${name}: client p95`, value: p95(a), unit: 'ms', baseline: p95(b) });
    add({ area: 'requests', measure: `${name}: client overhead per request (median)`, value: (median(a) - median(b)) * 1000, unit: 'µs' });
  }
  await client.close();
  await agent.close();
}

function scanning(): void {
  scanLog('dense log: 2 ids per 270-byte line', (i) => line(i));
  // A participant log mostly holds lines without ids.
  scanLog('sparse log: 2 ids per 10 lines', (i) => (i % 10 === 0 ? line(i) : quiet(i)));
}

const quiet = (i: number) =>
  `2026-11-21T09:14:${String(i % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}Z DEBUG c.d.c.s.SequencerClientImpl:participant=participant1 tid:${(i * 31).toString(16)} - Processing ${i % 13} events from the sequencer, last counter ${i}, backlog ${i % 7}\n`;
const line = (i: number) =>
  `2026-11-21T09:14:${String(i % 60).padStart(2, '0')}.120Z INFO  c.d.c.p.TransactionProcessor:participant=participant1 - committed update ${`1220${(i * 7919).toString(16).padStart(64, '0')}`.slice(0, 68)} contract 00${'ab'.repeat(32)}ca121220${'cd'.repeat(32)} offset=${i} duration=${i % 97}ms hash e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n`;

function scanLog(what: string, lineAt: (i: number) => string): void {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < 10 * 1024 * 1024; i++) {
    const l = lineAt(i);
    parts.push(l);
    size += l.length;
  }
  const text = parts.join('');
  const plain = /1220[0-9a-f]{64}/g;
  const runs = (fn: () => void) => {
    const t: number[] = [];
    for (let i = 0; i < 7; i++)
      t.push(
        Number(
          (() => {
            const t0 = process.hrtime.bigint();
            fn();
            return process.hrtime.bigint() - t0;
          })(),
        ) / 1e6,
      );
    return median(t);
  };
  let found = 0;
  const ours = runs(() => {
    found = findLedgerIds(text).length;
  });
  const floor = runs(() => {
    plain.lastIndex = 0;
    let n = 0;
    while (plain.exec(text)) n++;
    void n;
  });
  const mb = text.length / (1024 * 1024);
  add({
    area: 'id scanning',
    measure: `findLedgerIds, ${mb.toFixed(0)} MB ${what} (${found.toLocaleString('en-US')} ids)`,
    value: mb / (ours / 1000),
    unit: 'MB/s',
    baseline: mb / (floor / 1000),
    target: 'within 2× of one plain regex pass',
    ok: ours / floor <= 2,
  });
}

async function rendering(): Promise<void> {
  const page = (body: SafeHtml, origin: string) => panelPageAt(origin, body);
  const contract = hostileContract(bigArgument(2 * 1024 * 1024));
  const tx5k = hostileTransaction(5_000);
  const tx50k = hostileTransaction(50_000);
  const small = hostileContract();
  const build = async (fn: () => unknown) => {
    const t: number[] = [];
    for (let i = 0; i < 7; i++) t.push(await time(fn));
    return median(t);
  };
  const baseline = await build(() => contractBody(small));
  const pages: [string, () => SafeHtml, string?][] = [
    ['contract panel, 2 MB create argument', () => contractBody(contract)],
    ['transaction panel, 5,000 events', () => transactionBody(tx5k), '< 100 ms'],
    ['transaction panel, 50,000 events', () => transactionBody(tx50k), 'usable'],
  ];
  for (const [name, fn, target] of pages) {
    const t = await build(fn);
    add({ area: 'rendering', measure: `host: build ${name}`, value: t, unit: 'ms', baseline, target, ok: target === '< 100 ms' ? t < 100 : undefined });
  }
  // First paint in Chromium, served like a webview (page script and style from the same origin).
  const server = await startPanelPageServer();
  const origin = server.origin;
  server.publish('small', page(contractBody(small), origin));
  server.publish('contract', page(contractBody(contract), origin));
  server.publish('tx5k', page(transactionBody(tx5k), origin));
  server.publish('tx50k', page(transactionBody(tx50k), origin));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const paint = async (p: string) => {
    const t: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tab = await browser.newPage();
      await tab.goto(`${origin}/page${p}`);
      // First contentful paint, and for tables the first rows built by the page script.
      const v = await tab.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const done = () => {
              const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.now();
              const rowsReady = document.getElementById('event-data') ? (document.querySelector('#event-rows tr') ? performance.now() : 0) : 0;
              resolve(Math.max(fcp, rowsReady));
            };
            requestAnimationFrame(() => requestAnimationFrame(done));
          }),
      );
      t.push(v);
      await tab.close();
    }
    return median(t);
  };
  const small2 = await paint('/small');
  for (const [p, name, target] of [
    ['/contract', 'contract, 2 MB argument', undefined],
    ['/tx5k', 'transaction, 5,000 events', '< 1 s'],
    ['/tx50k', 'transaction, 50,000 events', 'usable'],
  ] as const) {
    const v = await paint(p);
    add({
      area: 'rendering',
      measure: `Chromium: first paint, ${name}`,
      value: v,
      unit: 'ms',
      baseline: small2,
      target,
      ok: target === '< 1 s' ? v < 1000 : undefined,
    });
  }
  await browser.close();
  await server.close();
}

async function hovers(node: FakeLedgerNode): Promise<void> {
  const token = node.mintToken('alice');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token });
  const ctx = { nodeName: 'bench', parties: [node.ledger.parties.Alice] };
  const cache = new LookupCache<LedgerLookup>(500);
  const ids = Array.from({ length: 200 }, (_, i) =>
    (i % 2 ? node.ledger.samples.activeContract : node.ledger.samples.archivedContract).replace(/..$/, (i % 256).toString(16).padStart(2, '0')),
  );
  const uncached: number[] = [];
  for (const id of ids) uncached.push(await time(() => cache.get(id, async () => ({ value: await lookupContract(client, id, ctx), final: true }))));
  const cached: number[] = [];
  for (const id of ids)
    cached.push(
      await time(() =>
        cache.get(id, async () => {
          throw new Error('not cached');
        }),
      ),
    );
  // The baseline is the same lookup uncached: what the cache saves.
  add({ area: 'hover', measure: 'lookup p50, cached (baseline: uncached)', value: median(cached), unit: 'ms', baseline: median(uncached) });
  add({ area: 'hover', measure: 'lookup p95, cached (baseline: uncached)', value: p95(cached), unit: 'ms', baseline: p95(uncached) });
  node.requests.length = 0;
  const fresh = new LookupCache<LedgerLookup>(500);
  const id = node.ledger.samples.keyedContract;
  await Promise.all(Array.from({ length: 100 }, () => fresh.get(id, async () => ({ value: await lookupContract(client, id, ctx), final: true }))));
  const n = node.requests.filter((r) => r.path === '/v2/events/events-by-contract-id').length;
  add({ area: 'hover', measure: '100 concurrent identical hovers: requests made', value: n, unit: 'requests', target: '1', ok: n === 1 });
  await client.close();
}

async function memory(node: FakeLedgerNode): Promise<void> {
  const token = node.mintToken('reader');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token });
  const cache = new LookupCache<LedgerLookup>(500);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().rss;
  const ctx = { nodeName: 'bench' };
  const batch = node.ledger.transactions.find((t) => t.commandId.startsWith('batch'))!;
  const contractIds = batch.events.map((e) => e.event.contractId);
  for (let i = 0; i < 1000; i++) {
    const cid = contractIds[i % contractIds.length];
    await cache.get(`${cid}#${i}`, async () => ({ value: await lookupContract(client, cid, ctx), final: true }));
  }
  gc?.();
  const after = process.memoryUsage().rss;
  add({
    area: 'memory',
    measure: 'RSS growth after 1,000 lookups of distinct ids',
    value: (after - before) / (1024 * 1024),
    unit: 'MB',
    target: 'bounded (cache ≤ 500 entries)',
    ok: cache.size <= 500,
  });
  add({ area: 'memory', measure: 'lookup cache entries after 1,000 lookups', value: cache.size, unit: 'entries', target: '≤ 500', ok: cache.size <= 500 });
  await client.close();
}

/** The extension host's memory after 10,000 lookups, hovers and panel opens (test/bench/hostMemory). */
async function hostMemory(): Promise<void> {
  const node = await FakeLedgerNode.start({ version: '3.5', requestLog: 0, bigTransactionEvents: 50 });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-host-')), 'host-memory.json');
  try {
    ensureVsCodeServer();
    const { parties, samples } = node.ledger;
    await runTests({
      vscodeExecutablePath: path.join(PROJECT_ROOT, 'test', 'vscode', 'code-server-shim.sh'),
      extensionDevelopmentPath: PROJECT_ROOT,
      extensionTestsPath: path.join(PROJECT_ROOT, 'out', 'test', 'bench', 'hostMemory', 'index'),
      extensionTestsEnv: {
        CANTON_LENS_BENCH_FILE: file,
        CANTON_LENS_BENCH_NODE: JSON.stringify({
          url: node.url,
          token: node.mintToken('alice'),
          party: parties.Alice,
          contracts: [samples.activeContract, samples.archivedContract, samples.keyedContract, samples.hostileContract],
          updates: [samples.transferUpdate, samples.hostileUpdate],
        }),
      },
      launchArgs: [path.join(PROJECT_ROOT, 'test', 'fixtures', 'workspace')],
    });
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as HostMemoryResult;
    add({
      area: 'memory',
      measure: `extension host: ${r.operations.toLocaleString('en-US')} lookups, hovers and panel opens in ${r.seconds.toFixed(0)} s, panels closed (baseline: warm)`,
      value: r.afterMb,
      unit: 'MB',
      baseline: r.warmMb,
      target: 'within 20 MB of warm',
      ok: r.afterMb - r.warmMb <= 20,
    });
    add({
      area: 'memory',
      measure: `extension host: peak RSS during those (${r.hovers.toLocaleString('en-US')} hovers shown, ${r.openPanels} panels left open)`,
      value: r.peakMb,
      unit: 'MB',
      baseline: r.warmMb,
    });
  } catch (e) {
    console.warn(`(extension host memory not measured: ${(e as Error).message})`);
  } finally {
    await node.close();
  }
}

/** The extension host's RSS while Show Active Contracts reads 100,000 contracts (test/bench/hostMemory/acs.ts). */
async function hostAcsMemory(): Promise<void> {
  const contracts = Number(process.env.CANTON_LENS_BENCH_ACS ?? 100_000);
  const node = await FakeLedgerNode.start({
    version: '3.5',
    requestLog: 0,
    bigTransactionEvents: 10,
    generated: { contracts, maxPageSize: 1000, listLimit: 1000 },
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-host-acs-')), 'host-acs-memory.json');
  try {
    ensureVsCodeServer();
    await runTests({
      vscodeExecutablePath: path.join(PROJECT_ROOT, 'test', 'vscode', 'code-server-shim.sh'),
      extensionDevelopmentPath: PROJECT_ROOT,
      extensionTestsPath: path.join(PROJECT_ROOT, 'out', 'test', 'bench', 'hostMemory', 'acs'),
      extensionTestsEnv: { CANTON_LENS_BENCH_FILE: file, CANTON_LENS_BENCH_NODE: JSON.stringify({ url: node.url, token: node.mintToken('reader') }) },
      launchArgs: [path.join(PROJECT_ROOT, 'test', 'fixtures', 'workspace')],
    });
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as HostAcsMemoryResult;
    if (r.error) throw new Error(r.error);
    const growth = r.peakMb - r.beforeMb;
    add({
      area: 'browse',
      measure: `extension host: RSS growth (highest, from ${r.beforeMb.toFixed(0)} MB) while Show Active Contracts reads ${r.contracts.toLocaleString('en-US')} contracts (${r.pages} pages, ${r.seconds.toFixed(1)} s)`,
      value: growth,
      unit: 'MB',
      target: '≤ 150 MB',
      ok: growth <= 150,
    });
    add({
      area: 'browse',
      measure: 'extension host: RSS once read, the table still open (baseline: before reading)',
      value: r.afterMb,
      unit: 'MB',
      baseline: r.beforeMb,
    });
  } catch (e) {
    console.warn(`(extension host memory of the ACS not measured: ${(e as Error).message})`);
  } finally {
    await node.close();
  }
}

async function main(): Promise<void> {
  // CANTON_LENS_BENCH_ONLY=soak,host runs only those sections (names below; browse-host: the ACS in the extension host alone).
  const only = process.env.CANTON_LENS_BENCH_ONLY?.split(',');
  const want = (section: string) => !only || only.includes(section);
  const node = await FakeLedgerNode.start({ bigTransactionEvents: 5000 });
  try {
    // Memory first, before the large renderings leave garbage behind.
    if (want('memory')) await memory(node);
    if (want('activation')) activationBench(add);
    if (want('requests')) await requestOverhead(node);
    if (want('scanning')) scanning();
    if (want('rendering')) await rendering();
    if (want('hover')) await hovers(node);
  } finally {
    await node.close();
  }
  if (want('transactions')) for (const row of await transactionRows()) add(row);
  if (want('rights')) for (const row of await rightsRows()) add(row);
  if (want('host')) await hostMemory();
  // The ACS table over 100,000 contracts and Follow Updates at 1,000 updates/s.
  if (want('browse')) await browseBench(add);
  if (want('browse') || want('browse-host')) await hostAcsMemory();
  if (want('browse') || want('interfaces')) await interfaceBench(add);
  // The Daml index and CodeLens.
  if (want('daml')) await damlBench(add);
  if (want('packages')) await packagesBench(add); // a large node's packages, a 20 MB DAR uploaded
  if (want('commands')) await commandsBench(add);
  // The debug adapter; Compare Contracts on two 2 MB arguments; What Changed over 100,000 updates.
  if (want('debug')) await debugBench(add);
  if (want('compare')) await compareBench(add);
  if (want('changes')) await changesBench(add);
  // Last: the demo ledger in a process of its own, for a few minutes.
  if (want('soak')) for (const row of await soakDemoLedger()) add(row);
  if (want('unit-tier')) add(unitTierTime());
  const fmt = (v: number | undefined) => (v === undefined ? '' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
  const table = [
    ['area', 'measure', 'value', 'baseline', 'ratio', 'target', 'met'],
    ...rows.map((r) => [
      r.area,
      r.measure,
      `${fmt(r.value)} ${r.unit}`,
      r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`,
      r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
      r.target ?? '',
      r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  '));
  const out = path.join(PROJECT_ROOT, 'bench-results.json');
  fs.writeFileSync(out, `${JSON.stringify({ when: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows }, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(process.cwd(), out)}`);
}

void main();
