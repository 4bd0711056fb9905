// Commands that act on a node take it as an argument (a tree element, a name, or { name }),
// so they work from menus, keybindings and other extensions; without one they ask.
import * as vscode from 'vscode';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export function nodeNameOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { name?: unknown }).name === 'string') return (arg as { name: string }).name;
  return undefined;
}

/** The node named by `arg`, or the one the person picks; undefined when cancelled or none exist. */
export async function resolveNode(nodes: NodeReader, arg: unknown, placeHolder: string): Promise<NodeConfig | undefined> {
  const name = nodeNameOf(arg);
  if (name !== undefined) {
    const node = nodes.find(name);
    if (!node) void vscode.window.showErrorMessage(vscode.l10n.t('There is no ledger node named "{0}" in cantonLens.nodes.', name));
    return node;
  }
  const all = nodes.all();
  if (all.length === 0) {
    const [add, demo] = [vscode.l10n.t('Add Ledger Node'), vscode.l10n.t('Start Demo Ledger')];
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('No ledger node is configured yet.'), add, demo);
    if (pick === add) void runCommand(COMMAND.addNode);
    if (pick === demo) void runCommand(COMMAND.startDemoLedger);
    return undefined;
  }
  if (all.length === 1) return all[0];
  const picked = await vscode.window.showQuickPick(
    all.map((n) => ({ label: n.name, description: n.url, node: n })),
    { placeHolder },
  );
  return picked?.node;
}

/**
 * The node a command acts on: the one `arg` names (an unknown name is said, and gives none), else
 * the active node, else the one the person picks (`placeHolder` asks).
 */
export async function nodeForCommand(nodes: NodeReader, arg: unknown, placeHolder: string): Promise<NodeConfig | undefined> {
  if (nodeNameOf(arg) !== undefined) return resolveNode(nodes, arg, placeHolder);
  return nodes.active() ?? resolveNode(nodes, undefined, placeHolder);
}

/** A party or template argument: a string, or a list of strings; anything else is ignored. */
export function stringList(arg: unknown): string[] | undefined {
  if (typeof arg === 'string' && arg.trim() !== '') return [arg.trim()];
  if (Array.isArray(arg)) {
    const list = arg.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
    return list.length > 0 ? list : undefined;
  }
  return undefined;
}
