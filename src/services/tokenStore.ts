// Tokens and OAuth2 client secrets, only ever in VS Code's SecretStorage.
import * as vscode from 'vscode';
import type { ClientCredentialsAuth } from '../auth/clientCredentials';
import type { OidcSignInAuth } from '../auth/oidcAuth';
import { clientSecretKey, refreshTokenSecretKey, tokenSecretKey, type NodeConfig } from '../nodes/nodeSettings';

export class TokenStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a token or secret changes, in this window or another. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith('cantonLens.')) this.changed.fire();
    });
  }

  getToken(node: NodeConfig): Thenable<string | undefined> {
    return this.secrets.get(tokenSecretKey(node));
  }

  setToken(node: NodeConfig, token: string): Thenable<void> {
    return this.secrets.store(tokenSecretKey(node), token);
  }

  clearToken(node: NodeConfig): Thenable<void> {
    return this.secrets.delete(tokenSecretKey(node));
  }

  getClientSecret(node: NodeConfig, auth: ClientCredentialsAuth): Thenable<string | undefined> {
    return this.secrets.get(clientSecretKey(node, auth));
  }

  setClientSecret(node: NodeConfig, auth: ClientCredentialsAuth, secret: string): Thenable<void> {
    return this.secrets.store(clientSecretKey(node, auth), secret);
  }

  clearClientSecret(node: NodeConfig, auth: ClientCredentialsAuth): Thenable<void> {
    return this.secrets.delete(clientSecretKey(node, auth));
  }

  getRefreshToken(node: NodeConfig, auth: OidcSignInAuth): Thenable<string | undefined> {
    return this.secrets.get(refreshTokenSecretKey(node, auth));
  }

  setRefreshToken(node: NodeConfig, auth: OidcSignInAuth, token: string | undefined): Thenable<void> {
    return token ? this.secrets.store(refreshTokenSecretKey(node, auth), token) : this.secrets.delete(refreshTokenSecretKey(node, auth));
  }

  /** The secret of the node's `auth` entry: its client secret, or its sign-in's refresh token. */
  getAuthSecret(node: NodeConfig): Thenable<string | undefined> {
    if (!node.auth) return Promise.resolve(undefined);
    return node.auth.type === 'oidc' ? this.getRefreshToken(node, node.auth) : this.getClientSecret(node, node.auth);
  }

  clearAuthSecret(node: NodeConfig): Thenable<void> {
    if (!node.auth) return Promise.resolve();
    return node.auth.type === 'oidc' ? this.setRefreshToken(node, node.auth, undefined) : this.clearClientSecret(node, node.auth);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
