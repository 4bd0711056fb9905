// Warns once, a few minutes ahead, that a pasted token is about to expire. (The tree redraws at
// expiry by itself: the node registry keeps each token's expiry.)
import * as vscode from 'vscode';
import { EXPIRY_WARNING_MS, relativeTime } from '../auth/jwtClaims';
import type { NodeReader } from './ledgerNodes';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from './runCommand';

const MAX_TIMER_MS = 2 ** 31 - 1;

export function registerTokenExpiryWarnings(ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: NodeReader }): void {
  const { nodes } = ctx;
  let timers: NodeJS.Timeout[] = [];
  const warned = new Set<string>();

  const warn = (name: string, expiresAt: number) => {
    const key = `${name}@${expiresAt}`;
    if (warned.has(key)) return;
    warned.add(key);
    void vscode.window
      .showWarningMessage(vscode.l10n.t('The token for "{0}" expires {1}.', name, relativeTime(expiresAt - Date.now())), vscode.l10n.t('Set Token'))
      .then((pick) => pick && runCommand(COMMAND.setToken, name));
  };

  const reschedule = async () => {
    for (const t of timers) clearTimeout(t);
    timers = [];
    for (const node of nodes.all()) {
      if (node.auth) continue; // refreshed on its own
      const info = await nodes.tokenInfo(node);
      const expiresAt = info.source === 'pasted' && 'claims' in info.state ? info.state.claims.expiresAt : undefined;
      if (expiresAt === undefined || expiresAt <= Date.now()) continue;
      const warnIn = expiresAt - EXPIRY_WARNING_MS - Date.now();
      if (warnIn <= 0) warn(node.name, expiresAt);
      else if (warnIn < MAX_TIMER_MS) timers.push(setTimeout(() => warn(node.name, expiresAt), warnIn));
    }
  };

  ctx.subscriptions.push(
    nodes.onDidChangeNodes(() => void reschedule()),
    nodes.onDidChangeTokens(() => void reschedule()),
    { dispose: () => timers.forEach(clearTimeout) },
  );
  void reschedule();
}
