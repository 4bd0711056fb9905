// The debugger's state: where it stands in the program, how it moves (steps both ways, continue to
// a breakpoint, pause), and where the updates come from (one by id, a range read page by page, the
// live ledger). Every command supersedes one still running, so a pause or a new step is never
// queued behind a long walk. No `vscode` import.
import type { Completion, CreatedEvent } from '../ledger/apiTypes';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { parseTemplateId } from '../daml/damlIndex';
import type { BreakpointSet } from './debugBreakpoints';
import { evaluate, interpolate, truthy } from './debugExpressions';
import { DebugProgram, nodeAt, type Position, type ProgramUpdate, type StepKind } from './debugProgram';
import type { DebugLedger } from './debugLedger';
import { rootsAt, targetContractId, type ContractState } from './debugScopes';
import * as l10n from '../l10n/l10n';

export type StopReason = 'entry' | 'step' | 'breakpoint' | 'exception' | 'pause';

export interface RunnerEvents {
  stopped(reason: StopReason, o?: { hitBreakpointIds?: number[]; description?: string; text?: string }): void;
  output(text: string, category?: 'console' | 'stderr' | 'important'): void;
  /** Nothing more to walk: the session ends. */
  ended(): void;
}

export interface Failure {
  id: string;
  description: string;
  details?: string;
}

/** How many stops a walk checks before it lets other work (a pause, a disconnect) in. */
const SLICE = 2_000;

function errorText(e: unknown): string {
  return isLedgerApiError(e) ? e.explanation : String((e as Error)?.message ?? e);
}

