// A signed-in node's tokens: the access token in memory, renewed with the refresh token before it
// expires (so no request fails first), the refresh token in SecretStorage only. The protocol is
// loaded on the first renewal or sign-in, not before.
import { LedgerApiError, isLedgerApiError } from '../ledger/ledgerApiError';
import * as l10n from '../l10n/l10n';
import { ledgerTokenProblem, type OidcSignInAuth, type OidcTokens } from './oidcAuth';
import type { OidcProtocol } from './oidcProtocol';

/** Where the refresh token is kept (SecretStorage in the extension). */
export interface RefreshTokenStore {
  get(): PromiseLike<string | undefined>;
  set(token: string | undefined): PromiseLike<void>;
}

export interface OidcTokenSourceOptions {
  auth: OidcSignInAuth;
  protocol: () => Promise<Pick<OidcProtocol, 'refresh' | 'revoke'>>;
  refreshToken: RefreshTokenStore;
  /** Renew this long before expiry. */
  refreshMarginMs?: number;
  now?: () => number;
}

/** What Sign Out did at the provider. */
export interface SignOutResult {
  /** The provider revoked the refresh token (false: it has no revocation endpoint, or there was none). */
  revoked: boolean;
  /** Why revocation failed, if it did (the tokens are forgotten here all the same). */
  problem?: string;
}

export class OidcTokenSource {
  private cached: OidcTokens | undefined;
  private inFlight: Promise<OidcTokens> | undefined;
  /** Bumped by every sign-in and sign-out: a renewal that started before one is not kept. */
  private generation = 0;

  constructor(private readonly options: OidcTokenSourceOptions) {}

  /** An access token valid for at least the margin, renewed when needed. */
  async getToken(signal?: AbortSignal): Promise<string> {
    const margin = this.options.refreshMarginMs ?? 60_000;
    if (this.cached && this.cached.expiresAt - margin > this.now()) return this.cached.accessToken;
    this.inFlight ??= this.renew(signal).finally(() => (this.inFlight = undefined));
    return (await this.inFlight).accessToken;
  }

  /** The access token held now, if any, without renewing (for showing who it is for). */
  get cachedToken(): string | undefined {
    return this.cached?.accessToken;
  }

  /** Forget the access token (after a 401): the next request renews it. */
  invalidate(): void {
    this.cached = undefined;
  }

  /** Whether a sign-in is kept: an access token now, or a refresh token stored. */
  async isSignedIn(): Promise<boolean> {
    return Boolean(this.cached) || Boolean(await this.options.refreshToken.get());
  }

  /**
   * Takes the tokens of a completed sign-in. Returns why the node (with this participant id, where
   * known) is likely to refuse the access token (audience or scope), if it is.
   */
  async signedIn(tokens: OidcTokens, participantId?: string): Promise<string | undefined> {
    this.generation++;
    this.cached = tokens;
    await this.options.refreshToken.set(tokens.refreshToken);
    return ledgerTokenProblem(tokens.accessToken, this.options.auth, participantId);
  }

  /** Why the node with this participant id refuses the access token held now, if it does. */
  tokenProblem(participantId: string): string | undefined {
    return this.cached ? ledgerTokenProblem(this.cached.accessToken, this.options.auth, participantId) : undefined;
  }

  /** Revokes the refresh token where the provider supports it, and forgets every token here. */
  async signOut(signal?: AbortSignal): Promise<SignOutResult> {
    this.generation++;
    const refresh = await this.options.refreshToken.get();
    const access = this.cached?.accessToken;
    this.cached = undefined;
    await this.options.refreshToken.set(undefined);
    const token = refresh ?? access;
    if (!token) return { revoked: false };
    try {
      const protocol = await this.options.protocol();
      return { revoked: await protocol.revoke(token, refresh ? 'refresh_token' : 'access_token', signal) };
    } catch (e) {
      return { revoked: false, problem: isLedgerApiError(e) ? e.explanation : String(e) };
    }
  }

  private async renew(signal?: AbortSignal): Promise<OidcTokens> {
    const generation = this.generation;
    const refreshToken = await this.options.refreshToken.get();
    if (!refreshToken) {
      const origin = new URL(this.options.auth.issuer).origin;
      throw new LedgerApiError({
        kind: 'unauthenticated',
        explanation: this.cached
          ? l10n.t('Your sign-in at {0} has expired and the provider gave no refresh token. Run "Canton: Sign In" again.', origin)
          : l10n.t('Not signed in to {0}. Run "Canton: Sign In" for this node.', origin),
      });
    }
    const protocol = await this.options.protocol();
    let tokens: OidcTokens;
    try {
      tokens = await protocol.refresh(refreshToken, signal);
    } catch (e) {
      // The provider ended the sign-in: the refresh token is worthless, and the tree says so.
      if (isLedgerApiError(e) && e.kind === 'unauthenticated' && generation === this.generation) {
        this.cached = undefined;
        await this.options.refreshToken.set(undefined);
      }
      throw e;
    }
    if (generation !== this.generation) {
      throw new LedgerApiError({ kind: 'cancelled', explanation: l10n.t('The sign-in changed while its token was renewed; try again.') });
    }
    this.cached = tokens;
    // Rotation: a provider that sends a new refresh token has invalidated the old one.
    if (tokens.refreshToken && tokens.refreshToken !== refreshToken) await this.options.refreshToken.set(tokens.refreshToken);
    return tokens;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
