// One status bar item: the active node and its version; a click picks another node.
import * as vscode from 'vscode';
import type { NodeReader } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';

export function registerActiveNodeStatusBar(ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: NodeReader }): void {
  const { nodes } = ctx;
  const item = vscode.window.createStatusBarItem('cantonLens.activeNode', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('Canton Lens: Active Node');
  item.command = COMMAND.selectNode;
  const update = () => {
    const node = nodes.active();
    if (!node) {
      if (nodes.all().length === 0) return item.hide();
      item.text = `$(database) ${vscode.l10n.t('Canton: no active node')}`;
      item.tooltip = vscode.l10n.t('Choose the ledger node that lookups use');
      return item.show();
    }
    const s = nodes.status(node);
    const detail = s.state === 'reachable' ? ` ${s.version}` : s.state === 'unreachable' ? ' (unreachable)' : '';
    item.text = `$(database) ${node.name}${detail}`;
    item.tooltip =
      s.state === 'unreachable'
        ? vscode.l10n.t('{0}\n{1}\nClick to choose another node.', node.url, s.error.explanation)
        : vscode.l10n.t('{0}\nClick to choose another node.', node.url);
    item.show();
  };
  ctx.subscriptions.push(item, nodes.onDidChange(update));
  update();
}
