// Follow Completions: the token user's completions as they arrive, newest first, each failure
// explained down to its Daml choice, each success linked to its transaction; the stream's state,
// pause and resume, and the filters.
import { RECENT_OFFSETS, type CompletionFilter, type CompletionRow } from '../../execute/completionFeed';
import { templateName } from '../../ids/templateNames';
import { formatCount } from '../../l10n/forPeople';
import * as l10n from '../../l10n/l10n';
import { damlLink } from './damlLinkHtml';
import { idLink, parties } from './ledgerValues';
import { timeHtml } from './peopleFormat';
import { html, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import { dataTable } from './dataTable';

export interface CompletionsView {
  node: string;
  user?: string;
  parties: string[];
  /** What the stream is doing, for people. */
  state: string;
  paused: boolean;
  filter: CompletionFilter;
  rows: CompletionRow[];
  total: number;
  lastOffset: number;
}

/** At most this many rows are on the page; the rest stay in the feed. */
export const SHOWN_ROWS = 200;

function why(r: CompletionRow): SafeHtml {
  if (!r.why) return html``;
  const w = r.why;
  const place = w.places.find((p) => p.templateId);
  return html`<div class="why"><strong>${ledgerText(w.code || l10n.t('error'))}</strong> ${ledgerText(w.title)}${w.userMessage ? html` <q>${ledgerText(w.userMessage)}</q>` : ''}
${place ? html` ${damlLink(place.choice ? `${templateName(place.templateId)} · ${place.choice}` : templateName(place.templateId), { templateId: place.templateId, choice: place.choice })}` : ''}
<details><summary>${l10n.t('Cause and what to do')}</summary><p>${ledgerText(w.facts.cause)}</p><p>${ledgerText(w.next)}</p></details></div>`;
}

function row(r: CompletionRow): SafeHtml {
  const when = r.recordTime ? timeHtml(r.recordTime) : timeHtml(new Date(r.at).toISOString());
  return html`<tr class="completion-${r.status}" data-command-id="${r.commandId}">
<td>${r.offset === undefined ? html`<span class="muted" title="${l10n.t('Refused when this editor submitted it: the node answered at once and wrote no completion.')}">${l10n.t('at submission')}</span>` : String(r.offset)}</td>
<td>${when ?? ''}</td>
<td>${r.status === 'succeeded' ? html`<span class="status-ok">${l10n.t('succeeded')}</span>` : html`<span class="status-failed">${l10n.t('failed')}</span>`}</td>
<td><code>${ledgerText(r.commandId)}</code></td>
<td>${parties(r.actAs)}</td>
<td>${r.updateId ? idLink(r.updateId, 'update') : why(r)}</td></tr>`;
}

const filterButton = (action: string, label: string, on: boolean) =>
  html`<button data-action="${action}" aria-pressed="${on ? 'true' : 'false'}">${label}</button>`;

export function completionsBody(v: CompletionsView): SafeHtml {
  const shown = v.rows.slice(-SHOWN_ROWS).reverse();
  return html`<header class="title"><h1>${l10n.t('Completions')}</h1></header>
<p class="asked">${tHtml('Commands of user {0} for {1}', ledgerText(v.user ?? l10n.t('(any user)')), parties(v.parties))}</p>
<p class="stream-state" role="status" aria-live="polite">${ledgerText(v.state)} <span class="muted">${l10n.t('last offset {0}', String(v.lastOffset))}</span></p>
<p class="filters">${v.paused ? html`<button class="primary" data-action="resume">${l10n.t('Resume')}</button>` : html`<button data-action="pause">${l10n.t('Pause')}</button>`}
${filterButton('filterAll', l10n.t('All'), !v.filter.status)} ${filterButton('filterFailed', l10n.t('Failed'), v.filter.status === 'failed')} ${filterButton('filterSucceeded', l10n.t('Succeeded'), v.filter.status === 'succeeded')}
<button data-action="filterText">${v.filter.commandId || v.filter.party ? l10n.t('Filter: {0}', [v.filter.commandId, v.filter.party].filter(Boolean).join(', ')) : l10n.t('Filter by Command Id or Party…')}</button>
${v.filter.commandId || v.filter.party ? html`<button data-action="clearFilter">${l10n.t('Clear Filter')}</button>` : ''}</p>
${
  shown.length === 0
    ? html`<p class="muted">${v.total === 0 ? l10n.t('No completions in the last {0} offsets yet: submit a command (Canton: Submit Commands), or run your application.', formatCount(RECENT_OFFSETS)) : l10n.t('No completion matches the filter.')}</p>`
    : html`${dataTable({
        kind: 'completions',
        className: 'completions',
        columns: [
          { label: l10n.t('Offset'), min: 7 },
          { label: l10n.t('When'), min: 22 },
          { label: l10n.t('Status'), min: 9 },
          { label: l10n.t('Command id'), min: 16 },
          { label: l10n.t('Act as'), min: 14 },
          { label: l10n.t('Transaction or why it failed'), min: 20 },
        ],
        body: html`<tbody>${shown.map(row)}</tbody>`,
      })}${v.rows.length > SHOWN_ROWS ? html`<p class="muted">${l10n.t('The latest {0} of {1} shown.', String(SHOWN_ROWS), String(v.rows.length))}</p>` : ''}`
}`;
}
