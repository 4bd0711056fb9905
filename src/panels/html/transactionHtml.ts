// The body of a transaction panel: the header fields, then the events or the exercise tree. Their
// first rows go to the page as JSON data (the rest it asks for after its first paint) and the page
// script builds rows as text nodes, page by page, so 50,000 events stay usable and no ledger string
// is ever parsed as HTML.
import type { LedgerEvent } from '../../ledger/apiTypes';
import type { PackageSignature } from '../../daml/lf/lfSignatures';
import { exerciseTree } from '../../lookups/exerciseTree';
import type { TransactionShape } from '../../lookups/ledgerLookups';
import type { TransactionLookup } from '../../lookups/ledgerLookups';
import { templateName } from '../../lookups/ledgerLookups';
import { shortId } from '../../ids/ledgerIds';
import { errorDetailsHtml, notFoundFactsHtml } from './errorDetailsHtml';
import { timeHtml, trafficCost } from './peopleFormat';
import { reassignmentBody, synchronizer, topologyBody } from './updateHtml';
import { field, idLink } from './ledgerValues';
import { html, ledgerText, SafeHtml, tHtml } from './safeHtml';
import { dataTable } from './dataTable';
import * as l10n from '../../l10n/l10n';
import { FIRST_EVENT_ROWS } from '../../protocol/transactionRows';
import { eventRows, packEventRows, treeRowsFrom } from './eventRowsData';
import { formatCount } from '../../l10n/forPeople';

export { eventRows };

const templateIdOf = (e: LedgerEvent): string =>
  'CreatedEvent' in e ? e.CreatedEvent.templateId : 'ArchivedEvent' in e ? e.ArchivedEvent.templateId : e.ExercisedEvent.templateId;

/** The switch between what changed and what happened; the panel remembers the choice. */
function shapeSwitch(shape: TransactionShape): SafeHtml {
  const option = (value: TransactionShape, label: string, hint: string) =>
    html`<button data-action="setShape" data-shape="${value}" aria-pressed="${String(shape === value)}" title="${hint}"${shape === value ? html` class="primary"` : ''}>${label}</button>`;
  return html`<div class="shape-switch" role="group" aria-label="${l10n.t('Transaction shape')}">
${option('TRANSACTION_SHAPE_ACS_DELTA', l10n.t('What changed'), l10n.t('ACS delta: the contracts created and archived (TRANSACTION_SHAPE_ACS_DELTA)'))}
${option('TRANSACTION_SHAPE_LEDGER_EFFECTS', l10n.t('What happened'), l10n.t('Ledger effects: the exercise tree, with choices, arguments and results (TRANSACTION_SHAPE_LEDGER_EFFECTS)'))}
</div>`;
}

function exerciseTreeSection(events: readonly LedgerEvent[], highlight?: number): SafeHtml {
  // The first rows only, as the event table's: the page asks for the rest after its first paint.
  const first = treeRowsFrom(exerciseTree(events), 0, FIRST_EVENT_ROWS);
  return html`<section aria-labelledby="tree-h"><h2 id="tree-h">${tHtml('Exercise tree ({0} nodes)', html`<span id="event-count">${formatCount(first.total)}</span>`)}</h2>
<div class="filters" role="search">
<label>${l10n.t('Search')} <input id="tree-search" type="search" placeholder="${l10n.t('choice, template, party or contract')}"></label>
<button data-tree="expandAll">${l10n.t('Expand all')}</button> <button data-tree="collapseAll">${l10n.t('Collapse all')}</button>
<span id="filter-status" class="muted" aria-live="polite"></span>
</div>
${dataTable({
  kind: 'exercise-tree',
  className: 'events exercise-tree',
  attrs: html`role="treegrid" aria-label="${l10n.t('Exercise tree')}"`,
  scroll: false,
  columns: [
    { label: l10n.t('Node') },
    { label: l10n.t('What') },
    { label: l10n.t('Template') },
    { label: l10n.t('Contract'), min: 16 },
    { label: l10n.t('Parties') },
  ],
  body: html`<tbody id="tree-rows"${highlight === undefined ? '' : html` data-highlight="${String(highlight)}"`}></tbody>`,
})}
<div id="rows-sentinel" aria-hidden="true"></div>
<script type="application/json" id="tree-data">${jsonForScript(first)}</script>
</section>`;
}

