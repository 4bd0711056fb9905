// The `canton` debug adapter: a ledger update (or a range of them, or the live ledger) walked in
// VS Code's debugger over the Debug Adapter Protocol, on the official @vscode/debugadapter. The
// call stack is the path through the exercise tree, sources are the workspace's Daml choices (else
// the event's JSON), breakpoints sit on choice and template lines. Runs inside the extension
// (inline) or on a socket (tests). No `vscode` import.
import * as path from 'node:path';
import { DebugSession, InitializedEvent, OutputEvent, Scope, Source, StackFrame, StoppedEvent, TerminatedEvent, Thread } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { shortenPartyId } from '../ids/ledgerIds';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { BreakpointSet, type DebugSources } from './debugBreakpoints';
import { consoleSafe, ExpressionError, evaluate, MISSING, parseExpression, rootsOf, showValue } from './debugExpressions';
import { clientDebugLedger, type DebugLedgerAccess } from './debugLedger';
import type { LoadedUpdate, Stop } from './debugProgram';
import { frameLocation, frameName, rangeError } from './debugFrames';
import { DebugRunner, type StopReason } from './debugRunner';
import { rootsAt, scopesAt, targetContractId, VariableStore, type ContractState } from './debugScopes';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';

/** What a launch or attach configuration of type `canton` says. */
export interface CantonDebugArgs {
  /** The configured node (default: the active one). */
  node?: string;
  /** Replay one update. */
  updateId?: string;
  /** Replay a range: after this offset (exclusive) … */
  fromOffset?: number;
  /** … up to this one (inclusive; default the ledger end). Attach: where following starts (default the ledger end). */
  toOffset?: number;
  /** Read as these parties (within the token's). */
  parties?: string[];
  /** Only updates with an event of these templates or interfaces (`Module:Entity` or a full id). */
  templates?: string[];
  /** Stop at the first step (launch). Unset: run to the first breakpoint, else stop at the first step. */
  stopOnEntry?: boolean;
}

export interface DebugHost {
  /** The node's client, token and parties as the token sees it; throws an error that says what to do. */
  connect(args: CantonDebugArgs, signal: AbortSignal): Promise<DebugLedgerAccess>;
  sources: DebugSources;
}

const THREAD = 1;
const FAILED_COMMANDS = 'failedCommands';

function errorText(e: unknown): string {
  return isLedgerApiError(e) ? e.explanation : String((e as Error)?.message ?? e);
}

export class CantonDebugSession extends DebugSession {
  private runner: DebugRunner | undefined;
  private readonly breakpoints = new BreakpointSet();
  private readonly variables = new VariableStore();
  /** Scope handles of contracts read when opened: handle → the stop it belongs to. */
  private readonly lazyContracts = new Map<number, { u: LoadedUpdate; stop: Stop }>();
  private readonly virtualSources = new Map<number, () => string>();
  private nextSourceRef = 1;
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((r) => (this.configured = r));
  private failedCommands = false;
  private readonly connecting = new AbortController();

