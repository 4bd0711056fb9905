// The What Changed page: a range's contracts created, archived, and created then archived, with how
// they were read and why, counts that filter by kind, templates that filter, a payload filter, and
// rows linked to their contracts and transactions. Ledger values only become escaped text.
import * as l10n from '../../l10n/l10n';
import { formatCount } from '../../l10n/forPeople';
import type { ChangeCounts, ChangeKind, ContractChange } from '../../browse/ledgerChanges';
import type { ChangeKindFilter, ChangeViewRows } from '../../browse/changeView';
import { damlLink } from './damlLinkHtml';
import { idLink, typeId } from './ledgerValues';
import { timeHtml } from './peopleFormat';
import { html, join, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import { dataTable } from './dataTable';

export interface ChangesPageModel {
  node: string;
  from: number;
  to: number;
  /** Labels of marked points at either end, if any. */
  fromLabel?: string;
  toLabel?: string;
  asSeenBy: string;
  templates?: readonly string[];
  reason?: string;
  notice?: string;
  /** Reading: how far, else undefined when done. */
  progress?: string;
  /** A failure, with what to do. */
  error?: string;
  /** The whole range was read (not cancelled, failed or cleared). */
  complete?: boolean;
  /** How it was read. */
  method?: 'updates' | 'activeSets';
  counts: ChangeCounts;
  view: ChangeViewRows;
  kind?: ChangeKindFilter;
  template?: string;
  /** Read in ledger-effects shape (archives name their choice). */
  ledgerEffects?: boolean;
  filterText?: string;
  limit: number;
  now?: number;
}

const KIND_LABEL = (): Record<ChangeKind, string> => ({
  created: l10n.t('created'),
  archived: l10n.t('archived'),
  createdAndArchived: l10n.t('created and archived'),
});

function viewButton(key: 'kind' | 'template', value: string, label: string, pressed: boolean): SafeHtml {
  return html`<button data-view-key="${key}" data-view-value="${value}" aria-pressed="${pressed ? 'true' : 'false'}">${label}</button>`;
}

function point(p: ContractChange['created'], now: number | undefined): SafeHtml {
  if (!p) return html`<span class="muted">${l10n.t('before the range')}</span>`;
  const offset = formatCount(p.offset);
  const at = p.at ? timeHtml(p.at, now) : undefined;
  const where = p.updateId
    ? html`<a href="#" class="id-link" data-open-id="${p.updateId}" data-kind="update" title="${l10n.t('Open update {0}', p.updateId)}">${l10n.t('offset {0}', offset)}</a>`
    : html`${l10n.t('offset {0}', offset)}`;
  const by = p.choice ? html` ${tHtml('by {0}', html`<code>${ledgerText(p.choice)}</code>`)}` : '';
  return at ? html`${where}${by} <span class="muted">${at}</span>` : html`${where}${by}`;
}

function row(r: ContractChange, labels: Record<ChangeKind, string>, now: number | undefined): SafeHtml {
  const name = r.templateId.split(':').slice(1).join(':') || r.templateId;
  return html`<tr class="change-${r.kind}"><td><span class="change-mark change-${r.kind}">${labels[r.kind]}</span></td><td>${idLink(r.contractId, 'contract')}</td><td>${damlLink(name, { templateId: r.templateId, ...(r.packageName ? { packageName: r.packageName } : {}) })}</td><td>${point(r.created, now)}</td><td>${r.kind === 'created' ? html`<span class="muted">${l10n.t('still active')}</span>` : r.archived ? point(r.archived, now) : html`<span class="muted">${l10n.t('in the range')}</span>`}</td></tr>`;
}

export function changesBody(m: ChangesPageModel): SafeHtml {
  const labels = KIND_LABEL();
  const range = html`<p class="range">${l10n.t('From offset {0}', formatCount(m.from))}${m.fromLabel ? html` (${ledgerText(m.fromLabel)})` : ''} ${l10n.t('to offset {0}', formatCount(m.to))}${m.toLabel ? html` (${ledgerText(m.toLabel)})` : ''}, ${ledgerText(m.asSeenBy)}${m.templates && m.templates.length > 0 ? html`, ${l10n.t('templates')} ${join(m.templates.map(typeId), ', ')}` : ''}</p>`;
  const done =
    m.method === 'activeSets'
      ? l10n.t('Compared the active sets at offsets {0} and {1}.', formatCount(m.from), formatCount(m.to))
      : m.counts.transactions === 1
        ? l10n.t('Read 1 transaction.')
        : l10n.t('Read {0} transactions.', formatCount(m.counts.transactions));
  const status = m.error
    ? html`<p class="error" role="alert">${ledgerText(m.error)}</p>`
    : html`<p role="status">${m.progress ?? (m.complete ? done : l10n.t('The read stopped before the end of the range: Read Again to read it whole.'))}</p>`;
  const other =
    m.progress === undefined && m.method
      ? m.method === 'activeSets'
        ? html` <button data-action="readUpdates" title="${l10n.t('Read the range\u2019s updates: they show contracts created and archived inside it')}">${l10n.t('Read the Updates')}</button>`
        : html` <button data-action="readActiveSets" title="${l10n.t('Compare the active sets at both ends instead')}">${l10n.t('Compare Active Sets')}</button>`
      : '';
  const total = m.counts.created + m.counts.archived + m.counts.createdAndArchived;
  const kinds = html`<p class="filters">${viewButton('kind', '', l10n.t('All ({0})', formatCount(total)), !m.kind)} ${join(
    (['created', 'archived', 'createdAndArchived'] as const).map((k) => viewButton('kind', k, `${labels[k]} (${formatCount(m.counts[k])})`, m.kind === k)),
    ' ',
  )} ${viewButton('kind', 'inactive', l10n.t('no longer active ({0})', formatCount(m.counts.archived + m.counts.createdAndArchived)), m.kind === 'inactive')}${
    m.ledgerEffects
      ? ''
      : html` <button data-action="readLedgerEffects" title="${l10n.t('Read the range again in ledger-effects shape: each archive names its choice')}">${l10n.t('Show Archiving Choices')}</button>`
  }${other}</p>`;
  const templates = [...m.view.templates.entries()].sort((a, b) => b[1] - a[1]);
  const templateLine =
    templates.length > 1 || m.template
      ? html`<p class="filters"><span class="muted">${l10n.t('Template:')}</span> ${viewButton('template', '', l10n.t('any'), !m.template)} ${join(
          templates.slice(0, 12).map(([t, n]) => viewButton('template', t, `${t.split(':').slice(1).join(':') || t} (${formatCount(n)})`, m.template === t)),
          ' ',
        )}</p>`
      : '';
  const filter = html`<p class="filters"><button data-action="filterText">${m.filterText ? l10n.t('Payload filter: {0}', m.filterText) : l10n.t('Filter on Payload Fields…')}</button>${m.filterText ? html` <button data-action="clearFilter">${l10n.t('Clear Filter')}</button>` : ''}${m.view.pending > 0 ? html` <span class="muted">${l10n.t('filtering… {0} rows left', formatCount(m.view.pending))}</span>` : ''}${
    m.view.unfilterable > 0
      ? html` <span class="muted">${l10n.t('{0} rows left out: created before the range, their create argument was not read here (open the contract to see it).', formatCount(m.view.unfilterable))}</span>`
      : ''
  }</p>`;
  const shown = m.view.rows.length;
  const table =
    shown === 0
      ? html`<p class="muted">${total === 0 ? (m.progress || !m.complete ? l10n.t('Nothing yet.') : l10n.t('Nothing changed in this range for these parties.')) : l10n.t('No row matches the filters.')}</p>`
      : dataTable({
          kind: 'changes',
          className: 'changes',
          columns: [
            { label: l10n.t('Change'), min: 10 },
            { label: l10n.t('Contract'), min: 16 },
            { label: l10n.t('Template'), min: 14 },
            { label: l10n.t('Created'), min: 22 },
            { label: l10n.t('Archived'), min: 22 },
          ],
          body: html`<tbody>${join(m.view.rows.map((r) => row(r, labels, m.now)))}</tbody>`,
        });
  const more =
    m.view.matching > shown
      ? html`<p>${l10n.t('Showing {0} of {1} rows.', formatCount(shown), formatCount(m.view.matching))} <button data-action="showMore">${l10n.t('Show More')}</button></p>`
      : '';
  return html`${range}${m.reason ? html`<p class="muted">${ledgerText(m.reason)}</p>` : ''}${m.notice ? html`<p class="notice">${ledgerText(m.notice)}</p>` : ''}${status}${kinds}${templateLine}${filter}${table}${more}`;
}