/** The failure a failed completion carries: its code (from the message) and message. */
export function completionFailure(c: Completion): Failure {
  const status = (c.status ?? {}) as { code?: number; message?: string };
  const message = typeof status.message === 'string' ? status.message : '';
  const code = /^([A-Z][A-Z0-9_]+)\(/.exec(message)?.[1];
  return { id: code ?? `gRPC ${status.code ?? '?'}`, description: l10n.t('Command {0} failed', String(c.commandId ?? '')), details: message || undefined };
}

export class DebugRunner {
  readonly program = new DebugProgram();
  pos: Position | undefined;
  /** The last exception stop's failure (exceptionInfo). */
  failure: Failure | undefined;
  private readonly contracts = new Map<string, ContractState>();
  private more: AsyncGenerator<ProgramUpdate[]> | undefined;
  /** Following the live ledger (attach). */
  private live = false;
  private waiting: { from: Position | undefined; kind: 'continue' | 'step' } | undefined;
  private pauseOnArrival = false;
  private runToken = 0;
  private readonly ac = new AbortController();
  private completions: AbortController | undefined;
  /** Only updates touching these `Module:Entity` names (empty: all). */
  private readonly templates: Set<string>;
  failedCommands = false;

  constructor(
    readonly ledger: DebugLedger,
    readonly breakpoints: BreakpointSet,
    private readonly events: RunnerEvents,
    templates: readonly string[] = [],
  ) {
    this.templates = new Set(
      templates.map((t) => {
        const p = parseTemplateId(t);
        return p ? `${p.module}:${p.entity}` : t;
      }),
    );
  }

  get signal(): AbortSignal {
    return this.ac.signal;
  }

  dispose(): void {
    this.runToken++;
    this.ac.abort();
    this.completions?.abort();
    void this.more?.return(undefined).catch(() => undefined);
  }

  // ---- where the updates come from

  async launchUpdate(updateId: string): Promise<void> {
    this.program.append(await this.ledger.update(updateId, this.signal));
  }

  /** Reads the first page of the range; false when the range holds nothing for these parties. */
  async launchRange(beginExclusive: number, endInclusive: number): Promise<boolean> {
    this.rangeBegin = beginExclusive;
    this.rangeEnd = endInclusive;
    this.more = this.ledger.range(beginExclusive, endInclusive, this.signal);
    while (this.program.stopCount === 0) {
      const r = await this.more.next();
      if (r.done) return false;
      this.add(r.value);
    }
    return true;
  }

  /** Follows the ledger from an offset (the ledger end when unset); the session runs until a breakpoint. */
  async attach(beginExclusive?: number): Promise<number> {
    const begin = beginExclusive ?? (await this.ledger.ledgerEnd(this.signal));
    this.live = true;
    this.waiting = { from: undefined, kind: 'continue' };
    this.follow(begin);
    if (this.failedCommands) this.followFailedCommands(begin);
    return begin;
  }

  /**
   * The live stream from an offset. Breaks are bridged from the last update seen (a read); a refusal
   * (rights, an expired token) stops the session with the error, and Continue opens it again.
   */
  private follow(begin: number): void {
    this.followFailed = undefined;
    void this.ledger
      .follow(
        begin,
        this.signal,
        (batch) => this.arrive(batch),
        (error) =>
          this.events.output(l10n.t('The stream from {0} broke ({1}); reading again from the last update.', this.ledger.nodeName, error) + '\n', 'stderr'),
      )
      .catch((e: unknown) => {
        if (this.signal.aborted) return;
        this.followFailed = { from: this.lastOffset() ?? begin };
        this.failure = { id: 'stream stopped', description: l10n.t('Following {0} stopped', this.ledger.nodeName), details: errorText(e) };
        this.events.output(`${this.failure.description}: ${errorText(e)}\n`, 'stderr');
        if (this.program.stopCount === 0) return this.events.ended();
        this.runToken++;
        this.waiting = undefined;
        this.stopAt(this.cursor ?? this.pos ?? { update: 0, stop: 0 }, 'exception', this.failure.description, this.failure.details);
      });
  }

  private followFailed: { from: number } | undefined;

  private lastOffset(): number | undefined {
    for (let i = this.program.updates.length - 1; i >= 0; i--) {
      const u = this.program.updates[i].update;
      if (u.kind !== 'failedCommand' && typeof u.value.offset === 'number') return u.value.offset;
    }
    return undefined;
  }

  /** Exception breakpoints on failed commands: in a live session, the completions are followed too. */
  setFailedCommands(on: boolean): void {
    this.failedCommands = on;
    if (!this.live || on === (this.completions !== undefined)) return;
    const generation = ++this.completionsGeneration;
    this.completions?.abort();
    this.completions = undefined;
    if (on)
      void this.ledger.ledgerEnd(this.signal).then(
        (end) => {
          // Toggled again while the ledger end was read: the latest toggle decides.
          if (generation === this.completionsGeneration && this.failedCommands && !this.completions) this.followFailedCommands(end);
        },
        () => undefined,
      );
  }

  private completionsGeneration = 0;

  private followFailedCommands(begin: number): void {
    const ac = new AbortController();
    this.completions = ac;
    this.signal.addEventListener('abort', () => ac.abort(), { once: true, signal: ac.signal });
    this.ledger
      .failedCommands(begin, ac.signal, (c) => this.arrive([{ kind: 'failedCommand', value: c }]))
      .catch((e: unknown) => {
        if (!ac.signal.aborted) this.events.output(l10n.t('Failed commands are not followed: {0}', errorText(e)) + '\n', 'stderr');
      });
  }

  private keep(u: ProgramUpdate): boolean {
    if (this.templates.size === 0 || u.kind !== 'transaction') return true;
    return (u.value.events ?? []).some((e) => {
      const ev = Object.values(e as Record<string, { templateId?: string; interfaceId?: string }>)[0];
      return [ev?.templateId, ev?.interfaceId].some((id) => {
        const p = typeof id === 'string' ? parseTemplateId(id) : undefined;
        return p !== undefined && this.templates.has(`${p.module}:${p.entity}`);
      });
    });
  }

  private add(batch: readonly ProgramUpdate[]): void {
    for (const u of batch) if (this.keep(u)) this.program.append(u);
  }

  private arrive(batch: readonly ProgramUpdate[]): void {
    const before = this.program.stopCount;
    this.add(batch);
    if (this.program.stopCount === before) return;
    if (this.pauseOnArrival) {
      this.pauseOnArrival = false;
      const last = this.lastPosition(before);
      const first = (last && this.program.next(last)) ?? { update: 0, stop: 0 };
      this.stopAt(first, 'pause');
      return;
    }
    const w = this.waiting;
    if (!w) return;
    this.waiting = undefined;
    if (w.kind === 'continue') return void this.run(w.from, false);
    // A step that waited at the live end: into the first new stop, breakpoints checked.
    if (w.from) {
      this.pos = w.from;
      void this.step('in');
    } else void this.run(undefined, false, true);
  }

  /** The position of the stop before index `stopIndex` of the whole program. */
  private lastPosition(stopCount: number): Position | undefined {
    if (stopCount === 0) return undefined;
    for (let i = this.program.updates.length - 1; i >= 0; i--) {
      const u = this.program.updates[i];
      if (u.first < stopCount) return { update: i, stop: stopCount - 1 - u.first };
    }
    return undefined;
  }

  /**
   * The next page of a range: 'loaded', 'done' (the range is read), or 'failed' (stopped with the
   * error, unless a later command has taken over). One page is read at a time, whoever asks.
   */
  private async loadMore(token: number, at: Position | undefined): Promise<'loaded' | 'done' | 'failed'> {
    const before = this.program.stopCount;
    try {
      await (this.loading ??= this.readPage().finally(() => (this.loading = undefined)));
    } catch (e) {
      if (token !== this.runToken || this.signal.aborted) return 'failed';
      this.failure = { id: 'read failed', description: l10n.t('Reading the next updates from {0} failed', this.ledger.nodeName), details: errorText(e) };
      this.stopAt(at ?? { update: 0, stop: 0 }, 'exception', this.failure.description, this.failure.details);
      return 'failed';
    }
    return this.program.stopCount > before ? 'loaded' : 'done';
  }

  private loading: Promise<void> | undefined;

  /** Reads pages until one adds a stop or the range ends; a failure leaves where to read again. */
  private async readPage(): Promise<void> {
    const more = this.more;
    if (!more) return;
    try {
      for (;;) {
        const before = this.program.stopCount;
        const r = await more.next();
        if (r.done) {
          this.more = undefined;
          return;
        }
        this.add(r.value);
        if (this.program.stopCount > before) return;
      }
    } catch (e) {
      // The generator is spent: the next Continue asks again after the last update read.
      this.more = undefined;
      this.retryFrom = this.lastOffset() ?? this.rangeBegin;
      throw e;
    }
  }

  private retryFrom: number | undefined;
  private rangeBegin: number | undefined;
  private rangeEnd: number | undefined;

  /** After a failed page: read again from the last update read (a read; asked by the person). */
  private resumeRange(): void {
    if (this.retryFrom !== undefined && this.rangeEnd !== undefined && !this.more) {
      this.more = this.ledger.range(this.retryFrom, this.rangeEnd, this.signal);
      this.retryFrom = undefined;
    }
  }

  // ---- moving

  /**
   * `entry`: stop at the first step. `run`: run to the first breakpoint, else end. `auto`: run to
   * the first breakpoint, else stop at the first step (a replay that ends at once shows nothing).
   */
  start(mode: 'entry' | 'run' | 'auto'): void {
    if (mode === 'entry' && this.program.stopCount > 0) return this.stopAt({ update: 0, stop: 0 }, 'entry');
    this.entryIfNoHit = mode === 'auto';
    void this.run(undefined, false);
  }

  private entryIfNoHit = false;

  continue(): void {
    this.resumeRange();
    if (this.followFailed) this.follow(this.followFailed.from);
    void this.run(this.pos, false);
  }

  reverseContinue(): void {
    void this.run(this.pos, true);
  }

  restart(): void {
    this.runToken++;
    this.waiting = undefined;
    this.pauseOnArrival = false;
    this.breakpoints.resetHits();
    if (this.program.stopCount > 0) this.stopAt({ update: 0, stop: 0 }, 'entry');
  }

  /** Stops where the walk has got to (or waits for the first update when none has come). */
  pause(): void {
    this.runToken++;
    this.waiting = undefined;
    if (this.program.stopCount === 0) {
      this.pauseOnArrival = true;
      return;
    }
    this.stopAt(this.cursor ?? this.pos ?? { update: 0, stop: 0 }, 'pause');
  }

  stepBack(): void {
    this.runToken++;
    const p = this.pos && this.program.previous(this.pos);
    this.stopAt(p ?? this.pos ?? { update: 0, stop: 0 }, 'step', p ? undefined : l10n.t('At the first step'));
  }

  /** A step; over and out stop early at a breakpoint on the way, as in any debugger. */
  async step(kind: StepKind): Promise<void> {
    const token = ++this.runToken;
    this.resumeRange();
    const from = this.pos;
    if (!from) return;
    let target = this.program.step(from, kind);
    while (!target) {
      const more = await this.loadMore(token, from);
      if (token !== this.runToken || more === 'failed') return;
      if (more === 'done') {
        if (this.live) {
          this.waiting = { from: this.lastPosition(this.program.stopCount), kind: 'step' };
          return;
        }
        // A step past the last one stays there, as Step Back stays at the first: Continue ends the session.
        return this.stopAt(from, 'step', l10n.t('At the last step: Step Back walks back; Continue ends the session.'));
      }
      target = this.program.step(from, kind);
    }
    if (kind !== 'in') {
      let walked = 0;
      for (let p = this.program.next(from); p && !same(p, target); p = this.program.next(p)) {
        this.cursor = p;
        const hits = await this.check(p, true);
        if (token !== this.runToken) return;
        if (hits.length > 0) return this.stopAt(p, 'breakpoint', undefined, undefined, hits);
        if (++walked % SLICE === 0) await nextTurn();
      }
    }
    const hits = await this.check(target, true);
    if (token !== this.runToken) return;
    this.stopAt(target, hits.length > 0 ? 'breakpoint' : 'step', undefined, undefined, hits);
  }

  /** Where the current walk has got to (a pause stops there). */
  private cursor: Position | undefined;

  /**
   * Walks forward (or back) from `from` to the first breakpoint hit; logpoints log on the way
   * forward. `stepInto`: stop at the first stop walked (a step that waited for the live ledger).
   */
  async run(from: Position | undefined, backwards: boolean, stepInto = false): Promise<void> {
    const token = ++this.runToken;
    let p = from;
    let walked = 0;
    for (;;) {
      const next = p ? (backwards ? this.program.previous(p) : this.program.next(p)) : this.program.stopCount > 0 ? { update: 0, stop: 0 } : undefined;
      if (!next) {
        if (backwards) return this.stopAt(p ?? { update: 0, stop: 0 }, 'step', l10n.t('At the first step'));
        const more = await this.loadMore(token, p);
        if (token !== this.runToken || more === 'failed') return;
        if (more === 'loaded') continue;
        if (this.live) {
          this.waiting = { from: p, kind: stepInto ? 'step' : 'continue' };
          return;
        }
        if (this.entryIfNoHit && this.program.stopCount > 0)
          return this.stopAt({ update: 0, stop: 0 }, 'entry', l10n.t('No breakpoint was hit: stopped at the first step.'));
        return this.events.ended();
      }
      p = next;
      this.cursor = p;
      const hits = await this.check(p, !backwards);
      if (token !== this.runToken) return;
      if (hits.length > 0) return this.stopAt(p, 'breakpoint', undefined, undefined, hits);
      const u = this.program.updates[p.update];
      if (u.update.kind === 'failedCommand' && this.failedCommands) {
        this.failure = completionFailure(u.update.value);
        return this.stopAt(p, 'exception', this.failure.description, this.failure.details);
      }
      if (stepInto) return this.stopAt(p, 'step');
      if (++walked % SLICE === 0) {
        await nextTurn();
        if (token !== this.runToken) return;
      }
    }
  }

  /** The session is running and has walked everything it has: it waits for the live ledger. */
  get waitingForUpdates(): boolean {
    return this.waiting !== undefined;
  }

  /** The breakpoints hit at a position (after their conditions and hit counts); logpoints write their message. */
  private async check(p: Position, log: boolean): Promise<number[]> {
    const u = this.program.updates[p.update];
    const stop = u.stops[p.stop];
    if (stop.phase !== 'enter') return [];
    const n = nodeAt(u, stop.node);
    if (!n) return [];
    const candidates = this.breakpoints.hitsOf(n);
    if (candidates.length === 0) return [];
    const hits: number[] = [];
    // The names a condition reads, built once per stop; the contract is read only if one asks for it.
    let roots = rootsAt(u, stop, this.contractState(targetContractId(u, stop)));
    let contractRead = n.kind !== 'exercised';
    for (const b of candidates) {
      if (!contractRead && b.roots.has('contract')) {
        roots = rootsAt(u, stop, await this.contractAt(u, stop));
        contractRead = true;
      }
      if (b.condition && !truthy(evaluate(b.condition, roots))) continue;
      b.hits++;
      if (b.hit && !b.hit(b.hits)) continue;
      if (b.logMessage) {
        if (log) this.events.output(interpolate(b.logMessage, roots) + '\n', 'console');
        continue;
      }
      hits.push(b.id);
    }
    return hits;
  }

  private stopAt(p: Position, reason: StopReason, description?: string, text?: string, hitBreakpointIds?: number[]): void {
    this.pos = p;
    this.cursor = p;
    this.entryIfNoHit = false;
    this.events.stopped(reason, {
      ...(description ? { description } : {}),
      ...(text ? { text } : {}),
      ...(hitBreakpointIds?.length ? { hitBreakpointIds } : {}),
    });
  }

  // ---- contracts, read once per session

  contractState(contractId: string | undefined): ContractState {
    return (contractId && this.contracts.get(contractId)) || { state: 'unread' };
  }

  /** The target contract of an exercise step, read from the node once. */
  async contractAt(u: (typeof this.program.updates)[number], stop: { node: number; phase: 'enter' | 'exit' }): Promise<ContractState> {
    const id = targetContractId(u, stop);
    if (!id) return { state: 'read', event: undefined };
    const known = this.contracts.get(id);
    if (known && known.state !== 'unread') return known;
    let state: ContractState;
    try {
      const event: CreatedEvent | undefined = await this.ledger.contract(id, this.signal);
      state = { state: 'read', event };
    } catch (e) {
      // Not remembered: opening the scope again asks again.
      return { state: 'failed', error: errorText(e) };
    }
    this.contracts.set(id, state);
    return state;
  }
}

function same(a: Position, b: Position): boolean {
  return a.update === b.update && a.stop === b.stop;
}

const nextTurn = () => new Promise<void>((r) => setImmediate(r));
