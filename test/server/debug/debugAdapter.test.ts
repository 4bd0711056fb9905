// The `canton` debug adapter over the Debug Adapter Protocol, driven by the official test client
// against the fake node on every version: launch, call stack, sources, scopes, variables, steps
// both ways, breakpoints with conditions, hit counts and logpoints, ranges, attach, failed commands,
// a 10,000-node tree, hostile values, and a node that fails mid-session.
import * as assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { HOSTILE_STRINGS } from '../../../fake-ledger/src/demoLedgerData';
import { submitAndWaitForTransaction } from '../../../src/ledger/commandRequests';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import type { JsCommands } from '../../../src/ledger/apiTypes';
import { DAML, debugHarness, HOLDING, lineOf, type DebugHarness } from '../../support/debugHarness';

type Bp = DebugProtocol.SourceBreakpoint;

/** An event, or a failure naming it: the test client does not time out on a socket. */
function waitFor(dc: DebugClient, event: string, ms = 20_000): Promise<DebugProtocol.Event> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    dc.waitForEvent(event).finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no '${event}' event within ${ms} ms`)), ms))),
  ]);
}

async function start(
  dc: DebugClient,
  args: object,
  o: { request?: 'launch' | 'attach'; breakpoints?: { path: string; breakpoints: Bp[] }[]; exceptions?: string[]; runsToEnd?: boolean } = {},
) {
  const stopped = o.request === 'attach' || o.runsToEnd ? undefined : waitFor(dc, 'stopped');
  // A launch that fails leaves the wait to time out: not an unhandled rejection.
  stopped?.catch(() => undefined);
  const set: DebugProtocol.SetBreakpointsResponse[] = [];
  await Promise.all([
    dc.waitForEvent('initialized').then(async () => {
      for (const b of o.breakpoints ?? []) set.push(await dc.setBreakpointsRequest({ source: { path: b.path }, breakpoints: b.breakpoints }));
      await dc.setExceptionBreakpointsRequest({ filters: o.exceptions ?? [] });
      await dc.configurationDoneRequest();
    }),
    o.request === 'attach' ? dc.initializeRequest().then(() => dc.attachRequest(args as DebugProtocol.AttachRequestArguments)) : dc.launch(args),
  ]);
  return { stopped: (await stopped) as DebugProtocol.StoppedEvent | undefined, set };
}

async function top(dc: DebugClient) {
  const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  return { frames, top: frames[0] };
}

async function scopes(dc: DebugClient, frameId?: number) {
  const id = frameId ?? (await top(dc)).top.id;
  const list = (await dc.scopesRequest({ frameId: id })).body.scopes;
  return Object.fromEntries(list.map((s) => [s.name, s]));
}

async function vars(dc: DebugClient, ref: number) {
  const list = (await dc.variablesRequest({ variablesReference: ref })).body.variables;
  return Object.fromEntries(list.map((v) => [v.name, v]));
}

async function stepAndWait(dc: DebugClient, request: () => Promise<unknown>) {
  const stopped = waitFor(dc, 'stopped');
  await request();
  return (await stopped) as DebugProtocol.StoppedEvent;
}

const SETTLEMENT = DAML('Settlement.daml');
const IOU = DAML('Iou.daml');
const JOB = DAML('Batch/Job.daml');

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`debug adapter on a ${version} fake node`, function () {
    this.timeout(60_000);
    let node: FakeLedgerNode;
    let harness: DebugHarness;
    let dc: DebugClient;

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, bigTreeNodes: 10_000 });
      harness = await debugHarness(node);
    });
    after(async () => {
      await harness.close();
      await node.close();
    });
    beforeEach(async () => (dc = await harness.client()));
    afterEach(async () => {
      await dc.stop().catch(() => undefined);
      node.clearFaults();
      assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows');
    });

    it('stops on entry at the choice line, with the exercise tree as the call stack and the argument in Variables', async () => {
      const { stopped } = await start(dc, { updateId: node.ledger.samples.settlementUpdate });
      assert.equal(stopped?.body.reason, 'entry');
      assert.equal(stopped?.body.description, 'No breakpoint was hit: stopped at the first step.');
      const { frames, top: f } = await top(dc);
      assert.equal(f.source?.path, SETTLEMENT);
      assert.equal(f.line, lineOf(SETTLEMENT, 'choice Settlement_Execute'));
      assert.match(f.name, /^Settlement:Settlement\.Settlement_Execute \(Bank/);
      assert.equal(frames.length, 2, 'the exercise and the transaction');
      assert.match(frames[1].name, /^transaction at offset \d+/);
      const s = await scopes(dc);
      assert.deepEqual(Object.keys(s), ['Argument', 'Contract', 'Parties', 'Transaction'], 'no result before the exercise returns');
      assert.equal(s.Contract.expensive, true, 'the contract is read when opened');
      const arg = await vars(dc, s.Argument.variablesReference);
      assert.equal(arg.note.value, JSON.stringify(HOSTILE_STRINGS[1]), 'a hostile value comes back as the text it is');
      assert.equal(arg.note.evaluateName, 'argument.note');
      assert.equal(arg.legs.indexedVariables, 2);
      const deep = await vars(dc, arg.deep.variablesReference);
      assert.equal(deep.level.value, '1');
      const contract = await vars(dc, s.Contract.variablesReference);
      assert.equal(contract.operator.value, JSON.stringify(node.ledger.parties.Bank), 'the settlement contract, read from the node');
      const tx = await vars(dc, s.Transaction.variablesReference);
      assert.equal(tx.commandId.value, '"settle-dvp-2026-11-02"');
    });

    it('steps in, out, over and back through the tree in execution order, and ends after the last step', async () => {
      await start(dc, { updateId: node.ledger.samples.settlementUpdate });
      const at = async () => {
        const { frames, top: f } = await top(dc);
        return `${f.name.replace(/ \((?!returning)[^)]*\)/g, '')}@${f.source?.path === IOU ? 'Iou' : f.source?.path === HOLDING('Finance/Holding.daml') ? 'Holding' : (f.source?.name ?? '?')}:${f.line} ×${frames.length}`;
      };
      await stepAndWait(dc, () => dc.stepInRequest({ threadId: 1 }));
      assert.equal(await at(), `Iou:Iou.Iou_Transfer@Iou:${lineOf(IOU, 'choice Iou_Transfer')} ×3`);
      await stepAndWait(dc, () => dc.stepInRequest({ threadId: 1 }));
      assert.equal(await at(), `create Iou:Iou@Iou:${lineOf(IOU, 'template Iou')} ×4`);
      await stepAndWait(dc, () => dc.stepOutRequest({ threadId: 1 }));
      assert.match(await at(), /^Iou:Iou\.Iou_Transfer \(returning\)@Iou/);
      const result = await dc.evaluateRequest({ expression: 'result', frameId: (await top(dc)).top.id, context: 'watch' });
      assert.match(result.body.result, /^00/, 'the transfer returns the new contract id');
      await stepAndWait(dc, () => dc.nextRequest({ threadId: 1 }));
      assert.equal(
        await at(),
        `Finance.Holding:Holding.Holding_Split@Holding:${lineOf(HOLDING('Finance/Holding.daml'), 'choice Holding_Split')} ×3`,
        'an interface choice at its interface',
      );
      await stepAndWait(dc, () => dc.nextRequest({ threadId: 1 }));
      assert.match(await at(), /^Finance\.Holding:Holding\.Holding_Split \(returning\)/, 'over the split creates');
      await stepAndWait(dc, () => dc.stepBackRequest({ threadId: 1 }));
      assert.match(await at(), /^create Iou:Iou/);
      const back = await stepAndWait(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
      assert.equal(back.body.description, 'At the first step');
      assert.match(await at(), /^Settlement:Settlement\.Settlement_Execute/);
      const ended = waitFor(dc, 'terminated');
      await dc.continueRequest({ threadId: 1 });
      await ended;
    });

    it('stays stopped at the last step when a step goes past it, so Step Back still works; Continue then ends', async () => {
      await start(dc, { updateId: node.ledger.samples.settlementUpdate });
      let last: DebugProtocol.StoppedEvent | undefined;
      for (let i = 0; i < 100 && last?.body.description !== 'At the last step: Step Back walks back; Continue ends the session.'; i++)
        last = await stepAndWait(dc, () => dc.stepOutRequest({ threadId: 1 }));
      assert.equal(last?.body.description, 'At the last step: Step Back walks back; Continue ends the session.');
      const atEnd = (await top(dc)).top.name;
      const again = await stepAndWait(dc, () => dc.nextRequest({ threadId: 1 }));
      assert.equal((await top(dc)).top.name, atEnd, 'a step past the end stays at the end');
      assert.match(again.body.description ?? '', /At the last step/);
      await stepAndWait(dc, () => dc.stepBackRequest({ threadId: 1 }));
      assert.notEqual((await top(dc)).top.name, atEnd, 'Step Back walks back from the end');
      const ended = waitFor(dc, 'terminated');
      await dc.continueRequest({ threadId: 1 });
      await ended;
    });

    it('stops at a breakpoint inside a choice, on its choice line, and a condition and a hit count pick the step', async () => {
      const inside = lineOf(JOB, 'nonconsuming choice Job_Step') + 2;
      const { stopped, set } = await start(
        dc,
        { updateId: node.ledger.samples.bigTreeUpdate, stopOnEntry: false },
        { breakpoints: [{ path: JOB, breakpoints: [{ line: inside, condition: 'argument.step >= 90', hitCondition: '3' }] }] },
      );
      let hits = 0;
      dc.on('stopped', () => hits++);
      const bp = set[0].body.breakpoints[0];
      assert.equal(bp.verified, true);
      assert.equal(bp.line, lineOf(JOB, 'nonconsuming choice Job_Step'), 'bound to the choice line');
      assert.equal(stopped?.body.reason, 'breakpoint');
      assert.deepEqual(stopped?.body.hitBreakpointIds, [bp.id]);
      const step = await dc.evaluateRequest({ expression: 'argument.step', frameId: (await top(dc)).top.id, context: 'watch' });
      assert.equal(step.body.result, '95', 'steps 91, 93, 95: the third with step ≥ 90');
      const cond = await dc.evaluateRequest({ expression: 'argument.step > 92 && kind == "exercised"', context: 'repl', frameId: (await top(dc)).top.id });
      assert.equal(cond.body.result, 'true');
      await assert.rejects(dc.evaluateRequest({ expression: 'argument.(step', context: 'repl' }), /at 10/, 'an error names its position');
      const ended = waitFor(dc, 'terminated');
      await dc.continueRequest({ threadId: 1 });
      await ended;
      assert.equal(hits, 0, 'the third hit only: no stop after it');
    });

    it('walks a 10,000-node tree: a condition deep in it stops there, and the stack is its path', async () => {
      const { stopped } = await start(
        dc,
        { updateId: node.ledger.samples.bigTreeUpdate, stopOnEntry: false },
        { breakpoints: [{ path: JOB, breakpoints: [{ line: lineOf(JOB, 'nonconsuming choice Job_Run'), condition: 'argument.job == 99' }] }] },
      );
      assert.equal(stopped?.body.reason, 'breakpoint');
      const { frames } = await top(dc);
      assert.equal(frames.length, 2);
      const s = await scopes(dc);
      const arg = await vars(dc, s.Argument.variablesReference);
      assert.equal(arg.job.value, '99');
      const tx = await vars(dc, s.Transaction.variablesReference);
      assert.equal(tx.events.value, '10000');
    });

    it('writes logpoints to the debug console without stopping, and says why a breakpoint does not bind', async () => {
      const logged: string[] = [];
      dc.on('output', (e: DebugProtocol.OutputEvent) => {
        if (e.body.category === 'console' && /^(Exercised|Logged)/.test(e.body.output)) logged.push(e.body.output);
      });
      const ended = waitFor(dc, 'terminated');
      const { set } = await start(
        dc,
        { updateId: node.ledger.samples.settlementUpdate, stopOnEntry: false },
        {
          breakpoints: [
            {
              path: IOU,
              breakpoints: [{ line: lineOf(IOU, 'choice Iou_Transfer'), logMessage: 'Exercised {choice} on {contractId} by {parties.actingParties[0]}' }],
            },
            {
              path: DAML('Bank/Account.daml'),
              breakpoints: [
                { line: 1 },
                { line: lineOf(DAML('Bank/Account.daml'), 'Account_Log'), condition: 'argument.(' },
                { line: lineOf(DAML('Bank/Account.daml'), 'Account_Log') + 1, logMessage: 'Logged {argument.entry}' },
              ],
            },
          ],
          runsToEnd: true,
        },
      );
      await ended;
      assert.equal(logged.length, 2);
      assert.match(logged[0], /^Exercised Iou_Transfer on 00\S+ by Alice::\S+\n$/);
      assert.ok(logged[1].startsWith('Logged '), logged[1]);
      assert.ok(
        [...logged[1].slice(0, -1)].every((c) => c.charCodeAt(0) >= 0x20 && !(c >= '\u202a' && c <= '\u202e')),
        'hostile ledger text cannot restyle or forge console lines',
      );
      assert.match(logged[1], /\\u001b/, 'its control characters are written as escapes');
      const [unbound, badCondition] = set[1].body.breakpoints;
      assert.equal(unbound.verified, false);
      assert.match(unbound.message ?? '', /Not in a template, interface or choice/);
      assert.equal(badCondition.verified, false);
      assert.match(badCondition.message ?? '', /Condition: .* at 10/);
    });

    it('replays a range across updates, filtered by template, and says when a launch has nothing to walk', async () => {
      const { stopped } = await start(dc, { fromOffset: node.ledger.prunedUpTo, templates: ['Settlement:Settlement'] });
      assert.equal(stopped?.body.reason, 'entry');
      assert.match((await top(dc)).top.name, /^create Settlement:Settlement/, 'the settlement set-up comes first');
      const again = await harness.client();
      const { stopped: atBreakpoint } = await start(
        again,
        { fromOffset: node.ledger.prunedUpTo, templates: ['Settlement:Settlement'], stopOnEntry: false },
        { breakpoints: [{ path: SETTLEMENT, breakpoints: [{ line: lineOf(SETTLEMENT, 'choice Settlement_Execute') }] }] },
      );
      assert.equal(atBreakpoint?.body.reason, 'breakpoint', 'the second update of the range');
      assert.equal((await top(again)).frames.length, 2);
      await assert.rejects(start(await harness.client(), { updateId: node.ledger.samples.unknownUpdate }), /not found|no update/i);
      await assert.rejects(start(await harness.client(), {}), /needs "updateId", or "fromOffset"/);
      await assert.rejects(start(await harness.client(), { fromOffset: node.ledger.prunedUpTo, templates: ['No:Such'] }), /No update after offset 10/);
      await assert.rejects(start(await harness.client(), { fromOffset: 2 }), /pruned the updates up to offset 10: set "fromOffset" to 10 or later/);
    });

    it('says when the node fails mid-session, and goes on once it answers again', async () => {
      await start(dc, { updateId: node.ledger.samples.settlementUpdate });
      node.injectFault({ fault: { type: 'html500' }, path: '/v2/events/events-by-contract-id' });
      const s = await scopes(dc);
      const unread = await vars(dc, s.Contract.variablesReference);
      assert.match(unread.value.value, /could not be read/);
      node.clearFaults();
      const read = await vars(dc, s.Contract.variablesReference);
      assert.equal(read.operator.value, JSON.stringify(node.ledger.parties.Bank), 'asked again when opened again');

      // Pages of two updates: the next page is read while the session runs.
      const paged = await debugHarness(node, 'reader', [], 2);
      const range = await paged.client();
      await start(range, { fromOffset: node.ledger.prunedUpTo, stopOnEntry: true });
      node.injectFault({ fault: { type: 'html500' }, path: '/v2/updates' });
      const failed = await stepAndWait(range, () => range.continueRequest({ threadId: 1 }));
      assert.equal(failed.body.reason, 'exception');
      assert.match(failed.body.description ?? '', /Reading the next updates from fake failed/);
      const info = await range.exceptionInfoRequest({ threadId: 1 });
      assert.ok(info.body.details?.message);
      node.clearFaults();
      const ended = waitFor(range, 'terminated');
      await range.continueRequest({ threadId: 1 });
      await ended;
      await paged.close();
    });

    it('pauses an attach session at the next update when none has come, and restarts at the first step', async () => {
      const bank = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('bank') });
      const { Alice, Bank } = node.ledger.parties;
      try {
        await start(dc, {}, { request: 'attach' });
        await dc.pauseRequest({ threadId: 1 });
        const paused = waitFor(dc, 'stopped');
        await submitAndWaitForTransaction(bank, {
          commandId: `pause-${version}-${Date.now()}`,
          actAs: [Bank],
          commands: [
            {
              CreateCommand: {
                templateId: '#canton-lens-demo-model:Iou:Iou',
                createArguments: { issuer: Bank, owner: Alice, currency: 'USD', amount: '7.0', observers: [] },
              },
            },
          ],
        });
        assert.equal(((await paused) as DebugProtocol.StoppedEvent).body.reason, 'pause');
        assert.match((await top(dc)).top.name, /^create Iou:Iou/);
        const restarted = waitFor(dc, 'stopped');
        await dc.restartRequest({});
        assert.equal(((await restarted) as DebugProtocol.StoppedEvent).body.reason, 'entry');
      } finally {
        await bank.close();
      }
    });

    it('attaches to the live ledger: logs, stops at a failed command, then at the first new update a breakpoint condition holds for', async () => {
      const alice = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice') });
      const bank = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('bank') });
      const { Alice, Bank } = node.ledger.parties;
      const logged: string[] = [];
      let n = 0;
      const cmd = (actAs: string[], commands: unknown[], commandId = `debug-${version}-${++n}-${Date.now()}`) => ({ commandId, actAs, commands }) as JsCommands;
      const IOU_ID = '#canton-lens-demo-model:Iou:Iou';
      const split = (cid: string, amount: string, commandId?: string) =>
        cmd([Alice], [{ ExerciseCommand: { templateId: IOU_ID, contractId: cid, choice: 'Iou_Split', choiceArgument: { splitAmount: amount } } }], commandId);
      const creates = (t: { transaction: { events: unknown[] } }) =>
        t.transaction.events.flatMap((e) => ('CreatedEvent' in (e as object) ? [(e as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId] : []));
      // The failed commands are the token's user's: a session as alice.
      const asAlice = await debugHarness(node, 'alice', [Alice]);
      dc = await asAlice.client();
      dc.on('output', (e: DebugProtocol.OutputEvent) => {
        if (e.body.output.startsWith('Iou of ')) logged.push(e.body.output.trim());
      });
      try {
        await start(
          dc,
          {},
          {
            request: 'attach',
            exceptions: ['failedCommands'],
            breakpoints: [
              {
                path: IOU,
                breakpoints: [
                  { line: lineOf(IOU, 'choice Iou_Split'), condition: 'argument.splitAmount > 10' },
                  { line: lineOf(IOU, 'template Iou'), logMessage: 'Iou of {argument.amount}' },
                ],
              },
            ],
          },
        );
        const created = await submitAndWaitForTransaction(
          bank,
          cmd(
            [Bank],
            [{ CreateCommand: { templateId: IOU_ID, createArguments: { issuer: Bank, owner: Alice, currency: 'USD', amount: '100.0', observers: [] } } }],
          ),
        );
        const first = split(creates(created)[0], '5.0');
        const [, rest] = creates(await submitAndWaitForTransaction(alice, first));
        const exception = waitFor(dc, 'stopped');
        await assert.rejects(submitAndWaitForTransaction(alice, split(creates(created)[0], '5.0', first.commandId)), /DUPLICATE_COMMAND/);
        const e = (await exception) as DebugProtocol.StoppedEvent;
        assert.equal(e.body.reason, 'exception');
        const info = await dc.exceptionInfoRequest({ threadId: 1 });
        assert.equal(info.body.exceptionId, 'DUPLICATE_COMMAND');
        assert.match((await top(dc)).top.name, /^failed command debug-/);

        const atBreakpoint = waitFor(dc, 'stopped');
        await dc.continueRequest({ threadId: 1 });
        await submitAndWaitForTransaction(alice, split(rest, '30.0'));
        const b = (await atBreakpoint) as DebugProtocol.StoppedEvent;
        assert.equal(b.body.reason, 'breakpoint');
        const { top: f } = await top(dc);
        assert.equal(f.line, lineOf(IOU, 'choice Iou_Split'));
        const amount = await dc.evaluateRequest({ expression: 'argument.splitAmount', frameId: f.id, context: 'watch' });
        assert.match(amount.body.result, /^30\.0*$/);
        assert.deepEqual(
          logged.map((l) => l.replace(/0+$/, '').replace(/\.$/, '')),
          ['Iou of 100', 'Iou of 5', 'Iou of 95'],
          'each create logged once, in ledger order, before the stop',
        );
      } finally {
        await dc.stop();
        await asAlice.close();
        await alice.close();
        await bank.close();
      }
    });
  });
}
