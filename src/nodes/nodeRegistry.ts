// The one owner of node state: the configured nodes, each node's last checked status, one Ledger
// API client each (rebuilt when what it is built from changes), whose token each node sends, when
// a pasted token expires, and what was learned from each node (user, rights, parties, pruning
// point…, in `facts`). Pure (no `vscode`): the extension's adapter (services/ledgerNodes.ts) alone
// feeds it settings, secret and trust changes; everything else reads it and listens to its events.
import { ClientCredentialsTokenSource, type ClientCredentialsAuth } from '../auth/clientCredentials';
import { refusedTokenProblem, type OidcSignInAuth, type OidcTokens } from '../auth/oidcAuth';
import type { OidcProtocol } from '../auth/oidcProtocol';
import { OidcTokenSource, type SignOutResult } from '../auth/oidcTokenSource';
import { EXPIRY_WARNING_MS, decodeJwtClaims, tokenState, type TokenState } from '../auth/jwtClaims';
import { IdentityTracker, NO_TOKEN, identityOfToken, tokenDigest, type LedgerIdentity } from '../auth/ledgerIdentity';
import type { HttpTransport } from '../ledger/httpTransport';
import { LedgerApiError, isLedgerApiError } from '../ledger/ledgerApiError';
import { LedgerClient, type RequestLogEntry } from '../ledger/ledgerClient';
import type { Credentials } from '../auth/ledgerIdentity';
import * as l10n from '../l10n/l10n';
import { EventEmitter } from './eventEmitter';
import { NodeFacts } from './nodeFacts';
import { mayUseStoredToken, type NodeConfig } from './nodeSettings';

import type { CheckedStatus, NodeStatus } from './nodeStatus';

export type TokenInfo =
  | { source: 'pasted'; state: TokenState }
  | { source: 'clientCredentials'; state: TokenState; clientId: string }
  /** Signed in through the node's OpenID provider: `signedIn` false asks for Sign In. */
  | { source: 'signIn'; state: TokenState; issuer: string; signedIn: boolean }
  | { source: 'blocked'; reason: string };

/** A node's identity (or parties) changed: what was remembered for it belongs to someone else. */
export interface IdentityChange {
  node: string;
  /** Who the node's token is now; undefined when not known without fetching a token. */
  identity: LedgerIdentity | undefined;
}

/** Where tokens and client secrets are kept (SecretStorage in the extension). */
export interface NodeSecrets {
  token(node: NodeConfig): PromiseLike<string | undefined>;
  clientSecret(node: NodeConfig, auth: ClientCredentialsAuth): PromiseLike<string | undefined>;
  refreshToken(node: NodeConfig, auth: OidcSignInAuth): PromiseLike<string | undefined>;
  storeRefreshToken(node: NodeConfig, auth: OidcSignInAuth, token: string | undefined): PromiseLike<void>;
}

/** What a node's client is built from besides the node's own settings. */
export interface NodeConnection {
  proxyUrl?: string;
  timeoutMs: number;
}

/** What the registry is told by its host (the VS Code adapter, or a test). */
export interface NodeRegistryHost {
  secrets: NodeSecrets;
  isTrusted(): boolean;
  /** The `cantonLens.activeNode` setting, read when asked (it may change at any time). */
  activeNodeName(): string | undefined;
  connection(node: NodeConfig): NodeConnection;
  /** The node's HTTP layer, loaded on its first request. */
  transport(node: NodeConfig, connection: NodeConnection): () => Promise<HttpTransport>;
  /** The OpenID protocol for a sign-in node, loaded on its first sign-in or renewal. */
  oidcProtocol(auth: OidcSignInAuth, transport: () => Promise<HttpTransport>): Promise<OidcProtocol>;
  userAgent?: string;
  onRequest?(node: string, entry: RequestLogEntry): void;
  /** The time and the timers of token expiry (the system's by default; tests move a fake one). */
  clock?: RegistryClock;
}

/** The time now, and a timer that can be cancelled. */
export interface RegistryClock {
  now(): number;
  /** Calls `fire` after `ms`; returns what cancels it. A pending timer does not keep the process alive. */
  setTimer(fire: () => void, ms: number): () => void;
}

const systemClock: RegistryClock = {
  now: () => Date.now(),
  setTimer: (fire, ms) => {
    const t = setTimeout(fire, ms);
    t.unref?.();
    return () => clearTimeout(t);
  },
};

