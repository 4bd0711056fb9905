// Set and clear a node's token (or OAuth2 client secret), kept only in SecretStorage.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import { decodeJwtClaims, describeTokenState, tokenState } from '../auth/jwtClaims';
import { ledgerTokenProblem } from '../auth/oidcAuth';
import type { ExtensionLog } from '../services/extensionLog';
import type { LedgerNodes } from '../services/ledgerNodes';
import { resolveNode } from './nodeArgument';
import { showLedgerError } from './showLedgerError';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export function registerTokenCommands(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: LedgerNodes; readonly log: ExtensionLog },
  register: CommandRegistrar,
): void {
  const { nodes, log } = ctx;
  const setToken = async (arg?: unknown, value?: string): Promise<boolean> => {
    const node = await resolveNode(nodes, arg, vscode.l10n.t('Set the token of which ledger node?'));
    if (!node) return false;
    // A sign-in node's token comes from its provider.
    if (node.auth?.type === 'oidc') return Boolean(await runCommand(COMMAND.signIn, node.name));
    if (node.auth) {
      const secret =
        value ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t('Client Secret for "{0}"', node.name),
          prompt: vscode.l10n.t(
            'The OAuth2 client secret of client "{0}" at {1}. Kept in VS Code\'s secret storage.',
            node.auth.clientId,
            new URL(node.auth.tokenUrl).origin,
          ),
          password: true,
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter the client secret.')),
        }));
      if (!secret?.trim()) return false;
      try {
        await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Getting a token from {0}…', new URL(node.auth.tokenUrl).origin),
            cancellable: true,
          },
          (_progress, cancel) => {
            const abort = new AbortController();
            cancel.onCancellationRequested(() => abort.abort());
            return nodes.setClientSecret(node, secret.trim(), abort.signal);
          },
        );
        const info = await nodes.tokenInfo(node);
        if (value === undefined)
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              'Client credentials stored for "{0}" ({1}).',
              node.name,
              describeTokenState(info.source === 'blocked' ? { state: 'none' } : info.state),
            ),
          );
      } catch (e) {
        void showLedgerError(node, e, vscode.l10n.t('Getting a token'));
      }
      return true;
    }
    const token =
      value ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Token for "{0}"', node.name),
        prompt: vscode.l10n.t("A bearer token (JWT) for {0}. Kept in VS Code's secret storage, sent only to this node.", new URL(node.url).origin),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => {
          const t = v.trim().replace(/^Bearer\s+/i, '');
          if (!t) return vscode.l10n.t('Paste the token.');
          if (/\s/.test(t)) return vscode.l10n.t('A token has no spaces or line breaks.');
          if (!decodeJwtClaims(t))
            return {
              message: vscode.l10n.t('This is not a JWT: it will be sent as it is, but its user and expiry cannot be shown.'),
              severity: vscode.InputBoxValidationSeverity.Warning,
            };
          const s = tokenState(t);
          if (s.state === 'expired')
            return {
              message: vscode.l10n.t('This token has already expired ({0}).', describeTokenState(s)),
              severity: vscode.InputBoxValidationSeverity.Warning,
            };
          // Its aud and scope as the node will read them (the node's own target-audience or target-scope, where its auth names them),
          // against the node's participant id once any identity has read it.
          const problem = ledgerTokenProblem(t, { audience: node.auth?.audience, scope: node.auth?.scope }, nodes.client(node).participantIdKnown);
          if (problem) return { message: problem, severity: vscode.InputBoxValidationSeverity.Warning };
          return undefined;
        },
      }));
    const clean = token?.trim().replace(/^Bearer\s+/i, '');
    if (!clean) return false;
    // A token change is an event: the node's answers for the old identity are set aside, and open
    // panels say whose answers they show.
    await nodes.setToken(node, clean);
    log.info(`Stored a token for node "${node.name}".`);
    if (value === undefined) {
      const s = tokenState(clean);
      const message = vscode.l10n.t('Token stored for "{0}": {1}.', node.name, describeTokenState(s));
      const blocked = nodes.tokenBlockedReason(node);
      const manageTrust = vscode.l10n.t('Manage Workspace Trust');
      if (blocked)
        void vscode.window.showWarningMessage(`${message} ${blocked}`, manageTrust).then((p) => p && vscode.commands.executeCommand('workbench.trust.manage'));
      else if (s.state === 'expired')
        void vscode.window.showWarningMessage(message, vscode.l10n.t('Set Token')).then((p) => p && runCommand(COMMAND.setToken, node.name));
      else void vscode.window.showInformationMessage(message);
    }
    return true;
  };

  const clearToken = async (arg?: unknown): Promise<boolean> => {
    const node = await resolveNode(nodes, arg, vscode.l10n.t('Clear the token of which ledger node?'));
    if (!node) return false;
    if (node.auth?.type === 'oidc') return Boolean(await runCommand(COMMAND.signOut, node.name));
    await nodes.clearToken(node);
    log.info(`Cleared the token of node "${node.name}".`);
    return true;
  };

  register(COMMAND.setToken, setToken);
  register(COMMAND.clearToken, clearToken);
}
