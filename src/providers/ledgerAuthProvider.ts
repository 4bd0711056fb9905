// Sign-in per node as a VS Code authentication provider: each signed-in node is a session in the
// Accounts menu, and `vscode.authentication.getSession('cantonLens', ['node:<name>'])` gives other
// extensions its current access token. The tokens themselves are owned by the node registry.
import * as vscode from 'vscode';
import { decodeJwtClaims } from '../auth/jwtClaims';
import { startLoopbackRedirect, type RedirectReceiver } from '../auth/loopbackRedirect';
import type { DeviceCodePrompt, OidcSignInAuth } from '../auth/oidcAuth';
import type { SignInUi } from '../auth/oidcProtocol';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { ExtensionLog } from '../services/extensionLog';
import type { LedgerNodes } from '../services/ledgerNodes';

export const AUTH_PROVIDER_ID = 'cantonLens';
const NODE_SCOPE = 'node:';
const URI_HANDLER_PATH = '/signed-in';

export type SignInNode = NodeConfig & { auth: OidcSignInAuth };
const isSignInNode = (n: NodeConfig | undefined): n is SignInNode => n?.auth?.type === 'oidc';

export class LedgerAuthProvider implements vscode.AuthenticationProvider, vscode.UriHandler, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  /** Opens the provider's page; replaced by tests, which sign in on that page themselves. */
  openBrowser: (url: string) => Thenable<boolean> = (url) => vscode.env.openExternal(vscode.Uri.parse(url, true));
  private readonly uriWaiters = new Set<(params: URLSearchParams) => void>();
  private readonly known = new Map<string, vscode.AuthenticationSession>();

  constructor(
    private readonly nodes: LedgerNodes,
    private readonly log: ExtensionLog,
  ) {}

  signInNodes(): SignInNode[] {
    return this.nodes.all().filter(isSignInNode);
  }

  async getSessions(scopes?: readonly string[]): Promise<vscode.AuthenticationSession[]> {
    const wanted = scopes?.find((s) => s.startsWith(NODE_SCOPE))?.slice(NODE_SCOPE.length);
    const sessions: vscode.AuthenticationSession[] = [];
    for (const node of this.signInNodes()) {
      if (wanted !== undefined && node.name !== wanted) continue;
      const session = await this.sessionOf(node);
      if (session) sessions.push(session);
    }
    return sessions;
  }

  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const name = scopes.find((s) => s.startsWith(NODE_SCOPE))?.slice(NODE_SCOPE.length);
    const candidates = this.signInNodes();
    const node = name !== undefined ? this.nodes.find(name) : candidates.length === 1 ? candidates[0] : undefined;
    if (!isSignInNode(node)) {
      throw new Error(
        name !== undefined
          ? vscode.l10n.t('The ledger node "{0}" has no sign-in: give it an auth entry of type "oidc" in cantonLens.nodes.', name)
          : vscode.l10n.t(
              'Ask for a session with the scope "node:<name>" of a node that signs in (one of: {0}).',
              candidates.map((n) => n.name).join(', ') || '-',
            ),
      );
    }
    return this.signIn(node);
  }

  async removeSession(sessionId: string): Promise<void> {
    const node = this.nodes.find(sessionId.startsWith(NODE_SCOPE) ? sessionId.slice(NODE_SCOPE.length) : undefined);
    if (isSignInNode(node)) await this.signOut(node);
  }

  /** Signs a node in through its provider, with progress that can be cancelled. */
  async signIn(node: SignInNode): Promise<vscode.AuthenticationSession> {
    // A node from an untrusted workspace's settings gets no token: nor a sign-in at its issuer.
    const blocked = this.nodes.tokenBlockedReason(node);
    if (blocked) throw new Error(blocked);
    const origin = new URL(node.auth.issuer).origin;
    const tokens = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title:
          node.auth.flow === 'device'
            ? vscode.l10n.t('Signing in to "{0}" at {1} with a device code…', node.name, origin)
            : vscode.l10n.t('Signing in to "{0}" at {1} in your browser…', node.name, origin),
        cancellable: true,
      },
      async (_progress, cancel) => {
        const abort = new AbortController();
        cancel.onCancellationRequested(() => abort.abort());
        const protocol = await this.nodes.registry.oidcProtocol(node);
        const ui = this.signInUi(abort.signal);
        if (node.auth.flow === 'device') return protocol.signInWithDeviceCode(ui, abort.signal);
        const receiver = await this.receiver(node.auth);
        try {
          return await protocol.signInWithBrowser(receiver, ui, abort.signal);
        } finally {
          receiver.dispose();
        }
      },
    );
    const problem = await this.nodes.registry.signedIn(node, tokens);
    const session = this.toSession(node, tokens.accessToken);
    this.log.info(`Signed in to node "${node.name}" at ${origin} as ${session.account.label}.`);
    if (problem) this.log.warn(`Node "${node.name}" is likely to refuse the token: ${problem}`);
    if (problem)
      void vscode.window
        .showWarningMessage(problem, vscode.l10n.t('Open Settings'))
        .then((p) => p && vscode.commands.executeCommand('workbench.action.openSettings', 'cantonLens.nodes'));
    this.fire(node, session);
    return session;
  }

  /** Signs a node out: its refresh token is revoked where the provider can, and forgotten here. */
  async signOut(node: SignInNode): Promise<void> {
    const result = await this.nodes.registry.signOut(node);
    this.log.info(`Signed out of node "${node.name}"${result.revoked ? ' (revoked at the provider)' : ''}.`);
    if (result.problem)
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Signed out of "{0}" here, but the provider did not revoke the sign-in: {1}', node.name, result.problem),
      );
    const old = this.known.get(node.name);
    this.known.delete(node.name);
    if (old) this.changed.fire({ added: [], removed: [old], changed: [] });
  }

  /** Sessions of nodes no longer signed in (signed out in another window, refused a renewal, removed) are announced gone. */
  async resync(): Promise<void> {
    for (const [name, session] of [...this.known]) {
      const node = this.nodes.find(name);
      const info = isSignInNode(node) ? await this.nodes.tokenInfo(node) : undefined;
      if (info?.source === 'signIn' && info.signedIn) continue;
      this.known.delete(name);
      this.changed.fire({ added: [], removed: [session], changed: [] });
    }
  }

  /** The editor's URI handler: the browser's way back when the node's redirect is `uriHandler`. */
  handleUri(uri: vscode.Uri): void {
    if (uri.path !== URI_HANDLER_PATH) return;
    const params = new URLSearchParams(uri.query);
    for (const w of this.uriWaiters) w(params);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async sessionOf(node: SignInNode): Promise<vscode.AuthenticationSession | undefined> {
    const info = await this.nodes.tokenInfo(node);
    if (info.source !== 'signIn' || !info.signedIn) return undefined;
    try {
      // A current token: renewed here when it is near its expiry.
      const { token } = await this.nodes.credentials(node);
      if (!token) return undefined;
      const session = this.toSession(node, token);
      this.known.set(node.name, session);
      return session;
    } catch (e) {
      this.log.info(`No session for node "${node.name}": ${(e as Error).message}`);
      return undefined;
    }
  }

  private toSession(node: SignInNode, accessToken: string): vscode.AuthenticationSession {
    const user = decodeJwtClaims(accessToken)?.user ?? vscode.l10n.t('signed in');
    return {
      id: `${NODE_SCOPE}${node.name}`,
      accessToken,
      account: { id: `${node.auth.issuer}|${user}`, label: `${user} · ${node.name}` },
      scopes: [`${NODE_SCOPE}${node.name}`],
    };
  }

  private fire(node: SignInNode, session: vscode.AuthenticationSession): void {
    const had = this.known.has(node.name);
    this.known.set(node.name, session);
    this.changed.fire(had ? { added: [], removed: [], changed: [session] } : { added: [session], removed: [], changed: [] });
  }

  private signInUi(signal: AbortSignal): SignInUi {
    return {
      openBrowser: async (url) => Boolean(await this.openBrowser(url)),
      showDeviceCode: (prompt) => void this.showDeviceCode(prompt, signal),
    };
  }

  private async showDeviceCode(prompt: DeviceCodePrompt, signal: AbortSignal): Promise<void> {
    const open = vscode.l10n.t('Copy Code and Open');
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Enter the code {0} at {1} to sign in (it expires in {2} min).',
        prompt.userCode,
        prompt.verificationUri,
        Math.round(prompt.expiresInSeconds / 60),
      ),
      open,
    );
    if (pick !== open || signal.aborted) return;
    await vscode.env.clipboard.writeText(prompt.userCode);
    await this.openBrowser(prompt.verificationUriComplete ?? prompt.verificationUri);
  }

  /** The loopback redirect (forwarded in remote set-ups), or the editor's URI handler. */
  private async receiver(auth: OidcSignInAuth): Promise<RedirectReceiver> {
    if (auth.redirect === 'loopback') {
      const local = await startLoopbackRedirect();
      // In remote and browser set-ups the port is forwarded, maybe under a path (code-server's
      // `/proxy/<port>/`): the callback's path goes under whatever base comes back.
      const base = await vscode.env.asExternalUri(vscode.Uri.parse(new URL('/', local.redirectUri).toString()));
      return { ...local, redirectUri: new URL(new URL(local.redirectUri).pathname.slice(1), base.toString(true)).toString() };
    }
    const own = vscode.Uri.parse(`${vscode.env.uriScheme}://canton-lens.canton-lens${URI_HANDLER_PATH}`);
    const redirectUri = (await vscode.env.asExternalUri(own)).toString(true);
    let deliver: ((params: URLSearchParams) => void) | undefined;
    const arrived = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
    this.uriWaiters.add(deliver!);
    return {
      redirectUri,
      wait: (signal) =>
        Promise.race([
          arrived,
          new Promise<never>((_, reject) => {
            if (signal?.aborted) reject(new Error('cancelled'));
            signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
          }),
        ]),
      dispose: () => this.uriWaiters.delete(deliver!),
    };
  }
}

/** Registers the provider (the sign-in commands use it too) and the URI handler. */
export function registerLedgerAuthProvider(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: LedgerNodes; readonly auth: LedgerAuthProvider },
): void {
  const { nodes, auth: provider } = ctx;
  ctx.subscriptions.push(
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, vscode.l10n.t('Canton Ledger'), provider, { supportsMultipleAccounts: true }),
    vscode.window.registerUriHandler(provider),
    // A sign-in that ended elsewhere (another window signed out, the provider refused a renewal).
    nodes.onDidChangeTokens(() => void provider.resync()),
    nodes.onDidChangeNodes(() => void provider.resync()),
  );
}
