// The body of an update that is not a transaction: a reassignment (a contract leaving one
// synchronizer or arriving on another) or a topology transaction (parties' hosting changed).
import type { CreatedEvent, JsReassignment, JsTopologyTransaction } from '../../ledger/apiTypes';
import { templateName } from '../../lookups/ledgerLookups';
import { shortenPartyId } from '../../ids/ledgerIds';
import { field, idLink, party, parties } from './ledgerValues';
import { enumHtml, timeHtml, trafficCost } from './peopleFormat';
import { html, join, ledgerText, type SafeHtml } from './safeHtml';
import { dataTable } from './dataTable';
import type { PackageSignature } from '../../daml/lf/lfSignatures';
import { createArgumentTree } from './typedValues';
import * as l10n from '../../l10n/l10n';

/** A synchronizer id: it has a party id's shape (`global-domain::1220…`), but it is not a party. */
export function synchronizer(id: string | undefined | null): SafeHtml | undefined {
  if (!id) return undefined;
  return html`<span class="synchronizer" title="${l10n.t('Synchronizer {0}', id)}">${ledgerText(shortenPartyId(id))}</span><button class="icon copy" data-copy="${id}" title="${l10n.t('Copy synchronizer id')}" aria-label="${l10n.t('Copy synchronizer id')}"></button>`;
}

const template = (id: string) => html`<span title="${id}">${ledgerText(templateName(id))}</span>`;

/** `sigs`: the node's package signatures when read: an assigned contract's argument is then typed. */
export function reassignmentBody(r: JsReassignment, sigs: readonly PackageSignature[] = []): SafeHtml {
  const header = html`<section aria-labelledby="re-h"><h2 id="re-h">${l10n.t('Reassignment')}</h2><table class="fields"><tbody>
${field(l10n.t('Update id'), idLink(r.updateId, 'update'), 'updateId')}
${field(l10n.t('Offset'), r.offset, 'offset')}
${field(l10n.t('Record time'), timeHtml(r.recordTime), 'recordTime')}
${field(l10n.t('Synchronizer'), synchronizer(r.synchronizerId), 'synchronizerId')}
${field(l10n.t('Command id'), r.commandId, 'commandId')}
${field(l10n.t('Workflow id'), r.workflowId, 'workflowId')}
${field(l10n.t('Trace context'), r.traceContext?.traceparent ?? undefined, 'traceContext.traceparent')}
${field(l10n.t('Paid traffic cost'), trafficCost(r.paidTrafficCost), 'paidTrafficCost')}
</tbody></table></section>`;
  const events = (r.events ?? []).map((e, i) => {
    const wrapped = e as { JsAssignmentEvent?: Record<string, unknown>; JsUnassignedEvent?: { value?: Record<string, unknown> } };
    if (wrapped.JsUnassignedEvent?.value) {
      const u = wrapped.JsUnassignedEvent.value as {
        reassignmentId: string;
        contractId: string;
        templateId: string;
        source: string;
        target: string;
        submitter?: string;
        reassignmentCounter: number;
        assignmentExclusivity?: string;
        witnessParties: string[];
        packageName: string;
        offset: number;
        nodeId: number;
      };
      return html`<section aria-labelledby="ev-${i}"><h3 id="ev-${i}">${l10n.t('Unassigned: the contract leaves {0}', shortenPartyId(u.source))}</h3><table class="fields"><tbody>
${field(l10n.t('Contract'), idLink(u.contractId, 'contract'), 'contractId')}
${field(l10n.t('Template'), template(u.templateId), 'templateId')}
${field(l10n.t('Source synchronizer'), synchronizer(u.source), 'source')}
${field(l10n.t('Target synchronizer'), synchronizer(u.target), 'target')}
${field(l10n.t('Reassignment id'), u.reassignmentId, 'reassignmentId')}
${field(l10n.t('Reassignment counter'), u.reassignmentCounter, 'reassignmentCounter')}
${field(l10n.t('Submitter'), u.submitter ? party(u.submitter) : undefined, 'submitter')}
${field(l10n.t('Assignment exclusivity'), timeHtml(u.assignmentExclusivity), 'assignmentExclusivity')}
${field(l10n.t('Witnesses'), parties(u.witnessParties), 'witnessParties')}
${field(l10n.t('Package name'), u.packageName, 'packageName')}
${field(l10n.t('Node id'), u.nodeId, 'nodeId')}
</tbody></table></section>`;
    }
    const a = wrapped.JsAssignmentEvent as
      | {
          source: string;
          target: string;
          reassignmentId: string;
          submitter?: string;
          reassignmentCounter: number;
          createdEvent: CreatedEvent;
        }
      | undefined;
    if (!a) return html`<p class="muted">${l10n.t('An event of a kind this version of Canton Lens does not know.')}</p>`;
    const c = a.createdEvent;
    return html`<section aria-labelledby="ev-${i}"><h3 id="ev-${i}">${l10n.t('Assigned: the contract arrives on {0}', shortenPartyId(a.target))}</h3><table class="fields"><tbody>
${field(l10n.t('Contract'), idLink(c.contractId, 'contract'), 'createdEvent.contractId')}
${field(l10n.t('Template'), template(c.templateId), 'createdEvent.templateId')}
${field(l10n.t('Source synchronizer'), synchronizer(a.source), 'source')}
${field(l10n.t('Target synchronizer'), synchronizer(a.target), 'target')}
${field(l10n.t('Reassignment id'), a.reassignmentId, 'reassignmentId')}
${field(l10n.t('Reassignment counter'), a.reassignmentCounter, 'reassignmentCounter')}
${field(l10n.t('Submitter'), a.submitter ? party(a.submitter) : undefined, 'submitter')}
${field(l10n.t('Created at'), timeHtml(c.createdAt), 'createdEvent.createdAt')}
${field(l10n.t('Package name'), c.packageName, 'createdEvent.packageName')}
${field(l10n.t('Offset'), c.offset, 'createdEvent.offset')}
${field(l10n.t('Node id'), c.nodeId, 'createdEvent.nodeId')}
${field(l10n.t('ACS delta'), c.acsDelta === undefined || c.acsDelta === null ? undefined : String(c.acsDelta), 'createdEvent.acsDelta')}
${field(l10n.t('Signatories'), parties(c.signatories), 'createdEvent.signatories')}
${field(l10n.t('Observers'), parties(c.observers), 'createdEvent.observers')}
${field(l10n.t('Witnesses'), parties(c.witnessParties), 'createdEvent.witnessParties')}
${field(l10n.t('Create argument'), html`<div class="value-tree">${createArgumentTree(c.createArgument, c.templateId, sigs)}</div>`, 'createdEvent.createArgument')}
</tbody></table></section>`;
  });
  return html`${header}<section aria-labelledby="events-h"><h2 id="events-h">${l10n.t('Events')}</h2>${join(events, '')}</section>`;
}

