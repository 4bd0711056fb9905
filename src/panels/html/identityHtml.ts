// Who a panel shows: the identity it was asked as, and a banner when the node's identity changed
// since ("Asked as reader; the token of p1 is now participant_admin") with one button to ask again.
// Names only (a user id, "a token without a user id"): never a token or its digest.
import { html, ledgerText, type SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

export interface IdentityBarOptions {
  /** "As seen by alice: Alice::1220ab…", one per node asked. */
  lines: string[];
  /** What changed since the answer was asked, each with the label of the ask-again button. */
  notices: { text: string; button: string }[];
  /** A note on a reopened recent lookup that was asked as someone else then. */
  note?: string;
}

export function identityBar(o: IdentityBarOptions): SafeHtml {
  const banner =
    o.notices.length === 0
      ? html``
      : html`<section class="stale-identity" id="stale-identity" role="alert">
${o.notices.map((n) => html`<p>${n.text}</p>`)}
<p>${l10n.t('This panel still shows the earlier answer; it is not the view of the current token.')} <button class="primary" data-action="askAgain">${o.notices.length === 1 ? o.notices[0].button : l10n.t('Ask Again')}</button></p></section>`;
  const lines = o.lines.length === 0 ? html`` : html`<p class="identity">${o.lines.map((l, i) => html`${i > 0 ? html`<br>` : ''}${ledgerText(l)}`)}</p>`;
  const note = o.note ? html`<p class="identity-note muted">${o.note}</p>` : html``;
  return html`<div class="identity-bar">${banner}${lines}${note}</div>`;
}
