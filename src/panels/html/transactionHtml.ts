// The body of a transaction panel: the header fields, then the events. Events go to the page as
// JSON data and the page script builds rows as text nodes, page by page, so 50,000 events stay
// usable and no ledger string is ever parsed as HTML.
import type { LedgerEvent } from '../../ledger/apiTypes';
import type { TransactionLookup } from '../../lookups/ledgerLookups';
import { templateName } from '../../lookups/ledgerLookups';
import { shortId } from '../../ids/ledgerIds';
import { errorDetailsHtml } from './errorDetailsHtml';
import { reassignmentBody, topologyBody } from './updateHtml';
import { field, idLink } from './ledgerValues';
import { html, ledgerText, SafeHtml, tHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

/** One event row: [nodeId, kind, template, contractId, detail, parties]. */
export type EventRow = [number, 'created' | 'archived' | 'exercised', string, string, string, string[]];

export function eventRows(events: readonly LedgerEvent[]): EventRow[] {
  return events.map((e): EventRow => {
    if ('CreatedEvent' in e) {
      const c = e.CreatedEvent;
      return [c.nodeId, 'created', c.templateId, c.contractId, '', [...new Set([...c.signatories, ...(c.observers ?? [])])]];
    }
    if ('ArchivedEvent' in e) {
      const a = e.ArchivedEvent;
      return [a.nodeId, 'archived', a.templateId, a.contractId, '', a.witnessParties];
    }
    const x = e.ExercisedEvent;
    return [x.nodeId, 'exercised', x.templateId, x.contractId, x.consuming ? l10n.t('{0} (consuming)', x.choice) : x.choice, x.actingParties];
  });
}

/** JSON safe inside a <script type="application/json">: no "<" that could close it. */
export function jsonForScript(value: unknown): SafeHtml {
  return new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
}

export function transactionBody(l: TransactionLookup): SafeHtml {
  const badge = l.found ? html`<span class="badge active">${l10n.t('Committed')}</span>` : html`<span class="badge notfound">${l10n.t('Not found')}</span>`;
  const id = html`<code title="${l.updateId}">${shortId(l.updateId)}</code>`;
  const title = !l.found || l.update === 'transaction' ? tHtml('Transaction {0}', id) : l.update === 'reassignment' ? tHtml('Reassignment {0}', id) : tHtml('Topology transaction {0}', id);
  const head = html`<header class="title"><h1>${title}</h1>${badge}</header>
<p class="asked">${l10n.t('Asked: {0}', l.asked)}</p>`;
  if (!l.found) {
    return html`${head}<section class="notfound" role="alert"><p>${ledgerText(l.explanation)}</p>
<p class="muted">${l.error.code ?? ''}</p>${errorDetailsHtml(l.error)}</section>`;
  }
  if (l.update === 'reassignment') return html`${head}${reassignmentBody(l.reassignment)}`;
  if (l.update === 'topology') return html`${head}${topologyBody(l.topology)}`;
  const t = l.transaction;
  const rows = eventRows(t.events);
  const templates = [...new Set(rows.map((r) => r[2]))].map((id) => [id, templateName(id)]);
  const header = html`<section aria-labelledby="tx-h"><h2 id="tx-h">${l10n.t('Header')}</h2><table class="fields"><tbody>
${field(l10n.t('Update id'), idLink(t.updateId, 'update'), 'updateId')}
${field(l10n.t('Offset'), t.offset, 'offset')}
${field(l10n.t('Effective at'), t.effectiveAt, 'effectiveAt')}
${field(l10n.t('Record time'), t.recordTime, 'recordTime')}
${field(l10n.t('Command id'), t.commandId, 'commandId (only shown to the submitting parties)')}
${field(l10n.t('Workflow id'), t.workflowId, 'workflowId')}
${field(l10n.t('Synchronizer'), t.synchronizerId, 'synchronizerId')}
${field(l10n.t('Trace context'), t.traceContext?.traceparent ?? undefined, 'traceContext.traceparent')}
${field(l10n.t('External transaction hash'), t.externalTransactionHash, 'externalTransactionHash (externally signed transactions)')}
${field(l10n.t('Paid traffic cost'), t.paidTrafficCost, 'paidTrafficCost')}
${field(l10n.t('Transaction hash'), t.transactionHash, 'transactionHash (Canton 3.6+)')}
</tbody></table></section>`;
  const events = html`<section aria-labelledby="events-h"><h2 id="events-h">${tHtml('Events ({0})', html`<span id="event-count">${rows.length.toLocaleString('en-US')}</span>`)}</h2>
<div class="filters" role="search">
<label>${l10n.t('Kind')} <select id="filter-kind"><option value="">${l10n.t('all')}</option><option value="created">${l10n.t('created')}</option><option value="archived">${l10n.t('archived')}</option><option value="exercised">${l10n.t('exercised')}</option></select></label>
<label>${l10n.t('Template')} <input id="filter-template" type="search" placeholder="${l10n.t('e.g. Iou')}" list="templates"></label>
<datalist id="templates">${templates.map(([, name]) => html`<option value="${name}"></option>`)}</datalist>
<label>${l10n.t('Party')} <input id="filter-party" type="search" placeholder="${l10n.t('e.g. Alice')}"></label>
<span id="filter-status" class="muted" aria-live="polite"></span>
</div>
<table class="events"><thead><tr><th scope="col">${l10n.t('Node')}</th><th scope="col">${l10n.t('Kind')}</th><th scope="col">${l10n.t('Template')}</th><th scope="col">${l10n.t('Contract')}</th><th scope="col">${l10n.t('Choice')}</th><th scope="col">${l10n.t('Parties')}</th></tr></thead>
<tbody id="event-rows"></tbody></table>
<div id="rows-sentinel" aria-hidden="true"></div>
<script type="application/json" id="event-data">${jsonForScript(rows)}</script>
</section>`;
  return html`${head}${header}${events}`;
}
