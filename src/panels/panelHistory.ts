// A lookup panel's back and forward: the targets it showed, the one it shows now, and the state a
// window reload brings back (the page keeps it). Pure: no `vscode` import.
import type { PanelState, PanelTarget } from './panelTargets';

/** How many targets a panel remembers: the oldest go first. */
export const HISTORY_LIMIT = 50;

export class PanelHistory {
  private targets: PanelTarget[];
  private index: number;

  constructor(state: PanelState) {
    this.targets = [...state.history];
    this.index = Math.min(Math.max(0, state.index), this.targets.length - 1);
  }

  get current(): PanelTarget {
    return this.targets[this.index];
  }

  get canGoBack(): boolean {
    return this.index > 0;
  }

  get canGoForward(): boolean {
    return this.index < this.targets.length - 1;
  }

  /** What the page keeps for the serializer: a copy, so that later moves do not change it. */
  get state(): PanelState {
    return { history: [...this.targets], index: this.index };
  }

  /** Moves back one target; false when there is none. */
  back(): boolean {
    if (!this.canGoBack) return false;
    this.index--;
    return true;
  }

  forward(): boolean {
    if (!this.canGoForward) return false;
    this.index++;
    return true;
  }

  /** A new target after the current one: what was ahead of it is dropped, as a browser does. */
  navigate(target: PanelTarget): void {
    this.targets = [...this.targets.slice(0, this.index + 1), target].slice(-HISTORY_LIMIT);
    this.index = this.targets.length - 1;
  }

  /** The current target, changed in place (another shape, asked again as someone else). */
  replaceCurrent(target: PanelTarget): void {
    this.targets[this.index] = target;
  }
}
