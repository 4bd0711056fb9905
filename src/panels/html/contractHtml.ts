// The body of a contract panel: status at a glance, every field of the created and archived
// events (spec names), the create argument as a searchable tree.
import type { ArchivedEvent } from '../../ledger/apiTypes';
import type { ContractLookup } from '../../lookups/ledgerLookups';
import { templateName } from '../../lookups/ledgerLookups';
import { shortId } from '../../ids/ledgerIds';
import { errorDetailsHtml, notFoundFactsHtml } from './errorDetailsHtml';
import { timeHtml } from './peopleFormat';
import { synchronizer } from './updateHtml';
import { field, idLink, parties, typeIds, valueTree, viewStatus } from './ledgerValues';
import { damlLink } from './damlLinkHtml';
import { contractKeyTree, createArgumentTree, viewValueTree } from './typedValues';
import type { PackageSignature } from '../../daml/lf/lfSignatures';
import { html, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';
import { formatCount } from '../../l10n/forPeople';

/** `sigs`: the node's package signatures, when read: the create argument is then drawn with its types. */
export function contractBody(l: ContractLookup, sigs?: readonly PackageSignature[]): SafeHtml {
  const badge = !l.found
    ? html`<span class="badge notfound">${l10n.t('Not found')}</span>`
    : l.status === 'active'
      ? html`<span class="badge active">${l10n.t('Active')}</span>`
      : html`<span class="badge archived">${l10n.t('Archived')}</span>`;
  const head = html`<header class="title"><h1>${tHtml('Contract {0}', html`<code title="${l.contractId}">${shortId(l.contractId)}</code>`)}</h1>${badge}</header>
<p class="asked">${l10n.t('Asked: {0}', l.asked)}</p>`;
  if (!l.found) {
    return html`${head}<section class="notfound" role="alert"><p>${ledgerText(l.explanation)}</p>${notFoundFactsHtml(l.facts)}
<p class="muted">${l.error.code ?? ''} ${l.error.correlationId ? tHtml('· correlation id {0}', html`<code>${l.error.correlationId}</code>`) : ''}</p>${errorDetailsHtml(l.error)}</section>`;
  }
  const archived = l.response.archived;
  const archivedSection = !archived ? html`` : archivedHtml(archived.archivedEvent, archived.synchronizerId);
  if (!l.response.created) {
    // The node pruned the create event: what is left is the archive.
    return html`${head}<section class="pruned" role="note"><p>${l10n.t("The create event of this contract was pruned on this node: it was created before the node's pruning offset and archived after it, so only the archive event is left. A node that has not pruned that far still has the create.")}</p></section>${archivedSection}`;
  }
  const { createdEvent: c, synchronizerId } = l.response.created;
  const created = html`<section aria-labelledby="created-h"><h2 id="created-h">${l10n.t('Created')}</h2><table class="fields"><tbody>
${field(l10n.t('Template'), html`${damlLink(templateName(c.templateId), { templateId: c.templateId, packageName: c.packageName })} <span class="muted">${ledgerText(c.templateId.split(':')[0] ?? '')}</span>`, 'templateId')}
${field(l10n.t('Package name'), c.packageName, 'packageName')}
${field(l10n.t('Representative package id'), c.representativePackageId, 'representativePackageId')}
${field(l10n.t('Contract id'), idLink(c.contractId, 'contract'), 'contractId')}
${field(l10n.t('Offset'), c.offset, 'offset')}
${field(l10n.t('Node id'), c.nodeId, 'nodeId')}
${field(l10n.t('Created at'), timeHtml(c.createdAt), 'createdAt')}
${field(l10n.t('Synchronizer'), synchronizer(synchronizerId), 'synchronizerId')}
${field(l10n.t('Created in'), lineageLink(c.offset, c.nodeId, 'TRANSACTION_SHAPE_ACS_DELTA', l10n.t('Open the transaction that created it')), 'offset')}
${field(l10n.t('Signatories'), parties(c.signatories), 'signatories')}
${field(l10n.t('Observers'), parties(c.observers), 'observers')}
${field(l10n.t('Witnesses'), parties(c.witnessParties), 'witnessParties')}
${field(l10n.t('ACS delta'), c.acsDelta === undefined ? undefined : String(c.acsDelta), 'acsDelta')}
${field(l10n.t('Contract key'), c.contractKey === null || c.contractKey === undefined ? undefined : sigs ? contractKeyTree(c.contractKey, c.templateId, sigs) : valueTree(c.contractKey), 'contractKey')}
${field(l10n.t('Contract key hash'), c.contractKeyHash, 'contractKeyHash')}
${field(l10n.t('Created event blob'), c.createdEventBlob ? html`<span class="muted">${l10n.t('{0} base64 characters', formatCount(c.createdEventBlob.length))}</span> <button class="icon copy" data-copy="${c.createdEventBlob}" title="${l10n.t('Copy the created event blob')}" aria-label="${l10n.t('Copy the created event blob')}"></button>` : undefined, l10n.t('{0} (for explicit disclosure)', 'createdEventBlob'))}
</tbody></table></section>`;
  const argument = html`<section aria-labelledby="arg-h"><h2 id="arg-h">${l10n.t('Create argument')}</h2>
<div class="tree-tools"><input type="search" class="tree-search" placeholder="${l10n.t('Search the argument')}" aria-label="${l10n.t('Search the create argument')}"> <button data-action="expandAll">${l10n.t('Expand all')}</button> <button data-action="collapseAll">${l10n.t('Collapse all')}</button> <button data-copy-json="create-argument">${l10n.t('Copy JSON')}</button></div>
<div class="value-tree" id="create-argument">${sigs ? createArgumentTree(c.createArgument, c.templateId, sigs) : valueTree(c.createArgument)}</div></section>`;
  const views =
    (c.interfaceViews ?? []).length === 0
      ? html``
      : html`<section aria-labelledby="views-h"><h2 id="views-h">${l10n.t('Interface views')}</h2>${(c.interfaceViews ?? []).map(
          (v) => html`
<table class="fields"><tbody>
${field(l10n.t('Interface'), damlLink(templateName(v.interfaceId), { templateId: v.interfaceId }), 'interfaceId')}
${field(l10n.t('Status'), viewStatus(v.viewStatus), 'viewStatus')}
${field(l10n.t('Implementation package id'), (v as { implementationPackageId?: string }).implementationPackageId, 'implementationPackageId')}
${field(l10n.t('View value'), v.viewValue === undefined ? undefined : sigs ? viewValueTree(v.viewValue, v.interfaceId, sigs) : valueTree(v.viewValue), 'viewValue')}
</tbody></table>`,
        )}</section>`;
  return html`${head}${created}${argument}${views}${archivedSection}`;
}

/** Every field of an ArchivedEvent, by its spec name (its templateId can differ from the create's after an upgrade). */
function archivedHtml(a: ArchivedEvent, synchronizerId: string): SafeHtml {
  return html`<section aria-labelledby="archived-h"><h2 id="archived-h">${l10n.t('Archived')}</h2><table class="fields"><tbody>
${field(l10n.t('Template'), html`${damlLink(templateName(a.templateId), { templateId: a.templateId, packageName: a.packageName })} <span class="muted">${ledgerText(a.templateId.split(':')[0] ?? '')}</span>`, 'templateId')}
${field(l10n.t('Package name'), a.packageName, 'packageName')}
${field(l10n.t('Contract id'), idLink(a.contractId, 'contract'), 'contractId')}
${field(l10n.t('Offset'), a.offset, 'offset')}
${field(l10n.t('Node id'), a.nodeId, 'nodeId')}
${field(l10n.t('Witnesses'), parties(a.witnessParties), 'witnessParties')}
${field(l10n.t('Implemented interfaces'), typeIds(a.implementedInterfaces), 'implementedInterfaces')}
${field(l10n.t('Synchronizer'), synchronizer(synchronizerId), 'synchronizerId')}
${field(l10n.t('Archived in'), lineageLink(a.offset, a.nodeId, 'TRANSACTION_SHAPE_LEDGER_EFFECTS', l10n.t('Open the transaction that archived it, at the exercise that did')), 'offset')}
</tbody></table></section>`;
}

/** A link to the transaction at an offset (update-by-offset), with the event highlighted. */
function lineageLink(offset: number, nodeId: number, shape: string, label: string): SafeHtml {
  return html`<a href="#" data-open-offset="${String(offset)}" data-node-id="${String(nodeId)}" data-shape="${shape}">${label}</a> <span class="muted">${tHtml('offset {0}, node {1}', String(offset), String(nodeId))}</span>`;
}
