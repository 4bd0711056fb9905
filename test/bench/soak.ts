// The demo ledger as a long-running service: a million requests of the usual mix against
// `dist/demoLedger.js` in its own process, as fast as the machine sustains. Reads its RSS from
// /proc at the start, after 100,000 requests and at the end, and compares p99 latency of the
// first and last 50,000 requests.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Pool } from 'undici';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { eventFormatFor } from '../../src/ledger/requestForms';
import { PROJECT_ROOT } from '../vscode/vscodeServer';
import { validBodies } from '../support/specBodies';

export interface SoakRow {
  area: string;
  measure: string;
  value: number;
  unit: string;
  baseline?: number;
  target?: string;
  ok?: boolean;
}

const WINDOW = 50_000;
const IN_FLIGHT = 32;

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

function p99(xs: Float64Array): number {
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.floor(sorted.length * 0.99)];
}

/** `dist/demoLedger.js` (3.5) in a process of its own: a node measured apart from the process that measures. */
export function spawnDemoLedger(): ChildProcess {
  return spawn(process.execPath, [path.join(PROJECT_ROOT, 'dist', 'demoLedger.js'), '--port', '0', '--version', '3.5'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The URL the demo ledger prints once it listens. */
export function demoLedgerUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the demo ledger exited (${code})`)));
  });
}

export async function soakDemoLedger(total = Number(process.env.CANTON_LENS_SOAK_REQUESTS ?? 1_000_000)): Promise<SoakRow[]> {
  const child = spawnDemoLedger();
  try {
    const url = await demoLedgerUrl(child);
    // Same seed, same secret: a node that is never started mints the demo ledger's tokens and ids.
    const twin = new FakeLedgerNode({ version: '3.5' });
    const bodies = validBodies(twin);
    const alice = `Bearer ${twin.mintToken('alice')}`;
    const dana = `Bearer ${twin.mintToken('dana')}`;
    const contract = JSON.stringify({ contractId: twin.ledger.samples.activeContract, eventFormat: eventFormatFor([twin.ledger.parties.Alice]) });
    const archived = JSON.stringify({ contractId: twin.ledger.samples.archivedContract, eventFormat: eventFormatFor([twin.ledger.parties.Alice]) });
    const transaction = JSON.stringify(bodies['POST /v2/updates/transaction-by-id']);
    const update = JSON.stringify(bodies['POST /v2/updates/update-by-id']);
    const execute = (i: number) => JSON.stringify({ ...bodies['POST /v2/interactive-submission/execute'], submissionId: `soak-${i}` });
    // The usual mix: mostly lookups, some version checks, a few executions.
    const mix: ((i: number) => { path: string; method: 'GET' | 'POST'; body?: string; auth?: string })[] = [
      () => ({ path: '/v2/version', method: 'GET' }),
      () => ({ path: '/v2/events/events-by-contract-id', method: 'POST', body: contract, auth: alice }),
      () => ({ path: '/v2/events/events-by-contract-id', method: 'POST', body: archived, auth: alice }),
      () => ({ path: '/v2/updates/transaction-by-id', method: 'POST', body: transaction, auth: alice }),
      () => ({ path: '/v2/updates/update-by-id', method: 'POST', body: update, auth: alice }),
      () => ({ path: '/v2/events/events-by-contract-id', method: 'POST', body: contract, auth: alice }),
      () => ({ path: '/v2/version', method: 'GET' }),
      (i) => ({ path: '/v2/interactive-submission/execute', method: 'POST', body: execute(i), auth: dana }),
    ];
    const pool = new Pool(url, { connections: 8, pipelining: 1 });
    const latencies = new Float64Array(total);
    let errors = 0;
    let firstError = '';
    let next = 0;
    const rss: Record<string, number> = { start: rssMb(child.pid!) };
    const started = process.hrtime.bigint();
    const worker = async () => {
      for (let i = next++; i < total; i = next++) {
        const r = mix[i % mix.length](i);
        const t0 = process.hrtime.bigint();
        const res = await pool.request({
          path: r.path,
          method: r.method,
          body: r.body,
          headers: { 'content-type': 'application/json', ...(r.auth ? { authorization: r.auth } : {}) },
        });
        await res.body.text();
        latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
        if (res.statusCode !== 200) {
          errors++;
          firstError ||= `${r.path}: ${res.statusCode}`;
        }
        if (i === 100_000) rss.after100k = rssMb(child.pid!);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rss.end = rssMb(child.pid!);
    await pool.close();
    const early = p99(latencies.subarray(0, WINDOW));
    const late = p99(latencies.subarray(total - WINDOW));
    const growth = rss.end - (rss.after100k ?? rss.start);
    const n = total.toLocaleString('en-US');
    if (errors) console.warn(`(soak: ${errors} errors, first: ${firstError})`);
    return [
      {
        area: 'soak',
        measure: `demo ledger: ${n} requests, version/lookups/execute mix`,
        value: total / seconds,
        unit: 'req/s',
        target: 'highest sustained (32 in flight)',
      },
      { area: 'soak', measure: 'demo ledger RSS at the start', value: rss.start, unit: 'MB' },
      { area: 'soak', measure: 'demo ledger RSS after 100,000 requests', value: rss.after100k ?? Number.NaN, unit: 'MB' },
      {
        area: 'soak',
        measure: `demo ledger RSS after ${n} requests (baseline: after 100,000)`,
        value: rss.end,
        unit: 'MB',
        baseline: rss.after100k,
        target: 'growth ≤ 20 MB after warm-up',
        ok: growth <= 20,
      },
      {
        area: 'soak',
        measure: `p99 latency, last ${WINDOW.toLocaleString('en-US')} (baseline: first ${WINDOW.toLocaleString('en-US')})`,
        value: late,
        unit: 'ms',
        baseline: early,
        target: '≤ 1.5×',
        ok: late <= 1.5 * early,
      },
      { area: 'soak', measure: 'requests answered other than 200', value: errors, unit: 'requests', target: '0', ok: errors === 0 },
    ];
  } finally {
    child.kill('SIGTERM');
  }
}
