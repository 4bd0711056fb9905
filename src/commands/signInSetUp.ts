// Canton: Set Up Sign-In: a node's `auth` entry for its identity provider, asked step by step
// instead of written by hand: the issuer (checked at once through its discovery document), the
// public client, Canton's token format (audience-based or scope-based), and the flow the provider
// offers. Saved where the node is defined; then Sign In runs.
import * as vscode from 'vscode';
import type { OidcSignInAuth } from '../auth/oidcAuth';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { urlProblem } from '../nodes/nodeSettings';
import type { LedgerNodes } from '../services/ledgerNodes';
import { resolveNode } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

/** Answers given in advance (tests, other extensions); each skips its question. */
export interface SetUpSignInArgs {
  issuer?: string;
  clientId?: string;
  audience?: string;
  scope?: string;
  flow?: 'browser' | 'device';
  /** Run Sign In afterwards (default true). */
  signIn?: boolean;
}

const PARTICIPANT_AUDIENCE = 'https://daml.com/jwt/aud/participant/';
/** Canton's default scope for scope-based tokens (a protocol value, not text to translate). */
const LEDGER_API_SCOPE = 'daml_ledger_api';

export async function setUpSignIn(nodes: LedgerNodes, arg: unknown, args: SetUpSignInArgs = {}): Promise<boolean> {
  const node = await resolveNode(nodes, arg, vscode.l10n.t('Set up sign-in for which ledger node?'));
  if (!node) return false;
  const existing = node.auth?.type === 'oidc' ? node.auth : undefined;
  const title = (step: number) => vscode.l10n.t('Set Up Sign-In for "{0}" ({1}/3)', node.name, step);
  const issuer = (
    args.issuer ??
    (await vscode.window.showInputBox({
      title: title(1),
      prompt: vscode.l10n.t("The identity provider's issuer URL (its /.well-known/openid-configuration names the rest)"),
      placeHolder: 'https://keycloak.example.com/realms/canton',
      value: existing?.issuer,
      validateInput: (v) => (urlProblem(v) ? vscode.l10n.t('The issuer {0}.', urlProblem(v)!) : undefined),
      ignoreFocusOut: true,
    }))
  )
    ?.trim()
    .replace(/\/+$/, '');
  if (!issuer || urlProblem(issuer)) return false;
  let offered;
  try {
    offered = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading the OpenID configuration of {0}…', issuer), cancellable: true },
      (_p, cancel) => {
        const abort = new AbortController();
        cancel.onCancellationRequested(() => abort.abort());
        return nodes.describeIssuer(issuer, abort.signal);
      },
    );
  } catch (e) {
    if (!(isLedgerApiError(e) && e.kind === 'cancelled')) void vscode.window.showErrorMessage(isLedgerApiError(e) ? e.explanation : String(e));
    return false;
  }
  if (!offered.browser && !offered.device) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('{0} offers neither the authorization code flow with PKCE nor the device flow: the editor cannot sign in there.', issuer),
    );
    return false;
  }
  const clientId = (
    args.clientId ??
    (await vscode.window.showInputBox({
      title: title(2),
      prompt: vscode.l10n.t('The public client (no secret) registered for the editor at {0}', issuer),
      value: existing?.clientId ?? 'canton-lens',
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter the client id.')),
      ignoreFocusOut: true,
    }))
  )?.trim();
  if (!clientId) return false;
  let { audience, scope } = args;
  if (audience === undefined && scope === undefined) {
    let participantId: string | undefined;
    try {
      participantId = (await nodes.client(node).getParticipantId()).participantId;
    } catch {
      // Not readable without a token yet: the person completes the audience.
    }
    const picked = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Audience-based tokens'), detail: `${PARTICIPANT_AUDIENCE}${participantId ?? '…'}`, format: 'audience' as const },
        { label: vscode.l10n.t('Scope-based tokens'), detail: LEDGER_API_SCOPE, format: 'scope' as const },
      ],
      { title: title(3), placeHolder: vscode.l10n.t("How does the node's auth service check tokens?"), ignoreFocusOut: true },
    );
    if (!picked) return false;
    if (picked.format === 'scope') scope = LEDGER_API_SCOPE;
    else {
      audience = (
        await vscode.window.showInputBox({
          title: title(3),
          prompt: vscode.l10n.t("The node's token audience"),
          value: existing?.audience ?? `${PARTICIPANT_AUDIENCE}${participantId ?? ''}`,
          validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter the audience.')),
          ignoreFocusOut: true,
        })
      )?.trim();
      if (!audience) return false;
    }
  }
  const flow = args.flow ?? (offered.browser ? 'browser' : 'device');
  const auth: OidcSignInAuth = { type: 'oidc', issuer, clientId, audience, scope, flow, redirect: existing?.redirect ?? 'loopback' };
  const saved = await nodes.saveSignIn(node, auth);
  if (!saved) return false;
  if (args.signIn === false) return true;
  return Boolean(await runCommand(COMMAND.signIn, node.name));
}
