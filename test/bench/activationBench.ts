// Activation: the entry and the main bundle required and activated with a stub `vscode` in fresh
// processes (activationProbe.ts), with the code cache a user's profile keeps, and without (the first
// activation), beside an empty extension.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../vscode/vscodeServer';
import type { BenchRow } from './browseBench';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function activationBench(add: (r: BenchRow) => void): void {
  const dist = path.join(PROJECT_ROOT, 'dist');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const empty = path.join(tmp, 'empty.js');
  fs.writeFileSync(empty, 'exports.activate = () => {};\n');
  const probe = path.join(PROJECT_ROOT, 'out', 'test', 'bench', 'activationProbe.js');
  const run = (file: string, storage?: string) =>
    JSON.parse(execFileSync(process.execPath, [probe, file, ...(storage ? [storage] : [])], { encoding: 'utf8' })) as {
      requireMs: number;
      activateMs: number;
      cpuMs: number;
      activateError?: string;
      undiciLoaded: boolean;
    };
  const entry = path.join(dist, 'extension.js');
  // One global storage for the cached runs, as a user's profile keeps it (the first run writes the
  // cache); a fresh one for each first activation.
  const profile = path.join(tmp, 'profile');
  run(entry, profile);
  // The cache the first run wrote; a cache V8 refused would be written again by each run.
  const cacheDir = path.join(profile, 'v8-code-cache');
  const cacheState = () => fs.readdirSync(cacheDir).map((f) => `${f} ${fs.statSync(path.join(cacheDir, f)).mtimeMs}`);
  const written = cacheState();
  const cached: number[] = [];
  const cachedCpu: number[] = [];
  const first: number[] = [];
  const firstCpu: number[] = [];
  const base: number[] = [];
  let last: ReturnType<typeof run> | undefined;
  for (let i = 0; i < 15; i++) {
    last = run(entry, profile);
    cached.push(last.requireMs + last.activateMs);
    cachedCpu.push(last.cpuMs);
    const fresh = run(entry, fs.mkdtempSync(path.join(tmp, 'first-')));
    first.push(fresh.requireMs + fresh.activateMs);
    firstCpu.push(fresh.cpuMs);
    const e = run(empty);
    base.push(e.requireMs + e.activateMs);
  }
  const cacheUsed = written.length === 1 && cacheState().join() === written.join();
  if (!cacheUsed) console.warn(`(the code cache was not used: ${written.join(', ')} → ${cacheState().join(', ')})`);
  const size = fs.statSync(entry).size + fs.statSync(path.join(dist, 'main.js')).size;
  add({
    area: 'activation',
    measure: 'dist/extension.js + dist/main.js loaded at activation',
    value: size / 1024,
    unit: 'KB',
    target: '< 400 KB, only our code (undici and decoders load later)',
    ok: size < 400 * 1024 && !last!.undiciLoaded,
  });
  add({
    area: 'activation',
    measure: 'require + activate, stub vscode, code cache kept (median of 15)',
    value: median(cached),
    unit: 'ms',
    baseline: median(base),
    target: '≤ 25 ms',
    ok: cacheUsed && median(cached) <= 25,
  });
  add({ area: 'activation', measure: '… its CPU time (median of 15)', value: median(cachedCpu), unit: 'ms' });
  add({
    area: 'activation',
    measure: 'require + activate, first activation: no code cache yet (median of 15)',
    value: median(first),
    unit: 'ms',
    baseline: median(base),
    target: 'informational',
  });
  add({ area: 'activation', measure: '… its CPU time (median of 15)', value: median(firstCpu), unit: 'ms' });
  if (last!.activateError) console.warn(`(activate with the stub threw: ${last!.activateError})`);
  for (const lazy of ['http.js', 'txReview.js']) {
    add({ area: 'activation', measure: `dist/${lazy} (lazy, not at activation)`, value: fs.statSync(path.join(dist, lazy)).size / 1024, unit: 'KB' });
  }
}
