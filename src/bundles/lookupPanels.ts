// The lookup panels as one bundle (dist/lookupPanels.js): the contract, transaction and all-nodes
// panels with their HTML, and the commands that open or copy from them (Show Contract, Show
// Transaction, Inspect Id at Cursor, Look Up on All Nodes, Copy as cURL). Loaded by the first of
// them, or at activation when a reload left a panel open.
import type * as vscode from 'vscode';
import { handlerTable, type CommandHandler } from '../commands/commandRegistrar';
import { registerCopyAsCurlCommand } from '../commands/copyAsCurlCommand';
import { registerInspectCommands } from '../commands/inspectCommands';
import { LookupPanels } from '../panels/lookupPanels';
import type { ExtensionLog } from '../services/extensionLog';
import type { NodeReader } from '../services/ledgerNodes';
import type { LedgerLookupService } from '../services/lookupService';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { TokenStore } from '../services/tokenStore';

export interface LookupPanelsDeps {
  readonly subscriptions: { dispose(): unknown }[];
  readonly extensionUri: vscode.Uri;
  readonly nodes: NodeReader;
  readonly lookups: LedgerLookupService;
  readonly tokens: TokenStore;
  readonly log: ExtensionLog;
  /** Every finished lookup goes into the recent list, with who asked. */
  readonly recent: RecentLookupStore;
}

/** The lookup panels and the commands of this bundle. */
export interface LookupPanelsFeature {
  readonly panels: LookupPanels;
  readonly commands: ReadonlyMap<string, CommandHandler>;
}

export function createLookupPanels(deps: LookupPanelsDeps): LookupPanelsFeature {
  const { recent } = deps;
  const panels = new LookupPanels(deps.extensionUri, deps.nodes, deps.lookups, (t, summary, askedAs) => {
    if (t.kind === 'contract' || t.kind === 'update') void recent.add({ kind: t.kind, id: t.id, node: t.node, summary, at: Date.now(), askedAs });
  });
  deps.subscriptions.push(panels, panels.registerSerializer());
  const commands = handlerTable(
    (register) => registerInspectCommands({ nodes: deps.nodes, panels }, register),
    (register) => registerCopyAsCurlCommand({ nodes: deps.nodes, tokens: deps.tokens, log: deps.log, panels }, register),
  );
  return { panels, commands };
}
