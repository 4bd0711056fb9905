import * as assert from 'node:assert/strict';
import { ClientCredentialsTokenSource } from '../../../src/auth/clientCredentials';
import { decodeJwtClaims, describeTokenState, tokenState } from '../../../src/auth/jwtClaims';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { mintHs256 } from '../../../fake-ledger/src/hs256Jwt';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { featureRows, formatDuration } from '../../../src/nodes/featureRows';
import { proxyFor } from '../../../src/ledger/proxyFor';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { FakeTokenEndpoint } from '../../support/fakeTokenEndpoint';
import { FAKE_NODE_FEATURE_ROWS } from '../../support/featureRows';
import { rejectsWith } from '../../support/rejectsWith';

describe('JWT claims', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  const token = (claims: Record<string, unknown>) => mintHs256({ sub: 'alice', ...claims }, 'secret');

  it('reads user, expiry, audience and scope without verifying', () => {
    const c = decodeJwtClaims(token({ exp: now / 1000 + 3120, aud: 'https://daml.com/jwt/aud/participant/p1', scope: 'daml_ledger_api', iss: 'kc' }))!;
    assert.deepEqual(c, {
      user: 'alice',
      expiresAt: now + 3_120_000,
      audience: ['https://daml.com/jwt/aud/participant/p1'],
      scope: 'daml_ledger_api',
      scopes: ['daml_ledger_api'],
      issuer: 'kc',
    });
    // Scopes as Canton reads them: `scope` split on spaces, else `scp`.
    assert.deepEqual(decodeJwtClaims(token({ scp: ['daml_ledger_api', 'openid'] }))?.scopes, ['daml_ledger_api', 'openid']);
    assert.deepEqual(decodeJwtClaims(token({ scope: 'openid daml_ledger_api', scp: 'x' }))?.scopes, ['openid', 'daml_ledger_api']);
    assert.equal(decodeJwtClaims('opaque-token'), undefined);
    assert.equal(decodeJwtClaims('a.%%%.c'), undefined);
  });

  it('says who and when, and never the token', () => {
    const valid = token({ exp: now / 1000 + 3120 });
    assert.equal(describeTokenState(tokenState(valid, now), now), 'alice, expires in 52 min');
    assert.equal(tokenState(token({ exp: now / 1000 + 120 }), now).state, 'expiring');
    assert.equal(describeTokenState(tokenState(token({ exp: now / 1000 - 7200 }), now), now), 'alice, expired 2 h ago');
    assert.equal(describeTokenState(tokenState(undefined, now)), 'No token');
    assert.match(describeTokenState(tokenState('opaque', now)), /not a JWT/);
    assert.equal(describeTokenState(tokenState(token({}), now), now), 'alice, no expiry');
  });
});

describe('feature descriptor rows', () => {
  it('puts every field in words, durations as "1.5 s"', () => {
    const rows = featureRows({
      experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
      userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
      partyManagement: { maxPartiesPageSize: 10000 },
      offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 1, nanos: 500_000_000 } },
      packageFeature: { maxVettedPackagesPageSize: 100 },
    });
    assert.deepEqual(
      rows.map((r) => `${r.label}: ${r.value}`),
      FAKE_NODE_FEATURE_ROWS,
    );
    assert.ok(rows.every((r) => r.tooltip.length > 20));
  });

  it('copes with missing fields from other versions', () => {
    assert.equal(featureRows({}).find((r) => r.label === 'Max rights per user')!.value, 'not reported');
    assert.equal(formatDuration({ seconds: 0, nanos: 250_000_000 }), '250 ms');
    assert.equal(formatDuration({ seconds: 300 }), '5 min');
  });
});

