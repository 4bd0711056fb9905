// Execute requests as one bundle (dist/execute.js): the reviews' owner (request checks and their
// diagnostics, the confirmation, what the reviews learn), the development signing keys, and New
// Execute Request and Execute Submission. Loaded by the first of those commands or of the external
// signing ones; the review panel itself is dist/executeReview.js.
import type * as vscode from 'vscode';
import { handlerTable, type CommandHandler } from '../commands/commandRegistrar';
import { registerExecuteCommands } from '../commands/executeCommands';
import { ExecuteReviews } from '../panels/executeReviews';
import type { LookupPanels } from '../panels/lookupPanels';
import { DevSigningKeys } from '../services/devSigningKeys';
import type { NodeReader } from '../services/ledgerNodes';
import type { RecentLookupStore } from '../services/recentLookupStore';

export interface ExecuteDeps {
  readonly subscriptions: { dispose(): unknown }[];
  readonly extension: Pick<vscode.ExtensionContext, 'extensionUri' | 'secrets' | 'globalState'>;
  readonly nodes: NodeReader;
  /** Read when a review opens a lookup panel. */
  readonly panels: LookupPanels;
  readonly recent: RecentLookupStore;
}

export interface Execute {
  readonly reviews: ExecuteReviews;
  readonly devKeys: DevSigningKeys;
  readonly commands: ReadonlyMap<string, CommandHandler>;
}

export function createExecute(deps: ExecuteDeps): Execute {
  const { nodes } = deps;
  const facts = nodes.facts;
  const devKeys = new DevSigningKeys(deps.extension.secrets, deps.extension.globalState);
  const reviews = new ExecuteReviews({
    extensionUri: deps.extension.extensionUri,
    nodes,
    get panels() {
      return deps.panels;
    },
    recent: deps.recent,
    knownPublicKey: (fingerprint) => devKeys.publicKey(fingerprint),
    userRights: (node, signal) => facts.executeRights(node, signal),
    forgetRights: (node) => facts.forget(node.name),
  });
  deps.subscriptions.push(reviews);
  return { reviews, devKeys, commands: handlerTable((register) => registerExecuteCommands(nodes, reviews, register)) };
}
