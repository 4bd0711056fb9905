// OAuth2 client credentials (RFC 6749 §4.4), the way real Canton deployments issue tokens
// (Keycloak, Auth0): fetched on demand, cached, refreshed before expiry.
import type { HttpTransport } from '../ledger/httpTransport';
import { LedgerApiError, previewBody, scrubCredentials } from '../ledger/ledgerApiError';
import { decodeJwtClaims } from './jwtClaims';
import * as l10n from '../l10n/l10n';

/** A node's `auth` entry for OAuth2 client credentials (`cantonLens.nodes`). */
export interface ClientCredentialsAuth {
  type: 'clientCredentials';
  tokenUrl: string;
  clientId: string;
  audience?: string;
  scope?: string;
}

export interface ClientCredentialsOptions {
  auth: ClientCredentialsAuth;
  getClientSecret: () => Promise<string | undefined>;
  transport: () => Promise<HttpTransport>;
  timeoutMs?: number;
  /** Refresh this long before expiry. */
  refreshMarginMs?: number;
  now?: () => number;
  userAgent?: string;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

export class ClientCredentialsTokenSource {
  private cached: CachedToken | undefined;
  private inFlight: Promise<CachedToken> | undefined;

  constructor(private readonly options: ClientCredentialsOptions) {}

  /** A token valid for at least the refresh margin, fetching a new one when needed. */
  async getToken(signal?: AbortSignal): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    const margin = this.options.refreshMarginMs ?? 60_000;
    if (this.cached && this.cached.expiresAt - margin > now) return this.cached.token;
    // One request at a time: concurrent lookups share it.
    this.inFlight ??= this.fetchToken(signal).finally(() => (this.inFlight = undefined));
    this.cached = await this.inFlight;
    return this.cached.token;
  }

  /** Forget the cached token (after a 401, or when the secret changed). */
  invalidate(): void {
    this.cached = undefined;
  }

  /** The token fetched last, if any, without fetching (for showing who it is for). */
  get cachedToken(): string | undefined {
    return this.cached?.token;
  }

  private async fetchToken(signal?: AbortSignal): Promise<CachedToken> {
    const { auth } = this.options;
    const where = { method: 'POST', path: new URL(auth.tokenUrl).pathname };
    const secret = await this.options.getClientSecret();
    if (!secret) {
      throw new LedgerApiError({
        ...where,
        kind: 'unauthenticated',
        explanation: l10n.t('No client secret is stored for client "{0}": run "Canton: Set Token" to enter it.', auth.clientId),
      });
    }
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.clientId, client_secret: secret });
    if (auth.audience) form.set('audience', auth.audience);
    if (auth.scope) form.set('scope', auth.scope);
    const transport = await this.options.transport();
    const scrub = (s: string) => scrubCredentials(s.split(secret).join('[secret]'));
    let res;
    try {
      res = await transport.send({
        method: 'POST',
        url: new URL(auth.tokenUrl),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': this.options.userAgent ?? 'canton-lens' },
        body: form.toString(),
        signal,
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxResponseBytes: 1024 * 1024,
      });
    } catch (e) {
      const err = e as LedgerApiError;
      throw new LedgerApiError({
        ...where,
        kind: err.kind ?? 'network',
        explanation: l10n.t('Could not get a token from {0}: {1}', new URL(auth.tokenUrl).origin, scrub(err.explanation ?? String(e))),
      });
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(res.body) as Record<string, unknown>;
    } catch {
      // explained below
    }
    if (res.status !== 200 || typeof body.access_token !== 'string') {
      const reason =
        typeof body.error === 'string'
          ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`
          : `HTTP ${res.status}, "${previewBody(res.body)}"`;
      throw new LedgerApiError({
        ...where,
        kind: res.status === 400 || res.status === 401 || res.status === 403 ? 'unauthenticated' : res.status >= 500 ? 'unavailable' : 'badResponse',
        status: res.status,
        explanation: l10n.t(
          'The token endpoint {0} refused the client credentials ({1}). Check the client id, secret, audience and scope.',
          new URL(auth.tokenUrl).origin,
          scrub(reason),
        ),
      });
    }
    const token = body.access_token;
    const now = (this.options.now ?? Date.now)();
    const fromResponse = typeof body.expires_in === 'number' ? now + body.expires_in * 1000 : undefined;
    const fromClaims = decodeJwtClaims(token)?.expiresAt;
    return { token, expiresAt: fromResponse ?? fromClaims ?? now + 5 * 60_000 };
  }
}
