// The configured nodes, one Ledger API client each, their last known state, and their tokens.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { ClientCredentialsTokenSource } from '../auth/clientCredentials';
import { tokenState, type TokenState } from '../auth/jwtClaims';
import { IdentityTracker, NO_TOKEN, identityOfToken, tokenDigest, type LedgerIdentity } from '../auth/ledgerIdentity';
import type { Credentials } from '../lookups/ledgerLookups';
import type { FeaturesDescriptor } from '../ledger/apiTypes';
import type { HttpTransport, TransportOptions } from '../ledger/httpTransport';
import { LedgerApiError } from '../ledger/ledgerApiError';
import { LedgerClient } from '../ledger/ledgerClient';
import { lazyHttpTransport } from '../ledger/lazyBundles';
import { proxyFor } from '../ledger/proxyFor';
import { mayUseStoredToken, type NodeConfig } from '../nodes/nodeSettings';
import type { ExtensionLog } from './extensionLog';
import { readActiveNodeName, readNodeSettings, readRequestTimeoutMs } from './nodeSettingsStore';
import type { TokenStore } from './tokenStore';

export type CheckedStatus =
  | { state: 'reachable'; version: string; features: FeaturesDescriptor; latencyMs: number; checkedAt: number }
  | { state: 'unreachable'; error: LedgerApiError; checkedAt: number };

export type NodeStatus = { state: 'unchecked' } | { state: 'checking'; previous?: NodeStatus } | CheckedStatus;

export type TokenInfo =
  | { source: 'pasted'; state: TokenState }
  | { source: 'clientCredentials'; state: TokenState; clientId: string }
  | { source: 'blocked'; reason: string };

/** A node's identity (or parties) changed: what was remembered for it belongs to someone else. */
export interface IdentityChange {
  node: string;
  /** Who the node's token is now; undefined when not known without fetching a token. */
  identity: LedgerIdentity | undefined;
}

interface NodeClient {
  key: string;
  client: LedgerClient;
  oauth?: ClientCredentialsTokenSource;
}

export class LedgerNodes implements vscode.Disposable {
  private configs: NodeConfig[] = [];
  private readonly reportedProblems = new Set<string>();
  private readonly clients = new Map<string, NodeClient>();
  private readonly statuses = new Map<string, NodeStatus>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly identityChanged = new vscode.EventEmitter<IdentityChange>();
  /**
   * Fires when a node's token was set or cleared, its OAuth2 token came back for another subject,
   * or its parties changed: answers remembered for the old identity must not be served for the new.
   */
  readonly onDidChangeIdentity = this.identityChanged.event;
  /** The identity of the token each node sent last, and a mark of that token (in memory only). */
  private readonly identities = new IdentityTracker();
  private readonly tokenSubscription: vscode.Disposable;
  private readonly refreshRequested = new vscode.EventEmitter<string>();
  /** Refresh was asked for a node (by name): what was learned of it is asked again. */
  readonly onDidRequestRefresh = this.refreshRequested.event;

  constructor(
    private readonly bundleDir: string,
    private readonly userAgent: string,
    private readonly tokens: TokenStore,
    private readonly log: ExtensionLog,
  ) {
    this.reload();
    // A token changed in this window or another: see whose each node's is now.
    this.tokenSubscription = tokens.onDidChange(() => void this.refreshIdentities());
  }

