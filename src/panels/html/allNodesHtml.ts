// "Look Up on All Nodes": the same id on every node side by side, since each participant
// sees only what its parties are stakeholders or witnesses of.
import { shortId } from '../../ids/ledgerIds';
import { html, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

export interface NodeAnswer {
  node: string;
  url: string;
  /** "active · Iou:Iou", "not found", or an error explanation. */
  summary: string;
  state: 'found' | 'notFound' | 'error';
  asked: string;
  /** "As seen by alice: Alice::1220ab…", or '' when the node was not asked. */
  askedAs: string;
}

export function allNodesBody(kind: 'contract' | 'update', id: string, answers: readonly NodeAnswer[]): SafeHtml {
  const code = html`<code title="${id}">${shortId(id)}</code>`;
  const seen = answers.filter((a) => a.state === 'found').length;
  const visible = answers.length === 1 ? l10n.t('Visible on {0} of 1 node.', seen) : l10n.t('Visible on {0} of {1} nodes.', seen, answers.length);
  return html`<header class="title"><h1>${kind === 'contract' ? tHtml('Contract {0} on every node', code) : tHtml('Update {0} on every node', code)}</h1></header>
<p class="asked">${visible} ${l10n.t('Visibility is per participant: a node sees what its parties are stakeholders or witnesses of.')}</p>
<table class="events"><thead><tr><th scope="col">${l10n.t('Node')}</th><th scope="col">${l10n.t('Result')}</th><th scope="col">${l10n.t('Asked')}</th><th scope="col"></th></tr></thead><tbody>
${answers.map((a) => html`<tr class="answer-${a.state}"><td title="${a.url}">${ledgerText(a.node)}</td><td>${ledgerText(a.summary)}</td><td class="muted">${a.askedAs ? html`${ledgerText(a.askedAs)}<br>` : ''}${ledgerText(a.asked)}</td>
<td>${a.state === 'error' ? '' : html`<a href="#" data-open-id="${id}" data-kind="${kind}" data-node="${a.node}">${l10n.t('Open')}</a>`}</td></tr>`)}
</tbody></table>`;
}
