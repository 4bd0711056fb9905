// `npm run demo`: the launcher hands the demo ledger's tokens to the extension host through the
// environment (CANTON_LENS_DEMO_TOKENS, node name → token), so the demo starts with nothing to
// paste. Each goes into secret storage, only for a configured node on this machine (loopback) that
// has no token yet; a token the person set wins. The walkthrough opens on the demo's first start.
// Nothing is logged but the node's name.
import * as vscode from 'vscode';
import { DEMO_TOKENS_ENV, demoTokensFrom, isLoopbackUrl } from '../nodes/demoTokens';
import type { ExtensionLog } from './extensionLog';
import type { LedgerNodes } from './ledgerNodes';
import type { TokenStore } from './tokenStore';

const WALKTHROUGH_SHOWN = 'cantonLens.demoWalkthroughShown';

/** Sets the demo tokens and opens the walkthrough once; resolves when done (for tests). */
export async function applyDemoSetup(
  context: vscode.ExtensionContext,
  nodes: LedgerNodes,
  tokens: TokenStore,
  log: ExtensionLog,
  raw = process.env[DEMO_TOKENS_ENV],
): Promise<string[]> {
  const given = demoTokensFrom(raw);
  if (!given) {
    if (raw) log.warn(`${DEMO_TOKENS_ENV} is not a JSON object of node names and tokens; ignored.`);
    return [];
  }
  const set: string[] = [];
  for (const [name, token] of given) {
    const node = nodes.find(name);
    if (!node || !isLoopbackUrl(node.url) || (await tokens.getToken(node))) continue;
    await nodes.setToken(node, token);
    set.push(name);
    log.info(`Stored the demo ledger's token for node "${name}".`);
  }
  if (!context.globalState.get<boolean>(WALKTHROUGH_SHOWN)) {
    await context.globalState.update(WALKTHROUGH_SHOWN, true);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#cantonLens.gettingStarted`, false);
  }
  return set;
}

/** Resolves once the demo set-up (if any) is done. */
export function registerDemoSetup(ctx: {
  readonly extension: vscode.ExtensionContext;
  readonly nodes: LedgerNodes;
  readonly tokens: TokenStore;
  readonly log: ExtensionLog;
}): Promise<unknown> {
  const { nodes, tokens, log } = ctx;
  if (!process.env[DEMO_TOKENS_ENV]) return Promise.resolve();
  return applyDemoSetup(ctx.extension, nodes, tokens, log).catch((e: unknown) => log.warn(`The demo set-up failed: ${(e as Error).message}`));
}
