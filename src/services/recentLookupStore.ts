// Recent lookups, persisted in the global state (ids and summaries only; never a token).
import * as vscode from 'vscode';
import { addRecent, clearRecent, ordered, setPinned, validRecent, type RecentLookup } from '../lookups/recentLookups';

const KEY = 'cantonLens.recentLookups';

export class RecentLookupStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  all(): RecentLookup[] {
    return ordered(validRecent(this.state.get(KEY)));
  }

  add(entry: RecentLookup): Thenable<void> {
    return this.save(addRecent(this.all(), entry));
  }

  pin(target: Pick<RecentLookup, 'kind' | 'id' | 'node'>, pinned: boolean): Thenable<void> {
    return this.save(setPinned(this.all(), target, pinned));
  }

  clear(): Thenable<void> {
    return this.save(clearRecent(this.all()));
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async save(list: RecentLookup[]): Promise<void> {
    await this.state.update(KEY, list);
    this.changed.fire();
  }
}