  /** Re-reads the settings; reports each new problem once; drops clients whose node changed. */
  reload(): void {
    const { nodes, problems } = readNodeSettings();
    const before = new Map(this.configs.map((n) => [n.name, n]));
    this.configs = nodes;
    const fresh = problems.filter((p) => !this.reportedProblems.has(p));
    for (const p of fresh) {
      this.reportedProblems.add(p);
      this.log.warn(p);
    }
    if (fresh.length > 0) {
      void vscode.window.showWarningMessage(fresh.length === 1 ? fresh[0]! : vscode.l10n.t('{0} problems in cantonLens.nodes: {1}', fresh.length, fresh.join(' ')), vscode.l10n.t('Open Settings')).then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettingsJson');
      });
    }
    for (const [name, c] of this.clients) {
      const node = this.find(name);
      if (!node || c.key !== this.clientKey(node)) {
        void c.client.close();
        this.clients.delete(name);
        this.statuses.delete(name);
      }
    }
    for (const [name, old] of before) {
      const node = this.find(name);
      if (!node) this.identities.forget(name);
      else if (old.url !== node.url || JSON.stringify(old.parties ?? []) !== JSON.stringify(node.parties ?? [])) {
        this.identityChanged.fire({ node: name, identity: this.identities.current(name) });
      }
    }
    this.changed.fire();
  }

  all(): readonly NodeConfig[] {
    return this.configs;
  }

  find(name: string | undefined): NodeConfig | undefined {
    return name === undefined ? undefined : this.configs.find((n) => n.name === name);
  }

  /** The node lookups use: the `cantonLens.activeNode` setting, else the only node. */
  active(): NodeConfig | undefined {
    return this.find(readActiveNodeName()) ?? (this.configs.length === 1 ? this.configs[0] : undefined);
  }

  status(node: NodeConfig): NodeStatus {
    return this.statuses.get(node.name) ?? { state: 'unchecked' };
  }

  client(node: NodeConfig): LedgerClient {
    const key = this.clientKey(node);
    const existing = this.clients.get(node.name);
    if (existing?.key === key) return existing.client;
    void existing?.client.close();
    const transport = this.transportFor(node);
    const oauth = node.auth ? new ClientCredentialsTokenSource({
      auth: node.auth,
      getClientSecret: () => Promise.resolve(this.tokens.getClientSecret(node, node.auth!)),
      transport,
      userAgent: this.userAgent,
    }) : undefined;
    const client = new LedgerClient({
      baseUrl: node.url,
      transport,
      getToken: async () => (await this.resolveCredentials(node, oauth, true))!.token,
      noTokenHint: () => this.tokenBlockedReason(node),
      timeoutMs: readRequestTimeoutMs(),
      userAgent: this.userAgent,
      onRequest: (e) => this.log.request(node.name, e),
    });
    this.clients.set(node.name, { key, client, oauth });
    return client;
  }

  /** Calls GET /v2/version and records the node's state. */
  async check(node: NodeConfig, signal?: AbortSignal): Promise<CheckedStatus> {
    const previous = this.statuses.get(node.name);
    this.statuses.set(node.name, { state: 'checking', previous: previous?.state === 'checking' ? previous.previous : previous });
    this.changed.fire();
    const started = performance.now();
    let status: CheckedStatus;
    try {
      const client = this.client(node);
      const v = await client.getVersion({ signal });
      status = { state: 'reachable', version: v.version, features: v.features, latencyMs: performance.now() - started, checkedAt: Date.now() };
    } catch (e) {
      const error = e instanceof LedgerApiError ? e : new LedgerApiError({ kind: 'network', explanation: (e as Error).message });
      status = { state: 'unreachable', error, checkedAt: Date.now() };
    }
    if (this.find(node.name)) this.statuses.set(node.name, status);
    this.changed.fire();
    return status;
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

  /** What the UI says about a node's token; never the token itself. */
  async tokenInfo(node: NodeConfig): Promise<TokenInfo> {
    const blocked = this.tokenBlockedReason(node);
    if (blocked) return { source: 'blocked', reason: blocked };
    if (node.auth) {
      // Only what was fetched already: showing the tree must not fetch a token.
      const cached = this.clients.get(node.name)?.oauth?.cachedToken;
      const hasSecret = Boolean(await this.tokens.getClientSecret(node, node.auth));
      const state: TokenState = !hasSecret ? { state: 'none' } : cached ? tokenState(cached) : { state: 'opaque' };
      return { source: 'clientCredentials', state, clientId: node.auth.clientId };
    }
    return { source: 'pasted', state: tokenState(await this.tokens.getToken(node)) };
  }

  /** The Ledger API user the node's token is for, if known; else the node's configured userId. */
  async tokenUser(node: NodeConfig): Promise<string | undefined> {
    const token = await this.tokenInfo(node);
    const fromToken = token.source !== 'blocked' && 'claims' in token.state ? token.state.claims.user : undefined;
    return fromToken ?? node.userId;
  }

  /**
   * The token a request to the node sends and whose it is, resolved once: the caller sends exactly
   * this token and files the answer under this identity. May fetch an OAuth2 token.
   */
  async credentials(node: NodeConfig): Promise<Credentials> {
    this.client(node);
    return (await this.resolveCredentials(node, this.clients.get(node.name)?.oauth, true))!;
  }

  /** Whose the node's token is now, without fetching one; undefined when that is not known. */
  async currentIdentity(node: NodeConfig): Promise<LedgerIdentity | undefined> {
    return (await this.resolveCredentials(node, this.clients.get(node.name)?.oauth, false))?.identity;
  }

  /** Whose the node's token was when last read (in memory; for panels and hovers). */
  knownIdentity(node: NodeConfig): LedgerIdentity | undefined {
    return this.identities.current(node.name);
  }

  /** A token or secret of the node was set or cleared: its answers so far are set aside. */
  async tokenChanged(node: NodeConfig): Promise<void> {
    const resolved = await this.resolveCredentials(node, this.clients.get(node.name)?.oauth, false, true);
    if (!resolved) {
      // Not known until the next token is fetched (OAuth2): still, nothing remembered is reused.
      this.identities.forget(node.name);
      this.identityChanged.fire({ node: node.name, identity: undefined });
    }
  }

  /** Gets an OAuth2 token now (to check a client secret as soon as it is entered). */
  async fetchOAuthToken(node: NodeConfig, signal?: AbortSignal): Promise<void> {
    this.client(node);
    await this.clients.get(node.name)?.oauth?.getToken(signal);
  }

  /** Forgets a fetched OAuth2 token, so the next request gets a new one. */
  invalidateToken(node: NodeConfig): void {
    this.clients.get(node.name)?.oauth?.invalidate();
  }

  fireChanged(): void {
    this.changed.fire();
  }

  /** Refresh of a node: its learned facts (user, rights, pruning point…) are asked again. */
  requestRefresh(node: NodeConfig): void {
    this.refreshRequested.fire(node.name);
    this.changed.fire();
  }

  dispose(): void {
    for (const c of this.clients.values()) void c.client.close();
    this.clients.clear();
    this.tokenSubscription.dispose();
    this.changed.dispose();
    this.identityChanged.dispose();
    this.refreshRequested.dispose();
  }

  /** Why stored tokens are not sent to this node (a workspace entry in an untrusted workspace), if they are not. */
  tokenBlockedReason(node: NodeConfig): string | undefined {
    if (!mayUseStoredToken(node, vscode.workspace.isTrusted)) {
      return vscode.l10n.t('This node comes from the settings of an untrusted workspace: no stored token is sent to it. Trust the workspace, or add the node to your user settings.');
    }
    return undefined;
  }

  /**
   * The one place a node's token is read for a request: the token and its identity together, and a
   * change of either noticed (and announced) here. `fetch` false: an OAuth2 token only if one was
   * fetched already (undefined when unknown).
   */
  private async resolveCredentials(node: NodeConfig, oauth: ClientCredentialsTokenSource | undefined, fetch: boolean, force = false): Promise<Credentials | undefined> {
    let token: string | undefined;
    let identity: LedgerIdentity;
    let mark: string;
    if (this.tokenBlockedReason(node)) {
      identity = NO_TOKEN;
      mark = identity.key;
    } else if (node.auth) {
      if (fetch && oauth) token = await oauth.getToken();
      else token = oauth?.cachedToken;
      if (!token && !fetch && await this.tokens.getClientSecret(node, node.auth)) return undefined;
      // A refreshed token of the same subject is the same identity; another subject is a change.
      identity = identityOfToken(token, { tokenUrl: node.auth.tokenUrl, clientId: node.auth.clientId });
      mark = identity.key;
    } else {
      token = await this.tokens.getToken(node);
      identity = identityOfToken(token);
      mark = token ? tokenDigest(token) : NO_TOKEN.key;
    }
    if (this.find(node.name) && this.identities.observe(node.name, identity, mark, force)) {
      this.identityChanged.fire({ node: node.name, identity });
    }
    return { token, identity };
  }

  private async refreshIdentities(): Promise<void> {
    for (const node of this.configs) {
      try {
        await this.resolveCredentials(node, this.clients.get(node.name)?.oauth, false);
      } catch {
        // Secret storage unavailable: the next request reports it.
      }
    }
  }

  private clientKey(node: NodeConfig): string {
    return JSON.stringify([node.url, node.caFile, node.auth, proxyUrlFor(node.url), readRequestTimeoutMs()]);
  }

  private transportFor(node: NodeConfig): () => Promise<HttpTransport> {
    let transport: Promise<HttpTransport> | undefined;
    return () => {
      transport ??= (async () => {
        const options: TransportOptions = { proxyUrl: proxyUrlFor(node.url) };
        if (node.caFile) {
          try {
            options.ca = await fs.readFile(node.caFile, 'utf8');
          } catch (e) {
            transport = undefined;
            throw new LedgerApiError({ kind: 'network', explanation: vscode.l10n.t('Cannot read the CA file "{0}" of node "{1}" ({2}): fix caFile in cantonLens.nodes.', node.caFile, node.name, (e as NodeJS.ErrnoException).code ?? (e as Error).message) });
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
