// `CANTON_LENS_BENCH_ONLY=compare npm run bench`: Compare Contracts on two 2 MB create arguments
// (20,000 records, one field changed): the diff and the page's HTML built host-side, against the
// floor of serialising both arguments once (JSON.stringify), in the same run.
import type { CreatedEvent } from '../../src/ledger/apiTypes';
import { diffContracts } from '../../src/lookups/contractDiff';
import { contractDiffBody } from '../../src/panels/html/contractDiffHtml';
import type { BenchRow } from './browseBench';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function compareBench(add: (r: BenchRow) => void): void {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, amount: `${i}.0000000000`, label: `row ${i} `.repeat(8) }));
  const event = (createArgument: unknown) =>
    ({
      contractId: '00aa',
      templateId: 'p:Bench:Big',
      createArgument,
      signatories: ['Bank::1220aa'],
      observers: [],
      offset: 1,
      nodeId: 0,
    }) as unknown as CreatedEvent;
  const left = event({ rows });
  const right = event({ rows: rows.map((r, i) => (i === 12_345 ? { ...r, amount: '1.5' } : r)) });
  const bytes = JSON.stringify(left.createArgument).length;
  const ours: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < 12; i++) {
    let t = performance.now();
    const body = contractDiffBody({ diff: diffContracts(left, right), leftId: '00aa', rightId: '00bb' });
    if (body.text.length === 0) throw new Error('empty page');
    if (i >= 2) ours.push(performance.now() - t);
    t = performance.now();
    if (JSON.stringify(left.createArgument).length + JSON.stringify(right.createArgument).length === 0) throw new Error('empty');
    if (i >= 2) floor.push(performance.now() - t);
  }
  const value = median(ours);
  add({
    area: 'compare',
    measure: `Compare Contracts: two ${(bytes / 1e6).toFixed(1)} MB create arguments, the diff and the page's HTML built host-side (baseline: both serialised once)`,
    value,
    unit: 'ms',
    baseline: median(floor),
    target: '≤ 200 ms',
    ok: value <= 200,
  });
}
