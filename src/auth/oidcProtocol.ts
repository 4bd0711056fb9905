// OpenID Connect for a node's sign-in, on `oauth4webapi`: discovery, authorization code with PKCE,
// the device authorization grant, refresh and revocation. Its own bundle (dist/oidc.js), loaded on
// the first sign-in or renewal. Every request goes through the node's HTTP transport, so the
// proxy and CA settings apply to the provider too. Errors are LedgerApiErrors a person can act on,
// and none holds a token or code.
import type * as OAuth from 'oauth4webapi' with { 'resolution-mode': 'import' };
import type { HttpTransport } from '../ledger/httpTransport';
import { LedgerApiError, scrubCredentials, isLedgerApiError } from '../ledger/ledgerApiError';
import { isLoopbackUrl } from '../ledger/loopbackUrl';
import * as l10n from '../l10n/l10n';
import { decodeJwtClaims } from './jwtClaims';
import type { RedirectReceiver } from './loopbackRedirect';
import { audienceParameters, requestedScopes, type DeviceCodePrompt, type OidcSignInAuth, type OidcTokens } from './oidcAuth';

export interface OidcProtocolOptions {
  transport: () => Promise<HttpTransport>;
  userAgent?: string;
  timeoutMs?: number;
  now?: () => number;
  /** The device flow's wait between polls when the provider names none (RFC 8628: 5 s). */
  devicePollMs?: number;
}

/** How the sign-in reaches the person: the system browser, and the device flow's code. */
export interface SignInUi {
  /** Opens the provider's page; resolves false when the person declined. */
  openBrowser(url: string): Promise<boolean>;
  showDeviceCode(prompt: DeviceCodePrompt): void;
}

export class OidcProtocol {
  private server: OAuth.AuthorizationServer | undefined;
  private readonly client: OAuth.Client;
  private readonly issuer: URL;

  constructor(
    private readonly oauth: typeof OAuth,
    private readonly auth: OidcSignInAuth,
    private readonly options: OidcProtocolOptions,
  ) {
    this.client = { client_id: auth.clientId, token_endpoint_auth_method: 'none' };
    this.issuer = new URL(auth.issuer);
  }

  /** What the issuer's discovery document offers a public client like the editor. */
  async describe(signal?: AbortSignal): Promise<{ issuer: string; browser: boolean; device: boolean; revocation: boolean; scopes: string[] }> {
    const as = await this.discover(signal);
    return {
      issuer: as.issuer,
      browser: Boolean(as.authorization_endpoint) && (as.code_challenge_methods_supported ?? ['S256']).includes('S256'),
      device: Boolean(as.device_authorization_endpoint),
      revocation: Boolean(as.revocation_endpoint),
      scopes: as.scopes_supported ?? [],
    };
  }

