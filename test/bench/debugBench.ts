// `CANTON_LENS_BENCH_ONLY=debug npm run bench`: the `canton` debug adapter.
// 1. Start a session on a 10,000-node transaction until the first stop (launch over DAP, the stop
//    event), against the floor: the same transaction looked up through the client plus its tree built.
// 2. Steps on that tree (in, over, out, back, restart, mixed): the longest and the median, request to
//    stop plus the stack and scopes the workbench asks for then.
// 3. Attach while the node commits 1,000 updates/s, with 10 conditional breakpoints: every update
//    walked and every condition evaluated (counted by hit counts that never stop), none missed.
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { BreakpointSet } from '../../src/debug/debugBreakpoints';
import { clientDebugLedger } from '../../src/debug/debugLedger';
import { DebugRunner } from '../../src/debug/debugRunner';
import { DamlIndex } from '../../src/daml/damlIndex';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { BASE_TEMPLATES } from '../../fake-ledger/src/generatedModel';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { exerciseTree } from '../../src/lookups/exerciseTree';
import { lookupTransaction } from '../../src/lookups/ledgerLookups';
import { debugHarness } from '../support/debugHarness';
import type { BenchRow } from './browseBench';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function launchToStop(dc: DebugClient, updateId: string): Promise<void> {
  const stopped = dc.waitForEvent('stopped');
  await Promise.all([dc.waitForEvent('initialized').then(() => dc.configurationDoneRequest()), dc.launch({ updateId, stopOnEntry: true })]);
  await stopped;
}

async function sessionAndSteps(add: (r: BenchRow) => void): Promise<void> {
  const node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1, bigTreeNodes: 10_000, requestLog: 0 });
  const harness = await debugHarness(node);
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('reader') });
  const updateId = node.ledger.samples.bigTreeUpdate;
  try {
    const ours: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 24; i++) {
      if (i % 2 === 0) {
        const dc = await harness.client();
        const t = performance.now();
        await launchToStop(dc, updateId);
        if (i >= 4) ours.push(performance.now() - t);
        await dc.stop();
      } else {
        const t = performance.now();
        const l = await lookupTransaction(client, updateId, { nodeName: 'n', parties: [], shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' });
        if (l.found && l.update === 'transaction') exerciseTree(l.transaction.events);
        if (i >= 4) floor.push(performance.now() - t);
      }
    }
    const value = median(ours);
    const baseline = median(floor);
    add({
      area: 'debug',
      measure: 'Debug a 10,000-node transaction: launch to the first stop over DAP (baseline: the same lookup through the client plus the tree built)',
      value,
      unit: 'ms',
      baseline,
      target: '≤ 1.5×',
      ok: value <= baseline * 1.5,
    });

    const dc = await harness.client();
    await launchToStop(dc, updateId);
    const kinds: (() => Promise<unknown>)[] = [
      () => dc.stepInRequest({ threadId: 1 }),
      () => dc.nextRequest({ threadId: 1 }),
      () => dc.stepInRequest({ threadId: 1 }),
      () => dc.stepOutRequest({ threadId: 1 }),
      () => dc.stepBackRequest({ threadId: 1 }),
      () => dc.nextRequest({ threadId: 1 }),
    ];
    const steps: number[] = [];
    for (let i = 0; i < 600; i++) {
      const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
      const t = performance.now();
      // Back to the first step now and then: Step Out at a job's root skips a whole job.
      await (i % 60 === 59 ? dc.restartRequest({}) : kinds[i % kinds.length]());
      await stopped;
      // What the workbench asks at every stop: the stack and the scopes.
      const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
      await dc.scopesRequest({ frameId: frames[0].id });
      steps.push(performance.now() - t);
    }
    const longest = Math.max(...steps.slice(20));
    add({
      area: 'debug',
      measure: `A step on the 10,000-node tree, request to stop plus stack and scopes (600 steps, median ${median(steps).toFixed(2)} ms): the longest`,
      value: longest,
      unit: 'ms',
      target: '≤ 20 ms',
      ok: longest <= 20,
    });
    await dc.stop();
  } finally {
    await client.close();
    await harness.close();
    await node.close();
  }
}

/** A Daml source declaring the generated live updates' templates, each with its `_Settle` choice. */
function liveIndex(): DamlIndex {
  const index = new DamlIndex();
  const byModule = new Map<string, string[]>();
  for (const [, module, entity] of BASE_TEMPLATES.slice(0, 20)) byModule.set(module, [...(byModule.get(module) ?? []), entity]);
  for (const [module, entities] of byModule)
    index.setFile(
      `/bench/${module}.daml`,
      `module ${module} where\n\n` +
        entities
          .map((e) => `template ${e}\n  with\n    p : Party\n  where\n    signatory p\n    choice ${e}_Settle : ()\n      controller p\n      do pure ()\n`)
          .join('\n'),
    );
  return index;
}

async function attachAtRate(add: (r: BenchRow) => void): Promise<void> {
  const seconds = Number(process.env.CANTON_LENS_BENCH_ATTACH_SECONDS ?? 20);
  const rate = 1_000;
  const node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1, requestLog: 0, generated: { contracts: 0, templates: 20, rate: 0 } });
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('reader') });
  const index = liveIndex();
  const breakpoints = new BreakpointSet();
  const files = [...index.allFiles()];
  // 10 conditional breakpoints on the choices: the condition holds, the hit count never does, so
  // every evaluation is counted and none stops.
  let set = 0;
  const bound: ReturnType<BreakpointSet['set']> = [];
  for (const f of files) {
    const lines = f.decls
      .filter((d) => d.kind === 'choice')
      .map((d) => ({ line: d.line + 1, condition: 'argument.step >= 0 && argument.settledBy exists', hitCondition: '<0' }));
    const take = lines.slice(0, 10 - set);
    set += take.length;
    bound.push(...breakpoints.set(f.file, take, index, f.file));
    if (set >= 10) break;
  }
  const stops: string[] = [];
  const runner = new DebugRunner(clientDebugLedger({ nodeName: 'n', client, parties: [] }), breakpoints, {
    stopped: (reason) => stops.push(reason),
    output: () => undefined,
    ended: () => undefined,
  });
  try {
    const begin = await runner.attach();
    node.generated.setRate(rate);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    node.generated.setRate(0);
    const end = (await client.getLedgerEnd()).offset ?? 0;
    const deadline = Date.now() + 30_000;
    // Every update arrived and walked: the runner waits for more.
    while (((runner.program.updates.at(-1)?.update.value.offset ?? begin) < end || !runner.waitingForUpdates) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const offsets = runner.program.updates.map((u) => u.update.value.offset);
    const produced = end - begin;
    const gaps = offsets.filter((o, i) => o !== begin + i + 1).length;
    const settles = runner.program.updates.reduce((sum, u) => sum + u.tree.filter((n) => breakpoints.hitsOf(n.node).length > 0).length, 0);
    const counted = bound.reduce((s, b) => s + b.hits, 0);
    const missed = produced - offsets.length + gaps + Math.abs(settles - counted) + stops.length;
    add({
      area: 'debug',
      measure: `Attach at ${(produced / seconds).toFixed(0)} updates/s for ${seconds} s with 10 conditional breakpoints (${produced} updates, ${counted} conditions held): updates missed or not checked`,
      value: missed,
      unit: 'missed',
      target: '0',
      ok: missed === 0,
    });
  } finally {
    runner.dispose();
    await client.close();
    await node.close();
  }
}

export async function debugBench(add: (r: BenchRow) => void): Promise<void> {
  await sessionAndSteps(add);
  await attachAtRate(add);
}
