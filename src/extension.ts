import * as vscode from 'vscode';
import { registerDemoLedgerCommands } from './commands/demoLedgerCommands';
import { registerNodeCommands } from './commands/nodeCommands';
import { registerTokenCommands } from './commands/tokenCommands';
import { ExtensionLog } from './services/extensionLog';
import { LedgerNodes } from './services/ledgerNodes';
import { affectsNodeSettings } from './services/nodeSettingsStore';
import { registerTokenExpiryWarnings } from './services/tokenExpiryWarnings';
import { TokenStore } from './services/tokenStore';
import { registerActiveNodeStatusBar } from './views/activeNodeStatusBar';
import { NodeTreeProvider, type NodeTreeElement } from './views/nodeTree';

/** What tests (and other extensions) can see; no tokens. */
export interface CantonLensApi {
  nodeTree: NodeTreeProvider;
  nodes: LedgerNodes;
  log: ExtensionLog;
}

export function activate(context: vscode.ExtensionContext): CantonLensApi {
  const userAgent = `canton-lens/${(context.extension.packageJSON as { version: string }).version}`;
  const log = new ExtensionLog();
  const tokens = new TokenStore(context.secrets);
  const nodes = new LedgerNodes(vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath, userAgent, tokens, log);
  const nodeTree = new NodeTreeProvider(nodes);
  const view = vscode.window.createTreeView<NodeTreeElement>('cantonLens.nodes', { treeDataProvider: nodeTree, showCollapseAll: true });
  nodeTree.attach(view);
  context.subscriptions.push(log, tokens, nodes, nodeTree, view);

  const expiry = registerTokenExpiryWarnings(context, nodes, tokens);
  registerNodeCommands(context, nodes, tokens, log);
  registerTokenCommands(context, nodes, tokens, log);
  registerDemoLedgerCommands(context, nodes, tokens, log);
  registerActiveNodeStatusBar(context, nodes);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsNodeSettings(e)) return;
      nodes.reload();
      expiry.reschedule();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => nodes.reload()),
  );
  return { nodeTree, nodes, log };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