export function topologyBody(t: JsTopologyTransaction): SafeHtml {
  const rows = (t.events ?? []).map((e) => {
    const [kind, inner] = Object.entries(
      (e as { event?: Record<string, { value?: { partyId?: string; participantId?: string; participantPermission?: string } }> }).event ?? {},
    )[0] ?? ['', {}];
    const v = inner?.value ?? {};
    return html`<tr><td>${ledgerText(kind.replace(/^ParticipantAuthorization/, ''))}</td><td>${v.partyId ? party(v.partyId) : ''}</td><td><span title="${v.participantId ?? ''}">${ledgerText(shortenPartyId(v.participantId ?? ''))}</span></td><td>${v.participantPermission ? enumHtml(v.participantPermission) : ''}</td></tr>`;
  });
  return html`<section aria-labelledby="topo-h"><h2 id="topo-h">${l10n.t('Topology transaction')}</h2><table class="fields"><tbody>
${field(l10n.t('Update id'), idLink(t.updateId, 'update'), 'updateId')}
${field(l10n.t('Offset'), t.offset, 'offset')}
${field(l10n.t('Record time'), timeHtml(t.recordTime), 'recordTime')}
${field(l10n.t('Synchronizer'), synchronizer(t.synchronizerId), 'synchronizerId')}
</tbody></table></section>
<section aria-labelledby="topo-ev-h"><h2 id="topo-ev-h">${l10n.t('Participant authorization events')}</h2>
${dataTable({
  kind: 'topology',
  className: 'events',
  columns: [{ label: l10n.t('Change') }, { label: l10n.t('Party'), min: 16 }, { label: l10n.t('Participant'), min: 16 }, { label: l10n.t('Permission') }],
  body: html`<tbody>${rows}</tbody>`,
})}</section>`;
}
