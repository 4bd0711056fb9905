// `CANTON_LENS_BENCH_ONLY=changes npm run bench`: What Changed over 100,000 updates creating 100,000
// contracts (the fake node's generated section), read as the panel reads them (pages of 1,000, the
// change set, a render of the shown rows every 250 ms), against the floor of the same pages read raw
// (undici + JSON.parse) in the same run; the heap it keeps; the time from the first page to the
// first rows rendered; and a payload filter over the 100,000 rows, its longest slice.
import { Agent, request } from 'undici';
import { readChanges } from '../../src/browse/changesReader';
import { ChangeView } from '../../src/browse/changeView';
import { compileFilter } from '../../src/browse/payloadFilter';
import { browseEventFormat } from '../../src/browse/browseForms';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { changesBody } from '../../src/panels/html/changesHtml';
import type { BenchRow } from './browseBench';

const gc = () => (globalThis as { gc?: () => void }).gc?.();

export async function changesBench(add: (r: BenchRow) => void): Promise<void> {
  const contracts = 100_000;
  const node = await FakeLedgerNode.start({ requestLog: 0, generated: { contracts, maxPageSize: 1000, listLimit: 1000 } });
  const token = node.mintToken('reader');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 60_000 });
  const to = node.generated.ledgerEnd();
  const from = to - contracts;
  const updateFormat = { includeTransactions: { eventFormat: browseEventFormat({}), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  try {
    const floor = async () => {
      const t0 = performance.now();
      let begin = from;
      let n = 0;
      while (begin < to) {
        const res = await request(`${node.url}/v2/updates?limit=1000`, {
          dispatcher: agent,
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ beginExclusive: begin, endInclusive: to, updateFormat }),
        });
        const list = JSON.parse(await res.body.text()) as { update: { Transaction?: { value: { offset: number } } } }[];
        if (list.length === 0) break;
        n += list.length;
        begin = list[list.length - 1].update.Transaction?.value.offset ?? to;
      }
      return { ms: performance.now() - t0, n };
    };
    await floor();
    const base = await floor();

    const ours = async () => {
      const t0 = performance.now();
      let firstPageAt: number | undefined;
      let firstRowsAfter = 0;
      let lastRender = 0;
      let view: ChangeView | undefined;
      let last;
      for await (const p of readChanges(client, { parties: [], from, to, method: 'updates', pageSize: 1000, paged: true })) {
        last = p;
        if (!view) view = new ChangeView(p.changes, { limit: 500 });
        const now = performance.now();
        if (firstPageAt === undefined) firstPageAt = now;
        if (lastRender === 0 || now - lastRender >= 250 || p.done) {
          while (view.evaluate());
          const body = changesBody({ node: 'bench', from, to, asSeenBy: 'any party', counts: p.changes.counts, view: view.current(), limit: 500 });
          if (body.text.length === 0) throw new Error('empty page');
          if (lastRender === 0) firstRowsAfter = performance.now() - (firstPageAt ?? now);
          lastRender = performance.now();
        }
      }
      const ms = performance.now() - t0;
      return { ms, n: last?.changes.counts.transactions ?? 0, firstRowsAfter, changes: last?.changes };
    };
    // The heap a change set keeps: the second read's growth while the first's is still held (the
    // fake node shares this process; its caches are warm after the first read).
    const warm = await ours();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const run = await ours();
    gc();
    const heap = process.memoryUsage().heapUsed - heapBefore;
    if (warm.n !== run.n) throw new Error('two reads differ');
    add({
      area: 'changes',
      measure: `What Changed over ${run.n.toLocaleString('en-US')} updates creating as many contracts: pages of 1,000, the change set and the rows rendered (baseline: raw undici + JSON.parse of the same pages, ${base.n.toLocaleString('en-US')})`,
      value: run.n / (run.ms / 1000),
      unit: 'updates/s',
      baseline: base.n / (base.ms / 1000),
      target: '≥ 0.5× the floor',
      ok: run.n / run.ms >= 0.5 * (base.n / base.ms),
    });
    add({
      area: 'changes',
      measure: 'What Changed: from the first page to the first rows rendered',
      value: run.firstRowsAfter,
      unit: 'ms',
      target: '≤ 500 ms',
      ok: run.firstRowsAfter <= 500,
    });
    // The other way in, on the same range: the active sets at both ends (the generated contracts are
    // all active at the end), read as pages of 1,000 and compared.
    const s0 = performance.now();
    let bySets;
    for await (const p of readChanges(client, { parties: [], from, to, method: 'activeSets', paged: true })) bySets = p;
    const setsMs = performance.now() - s0;
    if (bySets?.changes.counts.created !== run.changes?.counts.created) throw new Error('the two ways disagree');
    add({
      area: 'changes',
      measure: `What Changed over the same range by the active sets at both ends (${(bySets?.changes.counts.created ?? 0).toLocaleString('en-US')} created; baseline: the updates way)`,
      value: setsMs,
      unit: 'ms',
      baseline: run.ms,
      target: 'informational: the active sets win when the range is long and the set small',
    });
    if (run.changes) {
      const compiled = compileFilter('amount > 50000 and currency in [USD, CHF]');
      if (!compiled.ok) throw new Error(compiled.message);
      const view = new ChangeView(run.changes, { limit: 500, test: compiled.test });
      let longest = 0;
      let slices = 0;
      for (let more = true; more; slices++) {
        const t = performance.now();
        more = view.evaluate();
        view.current();
        longest = Math.max(longest, performance.now() - t);
      }
      add({
        area: 'changes',
        measure: `Payload filter "amount > 50000 and currency in [USD, CHF]" over ${run.n.toLocaleString('en-US')} rows: the longest of ${slices} slices (2,000 rows each, plus the shown rows); ${view.current().matching.toLocaleString('en-US')} match`,
        value: longest,
        unit: 'ms',
        target: '≤ 50 ms',
        ok: longest <= 50,
      });
    }
    add({
      area: 'changes',
      measure: `What Changed: heap kept by ${run.n.toLocaleString('en-US')} changes (this process, after GC; the panel's host side)`,
      value: heap / (1024 * 1024),
      unit: 'MB',
      target: '≤ 150 MB',
      ok: heap / (1024 * 1024) <= 150,
    });
  } finally {
    await agent.close();
    await client.close();
    await node.close();
  }
}
