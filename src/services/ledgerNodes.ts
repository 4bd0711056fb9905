// The VS Code side of the node registry (nodes/nodeRegistry.ts, which owns node state): the only
// listener to the settings, SecretStorage and workspace trust, and the only writer of nodes,
// tokens and the active node, each write applied to the registry at once. Everything else reads.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { HttpTransport, TransportOptions } from '../ledger/httpTransport';
import { LedgerApiError } from '../ledger/ledgerApiError';
import { LedgerClient } from '../ledger/ledgerClient';
import type * as OidcModule from '../auth/oidcProtocol';
import type * as UndiciTransportModule from '../ledger/undiciTransport';
import { loadBundle } from './lazyBundles';
import { proxyFor } from '../ledger/proxyFor';
import { NodeRegistry, type NodeConnection, type TokenInfo } from '../nodes/nodeRegistry';
import type { CheckedStatus, NodeStatus } from '../nodes/nodeStatus';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { OidcSignInAuth } from '../auth/oidcAuth';
import type { ExtensionLog } from './extensionLog';
import {
  affectsNodeSettings,
  deleteNode,
  readActiveNodeName,
  readNodeSettings,
  readRequestTimeoutMs,
  saveNode,
  saveNodeAuth,
  setActiveNodeName,
  type SavedNode,
} from './nodeSettingsStore';
import type { TokenStore } from './tokenStore';

/** The HTTP layer (undici), loaded with the first request; async, so a bundle that fails to load rejects. */
function lazyHttpTransport(bundleDir: string, options: TransportOptions = {}): () => Promise<HttpTransport> {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async () => loadBundle<typeof UndiciTransportModule>(bundleDir, 'http').createUndiciTransport(options);
}

export type { IdentityChange, TokenInfo } from '../nodes/nodeRegistry';
export type { CheckedStatus, NodeStatus } from '../nodes/nodeStatus';

/**
 * What a reader of node state uses: the nodes, the active one, each one's status, client, facts and
 * identity, and the events that say they changed. Only the commands that change nodes, tokens or
 * the active node, and the parts that own them, hold the whole LedgerNodes.
 */
export type NodeReader = Pick<
  LedgerNodes,
  | 'onDidChange'
  | 'onDidChangeIdentity'
  | 'onDidRequestRefresh'
  | 'onDidChangeNodes'
  | 'onDidChangeTokens'
  | 'facts'
  | 'all'
  | 'find'
  | 'active'
  | 'status'
  | 'client'
  | 'check'
  | 'tokenInfo'
  | 'tokenUser'
  | 'credentials'
  | 'currentIdentity'
  | 'knownIdentity'
  | 'tokenBlockedReason'
  | 'fetchOAuthToken'
  | 'invalidateToken'
>;

