// The unit tier's wall time, as a maintainer meets it while working: plain mocha over out/test/unit
// in a process of its own (pure modules, no server), against the time Node takes to start mocha.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function wallSeconds(args: string[]): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`mocha ${args.join(' ')} exited with ${r.status}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export function unitTierTime(): { area: string; measure: string; value: number; unit: string; baseline: number; target: string; ok: boolean } {
  const mocha = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const seconds = wallSeconds([mocha, '--timeout', '30000', 'out/test/unit/**/*.test.js']);
  const empty = wallSeconds([mocha, '--version']);
  return {
    area: 'tests',
    measure: 'the unit tier (out/test/unit, plain mocha), wall time (baseline: starting mocha)',
    value: seconds,
    unit: 's',
    baseline: empty,
    target: '< 20 s',
    ok: seconds < 20,
  };
}