  /** Authorization code with PKCE: the browser signs in, the redirect brings the code back. */
  async signInWithBrowser(receiver: RedirectReceiver, ui: SignInUi, signal?: AbortSignal): Promise<OidcTokens> {
    const as = await this.discover(signal);
    if (!as.authorization_endpoint) throw this.unsupported('authorization_endpoint');
    const verifier = this.oauth.generateRandomCodeVerifier();
    const state = this.oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    const params: Record<string, string> = {
      client_id: this.auth.clientId,
      response_type: 'code',
      redirect_uri: receiver.redirectUri,
      scope: requestedScopes(this.auth),
      code_challenge: await this.oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      // A refresh token needs consent on most providers.
      prompt: 'consent',
      ...audienceParameters(this.auth),
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    if (!(await ui.openBrowser(url.toString()))) throw this.cancelled();
    const callback = await receiver.wait(signal).catch((e: unknown) => {
      throw signal?.aborted ? this.cancelled() : e;
    });
    let checked: URLSearchParams;
    try {
      checked = this.oauth.validateAuthResponse(as, this.client, callback, state);
    } catch (e) {
      throw this.explain(e, 'authorize');
    }
    return this.tokens(
      'authorization code',
      () => this.oauth.authorizationCodeGrantRequest(as, this.client, this.oauth.None(), checked, receiver.redirectUri, verifier, this.http(signal)),
      (res) => this.oauth.processAuthorizationCodeResponse(as, this.client, res),
    );
  }

  /** The device authorization grant: a code to enter on another device, then polling. */
  async signInWithDeviceCode(ui: SignInUi, signal?: AbortSignal): Promise<OidcTokens> {
    const as = await this.discover(signal);
    if (!as.device_authorization_endpoint) throw this.unsupported('device_authorization_endpoint');
    let device: OAuth.DeviceAuthorizationResponse;
    try {
      const res = await this.oauth.deviceAuthorizationRequest(
        as,
        this.client,
        this.oauth.None(),
        { scope: requestedScopes(this.auth), ...audienceParameters(this.auth) },
        this.http(signal),
      );
      device = await this.oauth.processDeviceAuthorizationResponse(as, this.client, res);
    } catch (e) {
      throw this.explain(e, 'device');
    }
    ui.showDeviceCode({
      userCode: device.user_code,
      verificationUri: device.verification_uri,
      verificationUriComplete: device.verification_uri_complete,
      expiresInSeconds: device.expires_in,
    });
    let interval = (device.interval ?? 0) * 1000 || (this.options.devicePollMs ?? 5000);
    const deadline = this.now() + device.expires_in * 1000;
    for (;;) {
      await sleep(interval, signal).catch(() => {
        throw this.cancelled();
      });
      try {
        const res = await this.oauth.deviceCodeGrantRequest(as, this.client, this.oauth.None(), device.device_code, this.http(signal));
        return this.toTokens(await this.oauth.processDeviceCodeResponse(as, this.client, res));
      } catch (e) {
        if (e instanceof this.oauth.ResponseBodyError && e.error === 'authorization_pending' && this.now() < deadline) continue;
        // RFC 8628 §3.5: slow down adds 5 seconds to the interval.
        if (e instanceof this.oauth.ResponseBodyError && e.error === 'slow_down' && this.now() < deadline) {
          interval += 5000;
          continue;
        }
        throw this.explain(e, 'device');
      }
    }
  }

  /** New tokens from a refresh token (a rotated refresh token comes back with them). */
  refresh(refreshToken: string, signal?: AbortSignal): Promise<OidcTokens> {
    return this.discover(signal).then((as) =>
      this.tokens(
        'refresh',
        () =>
          this.oauth.refreshTokenGrantRequest(as, this.client, this.oauth.None(), refreshToken, {
            ...this.http(signal),
            additionalParameters: audienceParameters(this.auth),
          }),
        (res) => this.oauth.processRefreshTokenResponse(as, this.client, res),
      ),
    );
  }

  /** Revokes a token where the provider can (RFC 7009); false when it has no revocation endpoint. */
  async revoke(token: string, hint: 'refresh_token' | 'access_token', signal?: AbortSignal): Promise<boolean> {
    const as = await this.discover(signal);
    if (!as.revocation_endpoint) return false;
    try {
      const res = await this.oauth.revocationRequest(as, this.client, this.oauth.None(), token, {
        ...this.http(signal),
        additionalParameters: { token_type_hint: hint },
      });
      await this.oauth.processRevocationResponse(res);
      return true;
    } catch (e) {
      throw this.explain(e, 'revoke');
    }
  }

  private async discover(signal?: AbortSignal): Promise<OAuth.AuthorizationServer> {
    if (this.server) return this.server;
    try {
      const res = await this.oauth.discoveryRequest(this.issuer, { ...(this.http(signal) as OAuth.DiscoveryRequestOptions), algorithm: 'oidc' });
      this.server = await this.oauth.processDiscoveryResponse(this.issuer, res);
    } catch (e) {
      throw this.explain(e, 'discovery');
    }
    return this.server;
  }

  private async tokens(grant: string, request: () => Promise<Response>, process: (res: Response) => Promise<OAuth.TokenEndpointResponse>): Promise<OidcTokens> {
    try {
      return this.toTokens(await process(await request()));
    } catch (e) {
      throw this.explain(e, grant === 'refresh' ? 'refresh' : 'token');
    }
  }

  private toTokens(r: OAuth.TokenEndpointResponse): OidcTokens {
    const now = this.now();
    const fromResponse = typeof r.expires_in === 'number' ? now + r.expires_in * 1000 : undefined;
    const expiresAt = fromResponse ?? decodeJwtClaims(r.access_token)?.expiresAt ?? now + 5 * 60_000;
    return { accessToken: r.access_token, expiresAt, refreshToken: r.refresh_token };
  }

  private http(signal?: AbortSignal): OAuth.HttpRequestOptions<'GET' | 'POST', URLSearchParams> {
    return {
      signal,
      // Plain http only for a provider on this machine (a development IdP).
      [this.oauth.allowInsecureRequests]: isLoopbackUrl(this.issuer),
      [this.oauth.customFetch]: async (url, init) => {
        const transport = await this.options.transport();
        const res = await transport.send({
          method: init.method === 'GET' ? 'GET' : 'POST',
          url: new URL(url),
          headers: { ...init.headers, 'user-agent': this.options.userAgent ?? 'canton-lens' },
          body: init.body === undefined || init.body === null ? undefined : String(init.body),
          signal: init.signal,
          timeoutMs: this.options.timeoutMs ?? 30_000,
          maxResponseBytes: 1024 * 1024,
        });
        // A gateway's "unavailable" is the provider being down, not an OAuth answer.
        if (res.status === 502 || res.status === 503 || res.status === 504) {
          throw new LedgerApiError({ kind: 'unavailable', status: res.status, explanation: `HTTP ${res.status}` });
        }
        const empty = res.body === '' || res.status === 204 || res.status === 304;
        return new Response(empty ? null : res.body, { status: res.status, headers: { 'content-type': res.contentType } });
      },
    };
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private cancelled(): LedgerApiError {
    return new LedgerApiError({ kind: 'cancelled', explanation: l10n.t('Sign-in was cancelled.') });
  }

  private unsupported(what: string): LedgerApiError {
    return new LedgerApiError({
      kind: 'badResponse',
      explanation: l10n.t(
        "The provider {0} names no {1} in its discovery document: choose the other sign-in flow in the node's auth settings.",
        this.auth.issuer,
        what,
      ),
    });
  }

  /** One sentence for each way a step can fail, never with a token, code or verifier in it. */
  private explain(e: unknown, step: 'discovery' | 'authorize' | 'device' | 'token' | 'refresh' | 'revoke'): LedgerApiError {
    // The issuer as configured (with a realm's path), not only its origin.
    const provider = this.auth.issuer;
    if (isLedgerApiError(e)) {
      if (e.kind === 'cancelled') return this.cancelled();
      return new LedgerApiError({
        kind: e.kind === 'timeout' ? 'timeout' : 'unavailable',
        explanation: l10n.t(
          'The identity provider {0} could not be reached ({1}). Check that it is up and that the issuer URL is right, then try again.',
          provider,
          scrubCredentials(e.explanation),
        ),
        cause: e,
      });
    }
    if (step !== 'discovery' && (e instanceof this.oauth.ResponseBodyError || e instanceof this.oauth.AuthorizationResponseError)) {
      const reason = scrubCredentials(`${e.error}${e.error_description ? `: ${e.error_description}` : ''}`);
      if (step === 'refresh' && e.error === 'invalid_grant') {
        return new LedgerApiError({
          kind: 'unauthenticated',
          explanation: l10n.t('Your sign-in at {0} has ended ({1}). Run "Canton: Sign In" again.', provider, reason),
        });
      }
      if (e.error === 'access_denied') {
        return new LedgerApiError({ kind: 'unauthenticated', explanation: l10n.t('Sign-in at {0} was declined ({1}).', provider, reason) });
      }
      if (e.error === 'expired_token') {
        return new LedgerApiError({
          kind: 'unauthenticated',
          explanation: l10n.t('The device code expired before it was entered. Run "Canton: Sign In" again.'),
        });
      }
      const serverSide = e instanceof this.oauth.ResponseBodyError && e.status >= 500;
      return new LedgerApiError({
        kind: serverSide ? 'unavailable' : 'unauthenticated',
        status: e instanceof this.oauth.ResponseBodyError ? e.status : undefined,
        explanation: l10n.t(
          "The identity provider {0} refused the sign-in ({1}). Check the node's auth settings (client id, audience, scope) against the provider's client.",
          provider,
          reason,
        ),
      });
    }
    const message = scrubCredentials(e instanceof Error ? e.message : String(e));
    if (step === 'discovery') {
      // The URL read, not the origin: a Keycloak realm's issuer has a path (https://host/realms/x).
      const status = httpStatusOf(e);
      return new LedgerApiError({
        kind: status !== undefined && status >= 500 ? 'unavailable' : 'badResponse',
        status,
        explanation: l10n.t(
          "{0} does not serve a usable OpenID configuration ({1}). Check the issuer URL in the node's auth settings: its discovery document is read at the issuer URL followed by /.well-known/openid-configuration.",
          discoveryUrl(this.issuer),
          status !== undefined ? `HTTP ${status}` : message,
        ),
      });
    }
    return new LedgerApiError({
      kind: 'badResponse',
      explanation: l10n.t('The identity provider {0} sent an answer Canton Lens cannot use ({1}).', provider, message),
    });
  }
}

/** Where discovery reads the issuer's configuration (OpenID Connect Discovery 1.0, section 4). */
export function discoveryUrl(issuer: URL): string {
  const url = new URL(issuer.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  return url.href;
}

/** The HTTP status of a response oauth4webapi refused (it keeps the response as the cause). */
function httpStatusOf(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const status = (e as { status?: unknown }).status ?? ((e as { cause?: unknown }).cause as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status !== 200 ? status : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('cancelled'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The protocol for a node's `auth` entry; `oauth4webapi` is an ES module, imported on first use. */
export async function createOidcProtocol(auth: OidcSignInAuth, options: OidcProtocolOptions): Promise<OidcProtocol> {
  return new OidcProtocol(await import('oauth4webapi'), auth, options);
}
