// A review follows the request file it reviews: a burst of edits re-reads the file once, after the
// last edit; a send in flight keeps its review until it ends; a text the review already shows is
// not read again (a Submit Again that wrote the file itself, a save without a change).

/** What to do with the file's text now. */
export type FollowStep = 'wait' | 'same' | 'reload';

export function followStep(text: string, reviewed: string | undefined, busy: boolean): FollowStep {
  if (busy) return 'wait';
  return text === reviewed ? 'same' : 'reload';
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Calls `run` once, `delayMs` after the last `poke` of a burst; `run` answering 'wait' tries again later. */
export class Debounced {
  private handle: unknown;
  private disposed = false;

  constructor(
    private readonly run: () => Promise<FollowStep | void> | FollowStep | void,
    private readonly delayMs: number,
    private readonly timers: Timers = realTimers,
  ) {}

  poke(): void {
    if (this.disposed) return;
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = this.timers.setTimeout(() => void this.fire(), this.delayMs);
  }

  private async fire(): Promise<void> {
    this.handle = undefined;
    if (this.disposed) return;
    const step = await this.run();
    if (step === 'wait' && this.handle === undefined) this.poke();
  }

  dispose(): void {
    this.disposed = true;
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }
}
