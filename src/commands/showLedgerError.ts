// Shows a LedgerApiError with the button that does the next step.
import * as vscode from 'vscode';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export async function showLedgerError(node: NodeConfig | undefined, e: unknown, what: string): Promise<void> {
  // The person cancelled it: nothing failed.
  if (isLedgerApiError(e) && e.kind === 'cancelled') return;
  const explanation = isLedgerApiError(e) ? e.explanation : ((e as Error)?.message ?? String(e));
  const where = node ? vscode.l10n.t(' on "{0}"', node.name) : '';
  const label = {
    setToken: vscode.l10n.t('Set Token'),
    refreshToken: vscode.l10n.t('Refresh Token'),
    signIn: vscode.l10n.t('Sign In'),
    retry: vscode.l10n.t('Retry'),
    openSettings: vscode.l10n.t('Open Settings'),
    showLog: vscode.l10n.t('Show Log'),
  };
  const actions: string[] = [];
  if (isLedgerApiError(e) && node) {
    if (e.kind === 'unauthenticated') actions.push(node.auth?.type === 'oidc' ? label.signIn : node.auth ? label.refreshToken : label.setToken);
    if (e.kind === 'permissionDenied') actions.push(label.setToken);
    if (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'unavailable') actions.push(label.retry);
    if (e.kind === 'badResponse' || e.kind === 'network') actions.push(label.openSettings);
  }
  actions.push(label.showLog);
  const pick = await vscode.window.showErrorMessage(vscode.l10n.t('{0}{1} failed. {2}', what, where, explanation), ...actions);
  switch (pick) {
    case label.setToken:
      return void runCommand(COMMAND.setToken, node?.name);
    case label.refreshToken:
      return void runCommand(COMMAND.refresh, node?.name, { refreshToken: true });
    case label.signIn:
      return void runCommand(COMMAND.signIn, node?.name);
    case label.retry:
      return void runCommand(COMMAND.refresh, node?.name);
    case label.openSettings:
      return void vscode.commands.executeCommand('workbench.action.openSettings', 'cantonLens.nodes');
    case label.showLog:
      return void runCommand(COMMAND.showLog);
    default:
      return undefined;
  }
}
