import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwtClaims } from '../../../src/auth/jwtClaims';
import { startLoopbackRedirect } from '../../../src/auth/loopbackRedirect';
import { ledgerTokenProblem, parseOidcAuth, requestedScopes, type DeviceCodePrompt, type OidcSignInAuth, type OidcTokens } from '../../../src/auth/oidcAuth';
import { createOidcProtocol, type OidcProtocol, type SignInUi } from '../../../src/auth/oidcProtocol';
import { OidcTokenSource } from '../../../src/auth/oidcTokenSource';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { urlProblem } from '../../../src/nodes/nodeSettings';
import { signInOnProviderPages } from '../../support/oidcLoginDriver';
import { OidcTestProvider, TEST_CLIENT_ID, participantAudience } from '../../support/oidcTestProvider';
import { rejectsWith } from '../../support/rejectsWith';

const problemOf = (r: unknown) => (typeof r === 'string' ? r : '');

describe('sign-in settings', () => {
  it('reads an oidc auth entry with its defaults, and names each problem', () => {
    const auth = parseOidcAuth({ type: 'oidc', issuer: 'https://idp.example.com/realms/canton/', clientId: 'lens', scope: 'daml_ledger_api' }, urlProblem);
    assert.deepEqual(auth, {
      type: 'oidc',
      issuer: 'https://idp.example.com/realms/canton',
      clientId: 'lens',
      audience: undefined,
      scope: 'daml_ledger_api',
      flow: 'browser',
      redirect: 'loopback',
    });
    assert.match(problemOf(parseOidcAuth({ issuer: 'idp.example.com', clientId: 'x' }, urlProblem)), /issuer that is a URL without http/);
    assert.match(problemOf(parseOidcAuth({ issuer: 'https://idp', clientId: '' }, urlProblem)), /without clientId/);
    assert.match(
      problemOf(parseOidcAuth({ issuer: 'https://idp', clientId: 'x', flow: 'implicit' }, urlProblem)),
      /flow "implicit" \(use "browser" or "device"\)/,
    );
    assert.equal(requestedScopes({ scope: 'daml_ledger_api openid' }), 'openid offline_access daml_ledger_api');
  });
});