  constructor(private readonly host: DebugHost) {
    super();
    this.setDebuggerLinesStartAt1(false);
    this.setDebuggerColumnsStartAt1(false);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsStepBack: true,
      supportsRestartRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      exceptionBreakpointFilters: [
        {
          filter: FAILED_COMMANDS,
          label: l10n.t('Failed Commands'),
          description: l10n.t('Stop when a command of the token\u2019s user fails (attach sessions, from the completions).'),
          default: false,
        },
      ],
    };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.configured();
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, given: (DebugProtocol.LaunchRequestArguments & CantonDebugArgs) | undefined): void {
    this.launchAnswer(response, given).catch((e: unknown) => this.fail(response, e));
  }

  private async launchAnswer(
    response: DebugProtocol.LaunchResponse,
    given: (DebugProtocol.LaunchRequestArguments & CantonDebugArgs) | undefined,
  ): Promise<void> {
    const args = given ?? {};
    await this.configurationDone;
    let runner: DebugRunner;
    try {
      runner = await this.newRunner(args);
      if (typeof args.updateId === 'string' && args.updateId.trim()) {
        this.say(l10n.t('Reading update {0} from {1}…', args.updateId.trim(), runner.ledger.nodeName));
        await runner.launchUpdate(args.updateId.trim());
      } else if (typeof args.fromOffset === 'number') {
        const end = typeof args.toOffset === 'number' ? args.toOffset : await runner.ledger.ledgerEnd(runner.signal);
        this.say(l10n.t('Reading the updates after offset {0} up to {1} from {2}…', args.fromOffset, end, runner.ledger.nodeName));
        if (!(await runner.launchRange(args.fromOffset, end).catch((e: unknown) => Promise.reject(rangeError(e, args.fromOffset!, end) as Error))))
          throw new Error(
            l10n.t(
              'No update after offset {0} up to {1} that {2} see{3}.',
              args.fromOffset,
              end,
              this.whoText(runner),
              args.templates?.length ? l10n.t(' with {0}', args.templates.join(', ')) : '',
            ),
          );
      } else
        throw new Error(
          l10n.t('A canton launch needs "updateId", or "fromOffset" (and "toOffset") for a range. Use "request": "attach" to follow the ledger.'),
        );
    } catch (e) {
      return this.fail(response, e);
    }
    // Answered once, then walked: a failure from here on is the session's, not the launch's.
    this.sendResponse(response);
    this.describeProgram(runner);
    runner.start(args.stopOnEntry === true ? 'entry' : args.stopOnEntry === false ? 'run' : 'auto');
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse, given: (DebugProtocol.AttachRequestArguments & CantonDebugArgs) | undefined): void {
    this.attachAnswer(response, given).catch((e: unknown) => this.fail(response, e));
  }

  private async attachAnswer(
    response: DebugProtocol.AttachResponse,
    given: (DebugProtocol.AttachRequestArguments & CantonDebugArgs) | undefined,
  ): Promise<void> {
    const args = given ?? {};
    await this.configurationDone;
    let runner: DebugRunner;
    let begin: number;
    try {
      runner = await this.newRunner(args);
      begin = await runner.attach(typeof args.fromOffset === 'number' ? args.fromOffset : undefined);
    } catch (e) {
      return this.fail(response, e);
    }
    this.sendResponse(response);
    this.say(
      l10n.t(
        'Following {0} after offset {1}, as {2}: the session stops at the first breakpoint a new update hits.',
        runner.ledger.nodeName,
        begin,
        this.whoText(runner),
      ),
    );
  }

  private async newRunner(args: CantonDebugArgs): Promise<DebugRunner> {
    const ledger = clientDebugLedger(await this.host.connect(args, this.connecting.signal));
    // Stopped while connecting (a sign-in, the rights): nothing is started.
    if (this.connecting.signal.aborted) throw new Error(l10n.t('The session was stopped.'));
    const runner = new DebugRunner(
      ledger,
      this.breakpoints,
      {
        stopped: (reason, o) => this.stopped(reason, o),
        // Ledger text in a log line: escaped, so it cannot restyle or forge console lines.
        output: (text, category) => this.sendEvent(new OutputEvent(consoleSafe(text.replace(/\n$/, '')) + '\n', category ?? 'console')),
        ended: () => {
          this.say(l10n.t('The end of what was read: the session ends.'));
          this.sendEvent(new TerminatedEvent());
        },
      },
      args.templates,
    );
    runner.failedCommands = this.failedCommands;
    this.runner = runner;
    return runner;
  }

  private whoText(runner: DebugRunner): string {
    return runner.ledger.parties.length ? runner.ledger.parties.map(shortenPartyId).join(', ') : l10n.t('any party');
  }

  private describeProgram(runner: DebugRunner): void {
    const n = runner.program.updates.length;
    const events = runner.program.updates.reduce((s, u) => s + u.tree.length, 0);
    this.say(l10n.t('{0} update(s), {1} event(s) read from {2} as {3}.', formatCount(n), formatCount(events), runner.ledger.nodeName, this.whoText(runner)));
  }

  private say(text: string): void {
    this.sendEvent(new OutputEvent(text + '\n', 'console'));
  }

  private fail(response: DebugProtocol.Response, e: unknown): void {
    this.sendErrorResponse(response, { id: 1001, format: '{_m}', variables: { _m: errorText(e) }, showUser: true });
  }

  private stopped(reason: StopReason, o: { hitBreakpointIds?: number[]; description?: string; text?: string } = {}): void {
    this.variables.reset();
    this.lazyContracts.clear();
    this.virtualSources.clear();
    const ev: DebugProtocol.StoppedEvent = new StoppedEvent(reason, THREAD, o.text);
    if (o.description) ev.body.description = o.description;
    if (o.hitBreakpointIds) ev.body.hitBreakpointIds = o.hitBreakpointIds;
    this.sendEvent(ev);
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    this.setBreakPointsAnswer(response, args).catch((e: unknown) => this.fail(response, e));
  }

  private async setBreakPointsAnswer(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): Promise<void> {
    const file = args.source.path;
    if (!file) {
      response.body = {
        breakpoints: (args.breakpoints ?? []).map((b) => ({ verified: false, line: b.line, message: l10n.t('Only breakpoints in Daml files bind.') })),
      };
      return this.sendResponse(response);
    }
    const p = this.convertClientPathToDebugger(file);
    const index = await this.host.sources.index().catch(() => undefined);
    // One-based lines inside (the binding's), whatever the client counts from.
    const requests = (args.breakpoints ?? []).map((b) => ({ ...b, line: this.convertClientLineToDebugger(b.line) + 1 }));
    const bound = this.breakpoints.set(p, requests, index, this.host.sources.indexedFileOf(p));
    response.body = {
      breakpoints: bound.map((b) => ({
        id: b.id,
        verified: b.verified,
        line: this.convertDebuggerLineToClient(b.line - 1),
        message: b.message,
        source: args.source,
      })),
    };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    this.failedCommands = args.filters.includes(FAILED_COMMANDS);
    this.runner?.setFailedCommands(this.failedCommands);
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [new Thread(THREAD, this.runner?.ledger.nodeName ?? l10n.t('Ledger'))] };
    this.sendResponse(response);
  }

  /** The frames at the current position, innermost first: node indices, and -1 for the update itself. */
  private frameNodes(): { u: LoadedUpdate; nodes: number[] } | undefined {
    const r = this.runner;
    if (!r?.pos) return undefined;
    const u = r.program.updates[r.pos.update];
    const nodes = r.program.frames(r.pos);
    nodes.push(-1);
    return { u, nodes };
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    this.stackTraceAnswer(response, args).catch((e: unknown) => this.fail(response, e));
  }

  private async stackTraceAnswer(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): Promise<void> {
    const at = this.frameNodes();
    if (!at) {
      response.body = { stackFrames: [], totalFrames: 0 };
      return this.sendResponse(response);
    }
    const start = args.startFrame ?? 0;
    const end = Math.min(at.nodes.length, start + (args.levels || at.nodes.length));
    const index = await this.host.sources.index().catch(() => undefined);
    const stop = this.runner!.program.stopAt(this.runner!.pos!);
    const frames: StackFrame[] = [];
    for (let i = start; i < end; i++) frames.push(this.frame(i, at.u, at.nodes[i], i === 0 ? stop.phase : 'enter', index));
    response.body = { stackFrames: frames, totalFrames: at.nodes.length };
    this.sendResponse(response);
  }

  private frame(i: number, u: LoadedUpdate, node: number, phase: 'enter' | 'exit', index: Awaited<ReturnType<DebugSources['index']>>): StackFrame {
    const f = new StackFrame(i + 1, frameName(u, node) + (phase === 'exit' ? l10n.t(' (returning)') : ''));
    const at = frameLocation(u, node, index, (f) => this.host.sources.pathOf(f));
    if (at.kind === 'daml') {
      f.source = new Source(path.basename(at.path), this.convertDebuggerPathToClient(at.path), undefined, at.origin);
      f.line = this.convertDebuggerLineToClient(at.line);
      f.column = this.convertDebuggerColumnToClient(at.column);
      if (at.origin) f.presentationHint = 'subtle';
      return f;
    }
    const ref = this.nextSourceRef++;
    this.virtualSources.set(ref, at.content);
    f.source = new Source(at.name, undefined, ref, l10n.t('read-only: no Daml source in the workspace'));
    f.line = this.convertDebuggerLineToClient(0);
    f.column = this.convertDebuggerColumnToClient(0);
    return f;
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const content = this.virtualSources.get(args.sourceReference ?? args.source?.sourceReference ?? 0);
    if (!content)
      return this.sendErrorResponse(response, {
        id: 1002,
        format: l10n.t('This source is gone: the debugger has moved on. Select the frame again.'),
        showUser: false,
      });
    response.body = { content: content(), mimeType: 'application/json' };
    this.sendResponse(response);
  }

  /** The stop a frame shows: the current one for the top frame, an enclosing exercise's entry for the others. */
  private frameStop(frameId: number | undefined): { u: LoadedUpdate; stop: Stop } | undefined {
    const at = this.frameNodes();
    if (!at) return undefined;
    const i = Math.max(0, (frameId ?? 1) - 1);
    const current = this.runner!.program.stopAt(this.runner!.pos!);
    if (i === 0 || i >= at.nodes.length) return { u: at.u, stop: current };
    return { u: at.u, stop: { node: at.nodes[i], phase: 'enter' } };
  }

  private contractOf(u: LoadedUpdate, stop: Stop): ContractState {
    return this.runner!.contractState(targetContractId(u, stop));
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const at = this.frameStop(args.frameId);
    if (!at) {
      response.body = { scopes: [] };
      return this.sendResponse(response);
    }
    const scopes = scopesAt(at.u, at.stop, this.contractOf(at.u, at.stop)).map((s) => {
      if (s.expensive) {
        const ref = this.variables.add({}, s.root);
        this.lazyContracts.set(ref, at);
        return new Scope(s.title, ref, true);
      }
      const value = s.value !== null && typeof s.value === 'object' ? s.value : { value: s.value };
      return new Scope(s.title, this.variables.add(value, s.root), false);
    });
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    this.variablesAnswer(response, args).catch((e: unknown) => this.fail(response, e));
  }

  private async variablesAnswer(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): Promise<void> {
    const lazy = this.lazyContracts.get(args.variablesReference);
    if (lazy && this.runner) {
      const state = await this.runner.contractAt(lazy.u, lazy.stop);
      const value = scopesAt(lazy.u, lazy.stop, state).find((s) => s.root === 'contract')?.value;
      const shown = value !== null && typeof value === 'object' ? value : { value };
      response.body = { variables: this.variables.children(this.variables.add(shown, 'contract')) };
      return this.sendResponse(response);
    }
    const start = args.filter === 'indexed' ? (args.start ?? 0) : 0;
    response.body = { variables: this.variables.children(args.variablesReference, start, args.filter === 'indexed' ? args.count : undefined) };
    this.sendResponse(response);
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    this.evaluateAnswer(response, args).catch((e: unknown) => this.fail(response, e));
  }

  private async evaluateAnswer(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): Promise<void> {
    const at = this.frameStop(args.frameId);
    if (!at) return this.sendErrorResponse(response, { id: 1003, format: l10n.t('Not stopped at a step: there is nothing to evaluate yet.'), showUser: false });
    try {
      const expr = parseExpression(args.expression);
      const roots = rootsOf(expr);
      const contract = roots.has('contract') ? await this.runner!.contractAt(at.u, at.stop) : this.contractOf(at.u, at.stop);
      const read = rootsAt(at.u, at.stop, contract);
      let value = evaluate(expr, read);
      // Children are named by the path that reads them (Add to Watch); other expressions' are not.
      let named = expr.type === 'path' ? { root: expr.root, steps: expr.steps } : { root: '', steps: [] };
      // A word hovered in Daml source: a field of the argument.
      if (value === MISSING && args.context === 'hover' && expr.type === 'path' && expr.steps.length === 0) {
        value = evaluate({ ...expr, root: 'argument', steps: [expr.root] }, read);
        named = { root: 'argument', steps: [expr.root] };
      }
      if (value === MISSING && args.context === 'hover') return this.sendErrorResponse(response, { id: 1004, format: '', showUser: false });
      response.body = { result: showValue(value), variablesReference: value !== MISSING ? this.variables.add(value, named.root, named.steps) : 0 };
      if (Array.isArray(value)) response.body.indexedVariables = value.length;
      this.sendResponse(response);
    } catch (e) {
      const message = e instanceof ExpressionError ? e.message : errorText(e);
      this.sendErrorResponse(response, { id: 1005, format: '{_m}', variables: { _m: message }, showUser: false });
    }
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const f = this.runner?.failure;
    response.body = {
      exceptionId: f?.id ?? 'unknown',
      description: f?.description ?? '',
      breakMode: 'always',
      ...(f?.details ? { details: { message: f.details } } : {}),
    };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.runner?.continue();
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.sendResponse(response);
    void this.runner?.step('over');
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.sendResponse(response);
    void this.runner?.step('in');
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.sendResponse(response);
    void this.runner?.step('out');
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.sendResponse(response);
    this.runner?.stepBack();
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.sendResponse(response);
    this.runner?.reverseContinue();
  }

  protected override restartRequest(response: DebugProtocol.RestartResponse): void {
    this.sendResponse(response);
    this.runner?.restart();
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.sendResponse(response);
    this.runner?.pause();
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.end();
    this.sendResponse(response);
    this.sendEvent(new TerminatedEvent());
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    this.end();
    this.sendResponse(response);
  }

  private end(): void {
    this.connecting.abort();
    this.runner?.dispose();
  }
}
