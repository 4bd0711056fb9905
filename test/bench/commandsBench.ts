// `CANTON_LENS_BENCH_ONLY=commands npm run bench`: submitting commands and following completions.
// 1. Submit to the transaction shown: submit-and-wait-for-transaction through the client, then the
//    review's outcome and the transaction panel's body rendered, against the same POST sent raw with
//    undici plus the same renders (the floor), on one node in this process.
// 2. Follow Completions at 200 completions/s for 60 s against the demo ledger in its own process:
//    every completion seen once (none lost, none repeated, across a pause and resume half way), the
//    longest render of the view, and the view's memory (the feed keeps at most 5,000 rows).
import { request as undiciRequest } from 'undici';
import { CompletionFeed } from '../../src/execute/completionFeed';
import { followCompletions } from '../../src/execute/completionFollower';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import type { JsCommands, JsTransaction } from '../../src/ledger/apiTypes';
import { ledgerEffectsFor, submitAndWaitForTransaction } from '../../src/ledger/commandRequests';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import type { TransactionLookup } from '../../src/lookups/ledgerLookups';
import { commandsReviewBody } from '../../src/panels/html/commandsReviewHtml';
import { completionsBody } from '../../src/panels/html/completionsHtml';
import { transactionBody } from '../../src/panels/html/transactionHtml';
import type { BenchRow } from './browseBench';
import { demoLedgerUrl, spawnDemoLedger } from './soak';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const IOU = '#canton-lens-demo-model:Iou:Iou';

function issue(bank: string, owner: string, n: number): JsCommands {
  return {
    commandId: `bench-${n}-${Math.random().toString(36).slice(2)}`,
    actAs: [bank],
    commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner, currency: 'USD', amount: `${n + 1}.0`, observers: [] } } }],
  };
}

/** What the person sees after a commit: the review's outcome and the transaction panel's body. */
function render(t: JsTransaction): number {
  const review = commandsReviewBody({
    fileName: 'a.commands.json',
    node: 'n',
    commandId: t.commandId ?? '',
    actAs: [],
    readAs: [],
    deduplication: '',
    lines: [],
    findings: [],
    outcome: { state: 'committed', updateId: t.updateId, offset: t.offset, events: t.events.length, at: '' },
    sent: 1,
  });
  const lookup = {
    kind: 'transaction',
    found: true,
    update: 'transaction',
    updateId: t.updateId,
    transaction: t,
    route: 'update-by-id',
    asked: '',
    askedAs: {},
  } as unknown as TransactionLookup;
  return review.text.length + transactionBody(lookup, 'TRANSACTION_SHAPE_LEDGER_EFFECTS').text.length;
}

async function submitToPanel(add: (r: BenchRow) => void): Promise<void> {
  const node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1, requestLog: 0 });
  const token = node.mintToken('bank');
  const transport = createUndiciTransport();
  const client = new LedgerClient({ baseUrl: node.url, transport: async () => transport, getToken: async () => token });
  const { Bank, Alice } = node.ledger.parties;
  try {
    const ours: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < 400; i++) {
      const commands = issue(Bank, Alice, i);
      let t = performance.now();
      if (i % 2 === 0) {
        const answer = await submitAndWaitForTransaction(client, commands);
        render(answer.transaction);
        if (i >= 40) ours.push(performance.now() - t);
      } else {
        t = performance.now();
        const res = await undiciRequest(`${node.url}/v2/commands/submit-and-wait-for-transaction`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ commands, transactionFormat: ledgerEffectsFor(commands) }),
        });
        const answer = (await res.body.json()) as { transaction: JsTransaction };
        render(answer.transaction);
        if (i >= 40) raw.push(performance.now() - t);
      }
    }
    const value = median(ours);
    const baseline = median(raw);
    add({
      area: 'commands',
      measure:
        'Submit to the transaction shown: submit-and-wait-for-transaction, the review and the transaction panel rendered (baseline: the same POST with undici, the same renders)',
      value,
      unit: 'ms',
      baseline,
      target: '≤ 1.2×',
      ok: value <= baseline * 1.2,
    });
  } finally {
    await client.close();
    await node.close();
  }
}

