// The configured nodes, one Ledger API client each, their last known state, and their tokens.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { ClientCredentialsTokenSource } from '../auth/clientCredentials';
import { tokenState, type TokenState } from '../auth/jwtClaims';
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

  constructor(
    private readonly bundleDir: string,
    private readonly userAgent: string,
    private readonly tokens: TokenStore,
    private readonly log: ExtensionLog,
  ) {
    this.reload();
  }

  /** Re-reads the settings; reports each new problem once; drops clients whose node changed. */
  reload(): void {
    const { nodes, problems } = readNodeSettings();
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
      getToken: () => this.tokenFor(node, oauth),
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

  dispose(): void {
    for (const c of this.clients.values()) void c.client.close();
    this.clients.clear();
    this.changed.dispose();
  }

  /** Why stored tokens are not sent to this node (a workspace entry in an untrusted workspace), if they are not. */
  tokenBlockedReason(node: NodeConfig): string | undefined {
    if (!mayUseStoredToken(node, vscode.workspace.isTrusted)) {
      return vscode.l10n.t('This node comes from the settings of an untrusted workspace: no stored token is sent to it. Trust the workspace, or add the node to your user settings.');
    }
    return undefined;
  }

  private async tokenFor(node: NodeConfig, oauth: ClientCredentialsTokenSource | undefined): Promise<string | undefined> {
    if (this.tokenBlockedReason(node)) return undefined;
    if (oauth) return oauth.getToken();
    return this.tokens.getToken(node);
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
