// The node tree's recent lookups: one row per entry, opening what it names.
import * as vscode from 'vscode';
import type { RecentLookup } from '../lookups/recentLookups';
import { entryText, openAction } from '../lookups/recentLookupText';

export function recentItem(entry: RecentLookup): vscode.TreeItem {
  const text = entryText(entry);
  const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
  item.id = `recent:${entry.kind}:${entry.node}:${entry.id}`;
  item.description = text.description;
  item.tooltip = new vscode.MarkdownString().appendText(text.tooltip);
  item.iconPath = new vscode.ThemeIcon(text.icon);
  item.contextValue = entry.pinned ? 'cantonLens.recent.pinned' : 'cantonLens.recent';
  const action = openAction(entry);
  item.command = !action
    ? undefined
    : 'file' in action
      ? { command: 'vscode.open', title: vscode.l10n.t('Open the request'), arguments: [vscode.Uri.parse(action.file)] }
      : { command: action.command, title: vscode.l10n.t('Open'), arguments: action.args };
  return item;
}