async function completionsView(add: (r: BenchRow) => void): Promise<void> {
  const seconds = Number(process.env.CANTON_LENS_BENCH_COMPLETIONS_SECONDS ?? 60);
  const child = spawnDemoLedger();
  const transport = createUndiciTransport();
  try {
    const url = await demoLedgerUrl(child);
    const twin = new FakeLedgerNode({ version: '3.5' });
    const { Bank, Alice } = twin.ledger.parties;
    const bank = new LedgerClient({ baseUrl: url, transport: async () => transport, getToken: async () => twin.mintToken('bank') });
    const begin = (await bank.getLedgerEnd()).offset ?? 0;
    const feed = new CompletionFeed();
    feed.startAfter = begin;
    const seen = new Map<string, number>();
    let longestRender = 0;
    let renders = 0;
    let ac = new AbortController();
    const follow = () =>
      followCompletions(bank, {
        userId: 'bank',
        parties: [Bank],
        beginExclusive: feed.lastOffset,
        signal: ac.signal,
        preferCommandCompletions: true,
        onCompletion: (c) => {
          if (feed.addCompletion(c)) seen.set(c.commandId, (seen.get(c.commandId) ?? 0) + 1);
        },
      });
    let running = follow();
    const renderTimer = setInterval(() => {
      const t = performance.now();
      completionsBody({ node: 'n', parties: [Bank], state: '', paused: false, filter: {}, rows: feed.rows(), total: feed.size, lastOffset: feed.lastOffset });
      longestRender = Math.max(longestRender, performance.now() - t);
      renders++;
    }, 250);
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const sent: string[] = [];
    const started = performance.now();
    let n = 0;
    let paused = false;
    while (performance.now() - started < seconds * 1000) {
      // 200 per second, sent in ticks of 10 ms (2 each), each answered before the next tick's.
      const due = Math.floor(((performance.now() - started) / 1000) * 200);
      const batch: Promise<unknown>[] = [];
      while (n < due) {
        const c = issue(Bank, Alice, n++);
        sent.push(c.commandId);
        batch.push(submitAndWaitForTransaction(bank, c));
      }
      await Promise.all(batch);
      if (!paused && performance.now() - started > (seconds * 1000) / 2) {
        // Pause and resume half way: the stream is read again after the last offset seen.
        paused = true;
        ac.abort();
        await running;
        ac = new AbortController();
        running = follow();
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const deadline = Date.now() + 20_000;
    while (sent.some((id) => !seen.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    ac.abort();
    await running;
    clearInterval(renderTimer);
    gc();
    const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / (1024 * 1024);
    const lost = sent.filter((id) => !seen.has(id)).length;
    const repeated = [...seen.values()].filter((v) => v > 1).length + feed.repeats;
    const rate = sent.length / seconds;
    add({
      area: 'commands',
      measure: `Follow Completions at ${rate.toFixed(0)} completions/s for ${seconds} s (${sent.length} commands, a pause and resume half way): lost / repeated`,
      value: lost + repeated,
      unit: 'lost+repeated',
      target: '0',
      ok: lost === 0 && repeated === 0,
    });
    add({
      area: 'commands',
      measure: `Follow Completions: the longest render of the view (${renders} renders, 200 rows shown of ${feed.size} kept)`,
      value: longestRender,
      unit: 'ms',
      target: '≤ 50 ms',
      ok: longestRender <= 50,
    });
    add({
      area: 'commands',
      measure: `Follow Completions: heap growth over the run (the feed keeps at most 5,000 rows)`,
      value: heapGrowth,
      unit: 'MB',
      target: 'bounded (≤ 50 MB)',
      ok: heapGrowth <= 50,
    });
    await bank.close();
  } finally {
    child.kill();
  }
}

export async function commandsBench(add: (r: BenchRow) => void): Promise<void> {
  await submitToPanel(add);
  await completionsView(add);
}
