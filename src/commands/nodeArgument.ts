// Commands that act on a node take it as an argument (a tree element, a name, or { name }),
// so they work from menus, keybindings and other extensions; without one they ask.
import * as vscode from 'vscode';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerNodes } from '../services/ledgerNodes';

export function nodeNameOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { name?: unknown }).name === 'string') return (arg as { name: string }).name;
  return undefined;
}

/** The node named by `arg`, or the one the person picks; undefined when cancelled or none exist. */
export async function resolveNode(nodes: LedgerNodes, arg: unknown, placeHolder: string): Promise<NodeConfig | undefined> {
  const name = nodeNameOf(arg);
  if (name !== undefined) {
    const node = nodes.find(name);
    if (!node) void vscode.window.showErrorMessage(`There is no ledger node named "${name}" in cantonLens.nodes.`);
    return node;
  }
  const all = nodes.all();
  if (all.length === 0) {
    const pick = await vscode.window.showInformationMessage('No ledger node is configured yet.', 'Add Ledger Node', 'Start Demo Ledger');
    if (pick === 'Add Ledger Node') void vscode.commands.executeCommand('cantonLens.addNode');
    if (pick === 'Start Demo Ledger') void vscode.commands.executeCommand('cantonLens.startDemoLedger');
    return undefined;
  }
  if (all.length === 1) return all[0];
  const picked = await vscode.window.showQuickPick(all.map((n) => ({ label: n.name, description: n.url, node: n })), { placeHolder });
  return picked?.node;
}