describe('sign-in through a real OpenID provider', function () {
  this.timeout(30_000);
  let node: FakeLedgerNode;
  let idp: OidcTestProvider;
  const transport = createUndiciTransport();
  let audience: string;

  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 1 });
    audience = participantAudience(node.ledger.participantId);
    idp = await OidcTestProvider.start({ defaultAudience: audience });
    await node.close();
    // The node checks the provider's tokens by its public key (jwt-jwks).
    node = await FakeLedgerNode.start({ bigTransactionEvents: 1, jwks: [idp.publicJwk] });
  });
  after(async () => {
    await transport.close();
    await idp.stop();
    await node.close();
  });

  const auth = (over: Partial<OidcSignInAuth> = {}): OidcSignInAuth => ({
    type: 'oidc',
    issuer: idp.issuer,
    clientId: TEST_CLIENT_ID,
    audience,
    flow: 'browser',
    redirect: 'loopback',
    ...over,
  });
  const protocol = (a = auth()) => createOidcProtocol(a, { transport: async () => transport, devicePollMs: 200 });
  /** A person who signs in as `login` in the browser the extension opens. */
  const browserUser = (login: string, redirectUri: string): SignInUi => ({
    openBrowser: async (url) => {
      void signInOnProviderPages(url, { login }, redirectUri).catch(() => undefined);
      return true;
    },
    showDeviceCode: () => assert.fail('no device code in the browser flow'),
  });

  async function browserSignIn(login: string, a = auth()): Promise<OidcTokens> {
    const receiver = await startLoopbackRedirect();
    try {
      return await (await protocol(a)).signInWithBrowser(receiver, browserUser(login, receiver.redirectUri), undefined);
    } finally {
      receiver.dispose();
    }
  }

  function source(p: Promise<OidcProtocol>, now: () => number = Date.now) {
    let stored: string | undefined;
    const s = new OidcTokenSource({ auth: auth(), protocol: () => p, refreshToken: { get: async () => stored, set: async (t) => void (stored = t) }, now });
    return { s, stored: () => stored };
  }

  it('signs in with authorization code and PKCE through the loopback redirect, for a token the node accepts', async () => {
    idp.grants.length = 0;
    const tokens = await browserSignIn('alice');
    assert.deepEqual(idp.grants, ['authorization_code']);
    const claims = decodeJwtClaims(tokens.accessToken)!;
    assert.equal(claims.user, 'alice');
    assert.deepEqual(claims.audience, [audience]);
    assert.ok(tokens.refreshToken, 'offline_access gives a refresh token');
    assert.equal(ledgerTokenProblem(tokens.accessToken, auth()), undefined);
    const client = new LedgerClient({ baseUrl: node.url, transport, getToken: async () => tokens.accessToken });
    assert.equal((await client.getAuthenticatedUser()).user?.id, 'alice');
  });

  it('signs in with the device authorization grant', async () => {
    idp.grants.length = 0;
    const prompts: DeviceCodePrompt[] = [];
    const ui: SignInUi = {
      openBrowser: async () => assert.fail('the device flow opens no browser'),
      showDeviceCode: (p) => {
        prompts.push(p);
        void signInOnProviderPages(p.verificationUriComplete!, { login: 'bob' }).catch(() => undefined);
      },
    };
    const tokens = await (await protocol(auth({ flow: 'device' }))).signInWithDeviceCode(ui);
    assert.equal(prompts.length, 1);
    assert.match(prompts[0].userCode, /^[A-Z]{4}-?[A-Z]{4}$/);
    assert.ok(prompts[0].verificationUri.startsWith(idp.issuer));
    assert.equal(decodeJwtClaims(tokens.accessToken)!.user, 'bob');
    assert.ok(idp.grants.includes('urn:ietf:params:oauth:grant-type:device_code'));
  });

  it('a declined device sign-in says so', async () => {
    const ui: SignInUi = {
      openBrowser: async () => false,
      showDeviceCode: (p) => void signInOnProviderPages(p.verificationUriComplete!, { login: 'bob', decline: true }).catch(() => undefined),
    };
    await rejectsWith((await protocol(auth({ flow: 'device' }))).signInWithDeviceCode(ui), { kind: 'unauthenticated', explanationMatches: /declined/ });
  });

  it('renews the access token with the refresh token before it expires, so a lookup never fails first', async () => {
    const p = protocol();
    let now = Date.now();
    const { s, stored } = source(p, () => now);
    const first = await browserSignIn('alice');
    assert.equal(await s.signedIn(first), undefined);
    const firstRefresh = stored();
    idp.grants.length = 0;
    assert.equal(await s.getToken(), first.accessToken, 'a fresh token is used as it is');
    // 300 s tokens: 250 s on, inside the 60 s margin, the next lookup gets a renewed token.
    now += 250_000;
    const client = new LedgerClient({ baseUrl: node.url, transport, getToken: () => s.getToken() });
    assert.equal((await client.getAuthenticatedUser()).user?.id, 'alice');
    assert.deepEqual(idp.grants, ['refresh_token']);
    assert.notEqual(s.cachedToken, first.accessToken);
    assert.ok(stored() && stored() !== firstRefresh, 'the rotated refresh token is kept');
    // Concurrent lookups share one renewal.
    now += 250_000;
    idp.grants.length = 0;
    await Promise.all([s.getToken(), s.getToken(), s.getToken()]);
    assert.deepEqual(idp.grants, ['refresh_token']);
  });

  it('signs out with revocation; the revoked sign-in then asks to sign in again', async () => {
    const p = protocol();
    const { s, stored } = source(p);
    await s.signedIn(await browserSignIn('alice'));
    const refresh = stored()!;
    idp.revocations = 0;
    assert.deepEqual(await s.signOut(), { revoked: true });
    assert.equal(idp.revocations, 1);
    assert.equal(stored(), undefined);
    assert.equal(await s.isSignedIn(), false);
    await rejectsWith(s.getToken(), { kind: 'unauthenticated', explanationMatches: /Not signed in to http:\/\/127\.0\.0\.1:\d+\. Run "Canton: Sign In"/ });
    // The provider refuses the revoked refresh token: the sign-in has ended, and it is forgotten.
    const again = source(p);
    await again.s.signedIn({ accessToken: 'x', expiresAt: 0, refreshToken: refresh });
    const e = await rejectsWith(again.s.getToken(), {
      kind: 'unauthenticated',
      explanationMatches: /sign-in at .* has ended \(invalid_grant.*Run "Canton: Sign In" again/,
    });
    assert.equal(again.stored(), undefined);
    assert.ok(!e.explanation.includes(refresh));
  });

  it('a token for another audience is named before the node refuses it', async () => {
    const other = auth({ audience: 'https://ledger.other.example/aud' });
    const tokens = await browserSignIn('alice', other);
    assert.match(
      ledgerTokenProblem(tokens.accessToken, auth())!,
      /"aud" claim is "https:\/\/ledger\.other\.example\/aud", without "https:\/\/daml\.com\/jwt\/aud\/participant\/.*target-audience refuses it \(401 UNAUTHENTICATED\)/,
    );
    const client = new LedgerClient({ baseUrl: node.url, transport, getToken: async () => tokens.accessToken });
    await rejectsWith(client.getAuthenticatedUser(), { kind: 'unauthenticated', status: 401 });
  });

  it('a provider that is down, or an issuer that is not one, is explained, and the refresh token kept', async () => {
    const p = protocol();
    const { s, stored } = source(p);
    await s.signedIn(await browserSignIn('alice'));
    s.invalidate();
    idp.setDown(true);
    try {
      await rejectsWith((await protocol()).refresh(stored()!), {
        kind: 'unavailable',
        explanationMatches: /identity provider http:\/\/127.* could not be reached \(.*503.*\)\. Check that it is up/,
      });
      await rejectsWith(s.getToken(), { kind: 'unavailable' });
      assert.ok(stored(), 'a provider that is down does not end the sign-in');
    } finally {
      idp.setDown(false);
    }
    assert.ok(await s.getToken());
    // The URL read is named, with the issuer's path (a Keycloak realm's), not only the origin.
    const realm = `${node.url}/realms/x`;
    await rejectsWith((await protocol(auth({ issuer: realm }))).signInWithDeviceCode(browserUser('x', '')), {
      kind: 'badResponse',
      explanation: `${realm}/.well-known/openid-configuration does not serve a usable OpenID configuration (HTTP 404). Check the issuer URL in the node's auth settings: its discovery document is read at the issuer URL followed by /.well-known/openid-configuration.`,
    });
    const failing = http.createServer((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('boom'));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const issuer = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/bad500`;
      await rejectsWith((await protocol(auth({ issuer }))).signInWithDeviceCode(browserUser('x', '')), {
        kind: 'unavailable',
        explanationMatches: new RegExp(
          `^${issuer.replace(/[.]/g, '\\.')}/\\.well-known/openid-configuration does not serve a usable OpenID configuration \\(HTTP 500\\)`,
        ),
      });
    } finally {
      failing.close();
    }
  });

  it('a cancelled browser sign-in stops waiting', async () => {
    const receiver = await startLoopbackRedirect();
    const ac = new AbortController();
    const pending = (await protocol()).signInWithBrowser(receiver, { openBrowser: async () => true, showDeviceCode: () => undefined }, ac.signal);
    ac.abort();
    await rejectsWith(pending, { kind: 'cancelled', explanation: 'Sign-in was cancelled.' });
    receiver.dispose();
  });
});
