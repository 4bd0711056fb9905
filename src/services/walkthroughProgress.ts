// The walkthrough's steps are ticked when they are done by other means than its buttons: a node
// already configured (settings, the demo), a token already stored. Through context keys that the
// steps' `onContext:` completion events name; checked again when nodes or secrets change.
// VS Code registers a walkthrough's steps when it first needs them (with no welcome page at start-up,
// when the walkthrough opens); a context key already true then never ticks its step. So the keys
// are first set after `after` (the demo's opening of the walkthrough) has settled.
import * as vscode from 'vscode';
import type { NodeReader } from './ledgerNodes';
import type { TokenStore } from './tokenStore';

export const HAS_NODE_CONTEXT = 'cantonLens.walkthrough.hasNode';
export const HAS_CREDENTIALS_CONTEXT = 'cantonLens.walkthrough.hasCredentials';

export function registerWalkthroughProgress(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: NodeReader; readonly tokens: TokenStore },
  after: Promise<unknown> = Promise.resolve(),
): void {
  const { nodes, tokens } = ctx;
  let checking: Promise<unknown> = after.catch(() => undefined);
  const check = () => {
    checking = checking
      .then(async () => {
        const all = nodes.all();
        await vscode.commands.executeCommand('setContext', HAS_NODE_CONTEXT, all.length > 0);
        let credentials = false;
        // A token that is not sent (a workspace node in Restricted Mode) does not count.
        for (const node of all.filter((n) => !nodes.tokenBlockedReason(n))) {
          credentials = Boolean(node.auth ? await tokens.getAuthSecret(node) : await tokens.getToken(node));
          if (credentials) break;
        }
        await vscode.commands.executeCommand('setContext', HAS_CREDENTIALS_CONTEXT, credentials);
      })
      .catch(() => undefined);
  };
  // Only when the list of nodes or the stored secrets change, not on every status check.
  ctx.subscriptions.push(nodes.onDidChangeNodes(check), nodes.onDidChangeTokens(check));
  check();
}
