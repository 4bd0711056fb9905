// The request history (the tree's Recent Lookups): pin, unpin, clear, run an entry again, and
// Canton: Show Request History, a searchable list of every entry.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import type { RecentLookup } from '../lookups/recentLookups';
import { entryText, openAction } from '../lookups/recentLookupText';
import type { RecentLookupStore } from '../services/recentLookupStore';
import { COMMAND } from '../ids/commandIds';

function entryOf(arg: unknown): RecentLookup | undefined {
  const e = (arg as { entry?: RecentLookup } | undefined)?.entry;
  return e && typeof e.id === 'string' ? e : undefined;
}

/** Opens an entry as it was asked; `again` asks the node afresh instead of answering from the cache. */
async function run(entry: RecentLookup, again: boolean): Promise<void> {
  const action = openAction(entry);
  if (!action) return;
  if ('file' in action) {
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.parse(action.file));
    return;
  }
  const args = !again
    ? action.args
    : entry.kind === 'contract' || entry.kind === 'update'
      ? [entry.id, entry.node, { ...(entry.askedByUser ? { recordedAs: entry.askedByUser } : {}), refresh: true }]
      : entry.kind === 'activeContracts'
        ? [...action.args, { reload: true }]
        : action.args;
  await vscode.commands.executeCommand(action.command, ...args);
}

interface HistoryPick extends vscode.QuickPickItem {
  entry: RecentLookup;
}

async function showHistory(recent: RecentLookupStore): Promise<void> {
  const entries = recent.all();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No requests yet: look up an id, open Active Contracts or follow updates, and they are listed here.'),
    );
    return;
  }
  const runAgain: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: vscode.l10n.t('Run Again') };
  const pick = vscode.window.createQuickPick<HistoryPick>();
  pick.title = vscode.l10n.t('Request History');
  pick.placeholder = vscode.l10n.t('Open a request as it was asked; the button beside it asks the node again');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = entries.map((entry) => {
    const text = entryText(entry);
    return {
      entry,
      label: `$(${text.icon}) ${text.label}`,
      description: text.description,
      detail: text.tooltip.split('\n').slice(2, 3).join(''),
      buttons: [runAgain],
    };
  });
  const chosen = await new Promise<{ entry: RecentLookup; again: boolean } | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0] ? { entry: pick.selectedItems[0].entry, again: false } : undefined));
    pick.onDidTriggerItemButton((e) => resolve({ entry: e.item.entry, again: true }));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (chosen) await run(chosen.entry, chosen.again);
}

export function registerRecentLookupCommands(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly recent: RecentLookupStore },
  register: CommandRegistrar,
): void {
  const { recent } = ctx;
  register(COMMAND.pinLookup, async (arg?: unknown) => {
    const e = entryOf(arg);
    if (e) await recent.pin(e, true);
  });
  register(COMMAND.unpinLookup, async (arg?: unknown) => {
    const e = entryOf(arg);
    if (e) await recent.pin(e, false);
  });
  register(COMMAND.clearRecentLookups, () => recent.clear());
  register(COMMAND.runAgain, async (arg?: unknown) => {
    const e = entryOf(arg);
    if (e) await run(e, true);
  });
  register(COMMAND.showRequestHistory, () => showHistory(recent));
}
