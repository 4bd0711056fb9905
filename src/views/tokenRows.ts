// The node tree's token row: the pasted token, client credentials, or the sign-in, in words.
import * as vscode from 'vscode';
import { describeTokenState } from '../auth/jwtClaims';
import type { TokenInfo } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';

/** A detail row of the node tree (nodeTree.ts's `detail` element). */
export interface DetailRow {
  kind: 'detail';
  name: string;
  label: string;
  value: string;
  tooltip?: string;
  icon?: string;
  contextValue?: string;
  command?: vscode.Command;
}

export function tokenDetail(name: string, token: TokenInfo): DetailRow {
  const setToken: vscode.Command = { command: COMMAND.setToken, title: vscode.l10n.t('Set Token'), arguments: [name] };
  if (token.source === 'blocked') {
    return {
      kind: 'detail',
      name,
      label: vscode.l10n.t('Token'),
      value: vscode.l10n.t('not used (untrusted workspace)'),
      icon: 'shield',
      tooltip: token.reason,
      contextValue: 'cantonLens.token',
    };
  }
  if (token.source === 'signIn') return signInDetail(name, token);
  const s = token.state;
  const prefix = token.source === 'clientCredentials' ? vscode.l10n.t('client {0}: ', token.clientId) : '';
  const value =
    token.source === 'clientCredentials' && s.state === 'opaque'
      ? `${prefix}${vscode.l10n.t('fetched on first request')}`
      : token.source === 'clientCredentials' && s.state === 'none'
        ? `${prefix}${vscode.l10n.t('no client secret')}`
        : `${prefix}${describeTokenState(s)}`;
  const icon = s.state === 'expired' ? 'error' : s.state === 'expiring' ? 'warning' : s.state === 'none' ? 'circle-slash' : 'key';
  const tooltip =
    token.source === 'clientCredentials'
      ? vscode.l10n.t("Tokens come from OAuth2 client credentials and are refreshed before they expire. The client secret is kept in VS Code's secret storage.")
      : vscode.l10n.t("The bearer token is kept in VS Code's secret storage, bound to this node's name and URL origin. Click to set a new one.");
  return { kind: 'detail', name, label: vscode.l10n.t('Token'), value, icon, tooltip, contextValue: 'cantonLens.token', command: setToken };
}

/** A sign-in node's token row: who is signed in, or a click to sign in. */
function signInDetail(name: string, token: Extract<TokenInfo, { source: 'signIn' }>): DetailRow {
  const origin = new URL(token.issuer).origin;
  if (!token.signedIn) {
    return {
      kind: 'detail',
      name,
      label: vscode.l10n.t('Sign-in'),
      value: vscode.l10n.t('not signed in (click to sign in at {0})', origin),
      icon: 'sign-in',
      tooltip: vscode.l10n.t('Tokens come from signing in at {0}. Click to sign in.', origin),
      contextValue: 'cantonLens.token.signIn',
      command: { command: COMMAND.signIn, title: vscode.l10n.t('Sign In'), arguments: [name] },
    };
  }
  const s = token.state;
  const value = s.state === 'opaque' ? vscode.l10n.t('signed in; token renewed on first request') : describeTokenState(s);
  return {
    kind: 'detail',
    name,
    label: vscode.l10n.t('Signed in'),
    value,
    icon: 'account',
    tooltip: vscode.l10n.t(
      "Signed in at {0}. The access token is renewed before it expires; the refresh token is kept in VS Code's secret storage. Sign out from here or the Accounts menu.",
      origin,
    ),
    contextValue: 'cantonLens.token.signedIn',
  };
}
