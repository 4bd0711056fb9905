// "Look Up on All Nodes": the same id on every node side by side, since each participant
// sees only what its parties are stakeholders or witnesses of.
import { shortId } from '../../ids/ledgerIds';
import { html, ledgerText, type SafeHtml } from './safeHtml';

export interface NodeAnswer {
  node: string;
  url: string;
  /** "active · Iou:Iou", "not found", or an error explanation. */
  summary: string;
  state: 'found' | 'notFound' | 'error';
  asked: string;
}

export function allNodesBody(kind: 'contract' | 'update', id: string, answers: readonly NodeAnswer[]): SafeHtml {
  const label = kind === 'contract' ? 'Contract' : 'Update';
  const seen = answers.filter((a) => a.state === 'found').length;
  return html`<header class="title"><h1>${label} <code title="${id}">${shortId(id)}</code> on every node</h1></header>
<p class="asked">Visible on ${seen} of ${answers.length} node${answers.length === 1 ? '' : 's'}. Visibility is per participant: a node sees what its parties are stakeholders or witnesses of.</p>
<table class="events"><thead><tr><th scope="col">Node</th><th scope="col">Result</th><th scope="col">Asked</th><th scope="col"></th></tr></thead><tbody>
${answers.map((a) => html`<tr class="answer-${a.state}"><td title="${a.url}">${ledgerText(a.node)}</td><td>${ledgerText(a.summary)}</td><td class="muted">${ledgerText(a.asked)}</td>
<td>${a.state === 'error' ? '' : html`<a href="#" data-open-id="${id}" data-kind="${kind}" data-node="${a.node}">Open</a>`}</td></tr>`)}
</tbody></table>`;
}
