// Pin, unpin and clear recent lookups (from the node tree).
import * as vscode from 'vscode';
import type { RecentLookup } from '../lookups/recentLookups';
import type { RecentLookupStore } from '../services/recentLookupStore';

function entryOf(arg: unknown): RecentLookup | undefined {
  const e = (arg as { entry?: RecentLookup } | undefined)?.entry;
  return e && typeof e.id === 'string' ? e : undefined;
}

export function registerRecentLookupCommands(context: vscode.ExtensionContext, recent: RecentLookupStore): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('cantonLens.pinLookup', async (arg?: unknown) => {
      const e = entryOf(arg);
      if (e) await recent.pin(e, true);
    }),
    vscode.commands.registerCommand('cantonLens.unpinLookup', async (arg?: unknown) => {
      const e = entryOf(arg);
      if (e) await recent.pin(e, false);
    }),
    vscode.commands.registerCommand('cantonLens.clearRecentLookups', () => recent.clear()),
  );
}