const SCRIPT_UNSAFE: Record<string, string> = { '<': '\\u003c', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** JSON safe inside a <script type="application/json">: no "<" that could close it. */
export function jsonForScript(value: unknown): SafeHtml {
  // One pass over what can be megabytes of rows.
  return new SafeHtml(JSON.stringify(value).replace(/[<\u2028\u2029]/g, (c) => SCRIPT_UNSAFE[c]));
}

/**
 * `shape`: what the panel asked for; `highlight`: the node id to bring into view (lineage); `sigs`: the
 * node's package signatures when read (a reassignment's contracts are typed; a transaction's events are drawn as their rows open).
 */
export function transactionBody(
  l: TransactionLookup,
  shape: TransactionShape = 'TRANSACTION_SHAPE_ACS_DELTA',
  highlight?: number,
  sigs?: readonly PackageSignature[],
): SafeHtml {
  const badge = l.found ? html`<span class="badge active">${l10n.t('Committed')}</span>` : html`<span class="badge notfound">${l10n.t('Not found')}</span>`;
  const id = html`<code title="${l.updateId}">${shortId(l.updateId)}</code>`;
  const title =
    !l.found || l.update === 'transaction'
      ? tHtml('Transaction {0}', id)
      : l.update === 'reassignment'
        ? tHtml('Reassignment {0}', id)
        : tHtml('Topology transaction {0}', id);
  const head = html`<header class="title"><h1>${title}</h1>${badge}</header>
<p class="asked">${l10n.t('Asked: {0}', l.asked)}</p>`;
  if (!l.found) {
    return html`${head}<section class="notfound" role="alert"><p>${ledgerText(l.explanation)}</p>${notFoundFactsHtml(l.facts)}
<p class="muted">${l.error.code ?? ''}</p>${errorDetailsHtml(l.error)}</section>`;
  }
  if (l.update === 'reassignment') return html`${head}${reassignmentBody(l.reassignment, sigs)}`;
  if (l.update === 'topology') return html`${head}${topologyBody(l.topology)}`;
  const t = l.transaction;
  // The first rows only: the page paints them, then asks for the rest (a large transaction's would
  // be megabytes to parse before anything shows).
  const total = t.events.length;
  const templates = [...new Set(t.events.map(templateIdOf))].map((id) => [id, templateName(id)]);
  const header = html`<section aria-labelledby="tx-h"><h2 id="tx-h">${l10n.t('Header')}</h2><table class="fields"><tbody>
${field(l10n.t('Update id'), idLink(t.updateId, 'update'), 'updateId')}
${field(l10n.t('Offset'), t.offset, 'offset')}
${field(l10n.t('Effective at'), timeHtml(t.effectiveAt), 'effectiveAt')}
${field(l10n.t('Record time'), timeHtml(t.recordTime), 'recordTime')}
${field(l10n.t('Command id'), t.commandId, l10n.t('{0} (only shown to the submitting parties)', 'commandId'))}
${field(l10n.t('Workflow id'), t.workflowId, 'workflowId')}
${field(l10n.t('Synchronizer'), synchronizer(t.synchronizerId), 'synchronizerId')}
${field(l10n.t('Trace context'), t.traceContext?.traceparent ?? undefined, 'traceContext.traceparent')}
${field(l10n.t('External transaction hash'), t.externalTransactionHash, l10n.t('{0} (externally signed transactions)', 'externalTransactionHash'))}
${field(l10n.t('Paid traffic cost'), trafficCost(t.paidTrafficCost), 'paidTrafficCost')}
${field(l10n.t('Transaction hash'), t.transactionHash, l10n.t('{0} (Canton 3.6+)', 'transactionHash'))}
</tbody></table></section>`;
  const events = html`<section aria-labelledby="events-h"><h2 id="events-h">${tHtml('Events ({0})', html`<span id="event-count">${formatCount(total)}</span>`)}</h2>
<div class="filters" role="search">
<label>${l10n.t('Kind')} <select id="filter-kind"><option value="">${l10n.t('all')}</option><option value="created">${l10n.t('created')}</option><option value="archived">${l10n.t('archived')}</option><option value="exercised">${l10n.t('exercised')}</option></select></label>
<label>${l10n.t('Template')} <input id="filter-template" type="search" placeholder="${l10n.t('e.g. Iou')}" list="templates"></label>
<datalist id="templates">${templates.map(([, name]) => html`<option value="${name}"></option>`)}</datalist>
<label>${l10n.t('Party')} <input id="filter-party" type="search" placeholder="${l10n.t('e.g. Alice')}"></label>
<span id="filter-status" class="muted" aria-live="polite"></span>
</div>
${dataTable({
  kind: 'events',
  className: 'events',
  scroll: false,
  columns: [
    { label: l10n.t('Node') },
    { label: l10n.t('Kind') },
    { label: l10n.t('Template') },
    { label: l10n.t('Contract'), min: 16 },
    { label: l10n.t('Choice') },
    { label: l10n.t('Parties') },
  ],
  body: html`<tbody id="event-rows"${highlight === undefined ? '' : html` data-highlight="${String(highlight)}"`}></tbody>`,
})}
<div id="rows-sentinel" aria-hidden="true"></div>
<script type="application/json" id="event-data">${jsonForScript(packEventRows(eventRows(t.events.slice(0, FIRST_EVENT_ROWS)), 0, total))}</script>
</section>`;
  if (shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS') return html`${head}${shapeSwitch(shape)}${header}${exerciseTreeSection(t.events, highlight)}`;
  return html`${head}${shapeSwitch(shape)}${header}${events}`;
}
