/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The stale-identity banner of a panel, rendered by the real renderers and page script and loaded in
// Debian's Chromium under the panel's CSP: it is seen first, says who was asked and who the token is
// now, asks again in one click (or one key press), and shows neither the token nor its digest.
// Not a workbench test: pages are served to a bare Chromium (pageFixture.ts).
import * as assert from 'node:assert/strict';
import { askedAsLine, identityChangeNotice, identityOfToken, type AskedAs } from '../../src/auth/ledgerIdentity';
import { contractBody } from '../../src/panels/html/contractHtml';
import { identityBar } from '../../src/panels/html/identityHtml';
import { html } from '../../src/panels/html/safeHtml';
import { EVIL, hostileContract } from '../support/hostileLookups';
import { usePanelPages, type PanelPage } from './pageFixture';

const jwt = (sub: string) => `e30.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig`;

describe('UI: the stale-identity banner in Chromium', function () {
  this.timeout(120_000);
  const pages = usePanelPages({ viewport: { width: 1000, height: 700 } });
  const OPAQUE = 'opaque-token-never-shown-0123456789';

  /** A contract panel as LookupPanel renders it: the identity bar, then the body. */
  const publish = (name: string, asked: AskedAs, now: AskedAs) => {
    const notice = identityChangeNotice('participant1', asked, now);
    const body = html`${identityBar({ lines: [askedAsLine(asked)], notices: notice ? [notice] : [] })}${contractBody({ ...hostileContract(), askedAs: asked })}`;
    pages.publish(name, body, { title: 'Contract', nodeName: 'participant1' });
  };
  const open = (name: string) => pages.open(name);
  const messages = async (page: PanelPage) => (await page.messages()).map((m) => m.type);

  before(() => {
    const reader = { identity: identityOfToken(jwt('reader')), parties: [] };
    publish('stale', reader, { identity: identityOfToken(jwt('participant_admin')), parties: [] });
    publish('current', reader, { identity: identityOfToken(jwt('reader')), parties: [] });
    publish('hostile', { identity: identityOfToken(jwt(EVIL)), parties: [] }, { identity: identityOfToken(OPAQUE), parties: [] });
  });

  it('is shown above the answer, names both identities, and asks again in one click or from the keyboard', async () => {
    const page = await open('stale');
    const banner = page.locator('#stale-identity');
    assert.equal(await banner.getAttribute('role'), 'alert');
    assert.ok(await banner.isVisible());
    assert.match(await banner.innerText(), /Asked as reader; the token of participant1 is now participant_admin\./);
    assert.match(await page.locator('.identity').innerText(), /As seen by reader: any party on the node/);
    const bannerBox = (await banner.boundingBox())!;
    const badgeBox = (await page.locator('.badge').boundingBox())!;
    assert.ok(bannerBox.y < badgeBox.y, 'the banner comes before the answer it qualifies');
    assert.ok(bannerBox.y + bannerBox.height < 700, 'in view without scrolling');
    // From the keyboard: Tab through the toolbar reaches the button, Enter asks again.
    let reached = false;
    const seen: string[] = [];
    for (let i = 0; i < 15 && !reached; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => `${document.activeElement?.tagName}[${document.activeElement?.getAttribute('data-action') ?? ''}]`);
      seen.push(at);
      reached = at === 'BUTTON[askAgain]';
    }
    assert.ok(reached, `Tab never reached the ask-again button: ${seen.join(' ')}`);
    await page.keyboard.press('Enter');
    assert.deepEqual(
      (await messages(page)).filter((m) => m === 'askAgain'),
      ['askAgain'],
    );
    await page.getByRole('button', { name: 'Ask Again as participant_admin' }).click();
    assert.equal((await messages(page)).filter((m) => m === 'askAgain').length, 2, 'and by a click');
    assert.deepEqual(await page.violations(), []);
    await page.close();
  });

  it('is absent while the token is still the one that asked', async () => {
    const page = await open('current');
    assert.equal(await page.locator('#stale-identity').count(), 0);
    assert.match(await page.locator('.identity').innerText(), /As seen by reader/);
    await page.close();
  });

  it('shows a hostile subject as text, and neither an opaque token nor its digest', async () => {
    const page = await open('hostile');
    const text = await page.locator('#stale-identity').innerText();
    assert.ok(text.includes('<img src=x onerror="window.__pwned=1'), 'the subject is shown as text');
    assert.match(text, /is now a token without a user id/);
    const all = await page.content();
    assert.ok(!all.includes(OPAQUE) && !all.includes('token#'), 'no token, no digest');
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.equal(await page.locator('main img').count(), 0);
    await page.close();
  });
});