export class LedgerNodes implements vscode.Disposable {
  readonly registry: NodeRegistry;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly bundleDir: string,
    private readonly userAgent: string,
    private readonly tokens: TokenStore,
    private readonly log: ExtensionLog,
  ) {
    this.registry = new NodeRegistry({
      secrets: {
        token: (node) => tokens.getToken(node),
        clientSecret: (node, auth) => tokens.getClientSecret(node, auth),
        refreshToken: (node, auth) => tokens.getRefreshToken(node, auth),
        storeRefreshToken: (node, auth, token) => tokens.setRefreshToken(node, auth, token),
      },
      oidcProtocol: (auth, transport) => loadBundle<typeof OidcModule>(bundleDir, 'oidc').createOidcProtocol(auth, { transport, userAgent }),
      isTrusted: () => vscode.workspace.isTrusted,
      activeNodeName: readActiveNodeName,
      connection: (node) => ({ proxyUrl: proxyUrlFor(node.url), timeoutMs: readRequestTimeoutMs() }),
      transport: (node, connection) => this.transportFor(node, connection),
      userAgent,
      onRequest: (name, e) => log.request(name, e),
    });
    this.readSettings();
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsNodeSettings(e)) this.readSettings();
      }),
      // A token changed in this window or another: see whose each node's is now.
      tokens.onDidChange(() => void this.registry.secretsChanged()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.registry.trustChanged()),
    ];
  }

  // Reading: the registry's state.
  get onDidChange() {
    return this.registry.onDidChange;
  }
  get onDidChangeIdentity() {
    return this.registry.onDidChangeIdentity;
  }
  get onDidRequestRefresh() {
    return this.registry.onDidRequestRefresh;
  }
  get onDidChangeNodes() {
    return this.registry.onDidChangeNodes;
  }
  get onDidChangeTokens() {
    return this.registry.onDidChangeTokens;
  }
  get facts() {
    return this.registry.facts;
  }
  all(): readonly NodeConfig[] {
    return this.registry.all();
  }
  find(name: string | undefined): NodeConfig | undefined {
    return this.registry.find(name);
  }
  active(): NodeConfig | undefined {
    return this.registry.active();
  }
  status(node: NodeConfig): NodeStatus {
    return this.registry.status(node);
  }
  client(node: NodeConfig): LedgerClient {
    return this.registry.client(node);
  }
  check(node: NodeConfig, signal?: AbortSignal): Promise<CheckedStatus> {
    return this.registry.check(node, signal);
  }
  tokenInfo(node: NodeConfig): Promise<TokenInfo> {
    return this.registry.tokenInfo(node);
  }
  tokenUser(node: NodeConfig) {
    return this.registry.tokenUser(node);
  }
  credentials(node: NodeConfig) {
    return this.registry.credentials(node);
  }
  currentIdentity(node: NodeConfig) {
    return this.registry.currentIdentity(node);
  }
  knownIdentity(node: NodeConfig) {
    return this.registry.knownIdentity(node);
  }
  tokenBlockedReason(node: NodeConfig) {
    return this.registry.tokenBlockedReason(node);
  }
  fetchOAuthToken(node: NodeConfig, signal?: AbortSignal) {
    return this.registry.fetchOAuthToken(node, signal);
  }
  invalidateToken(node: NodeConfig): void {
    this.registry.invalidateToken(node);
  }
  requestRefresh(node: NodeConfig): void {
    this.registry.requestRefresh(node);
  }

  /** GET /v2/version of a URL not saved yet (public: no token is sent). */
  async probe(url: string, signal?: AbortSignal) {
    const client = new LedgerClient({
      baseUrl: url,
      transport: lazyHttpTransport(this.bundleDir, { proxyUrl: proxyUrlFor(url) }),
      timeoutMs: readRequestTimeoutMs(),
      userAgent: this.userAgent,
      onRequest: (e) => this.log.request(url, e),
    });
    try {
      return await client.getVersion({ signal });
    } finally {
      await client.close();
    }
  }

  // Writing: each write is applied to the registry before it returns.

  /** Adds or replaces a node in the user settings; returns it as the registry now has it. */
  async saveNode(entry: SavedNode): Promise<NodeConfig | undefined> {
    await saveNode(entry);
    this.readSettings();
    return this.find(entry.name);
  }

  /** What an issuer offers the editor (its discovery document), before a node is set to sign in there. */
  async describeIssuer(issuer: string, signal?: AbortSignal) {
    const transport = lazyHttpTransport(this.bundleDir, { proxyUrl: proxyUrlFor(issuer) });
    const draft = { type: 'oidc' as const, issuer, clientId: 'canton-lens', flow: 'browser' as const, redirect: 'loopback' as const };
    try {
      return await (
        await loadBundle<typeof OidcModule>(this.bundleDir, 'oidc').createOidcProtocol(draft, { transport, userAgent: this.userAgent })
      ).describe(signal);
    } finally {
      await (await transport().catch(() => undefined))?.close();
    }
  }

  /** Sets a node's sign-in (its `auth` entry, in the scope it is defined in); returns it as the registry now has it. */
  async saveSignIn(node: NodeConfig, auth: OidcSignInAuth): Promise<NodeConfig | undefined> {
    const entry: Record<string, unknown> = { type: 'oidc', issuer: auth.issuer, clientId: auth.clientId };
    for (const k of ['audience', 'scope'] as const) if (auth[k]) entry[k] = auth[k];
    if (auth.flow !== 'browser') entry.flow = auth.flow;
    if (auth.redirect !== 'loopback') entry.redirect = auth.redirect;
    await saveNodeAuth(node, entry);
    this.readSettings();
    return this.find(node.name);
  }

  /** Removes a node from its settings scope, with its stored token and client secret. */
  async removeNode(node: NodeConfig): Promise<void> {
    await deleteNode(node);
    await this.tokens.clearToken(node);
    await this.tokens.clearAuthSecret(node);
    this.readSettings();
  }

  async setActive(name: string | undefined): Promise<void> {
    await setActiveNodeName(name);
    this.registry.activeChanged();
  }

  /** Stores a pasted token: the node's answers for the old identity are set aside. */
  async setToken(node: NodeConfig, token: string): Promise<void> {
    await this.tokens.setToken(node, token);
    await this.registry.tokenChanged(node);
  }

  /**
   * Stores an OAuth2 client secret and gets a token with it now, so a wrong secret shows up here
   * rather than on the first lookup (the fetch's error is thrown). Another secret may mean another
   * subject: what was asked with the old one is set aside either way.
   */
  async setClientSecret(node: NodeConfig, secret: string, signal?: AbortSignal): Promise<void> {
    if (node.auth?.type !== 'clientCredentials') throw new Error(`Node "${node.name}" has no OAuth2 client credentials.`);
    await this.tokens.setClientSecret(node, node.auth, secret);
    this.log.info(`Stored a client secret for node "${node.name}".`);
    this.registry.invalidateToken(node);
    try {
      await this.registry.fetchOAuthToken(node, signal);
    } finally {
      await this.registry.tokenChanged(node);
    }
  }

  /** Clears a node's token (and client secret, and any fetched OAuth2 token). */
  async clearToken(node: NodeConfig): Promise<void> {
    await this.tokens.clearToken(node);
    await this.tokens.clearAuthSecret(node);
    this.registry.invalidateToken(node);
    await this.registry.tokenChanged(node);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.registry.dispose();
  }

  /** Re-reads the settings; warns of each new problem once. */
  private readSettings(): void {
    const { nodes, problems } = readNodeSettings();
    const fresh = this.registry.applySettings(nodes, problems);
    for (const p of fresh) this.log.warn(p);
    if (fresh.length > 0) {
      void vscode.window
        .showWarningMessage(
          fresh.length === 1 ? fresh[0] : vscode.l10n.t('{0} problems in cantonLens.nodes: {1}', fresh.length, fresh.join(' ')),
          vscode.l10n.t('Open Settings'),
        )
        .then((pick) => {
          if (pick) void vscode.commands.executeCommand('workbench.action.openSettingsJson');
        });
    }
  }

  private transportFor(node: NodeConfig, connection: NodeConnection): () => Promise<HttpTransport> {
    let transport: Promise<HttpTransport> | undefined;
    return () => {
      transport ??= (async () => {
        const options: TransportOptions = { proxyUrl: connection.proxyUrl };
        if (node.caFile) {
          try {
            options.ca = await fs.readFile(node.caFile, 'utf8');
          } catch (e) {
            transport = undefined;
            throw new LedgerApiError({
              kind: 'network',
              explanation: vscode.l10n.t(
                'Cannot read the CA file "{0}" of node "{1}" ({2}): fix caFile in cantonLens.nodes.',
                node.caFile,
                node.name,
                (e as NodeJS.ErrnoException).code ?? (e as Error).message,
              ),
            });
          }
        }
        return lazyHttpTransport(this.bundleDir, options)();
      })();
      return transport;
    };
  }
}

/** The proxy for a URL from VS Code's `http.proxy` and the environment (see ledger/proxyFor.ts). */
function proxyUrlFor(url: string): string | undefined {
  return proxyFor(url, { httpProxySetting: vscode.workspace.getConfiguration('http').get<string>('proxy'), env: process.env });
}
