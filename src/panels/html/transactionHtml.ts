// The body of a transaction panel: the header fields, then the events. Events go to the page as
// JSON data and the page script builds rows as text nodes, page by page, so 50,000 events stay
// usable and no ledger string is ever parsed as HTML.
import type { LedgerEvent } from '../../ledger/apiTypes';
import type { TransactionLookup } from '../../lookups/ledgerLookups';
import { templateName } from '../../lookups/ledgerLookups';
import { shortId } from '../../ids/ledgerIds';
import { field, idLink } from './ledgerValues';
import { html, ledgerText, SafeHtml } from './safeHtml';

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
    return [x.nodeId, 'exercised', x.templateId, x.contractId, `${x.choice}${x.consuming ? ' (consuming)' : ''}`, x.actingParties];
  });
}

/** JSON safe inside a <script type="application/json">: no "<" that could close it. */
export function jsonForScript(value: unknown): SafeHtml {
  return new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
}

export function transactionBody(l: TransactionLookup): SafeHtml {
  const badge = l.found ? html`<span class="badge active">Committed</span>` : html`<span class="badge notfound">Not found</span>`;
  const head = html`<header class="title"><h1>Transaction <code title="${l.updateId}">${shortId(l.updateId)}</code></h1>${badge}</header>
<p class="asked">Asked: ${l.asked}</p>`;
  if (!l.found) {
    return html`${head}<section class="notfound" role="alert"><p>${ledgerText(l.explanation)}</p>
<p class="muted">${l.error.code ?? ''}</p></section>`;
  }
  const t = l.transaction;
  const rows = eventRows(t.events);
  const templates = [...new Set(rows.map((r) => r[2]))].map((id) => [id, templateName(id)]);
  const header = html`<section aria-labelledby="tx-h"><h2 id="tx-h">Header</h2><table class="fields"><tbody>
${field('Update id', idLink(t.updateId, 'update'), 'updateId')}
${field('Offset', t.offset, 'offset')}
${field('Effective at', t.effectiveAt, 'effectiveAt')}
${field('Record time', t.recordTime, 'recordTime')}
${field('Command id', t.commandId, 'commandId (only shown to the submitting parties)')}
${field('Workflow id', t.workflowId, 'workflowId')}
${field('Synchronizer', t.synchronizerId, 'synchronizerId')}
${field('Trace context', t.traceContext?.traceparent ?? undefined, 'traceContext.traceparent')}
${field('External transaction hash', t.externalTransactionHash, 'externalTransactionHash (externally signed transactions)')}
${field('Paid traffic cost', t.paidTrafficCost, 'paidTrafficCost')}
${field('Transaction hash', t.transactionHash, 'transactionHash (Canton 3.6+)')}
</tbody></table></section>`;
  const events = html`<section aria-labelledby="events-h"><h2 id="events-h">Events (<span id="event-count">${rows.length.toLocaleString('en-US')}</span>)</h2>
<div class="filters" role="search">
<label>Kind <select id="filter-kind"><option value="">all</option><option value="created">created</option><option value="archived">archived</option><option value="exercised">exercised</option></select></label>
<label>Template <input id="filter-template" type="search" placeholder="e.g. Iou" list="templates"></label>
<datalist id="templates">${templates.map(([, name]) => html`<option value="${name}"></option>`)}</datalist>
<label>Party <input id="filter-party" type="search" placeholder="e.g. Alice"></label>
<span id="filter-status" class="muted" aria-live="polite"></span>
</div>
<table class="events"><thead><tr><th scope="col">Node</th><th scope="col">Kind</th><th scope="col">Template</th><th scope="col">Contract</th><th scope="col">Choice</th><th scope="col">Parties</th></tr></thead>
<tbody id="event-rows"></tbody></table>
<div id="rows-sentinel" aria-hidden="true"></div>
<script type="application/json" id="event-data">${jsonForScript(rows)}</script>
</section>`;
  return html`${head}${header}${events}`;
}