interface NodeClient {
  key: string;
  client: LedgerClient;
  oauth?: ClientCredentialsTokenSource | OidcTokenSource;
  /** The sign-in node's protocol, made once per client. */
  protocol?: () => Promise<OidcProtocol>;
}

/** setTimeout's limit; a token expiring later gets no timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class NodeRegistry {
  private configs: NodeConfig[] = [];
  private readonly reportedProblems = new Set<string>();
  private readonly clients = new Map<string, NodeClient>();
  private readonly statuses = new Map<string, NodeStatus>();
  /** The identity of the token each node sent last, and a mark of that token (in memory only). */
  private readonly identities = new IdentityTracker();
  /** Each pasted token's expiry, with the timers that redraw when it nears and passes. */
  private readonly expiries = new Map<string, { expiresAt: number; cancels: (() => void)[] }>();

  private readonly changed = new EventEmitter<void>();
  /** Anything shown about the nodes changed (list, status, token state, active node). */
  readonly onDidChange = this.changed.event;
  private readonly identityChanged = new EventEmitter<IdentityChange>();
  /**
   * A node's token was set or cleared, its OAuth2 token came back for another subject, or its URL
   * or parties changed: answers remembered for the old identity must not be served for the new.
   */
  readonly onDidChangeIdentity = this.identityChanged.event;
  private readonly refreshRequested = new EventEmitter<string>();
  /** Refresh was asked for a node (by name): what was learned of it is asked again. */
  readonly onDidRequestRefresh = this.refreshRequested.event;
  private readonly nodesChanged = new EventEmitter<void>();
  /** The settings were read again (nodes added, removed or edited). */
  readonly onDidChangeNodes = this.nodesChanged.event;
  private readonly tokensChanged = new EventEmitter<void>();
  /** A stored token or secret changed (in this window or another), or which tokens may be sent did. */
  readonly onDidChangeTokens = this.tokensChanged.event;

  /** The user, rights, parties and other facts learned from each node, forgotten with its identity. */
  readonly facts = new NodeFacts(this);

  private readonly clock: RegistryClock;

  constructor(private readonly host: NodeRegistryHost) {
    this.clock = host.clock ?? systemClock;
  }

  // What the host tells the registry.

  /**
   * The nodes as the settings say now. Returns the problems not reported before (each is reported
   * once); drops the clients and statuses of nodes whose connection changed; a changed URL or party
   * list is an identity change.
   */
  applySettings(nodes: NodeConfig[], problems: readonly string[]): string[] {
    const before = new Map(this.configs.map((n) => [n.name, n]));
    this.configs = nodes;
    const fresh = problems.filter((p) => !this.reportedProblems.has(p));
    for (const p of fresh) this.reportedProblems.add(p);
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
      if (!node) {
        this.identities.forget(name);
        this.facts.forget(name, old.url);
        this.noteExpiry(name, undefined);
      } else if (old.url !== node.url || JSON.stringify(old.parties ?? []) !== JSON.stringify(node.parties ?? [])) {
        // The rights learned at the old URL go too: a URL moved back later asks again.
        this.facts.forget(name, old.url);
        this.announceIdentity({ node: name, identity: this.identities.current(name) });
        // Another origin is another stored token (its key holds the origin): whose it is, is read again.
        if (new URL(old.url).origin !== new URL(node.url).origin) this.identities.forget(name);
      }
    }
    this.nodesChanged.fire();
    this.changed.fire();
    return fresh;
  }

  /** A stored token or secret changed, maybe in another window: see whose each node's is now. */
  async secretsChanged(): Promise<void> {
    this.tokensChanged.fire();
    this.changed.fire();
    await this.refreshIdentities();
  }

  /** The workspace became trusted: its nodes' stored tokens may be sent now. */
  async trustChanged(): Promise<void> {
    this.tokensChanged.fire();
    this.changed.fire();
    await this.refreshIdentities();
  }

  /** A token or secret of the node was set or cleared here: its answers so far are set aside. */
  async tokenChanged(node: NodeConfig): Promise<void> {
    const resolved = await this.resolveCredentials(node, false, true);
    if (!resolved) {
      // Not known until the next token is fetched (OAuth2): still, nothing remembered is reused.
      this.identities.forget(node.name);
      this.announceIdentity({ node: node.name, identity: undefined });
    }
    this.changed.fire();
  }

  /** The active node changed (a setting written by the host). */
  activeChanged(): void {
    this.changed.fire();
  }

  // What everyone else reads.

  all(): readonly NodeConfig[] {
    return this.configs;
  }

  find(name: string | undefined): NodeConfig | undefined {
    return name === undefined ? undefined : this.configs.find((n) => n.name === name);
  }

  /** The node lookups use: the `cantonLens.activeNode` setting, else the only node. */
  active(): NodeConfig | undefined {
    return this.find(this.host.activeNodeName()) ?? (this.configs.length === 1 ? this.configs[0] : undefined);
  }

  status(node: NodeConfig): NodeStatus {
    return this.statuses.get(node.name) ?? { state: 'unchecked' };
  }

  client(node: NodeConfig): LedgerClient {
    return this.nodeClient(node).client;
  }

  /** Calls GET /v2/version and records the node's state: checking (keeping what was shown), then reachable or not. */
  async check(node: NodeConfig, signal?: AbortSignal): Promise<CheckedStatus> {
    const previous = this.statuses.get(node.name);
    this.statuses.set(node.name, { state: 'checking', previous: previous?.state === 'checking' ? previous.previous : previous });
    this.changed.fire();
    const started = performance.now();
    let status: CheckedStatus;
    try {
      const v = await this.client(node).getVersion({ signal });
      status = { state: 'reachable', version: v.version, features: v.features, latencyMs: performance.now() - started, checkedAt: Date.now() };
    } catch (e) {
      const error = isLedgerApiError(e) ? e : new LedgerApiError({ kind: 'network', explanation: (e as Error).message });
      status = { state: 'unreachable', error, checkedAt: Date.now() };
    }
    // A node removed while it was checked gets no status.
    if (this.find(node.name)) this.statuses.set(node.name, status);
    this.changed.fire();
    return status;
  }

  /** What the UI says about a node's token; never the token itself. */
  async tokenInfo(node: NodeConfig): Promise<TokenInfo> {
    const blocked = this.tokenBlockedReason(node);
    if (blocked) return { source: 'blocked', reason: blocked };
    if (node.auth?.type === 'oidc') {
      const source = this.clients.get(node.name)?.oauth;
      const cached = source?.cachedToken;
      const signedIn = Boolean(cached) || Boolean(await this.host.secrets.refreshToken(node, node.auth));
      const state: TokenState = cached ? tokenState(cached, this.clock.now()) : signedIn ? { state: 'opaque' } : { state: 'none' };
      return { source: 'signIn', state, issuer: node.auth.issuer, signedIn };
    }
    if (node.auth) {
      // Only what was fetched already: showing the tree must not fetch a token.
      const cached = this.clients.get(node.name)?.oauth?.cachedToken;
      const hasSecret = Boolean(await this.host.secrets.clientSecret(node, node.auth));
      const state: TokenState = !hasSecret ? { state: 'none' } : cached ? tokenState(cached, this.clock.now()) : { state: 'opaque' };
      return { source: 'clientCredentials', state, clientId: node.auth.clientId };
    }
    const token = await this.host.secrets.token(node);
    this.noteExpiry(node.name, token);
    return { source: 'pasted', state: tokenState(token, this.clock.now()) };
  }

  /**
   * The Ledger API user the node's token is for, if known; else the node's configured userId. The
   * identity already known is used as it is: naming the user does not read the secret again.
   */
  async tokenUser(node: NodeConfig): Promise<string | undefined> {
    const identity = this.identities.current(node.name) ?? (await this.currentIdentity(node));
    return identity?.user ?? node.userId;
  }

  /**
   * The token a request to the node sends and whose it is, resolved once: the caller sends exactly
   * this token and files the answer under this identity. May fetch an OAuth2 token.
   */
  async credentials(node: NodeConfig): Promise<Credentials> {
    return (await this.resolveCredentials(node, true))!;
  }

  /** Whose the node's token is now, without fetching one; undefined when that is not known. */
  async currentIdentity(node: NodeConfig): Promise<LedgerIdentity | undefined> {
    return (await this.resolveCredentials(node, false))?.identity;
  }

  /** Whose the node's token was when last read (in memory; no secret is read). */
  knownIdentity(node: NodeConfig): LedgerIdentity | undefined {
    return this.identities.current(node.name);
  }

  /** Gets an OAuth2 token now (to check a client secret as soon as it is entered). */
  async fetchOAuthToken(node: NodeConfig, signal?: AbortSignal): Promise<void> {
    await this.nodeClient(node).oauth?.getToken(signal);
  }

  /** Forgets a fetched OAuth2 token, so the next request gets a new one. */
  invalidateToken(node: NodeConfig): void {
    this.clients.get(node.name)?.oauth?.invalidate();
  }

  /** The sign-in node's OpenID protocol (loaded on first use), for a sign-in run by the host's UI. */
  oidcProtocol(node: NodeConfig): Promise<OidcProtocol> {
    const entry = this.nodeClient(node);
    if (!entry.protocol) return Promise.reject(new Error(`Node "${node.name}" does not sign in through an OpenID provider.`));
    return entry.protocol();
  }

  /**
   * Takes the tokens of a completed sign-in (the refresh token to SecretStorage) and announces the
   * identity. Returns why the node is likely to refuse the token (audience, scope), if it is.
   */
  async signedIn(node: NodeConfig, tokens: OidcTokens): Promise<string | undefined> {
    const source = this.nodeClient(node).oauth;
    if (!(source instanceof OidcTokenSource)) throw new Error(`Node "${node.name}" does not sign in through an OpenID provider.`);
    let problem = await source.signedIn(tokens, this.participantId(node));
    await this.resolveCredentials(node, false, true);
    this.changed.fire();
    // The token's `aud` is judged against the node's participant id (known once any identity read
    // it): an answer settles the judgement; a refusal of the token is the problem.
    try {
      const { participantId } = await this.client(node).getParticipantId({ signal: AbortSignal.timeout(10_000) });
      if (participantId) problem = source.tokenProblem(participantId);
    } catch (e) {
      if (!problem && isLedgerApiError(e) && (e.status === 401 || e.status === 403)) problem = e.explanation;
    }
    return problem;
  }

  /** Signs the node out: revokes where the provider can, forgets the tokens, and the identity. */
  async signOut(node: NodeConfig, signal?: AbortSignal): Promise<SignOutResult> {
    const source = this.nodeClient(node).oauth;
    if (!(source instanceof OidcTokenSource)) return { revoked: false };
    const result = await source.signOut(signal);
    await this.tokenChanged(node);
    return result;
  }

  /** The node's participant id, once any identity read it (it does not change with the token). */
  participantId(node: NodeConfig): string | undefined {
    return this.clients.get(node.name)?.client.participantIdKnown;
  }

  /** Refresh of a node: its learned facts (user, rights, pruning point…) are asked again. */
  requestRefresh(node: NodeConfig): void {
    this.facts.forget(node.name);
    this.refreshRequested.fire(node.name);
    this.changed.fire();
  }

  /** Why stored tokens are not sent to this node (a workspace entry in an untrusted workspace), if they are not. */
  tokenBlockedReason(node: NodeConfig): string | undefined {
    if (!mayUseStoredToken(node, this.host.isTrusted())) {
      return l10n.t(
        'This node comes from the settings of an untrusted workspace: no stored token is sent to it. Trust the workspace, or add the node to your user settings.',
      );
    }
    return undefined;
  }

  dispose(): void {
    for (const c of this.clients.values()) void c.client.close();
    this.clients.clear();
    for (const name of [...this.expiries.keys()]) this.noteExpiry(name, undefined);
    for (const e of [this.changed, this.identityChanged, this.refreshRequested, this.nodesChanged, this.tokensChanged]) e.dispose();
  }

  private nodeClient(node: NodeConfig): NodeClient {
    const key = this.clientKey(node);
    const existing = this.clients.get(node.name);
    if (existing?.key === key) return existing;
    void existing?.client.close();
    const connection = this.host.connection(node);
    const transport = this.host.transport(node, connection);
    const auth = node.auth;
    let protocol: (() => Promise<OidcProtocol>) | undefined;
    let oauth: NodeClient['oauth'];
    if (auth?.type === 'oidc') {
      let loaded: Promise<OidcProtocol> | undefined;
      // A bundle that failed to load is tried again on the next use.
      protocol = () =>
        (loaded ??= this.host.oidcProtocol(auth, transport).catch((e: unknown) => {
          loaded = undefined;
          throw e;
        }));
      oauth = new OidcTokenSource({
        auth,
        protocol,
        refreshToken: { get: () => this.host.secrets.refreshToken(node, auth), set: (t) => this.host.secrets.storeRefreshToken(node, auth, t) },
      });
    } else if (auth) {
      oauth = new ClientCredentialsTokenSource({
        auth,
        getClientSecret: () => Promise.resolve(this.host.secrets.clientSecret(node, auth)),
        transport,
        userAgent: this.host.userAgent,
      });
    }
    const entry: NodeClient = { key, oauth, protocol, client: undefined as unknown as LedgerClient };
    entry.client = new LedgerClient({
      baseUrl: node.url,
      transport,
      // Requests that did not resolve their credentials first (a version check, a browse page).
      getToken: async () => (await this.resolveCredentials(node, true, false, entry))!.token,
      noTokenHint: () => this.tokenBlockedReason(node),
      // A refusal read from the token's `aud` and `scope`, against the node's participant id.
      explainRefusal: (token, path) => refusedTokenProblem(token, auth ?? {}, entry.client, path),
      timeoutMs: connection.timeoutMs,
      userAgent: this.host.userAgent,
      onRequest: (e) => this.host.onRequest?.(node.name, e),
    });
    this.clients.set(node.name, entry);
    return entry;
  }

  /**
   * The one place a node's token is read for a request: the token and its identity together, and a
   * change of either noticed (and announced) here. `fetch` false: an OAuth2 token only if one was
   * fetched already (undefined when unknown). `force`: a token was set or cleared here.
   */
  private async resolveCredentials(node: NodeConfig, fetch: boolean, force = false, client?: NodeClient): Promise<Credentials | undefined> {
    let token: string | undefined;
    let identity: LedgerIdentity;
    let mark: string;
    if (this.tokenBlockedReason(node)) {
      identity = NO_TOKEN;
      mark = identity.key;
    } else if (node.auth) {
      const oauth = (client ?? (fetch ? this.nodeClient(node) : this.clients.get(node.name)))?.oauth;
      if (fetch && oauth) token = await oauth.getToken();
      else token = oauth?.cachedToken;
      const stored = node.auth.type === 'oidc' ? this.host.secrets.refreshToken(node, node.auth) : this.host.secrets.clientSecret(node, node.auth);
      if (!token && !fetch && (await stored)) return undefined;
      // A refreshed token of the same subject is the same identity; another subject is a change.
      identity = identityOfToken(token, node.auth.type === 'oidc' ? undefined : { tokenUrl: node.auth.tokenUrl, clientId: node.auth.clientId });
      mark = identity.key;
    } else {
      token = await this.host.secrets.token(node);
      this.noteExpiry(node.name, token);
      identity = identityOfToken(token);
      mark = token ? tokenDigest(token) : NO_TOKEN.key;
    }
    if (this.find(node.name) && this.identities.observe(node.name, identity, mark, force)) {
      this.announceIdentity({ node: node.name, identity });
    }
    return { token, identity };
  }

  private announceIdentity(change: IdentityChange): void {
    this.facts.forget(change.node);
    this.identityChanged.fire(change);
  }

  private async refreshIdentities(): Promise<void> {
    for (const node of this.configs) {
      try {
        await this.resolveCredentials(node, false);
      } catch {
        // Secret storage unavailable: whose token it is now cannot be told, so nothing remembered
        // for the last identity is served (hovers look answers up by it); the next request reports it.
        if (this.identities.current(node.name)) {
          this.identities.forget(node.name);
          this.announceIdentity({ node: node.name, identity: undefined });
        }
      }
    }
  }

  /** Redraws when a pasted token nears its expiry and when it has passed, so "expired" shows without a refresh. */
  private noteExpiry(name: string, token: string | undefined): void {
    const expiresAt = token ? decodeJwtClaims(token)?.expiresAt : undefined;
    const known = this.expiries.get(name);
    if (known?.expiresAt === expiresAt) return;
    if (known) for (const cancel of known.cancels) cancel();
    this.expiries.delete(name);
    if (expiresAt === undefined || !this.find(name)) return;
    const cancels = [expiresAt - EXPIRY_WARNING_MS, expiresAt + 1000]
      .map((at) => at - this.clock.now())
      .filter((ms) => ms > 0 && ms < MAX_TIMER_MS)
      .map((ms) => this.clock.setTimer(() => this.changed.fire(), ms));
    this.expiries.set(name, { expiresAt, cancels });
  }

  private clientKey(node: NodeConfig): string {
    return JSON.stringify([node.url, node.caFile, node.auth, this.host.connection(node)]);
  }
}
