// The external signing commands (prepare, sign with a development key, allocate an external party):
// registered at activation, their code loaded from its own bundle on the first use of one.
import * as vscode from 'vscode';
import type { ExecuteReviews } from '../panels/executeReviews';
import type { DevSigningKeys } from '../services/devSigningKeys';
import { loadExternalSigningBundle } from '../services/lazyBundles';
import type { LedgerNodes } from '../services/ledgerNodes';
import type * as ExternalSigning from './externalSigningCommands';
import { EXTERNAL_SIGNING_COMMANDS } from './externalSigningIds';

export function registerExternalSigningCommands(context: vscode.ExtensionContext, nodes: LedgerNodes, reviews: ExecuteReviews, keys: DevSigningKeys): void {
  let handlers: ReturnType<typeof ExternalSigning.externalSigningHandlers> | undefined;
  const load = () =>
    (handlers ??= (loadExternalSigningBundle(vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath) as typeof ExternalSigning).externalSigningHandlers(
      context.extensionUri,
      nodes,
      reviews,
      keys,
    ));
  for (const id of EXTERNAL_SIGNING_COMMANDS) context.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => load()[id](...args)));
}
