// Sign In per node through a real OpenID provider on loopback, in the extension host: the
// browser's part is done on the provider's own pages by the test (the Chromium UI test does it in
// a real browser), everything else is the extension as a person uses it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { eventFormatFor } from '../../../src/ledger/requestForms';
import { signInOnProviderPages } from '../../support/oidcLoginDriver';
import { OidcTestProvider, TEST_CLIENT_ID, participantAudience } from '../../support/oidcTestProvider';
import { cantonLens, find, renderTree, resetNodes, until } from './testApi';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('Sign In through the node’s OpenID provider', function () {
  this.timeout(60_000);
  const fakes: FakeLedgerNode[] = [];
  let idp: OidcTestProvider;

  before(async () => {
    await resetNodes();
    idp = await OidcTestProvider.start({ defaultAudience: 'https://unused.example/aud' });
  });
  after(async () => {
    await resetNodes();
    await idp.stop();
    await Promise.all(fakes.map((f) => f.close()));
  });

  async function addSignInNode(name: string, version: FakeVersion): Promise<FakeLedgerNode> {
    const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1, jwks: [idp.publicJwk] });
    fakes.push(fake);
    const config = vscode.workspace.getConfiguration('cantonLens');
    const current = config.inspect<unknown[]>('nodes')?.globalValue ?? [];
    const auth = { type: 'oidc', issuer: idp.issuer, clientId: TEST_CLIENT_ID, audience: participantAudience(fake.ledger.participantId) };
    await config.update('nodes', [...current, { name, url: fake.url, auth }], vscode.ConfigurationTarget.Global);
    const api = await cantonLens();
    await until(`the node ${name}`, () => api.nodes.find(name));
    return fake;
  }

  for (const version of ['3.4', '3.5', '3.6'] as const) {
    it(`${version}: signs in through the browser, looks up as the signed-in user, renews before expiry, signs out with revocation`, async () => {
      const api = await cantonLens();
      const name = `idp-${version}`;
      const fake = await addSignInNode(name, version);
      const tokenRow = async () =>
        find(find(await renderTree(api), name)!.children, 'Sign-in') ?? find(find(await renderTree(api), name)!.children, 'Signed in');
      assert.match((await tokenRow())!.description, /^not signed in \(click to sign in at http:\/\/127\.0\.0\.1:\d+\)$/);

      const changes: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[] = [];
      const sub = api.auth.onDidChangeSessions((e) => changes.push(e));
      const opened: string[] = [];
      let browser: Promise<unknown> = new Promise(() => undefined);
      api.auth.openBrowser = (url) => {
        opened.push(url);
        browser = signInOnProviderPages(url, { login: 'alice' }, new URL(url).searchParams.get('redirect_uri')!);
        return Promise.resolve(true);
      };
      try {
        idp.accessTokenTtl = 62; // renewed 60 s before expiry: due after 2 s
        idp.grants.length = 0;
        const signedIn = vscode.commands.executeCommand('cantonLens.signIn', name);
        // A failure on the provider's pages fails the test instead of leaving the sign-in waiting.
        await until('the browser opened', () => opened.length > 0);
        await Promise.race([signedIn, browser]);
        assert.equal(await signedIn, true);
        assert.equal(opened.length, 1);
        const authorize = new URL(opened[0]);
        assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
        // The loopback redirect, under the editor's port proxy where there is one (code-server here).
        assert.match(authorize.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/(proxy\/\d+\/)?callback$/);
        assert.deepEqual(idp.grants, ['authorization_code']);
        assert.equal(changes[0]?.added?.length, 1);

        // The session is in the Accounts menu's provider, for this node only.
        const [session] = await api.auth.getSessions([`node:${name}`]);
        assert.equal(session.account.label, `alice · ${name}`);
        assert.deepEqual(await api.auth.getSessions(['node:nonexistent']), []);
        assert.match((await tokenRow())!.description, /^alice, expires in/);

        const node = api.nodes.find(name)!;
        const lookup = () =>
          api.nodes
            .client(node)
            .getEventsByContractId({ contractId: fake.ledger.samples.activeContract, eventFormat: eventFormatFor([fake.ledger.parties.Alice]) });
        assert.ok((await lookup()).created);
        assert.equal((await api.nodes.currentIdentity(node))?.user, 'alice');
        await new Promise((r) => setTimeout(r, 2_200));
        assert.ok((await lookup()).created, 'the lookup after expiry did not fail first');
        assert.deepEqual(idp.grants, ['authorization_code', 'refresh_token']);

        // No token or refresh token in the log or the settings.
        const { token } = await api.nodes.credentials(node);
        const settings = fs.readFileSync(path.join(process.env.CANTON_LENS_USER_DATA_DIR ?? '', 'User', 'settings.json'), 'utf8');
        for (const text of [api.log.recent.join('\n'), settings]) {
          assert.ok(!text.includes(token!), 'no access token');
          assert.ok(!/eyJ[A-Za-z0-9_-]{10,}/.test(text), 'nothing like a JWT');
        }

        idp.revocations = 0;
        assert.equal(await vscode.commands.executeCommand('cantonLens.signOut', name), true);
        assert.equal(idp.revocations, 1, 'revoked at the provider');
        await until('the session removed', () => changes.some((c) => c.removed?.length));
        assert.deepEqual(await api.auth.getSessions([`node:${name}`]), []);
        await until('the tree to say so', async () => /^not signed in/.test((await tokenRow())?.description ?? ''));
        await assert.rejects(lookup(), /Not signed in to http:\/\/127\.0\.0\.1:\d+\. Run "Canton: Sign In"/);
      } finally {
        sub.dispose();
      }
    });
  }

  it('Set Up Sign-In writes the auth entry after reading the issuer, then signs in; an issuer that is not one is refused', async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1, jwks: [idp.publicJwk] });
    fakes.push(fake);
    const config = vscode.workspace.getConfiguration('cantonLens');
    const current = config.inspect<unknown[]>('nodes')?.globalValue ?? [];
    await config.update('nodes', [...current, { name: 'setup', url: fake.url, parties: [fake.ledger.parties.Alice] }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('setup'));
    api.auth.openBrowser = (url) => {
      void signInOnProviderPages(url, { login: 'alice' }, new URL(url).searchParams.get('redirect_uri')!).catch(() => undefined);
      return Promise.resolve(true);
    };
    const notAnIssuer = await vscode.commands.executeCommand('cantonLens.setUpSignIn', 'setup', {
      issuer: fake.url,
      clientId: TEST_CLIENT_ID,
      scope: 'daml_ledger_api',
    });
    assert.equal(notAnIssuer, false);
    assert.equal(api.nodes.find('setup')?.auth, undefined, 'nothing written');
    const audience = participantAudience(fake.ledger.participantId);
    assert.equal(
      await vscode.commands.executeCommand('cantonLens.setUpSignIn', 'setup', { issuer: `${idp.issuer}/`, clientId: TEST_CLIENT_ID, audience }),
      true,
    );
    const saved = (config.inspect<{ name: string; auth?: unknown; parties?: string[] }[]>('nodes')?.globalValue ?? []).find((n) => n.name === 'setup');
    assert.deepEqual(saved?.auth, { type: 'oidc', issuer: idp.issuer, clientId: TEST_CLIENT_ID, audience });
    assert.deepEqual(saved?.parties, [fake.ledger.parties.Alice], 'the rest of the entry is kept');
    assert.equal((await api.auth.getSessions(['node:setup']))[0]?.account.label, 'alice · setup');
  });

  // A `daml_ledger_api` scope token on a node without target-scope: Canton reads its `aud` as the
  // one participant id the token is for (AuthServiceJWTPayload: several values are unreadable, 401;
  // another participant's id is refused by the authorizer, 403).
  for (const version of ['3.4', '3.5', '3.6'] as const) {
    it(`${version}: a scope token's aud is judged by the node's participant id, before use and in the node's refusal`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1, jwks: [idp.publicJwk] });
      fakes.push(fake);
      const name = `scope-aud-${version}`;
      const config = vscode.workspace.getConfiguration('cantonLens');
      const current = config.inspect<unknown[]>('nodes')?.globalValue ?? [];
      const auth = { type: 'oidc', issuer: idp.issuer, clientId: TEST_CLIENT_ID, scope: 'daml_ledger_api' };
      await config.update('nodes', [...current, { name, url: fake.url, auth }], vscode.ConfigurationTarget.Global);
      await until('the node', () => api.nodes.find(name));
      const node = api.nodes.find(name)!;
      api.auth.openBrowser = (url) => {
        void signInOnProviderPages(url, { login: 'alice' }, new URL(url).searchParams.get('redirect_uri')!).catch(() => undefined);
        return Promise.resolve(true);
      };
      const ours = fake.ledger.participantId;
      const other = `PAR::participant2::1220${'ab'.repeat(32)}`;
      const warningsSaid = () => api.log.recent.filter((l) => l.includes(`Node "${name}" is likely to refuse the token`));
      /** Signs in with tokens of this `aud`; returns the warning the sign-in gave, if any. */
      const signInWith = async (aud: string | string[]): Promise<string | undefined> => {
        const before = warningsSaid().length;
        idp.accessTokenAudience = aud;
        assert.equal(await vscode.commands.executeCommand('cantonLens.signIn', name), true);
        const said = warningsSaid();
        assert.ok(said.length <= before + 1);
        return said.length > before ? said.at(-1) : undefined;
      };
      const lookup = () =>
        api.nodes
          .client(node)
          .getEventsByContractId({ contractId: fake.ledger.samples.activeContract, eventFormat: eventFormatFor([fake.ledger.parties.Alice]) });
      try {
        // (a) first, on a node no identity has read yet: its participant id is not known, so the
        // warning says what `aud` must be.
        const unknownId = await signInWith(other);
        assert.match(unknownId ?? '', new RegExp(`"aud" claim is "${escape(other)}" beside the scope daml_ledger_api`));
        assert.match(unknownId!, /unless that is its participant id \(403 PERMISSION_DENIED/);
        assert.match(unknownId!, /Have the identity provider issue no audience or the node's participant id/);
        await assert.rejects(
          lookup(),
          (e: Error & { status?: number }) => e.status === 403 && /The node refused the token \(403\)\. The token's "aud" claim is/.test(e.message),
        );
        await vscode.commands.executeCommand('cantonLens.signOut', name);

        // (c) this participant's id: accepted, no warning; the id is read and remembered for the node.
        assert.equal(await signInWith(ours), undefined);
        assert.ok((await lookup()).created);
        assert.equal(api.nodes.registry.participantId(node), ours);
        await vscode.commands.executeCommand('cantonLens.signOut', name);

        // (a) again: now named as another participant's, with this node's id and what to issue instead.
        const foreign = await signInWith(other);
        assert.match(foreign ?? '', new RegExp(`"aud" claim is "${escape(other)}" beside the scope daml_ledger_api`));
        assert.match(foreign!, new RegExp(`this node \\(${escape(ours)}\\) refuses every request with it \\(403 PERMISSION_DENIED`));
        assert.match(foreign!, new RegExp(`Have the identity provider issue no audience or the audience ${escape(ours)}`));
        await assert.rejects(lookup(), (e: Error & { status?: number }) => {
          assert.equal(e.status, 403);
          assert.match(
            e.message,
            new RegExp(`^The node refused the token \\(403\\)\\. The token's "aud" claim is "${escape(other)}".*this node \\(${escape(ours)}\\)`),
          );
          return true;
        });
        await vscode.commands.executeCommand('cantonLens.signOut', name);

        // (b) several values (this participant's id and Keycloak's default "account"): unreadable to Canton.
        const several = await signInWith([ours, 'account']);
        assert.match(several ?? '', new RegExp(`"aud" claim has 2 values \\("${escape(ours)}", "account"\\) beside the scope daml_ledger_api`));
        assert.match(
          several!,
          /refuses a token with several \(401 UNAUTHENTICATED\)\. Have the identity provider issue no audience or only the node's participant id/,
        );
        await assert.rejects(lookup(), (e: Error & { status?: number }) => {
          assert.equal(e.status, 401);
          assert.match(e.message, /^The node refused the token \(401\)\. The token's "aud" claim has 2 values/);
          return true;
        });

        // No token in the log.
        assert.ok(!/eyJ[A-Za-z0-9_-]{10,}/.test(api.log.recent.join('\n')), 'nothing like a JWT in the log');
      } finally {
        idp.accessTokenAudience = undefined;
        await vscode.commands.executeCommand('cantonLens.signOut', name);
      }
    });
  }

  it('a provider that is down is named, with what to do, and nothing is signed in', async () => {
    const api = await cantonLens();
    await addSignInNode('idp-down', '3.5');
    idp.setDown(true);
    try {
      api.auth.openBrowser = () => Promise.resolve(true);
      const node = api.auth.signInNodes().find((n) => n.name === 'idp-down')!;
      await assert.rejects(api.auth.signIn(node), /The identity provider http:\/\/127\.0\.0\.1:\d+ could not be reached \(HTTP 503\)\. Check that it is up/);
      assert.equal(await vscode.commands.executeCommand('cantonLens.signIn', 'idp-down'), false);
      assert.deepEqual(await api.auth.getSessions(['node:idp-down']), []);
    } finally {
      idp.setDown(false);
    }
  });
});
