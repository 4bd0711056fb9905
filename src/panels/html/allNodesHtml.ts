// "Look Up on All Nodes": the same id on every node, and on each node as each party its token reads
// as (a visibility matrix), since each participant sees only what its parties are stakeholders or
// witnesses of. An authentication or permission error is shown as such, never as "not seen".
import { shortenPartyId, shortId } from '../../ids/ledgerIds';
import { html, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import { dataTable } from './dataTable';
import * as l10n from '../../l10n/l10n';
import type { MatrixCell, NodeAnswer } from '../../lookups/visibilityMatrix';

export type { MatrixCell, NodeAnswer } from '../../lookups/visibilityMatrix';

const CELL_TEXT: Record<MatrixCell['state'], () => string> = {
  seen: () => l10n.t('seen'),
  archived: () => l10n.t('archived'),
  notSeen: () => l10n.t('not seen'),
  error: () => l10n.t('could not ask'),
};

function cellHtml(kind: 'contract' | 'update', id: string, node: string, c: MatrixCell): SafeHtml {
  const who = c.party
    ? html`<span class="party" title="${c.party}">${ledgerText(shortenPartyId(c.party))}</span>`
    : html`<span class="muted">${l10n.t('any party')}</span>`;
  const open =
    c.state === 'error'
      ? html``
      : html` <a href="#" data-open-id="${id}" data-kind="${kind}" data-node="${node}"${c.party ? html` data-as-party="${c.party}"` : ''}>${l10n.t('Open')}</a>`;
  return html`<li class="cell cell-${c.state}" title="${c.why ?? c.summary}">${who}: <strong>${CELL_TEXT[c.state]()}</strong>${c.state === 'seen' || c.state === 'archived' ? html` <span class="muted">${ledgerText(c.summary)}</span>` : ''}${open}${c.why ? html`<div class="muted why">${ledgerText(c.why)}</div>` : ''}</li>`;
}

export function allNodesBody(kind: 'contract' | 'update', id: string, answers: readonly NodeAnswer[]): SafeHtml {
  const code = html`<code title="${id}">${shortId(id)}</code>`;
  const asked = answers.filter((a) => a.state !== 'error');
  const seen = asked.filter((a) => a.state === 'found').length;
  const failed = answers.length - asked.length;
  const visible =
    asked.length === 0
      ? l10n.t('No node could be asked.')
      : asked.length === 1
        ? l10n.t('Visible on {0} of 1 node asked.', seen)
        : l10n.t('Visible on {0} of {1} nodes asked.', seen, asked.length);
  const notAsked =
    failed === 0 ? '' : failed === 1 ? l10n.t('1 node could not be asked (see its row).') : l10n.t('{0} nodes could not be asked (see their rows).', failed);
  return html`<header class="title"><h1>${kind === 'contract' ? tHtml('Contract {0} on every node', code) : tHtml('Update {0} on every node', code)}</h1></header>
<p class="asked">${visible} ${notAsked} ${l10n.t('Visibility is per participant and per party: a node sees what its parties are stakeholders or witnesses of. Each party is asked alone, so a cell says who sees it.')}</p>
${dataTable({
  kind: 'all-nodes',
  className: 'events matrix',
  columns: [
    { label: l10n.t('Node'), min: 10 },
    { label: l10n.t('As each party the token reads as'), min: 24 },
    { label: l10n.t('Asked'), min: 16 },
  ],
  body: html`<tbody>
${answers.map(
  (a) => html`<tr class="answer-${a.state}"><td title="${a.url}">${ledgerText(a.node)}</td>
<td>${
    a.state === 'error'
      ? html`<span class="error-text">${a.authProblem ? l10n.t('The token may not read here:') : l10n.t('Could not ask:')} ${ledgerText(a.summary)}</span>${a.authProblem ? html` <button data-set-token-for="${a.node}">${l10n.t('Set Token')}</button>` : ''}`
      : html`<ul class="cells">${a.cells.map((c) => cellHtml(kind, id, a.node, c))}</ul>`
  }</td>
<td class="muted">${a.askedAs ? html`${ledgerText(a.askedAs)}<br>` : ''}${ledgerText(a.asked)}</td></tr>`,
)}
</tbody>`,
})}`;
}
