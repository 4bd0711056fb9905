// `CANTON_LENS_BENCH_ONLY=compare npm run bench`: Compare Contracts on two 2 MB create arguments
// (20,000 records, one field changed): the diff and the page's HTML built host-side, against the
// floor of serialising both arguments once (JSON.stringify), in the same run.
import type { CreatedEvent } from '../../src/ledger/apiTypes';
import { diffContracts } from '../../src/lookups/contractDiff';
import { contractDiffBody } from '../../src/panels/html/contractDiffHtml';
import type { BenchRow } from './browseBench';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../vscode/vscodeServer';
import { panelPageAt, startPanelPageServer } from '../support/panelPageServer';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function compareBench(add: (r: BenchRow) => void): Promise<void> {
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
  // First paint in Chromium of the same page, served like a webview (script and style from one origin).
  const page = (body: ReturnType<typeof contractDiffBody>, origin: string) => panelPageAt(origin, body, []);
  const server = await startPanelPageServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    server.publish('compare', page(contractDiffBody({ diff: diffContracts(left, right), leftId: '00aa', rightId: '00bb' }), server.origin));
    server.publish('small', page(contractDiffBody({ diff: diffContracts(event({ a: 1 }), event({ a: 2 })), leftId: '00aa', rightId: '00bb' }), server.origin));
    const paint = async (p: string) => {
      const t: number[] = [];
      for (let i = 0; i < 3; i++) {
        const tab = await browser.newPage();
        await tab.goto(`${server.origin}/page/${p}`);
        t.push(
          await tab.evaluate(
            () =>
              new Promise<number>((resolve) =>
                requestAnimationFrame(() =>
                  requestAnimationFrame(() => resolve(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.now())),
                ),
              ),
          ),
        );
        await tab.close();
      }
      return median(t);
    };
    const small = await paint('small');
    const big = await paint('compare');
    add({
      area: 'compare',
      measure: `Compare Contracts: first paint in Chromium of the two ${(bytes / 1e6).toFixed(1)} MB arguments' page (baseline: a one-field comparison)`,
      value: big,
      unit: 'ms',
      baseline: small,
      target: '≤ 1 s',
      ok: big <= 1000,
    });
  } finally {
    await browser.close();
    await server.close();
  }
}
