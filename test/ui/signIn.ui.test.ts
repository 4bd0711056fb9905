// A person signs in to a node through its identity provider's own login page, in Chromium: the
// palette's "Canton: Sign In", the browser tab the editor opens, the provider's login and consent
// pages, the loopback page that says to return, and the tree that shows who is signed in.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { OidcTestProvider, TEST_CLIENT_ID, participantAudience, testSigningKey } from '../support/oidcTestProvider';
import { useWorkbench } from './uiFixture';

describe('UI: Sign In through the identity provider’s login page', function () {
  this.timeout(240_000);
  const key = testSigningKey();
  let idp: OidcTestProvider;
  before(async () => {
    // On 127.0.0.2, as a provider on its own host: the editor would forward a 127.0.0.1 URL.
    idp = await OidcTestProvider.start({ defaultAudience: 'https://unused.example/aud', signingKey: key, host: '127.0.0.2' });
  });
  after(() => idp?.stop());

  const ui = useWorkbench({
    nodes: { p1: { version: '3.5', bigTransactionEvents: 1, jwks: [key.publicJwk] } },
    settings: (nodes) => ({
      'cantonLens.nodes': [
        {
          name: 'p1',
          url: nodes.p1.url,
          auth: { type: 'oidc', issuer: idp.issuer, clientId: TEST_CLIENT_ID, audience: participantAudience(nodes.p1.ledger.participantId) },
        },
      ],
      'cantonLens.activeNode': 'p1',
    }),
  });

  it('signs in as alice on the provider’s pages and shows alice in the tree and the Accounts menu', async () => {
    const { wb } = ui;
    // This server is code-server's VS Code build without code-server around it: its asExternalUri
    // names code-server's port proxy (/proxy/<port>/), which is not served here. The provider's
    // redirect to it goes to the port directly, as code-server's proxy would pass it on.
    // (The browser's redirects within the provider are followed here: a route sees only the first
    // request of a redirect chain.)
    await wb.page.context().route(`${idp.issuer}/**`, async (route) => {
      let response = await route.fetch({ maxRedirects: 0 });
      for (let hop = 0; hop < 5; hop++) {
        const next = response.headers()['location'] ? new URL(response.headers()['location'], idp.issuer).toString() : '';
        if (!next.startsWith(`${idp.issuer}/auth/`)) break;
        response = await wb.page.context().request.get(next, { maxRedirects: 0 });
      }
      const location = response.headers()['location']?.replace(/^http:\/\/127\.0\.0\.1:\d+\/proxy\/(\d+)\//, 'http://127.0.0.1:$1/');
      await route.fulfill({ response, headers: location ? { ...response.headers(), location } : response.headers() });
    });
    await wb.openView('Canton');
    await wb.waitForTreeRow(/^Sign-in not signed in \(click to sign in at http:\/\/127\.0\.0\.2:\d+\)$/, ['p1']);

    const opened = wb.page.context().waitForEvent('page', { timeout: 60_000 });
    await wb.runCommand('Canton: Sign In');
    // The workbench asks before it opens a site that is not a trusted domain.
    const openButton = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
    await Promise.race([openButton.click({ timeout: 30_000 }).catch(() => undefined), opened]);
    const browserTab: Page = await opened;
    await browserTab.waitForLoadState();
    assert.ok(browserTab.url().startsWith(`${idp.issuer}/`), browserTab.url());

    // The provider's own login page, then its consent page.
    await browserTab.locator('input[name="login"]').fill('alice');
    await browserTab.locator('input[name="password"]').fill('any password');
    await browserTab.locator('button[type="submit"]', { hasText: 'Sign-in' }).click();
    await browserTab.locator('button[type="submit"]', { hasText: 'Continue' }).click({ timeout: 30_000 });
    await browserTab.locator('h1', { hasText: 'Signed in to Canton Lens' }).waitFor({ timeout: 30_000 });
    assert.match(await browserTab.locator('body').innerText(), /You can close this tab and return to VS Code\./);
    assert.ok(!/code=|eyJ/.test(await browserTab.content()), 'the page shows nothing of the redirect');
    await browserTab.close();

    await wb.page.locator('.notifications-toasts', { hasText: 'Signed in to "p1" as alice.' }).waitFor({ timeout: 30_000 });
    await wb.waitForTreeRow(/^Signed in alice, expires in \d+ min$/, ['p1']);
    await wb.waitForTreeRow(/^User alice/, ['p1']);

    // The Accounts menu lists the session of the "Canton Ledger" provider.
    await wb.page.locator('.activitybar a[aria-label^="Accounts"]').click();
    await wb.page.locator('.monaco-menu .action-label', { hasText: 'alice · p1 (Canton Ledger)' }).waitFor({ timeout: 30_000 });
    await wb.page.keyboard.press('Escape');
    await wb.screenshot('sign-in.png');
  });
});