describe('proxy selection', () => {
  it('prefers http.proxy, then HTTPS_PROXY/HTTP_PROXY, and honours NO_PROXY', () => {
    const env = { HTTPS_PROXY: 'http://sec:3128', HTTP_PROXY: 'http://plain:3128', NO_PROXY: 'localhost,.internal.example,10.0.0.1:7575' };
    assert.equal(proxyFor('https://p.example/api', { env }), 'http://sec:3128');
    assert.equal(proxyFor('http://p.example', { env }), 'http://plain:3128');
    assert.equal(proxyFor('http://p.example', { env, httpProxySetting: 'http://vscode:8080' }), 'http://vscode:8080');
    assert.equal(proxyFor('http://localhost:7575', { env }), undefined);
    assert.equal(proxyFor('https://ledger.internal.example', { env }), undefined);
    assert.equal(proxyFor('http://10.0.0.1:7575', { env }), undefined);
    assert.equal(proxyFor('http://10.0.0.1:8080', { env }), 'http://plain:3128');
    assert.equal(proxyFor('http://x', { env: { http_proxy: 'http://lower:1' } }), 'http://lower:1');
    assert.equal(proxyFor('http://x', { env: {} }), undefined);
  });
});

describe('OAuth2 client credentials against a fake token endpoint', function () {
  this.timeout(10_000);
  let node: FakeLedgerNode;
  let idp: FakeTokenEndpoint;
  const transport = createUndiciTransport();
  let now = Date.now();
  let secret = 's3cr3t-client-secret';

  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 1 });
    idp = await FakeTokenEndpoint.start({ 'canton-lens': { secret: 's3cr3t-client-secret', user: 'alice' } }, (user, exp) => node.mintToken(user, { exp }));
  });
  after(async () => {
    await transport.close();
    await idp.close();
    await node.close();
  });

  const source = () =>
    new ClientCredentialsTokenSource({
      auth: {
        type: 'clientCredentials',
        tokenUrl: idp.tokenUrl,
        clientId: 'canton-lens',
        audience: 'https://daml.com/jwt/aud/participant/x',
        scope: 'daml_ledger_api',
      },
      getClientSecret: async () => secret,
      transport: async () => transport,
      now: () => now,
    });

  it('fetches a token with the form the endpoint expects, caches it, refreshes it before expiry', async () => {
    idp.requests.length = 0;
    now = Date.now();
    const s = source();
    const [a, b] = await Promise.all([s.getToken(), s.getToken()]);
    assert.equal(a, b);
    assert.equal(idp.requests.length, 1, 'concurrent callers share one request');
    const form = idp.requests[0];
    assert.equal(form.get('grant_type'), 'client_credentials');
    assert.equal(form.get('audience'), 'https://daml.com/jwt/aud/participant/x');
    assert.equal(form.get('scope'), 'daml_ledger_api');
    assert.equal(decodeJwtClaims(a)!.user, 'alice');
    await s.getToken();
    assert.equal(idp.requests.length, 1, 'cached');
    now += 250_000; // 300 s tokens, refreshed 60 s before expiry
    await s.getToken();
    assert.equal(idp.requests.length, 2, 'refreshed before expiry');
  });

  it('issues tokens the ledger node accepts', async () => {
    now = Date.now();
    const s = source();
    const client = new LedgerClient({ baseUrl: node.url, transport, getToken: () => s.getToken() });
    const res = await client.getEventsByContractId({
      contractId: node.ledger.samples.activeContract,
      eventFormat: { filtersByParty: { [node.ledger.parties.Alice]: {} } },
    });
    assert.ok(res.created);
  });

  it('explains refused credentials without the secret', async () => {
    secret = 'wrong-secret-value';
    const e = await rejectsWith(source().getToken(), { kind: 'unauthenticated', status: 401 });
    assert.match(e.explanation, /invalid_client: Invalid client or Invalid client credentials/);
    assert.ok(!e.explanation.includes(secret));
    secret = '';
    await rejectsWith(source().getToken(), { kind: 'unauthenticated', explanationMatches: /No client secret is stored.*Set Token/ });
    secret = 's3cr3t-client-secret';
  });
});
