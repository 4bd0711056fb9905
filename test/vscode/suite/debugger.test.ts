// A ledger transaction in VS Code's debugger, on 3.4, 3.5 and 3.6: Canton: Debug Transaction stops
// on entry at the Daml choice; a breakpoint set in a Daml file stops a launch there with the argument
// in Variables; stepping out shows the result; Show Contract opens a contract id from Variables;
// another token on the node ends the session.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { cantonLens, resetNodes, until, useFakeNode } from './testApi';

describe('Debugging ledger transactions', function () {
  this.timeout(90_000);
  const fakes: FakeLedgerNode[] = [];
  const stops: { session: vscode.DebugSession; body: DebugProtocol.StoppedEvent['body'] }[] = [];
  const ended = new Set<string>();
  let tracker: vscode.Disposable;
  let endings: vscode.Disposable;
  const folder = () => vscode.workspace.workspaceFolders![0].uri;

  before(async () => {
    await resetNodes();
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('canton', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (m: DebugProtocol.ProtocolMessage) => {
          if (m.type === 'event' && (m as DebugProtocol.Event).event === 'stopped') stops.push({ session, body: (m as DebugProtocol.StoppedEvent).body });
        },
      }),
    });
    endings = vscode.debug.onDidTerminateDebugSession((s) => ended.add(s.id));
  });
  afterEach(async () => {
    // A failed test leaves no session behind for the next.
    while (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
  });
  after(async () => {
    tracker.dispose();
    endings.dispose();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    await resetNodes();
    await Promise.all(fakes.map((f) => f.close()));
  });

  const nextStop = async (session: vscode.DebugSession, after: number) =>
    until('the debugger to stop', () => stops.slice(after).find((s) => s.session.id === session.id), 30_000);
  const lineOf = async (uri: vscode.Uri, text: string) =>
    Buffer.from(await vscode.workspace.fs.readFile(uri))
      .toString('utf8')
      .split('\n')
      .findIndex((l) => l.includes(text));

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: Debug Transaction stops at the choice, a Daml breakpoint stops a launch, step out shows the result`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `debug-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      const settlement = vscode.Uri.joinPath(folder(), 'daml-model', 'daml', 'Settlement.daml');
      const iou = vscode.Uri.joinPath(folder(), 'daml-model', 'daml', 'Iou.daml');

      // Debug Transaction: stops on entry, at the choice line of the workspace's Daml source.
      let before = stops.length;
      assert.equal(await vscode.commands.executeCommand('cantonLens.debugTransaction', fake.ledger.samples.settlementUpdate, name), true);
      const session = await until('the session', () =>
        vscode.debug.activeDebugSession?.type === 'canton' && !ended.has(vscode.debug.activeDebugSession.id) ? vscode.debug.activeDebugSession : undefined,
      );
      assert.equal(session.type, 'canton');
      const entry = await nextStop(session, before);
      assert.equal(entry.body.reason, 'entry');
      const trace = (await session.customRequest('stackTrace', { threadId: 1 })) as DebugProtocol.StackTraceResponse['body'];
      // A path from the adapter; the workbench gives it back as a URI in a remote window.
      const shown = trace.stackFrames[0].source?.path ?? '';
      assert.equal(shown.startsWith('/') ? shown : vscode.Uri.parse(shown).path, settlement.path);
      assert.equal(trace.stackFrames[0].line, (await lineOf(settlement, 'choice Settlement_Execute')) + 1);
      await vscode.debug.stopDebugging(session);
      await until('the session to end', () => ended.has(session.id));

      // A breakpoint inside Iou_Transfer: a launch without stop on entry stops there.
      const choiceLine = await lineOf(iou, 'choice Iou_Transfer');
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
      vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(iou, new vscode.Position(choiceLine + 3, 0)))]);
      before = stops.length;
      assert.ok(
        await vscode.debug.startDebugging(undefined, {
          type: 'canton',
          request: 'launch',
          name: 'transfer',
          node: name,
          updateId: fake.ledger.samples.settlementUpdate,
          stopOnEntry: false,
        }),
      );
      const launched = await until('the session', () => (vscode.debug.activeDebugSession?.name === 'transfer' ? vscode.debug.activeDebugSession : undefined));
      const hit = await nextStop(launched, before);
      assert.equal(hit.body.reason, 'breakpoint');
      const frames = ((await launched.customRequest('stackTrace', { threadId: 1 })) as DebugProtocol.StackTraceResponse['body']).stackFrames;
      assert.equal(frames[0].line, choiceLine + 1, 'on the choice line');
      assert.match(frames[0].name, /Iou_Transfer/);
      const scopes = ((await launched.customRequest('scopes', { frameId: frames[0].id })) as DebugProtocol.ScopesResponse['body']).scopes;
      const argument = scopes.find((s) => s.name === 'Argument')!;
      const vars = ((await launched.customRequest('variables', { variablesReference: argument.variablesReference })) as DebugProtocol.VariablesResponse['body'])
        .variables;
      assert.equal(vars.find((v) => v.name === 'newOwner')?.value, JSON.stringify(fake.ledger.parties.Bob));
      const bound = vscode.debug.breakpoints[0] as vscode.SourceBreakpoint;
      assert.equal(bound.location.range.start.line, choiceLine + 3, 'VS Code keeps the line set; the adapter bound it to the choice');

      // Step out: the exercise returns, with its result.
      before = stops.length;
      await launched.customRequest('stepOut', { threadId: 1 });
      await nextStop(launched, before);
      const out = ((await launched.customRequest('stackTrace', { threadId: 1 })) as DebugProtocol.StackTraceResponse['body']).stackFrames;
      const outScopes = ((await launched.customRequest('scopes', { frameId: out[0].id })) as DebugProtocol.ScopesResponse['body']).scopes;
      const result = outScopes.find((s) => s.name === 'Result');
      assert.ok(result, 'the Result scope once the exercise returns');
      const value = (
        (await launched.customRequest('evaluate', { expression: 'result', frameId: out[0].id, context: 'watch' })) as DebugProtocol.EvaluateResponse['body']
      ).result;
      assert.match(value, /^00[0-9a-f]+/);

      // A contract id from Variables opens its panel.
      const id = value.replace(/^"|"$/g, '');
      await vscode.commands.executeCommand('cantonLens.showContractFromDebugger', { variable: { value: JSON.stringify(id) } });
      await until('the contract panel', () => api.panels.panels.find((p) => p.current.kind === 'contract' && p.current.id === id));
      // Another token on the node: the session, which read as the one before, ends.
      await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken('bob'));
      await until('the session to end with the identity it read as', () => ended.has(launched.id));
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    });
  }
});
