// Shows a LedgerApiError with the button that does the next step.
import * as vscode from 'vscode';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';

export async function showLedgerError(node: NodeConfig | undefined, e: unknown, what: string): Promise<void> {
  const explanation = isLedgerApiError(e) ? e.explanation : (e as Error)?.message ?? String(e);
  const where = node ? ` on "${node.name}"` : '';
  const actions: string[] = [];
  if (isLedgerApiError(e) && node) {
    if (e.kind === 'unauthenticated') actions.push(node.auth ? 'Refresh Token' : 'Set Token');
    if (e.kind === 'permissionDenied') actions.push('Set Token');
    if (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'unavailable') actions.push('Retry');
    if (e.kind === 'badResponse' || e.kind === 'network') actions.push('Open Settings');
  }
  actions.push('Show Log');
  const pick = await vscode.window.showErrorMessage(`${what}${where} failed. ${explanation}`, ...actions);
  switch (pick) {
    case 'Set Token': return void vscode.commands.executeCommand('cantonLens.setToken', node?.name);
    case 'Refresh Token': return void vscode.commands.executeCommand('cantonLens.refresh', node?.name, { refreshToken: true });
    case 'Retry': return void vscode.commands.executeCommand('cantonLens.refresh', node?.name);
    case 'Open Settings': return void vscode.commands.executeCommand('workbench.action.openSettings', 'cantonLens.nodes');
    case 'Show Log': return void vscode.commands.executeCommand('cantonLens.showLog');
    default: return undefined;
  }
}
