// The body of a contract panel: status at a glance, every field of the created and archived
// events (spec names), the create argument as a searchable tree.
import type { ContractLookup } from '../../lookups/ledgerLookups';
import { templateName } from '../../lookups/ledgerLookups';
import { shortId } from '../../ids/ledgerIds';
import { field, idLink, parties, valueTree } from './ledgerValues';
import { html, ledgerText, type SafeHtml } from './safeHtml';

export function contractBody(l: ContractLookup): SafeHtml {
  const badge = !l.found ? html`<span class="badge notfound">Not found</span>`
    : l.status === 'active' ? html`<span class="badge active">Active</span>` : html`<span class="badge archived">Archived</span>`;
  const head = html`<header class="title"><h1>Contract <code title="${l.contractId}">${shortId(l.contractId)}</code></h1>${badge}</header>
<p class="asked">Asked: ${l.asked}</p>`;
  if (!l.found) {
    return html`${head}<section class="notfound" role="alert"><p>${ledgerText(l.explanation)}</p>
<p class="muted">${l.error.code ?? ''} ${l.error.correlationId ? html`· correlation id <code>${l.error.correlationId}</code>` : ''}</p></section>`;
  }
  const { createdEvent: c, synchronizerId } = l.response.created!;
  const archived = l.response.archived;
  const created = html`<section aria-labelledby="created-h"><h2 id="created-h">Created</h2><table class="fields"><tbody>
${field('Template', html`<span title="${c.templateId}">${ledgerText(templateName(c.templateId))}</span> <span class="muted">${ledgerText(c.templateId.split(':')[0] ?? '')}</span>`, 'templateId')}
${field('Package name', c.packageName, 'packageName')}
${field('Representative package id', c.representativePackageId, 'representativePackageId')}
${field('Contract id', idLink(c.contractId, 'contract'), 'contractId')}
${field('Offset', c.offset, 'offset')}
${field('Node id', c.nodeId, 'nodeId')}
${field('Created at', c.createdAt, 'createdAt')}
${field('Synchronizer', synchronizerId, 'synchronizerId')}
${field('Signatories', parties(c.signatories), 'signatories')}
${field('Observers', parties(c.observers), 'observers')}
${field('Witnesses', parties(c.witnessParties), 'witnessParties')}
${field('ACS delta', c.acsDelta === undefined ? undefined : String(c.acsDelta), 'acsDelta')}
${field('Contract key', c.contractKey === null || c.contractKey === undefined ? undefined : valueTree(c.contractKey), 'contractKey')}
${field('Contract key hash', c.contractKeyHash, 'contractKeyHash')}
${field('Created event blob', c.createdEventBlob ? html`<span class="muted">${c.createdEventBlob.length.toLocaleString('en-US')} base64 characters</span> <button class="icon copy" data-copy="${c.createdEventBlob}" title="Copy the created event blob" aria-label="Copy the created event blob"></button>` : undefined, 'createdEventBlob (for explicit disclosure)')}
</tbody></table></section>`;
  const argument = html`<section aria-labelledby="arg-h"><h2 id="arg-h">Create argument</h2>
<div class="tree-tools"><input type="search" class="tree-search" placeholder="Search the argument" aria-label="Search the create argument"> <button data-action="expandAll">Expand all</button> <button data-action="collapseAll">Collapse all</button> <button data-copy-json="create-argument">Copy JSON</button></div>
<div class="value-tree" id="create-argument">${valueTree(c.createArgument)}</div></section>`;
  const views = (c.interfaceViews ?? []).length === 0 ? html`` : html`<section aria-labelledby="views-h"><h2 id="views-h">Interface views</h2>${(c.interfaceViews ?? []).map((v) => html`
<table class="fields"><tbody>
${field('Interface', html`<span title="${v.interfaceId}">${ledgerText(templateName(v.interfaceId))}</span>`, 'interfaceId')}
${field('Status', v.viewStatus?.code === 0 ? 'computed' : `failed (${v.viewStatus?.code}): ${v.viewStatus?.message ?? ''}`, 'viewStatus')}
${field('Implementation package id', (v as { implementationPackageId?: string }).implementationPackageId, 'implementationPackageId')}
${field('View value', v.viewValue === undefined ? undefined : valueTree(v.viewValue), 'viewValue')}
</tbody></table>`)}</section>`;
  const archivedSection = !archived ? html`` : html`<section aria-labelledby="archived-h"><h2 id="archived-h">Archived</h2><table class="fields"><tbody>
${field('Offset', archived.archivedEvent.offset, 'offset')}
${field('Node id', archived.archivedEvent.nodeId, 'nodeId')}
${field('Witnesses', parties(archived.archivedEvent.witnessParties), 'witnessParties')}
${field('Implemented interfaces', (archived.archivedEvent.implementedInterfaces ?? []).map(templateName).join(', '), 'implementedInterfaces')}
${field('Synchronizer', archived.synchronizerId, 'synchronizerId')}
</tbody></table></section>`;
  return html`${head}${created}${argument}${views}${archivedSection}`;
}
