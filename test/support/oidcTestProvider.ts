// A real OpenID provider on loopback (the `oidc-provider` package, as Node IdPs are built), set up
// the way a Canton deployment's IdP is: a public native client for the editor, PKCE, the device
// flow, refresh tokens with rotation, revocation, and RS256 JWT access tokens for the participant's
// audience (resource indicators). Its login pages are the package's own development pages: any
// login and password sign in, as that user.
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TEST_CLIENT_ID = 'canton-lens';
/** `http://127.0.0.1:*\/proxy/*\/callback`, registered for the client. */
const REDIRECT_WILDCARDS = [/^http:\/\/127\.0\.0\.1:\d+\/proxy\/\d+\/callback$/];
export const participantAudience = (participantId: string) => `https://daml.com/jwt/aud/participant/${participantId}`;

/** The provider's RS256 key pair, as JWKs: made before the provider when a node must know it first. */
export interface TestSigningKey {
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}

export function testSigningKey(): TestSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key-1';
  return {
    privateJwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
  };
}

export interface OidcTestProviderOptions {
  /**
   * The loopback address it listens on (127.0.0.1 by default). 127.0.0.2 stands for a provider on
   * another host: the editor forwards 127.0.0.1 and localhost URLs through its port proxy.
   */
  host?: string;
  /** Its signing key; a new one by default. */
  signingKey?: TestSigningKey;
  /** The audience tokens get when the client asks for none (resource indicators' default). */
  defaultAudience: string;
  /** Access token lifetime, in seconds. */
  accessTokenTtl?: number;
}

interface ProviderInstance {
  Client: { prototype: { redirectUriAllowed(this: unknown, value: string): boolean } };
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  on(event: string, listener: (...args: unknown[]) => void): void;
}

export class OidcTestProvider {
  /** Lifetime of the access tokens issued from now on, in seconds. */
  accessTokenTtl: number;
  /** The token endpoint's requests' grant types, in order (what the extension asked). */
  readonly grants: string[] = [];
  /** Revocation requests seen. */
  revocations = 0;
  /** The audience of tokens issued from now on when the client asks for none. */
  defaultAudience: string;
  /**
   * When set, the `aud` of access tokens issued from now on, whatever was asked (a list, as
   * Keycloak's audience mappers and its default "account" audience give).
   */
  accessTokenAudience: string | string[] | undefined;
  /** The provider's public signing key, for the fake node's JWKS check. */
  readonly publicJwk: JsonWebKey;
  private handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  private down = false;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    privateJwk: JsonWebKey,
    publicJwk: JsonWebKey,
    options: OidcTestProviderOptions,
  ) {
    this.accessTokenTtl = options.accessTokenTtl ?? 300;
    this.defaultAudience = options.defaultAudience;
    this.publicJwk = publicJwk;
    void privateJwk;
  }

  static async start(options: OidcTestProviderOptions): Promise<OidcTestProvider> {
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
    const { privateJwk, publicJwk } = options.signingKey ?? testSigningKey();
    const made = new OidcTestProvider(server, issuer, privateJwk, publicJwk, options);
    const mod = (await import('oidc-provider')) as unknown as { default: new (issuer: string, config: unknown) => ProviderInstance };
    const provider = new mod.default(issuer, {
      clients: [
        {
          client_id: TEST_CLIENT_ID,
          application_type: 'native',
          token_endpoint_auth_method: 'none',
          // Loopback redirects match on any port (RFC 8252 §7.3).
          redirect_uris: ['http://127.0.0.1/callback'],
          grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [privateJwk] },
      scopes: ['openid', 'offline_access', 'daml_ledger_api'],
      features: {
        devInteractions: { enabled: true },
        deviceFlow: { enabled: true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: (_ctx: unknown, _client: unknown, oneOf: unknown) => oneOf ?? made.defaultAudience,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: 'daml_ledger_api',
            audience: resource,
            accessTokenTTL: made.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      // Any login is a user of that name: the Ledger API user is the token's subject.
      formats: {
        customizers: {
          jwt: (_ctx: unknown, _token: unknown, jwt: { payload: Record<string, unknown> }) => {
            if (made.accessTokenAudience !== undefined) jwt.payload.aud = made.accessTokenAudience;
          },
        },
      },
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
      rotateRefreshToken: true,
      pkce: { required: () => true },
      ttl: { AccessToken: () => made.accessTokenTtl, IdToken: 3600, RefreshToken: 24 * 3600, DeviceCode: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    });
    // Besides the loopback redirect on any port: a wildcard redirect, as Keycloak's "valid redirect
    // URIs" take one, for the editor's port proxy in a browser or remote set-up (code-server's
    // `/proxy/<port>/`, which VS Code's asExternalUri gives there).
    const proto = provider.Client.prototype;
    const allowed = Object.getOwnPropertyDescriptor(proto, 'redirectUriAllowed')!.value as (this: unknown, value: string) => boolean;
    proto.redirectUriAllowed = function (value: string) {
      return allowed.call(this, value) || REDIRECT_WILDCARDS.some((w) => w.test(value));
    };
    provider.on('server_error', (_ctx, err) => process.stderr.write(`oidc-provider: ${String(err)}\n`));
    provider.on('grant.success', (ctx) => made.grants.push(String((ctx as { oidc: { params: { grant_type?: string } } }).oidc.params.grant_type)));
    const handler = provider.callback();
    made.handler = handler;
    server.on('request', (req, res) => made.handle(req, res));
    return made;
  }

  /** The provider stops answering (as an IdP that is down: connections refused with 503). */
  setDown(down: boolean): void {
    this.down = down;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.down) {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>');
      return;
    }
    if (req.method === 'POST' && req.url === '/token/revocation') this.revocations++;
    this.handler!(req, res);
  }
}
