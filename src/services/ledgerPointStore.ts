// Ledger points a person marked (a node's offset before a test run, say), to ask later what changed
// since. Kept in the workspace state: node names, offsets, labels and times only.
import * as vscode from 'vscode';

export interface LedgerPoint {
  node: string;
  offset: number;
  label: string;
  /** When it was marked (ms since the epoch). */
  markedAt: number;
}

const KEY = 'cantonLens.ledgerPoints';
/** Points kept per node, newest first. */
const KEPT = 20;

const isPoint = (v: unknown): v is LedgerPoint => {
  const p = v as Partial<LedgerPoint> | undefined;
  return (
    typeof p?.node === 'string' &&
    typeof p.offset === 'number' &&
    Number.isInteger(p.offset) &&
    p.offset >= 0 &&
    typeof p.label === 'string' &&
    typeof p.markedAt === 'number'
  );
};

export class LedgerPointStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  /** The node's points, newest first. */
  of(node: string): LedgerPoint[] {
    const all = this.state.get<unknown>(KEY);
    return (Array.isArray(all) ? all.filter(isPoint) : []).filter((p) => p.node === node).sort((a, b) => b.markedAt - a.markedAt);
  }

  async add(point: LedgerPoint): Promise<void> {
    const all = this.state.get<unknown>(KEY);
    const list = Array.isArray(all) ? all.filter(isPoint) : [];
    const others = list.filter((p) => p.node !== point.node);
    const mine = [point, ...list.filter((p) => p.node === point.node && p.offset !== point.offset)].slice(0, KEPT);
    await this.state.update(KEY, [...others, ...mine]);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
