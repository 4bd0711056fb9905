// What a review shows once the request file it follows no longer reads as a request: the file's
// problems where the request was, so nothing stale looks ready to send.
import * as l10n from '../../l10n/l10n';
import { html, ledgerText, type SafeHtml } from './safeHtml';

export interface RequestProblem {
  path: string;
  message: string;
}

export function requestProblemsBody(v: { fileName: string; node: string; title: string; problems: readonly RequestProblem[] }): SafeHtml {
  return html`<header class="title"><h1>${v.title}</h1></header>
<section class="error" role="alert" aria-labelledby="problems-h"><h2 id="problems-h">${l10n.t('{0} changed and does not read as a request now', v.fileName)}</h2>
<p>${l10n.t('Nothing can be sent to {0} until the file reads again; the review follows the file.', v.node)}</p>
<ul class="checks">${v.problems.map((p) => html`<li class="check-block"><code>${ledgerText(p.path)}</code> ${ledgerText(p.message)}</li>`)}</ul>
<p><button data-action="openRequest">${l10n.t('Open Request')}</button> <button data-action="reload">${l10n.t('Check Again')}</button></p></section>`;
}
