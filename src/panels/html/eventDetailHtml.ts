// One event in full, built when its row is opened (not up front, so 50,000 events stay fast):
// every field by its spec name, arguments and results as value trees, and its lineage (what a
// consuming exercise created; the contract's own panel).
import type { CreatedEvent, ExercisedEvent } from '../../ledger/apiTypes';
import { createdUnder, type FlatTreeNode, type TreeEvent } from '../../lookups/exerciseTree';
import { templateName } from '../../lookups/ledgerLookups';
import { field, idLink, parties, typeId, typeIds, valueTree, viewStatus } from './ledgerValues';
import { damlLink } from './damlLinkHtml';
import { formatCount } from '../../l10n/forPeople';
import { showType, type LfType, type PackageSignature } from '../../daml/lf/lfSignatures';
import { contractKeyTree, createArgumentTree, exerciseTrees, viewValueTree } from './typedValues';
import { html, join, ledgerText, SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

const template = (id: string, hint: string, packageName?: string) =>
  field(
    l10n.t('Template'),
    html`${damlLink(templateName(id), { templateId: id, packageName })} <span class="muted">${ledgerText(id.split(':')[0] ?? '')}</span>`,
    hint,
  );
const tree = (v: unknown) => html`<div class="value-tree">${v instanceof SafeHtml ? v : valueTree(v)}</div>`;
/** A field's hint: its spec name, and its declared Daml type when known. */
const typed = (name: string, t: LfType | undefined) => (t ? `${name}: ${showType(t)}` : name);

function createdFields(c: CreatedEvent, sigs: readonly PackageSignature[]): SafeHtml {
  const blob = c.createdEventBlob ? l10n.t('{0} base64 characters', formatCount(c.createdEventBlob.length)) : undefined;
  return html`${template(c.templateId, 'templateId', c.packageName)}
${field(l10n.t('Contract id'), idLink(c.contractId, 'contract'), 'contractId')}
${field(l10n.t('Package name'), c.packageName, 'packageName')}
${field(l10n.t('Representative package id'), c.representativePackageId, 'representativePackageId')}
${field(l10n.t('Signatories'), parties(c.signatories), 'signatories')}
${field(l10n.t('Observers'), parties(c.observers), 'observers')}
${field(l10n.t('Witnesses'), parties(c.witnessParties), 'witnessParties')}
${field(l10n.t('Contract key'), c.contractKey === null || c.contractKey === undefined ? undefined : tree(contractKeyTree(c.contractKey, c.templateId, sigs)), 'contractKey')}
${field(l10n.t('Contract key hash'), c.contractKeyHash, 'contractKeyHash')}
${field(
  l10n.t('Interface views'),
  (c.interfaceViews ?? []).length === 0
    ? undefined
    : join(
        (c.interfaceViews ?? []).map(
          (v) =>
            html`<div>${typeId(v.interfaceId)} <span class="muted">${viewStatus(v.viewStatus)}</span> ${v.viewValue === undefined || v.viewValue === null ? html`` : tree(viewValueTree(v.viewValue, v.interfaceId, sigs))}</div>`,
        ),
        '',
      ),
  'interfaceViews',
)}
${field(l10n.t('Created event blob'), blob, 'createdEventBlob')}
${field(l10n.t('ACS delta'), c.acsDelta === undefined ? undefined : String(c.acsDelta), 'acsDelta')}
${field(l10n.t('Create argument'), tree(createArgumentTree(c.createArgument, c.templateId, sigs)), 'createArgument')}`;
}

function exercisedFields(x: ExercisedEvent, created: CreatedEvent[], sigs: readonly PackageSignature[]): SafeHtml {
  const interfaceId = (x as { interfaceId?: string | null }).interfaceId;
  const values = exerciseTrees({ ...x, interfaceId }, sigs);
  return html`${field(l10n.t('Choice'), html`<strong>${damlLink(x.choice, { templateId: interfaceId || x.templateId, choice: x.choice, packageName: interfaceId ? undefined : x.packageName })}</strong> ${x.consuming ? html`<span class="muted">${l10n.t('(consuming: archives the contract)')}</span>` : html`<span class="muted">${l10n.t('(non-consuming)')}</span>`}`, 'choice, consuming')}
${field(l10n.t('Through interface'), interfaceId ? damlLink(templateName(interfaceId), { templateId: interfaceId }) : undefined, 'interfaceId')}
${template(x.templateId, 'templateId', x.packageName)}
${field(l10n.t('Contract'), idLink(x.contractId, 'contract'), 'contractId')}
${field(l10n.t('Acting parties'), parties(x.actingParties), 'actingParties')}
${field(l10n.t('Choice argument'), tree(values.argument), typed('choiceArgument', values.types?.argType))}
${field(l10n.t('Exercise result'), values.result && tree(values.result), typed('exerciseResult', values.types?.returnType))}
${field(
  l10n.t('Created by this exercise'),
  created.length === 0
    ? undefined
    : join(
        created.map((c) => html`<div>${idLink(c.contractId, 'contract')} <span class="muted">${ledgerText(templateName(c.templateId))}</span></div>`),
        '',
      ),
)}
${field(l10n.t('Implemented interfaces'), typeIds(x.implementedInterfaces), 'implementedInterfaces')}
${field(l10n.t('Last descendant node id'), x.lastDescendantNodeId, 'lastDescendantNodeId')}
${field(l10n.t('Witnesses'), parties(x.witnessParties), 'witnessParties')}
${field(l10n.t('Package name'), x.packageName, 'packageName')}
${field(l10n.t('ACS delta'), x.acsDelta === undefined ? undefined : String(x.acsDelta), 'acsDelta')}`;
}

/**
 * The whole event, as a table for the row that was opened. `tree` and `index` give lineage in ledger
 * effects; `sigs`, the node's package signatures when read, type its values.
 */
export function eventDetailHtml(e: TreeEvent, treeNodes?: readonly FlatTreeNode[], index?: number, sigs: readonly PackageSignature[] = []): SafeHtml {
  const common = html`${field(l10n.t('Node id'), e.event.nodeId, 'nodeId')}${field(l10n.t('Offset'), (e.event as { offset?: number }).offset, 'offset')}`;
  let rows: SafeHtml;
  if (e.kind === 'created') rows = createdFields(e.event, sigs);
  else if (e.kind === 'exercised') rows = exercisedFields(e.event, treeNodes && index !== undefined ? createdUnder(treeNodes, index) : [], sigs);
  else {
    const a = e.event as { contractId: string; templateId: string; packageName?: string; witnessParties?: string[]; implementedInterfaces?: string[] };
    rows = html`${template(a.templateId, 'templateId', a.packageName)}
${field(l10n.t('Contract id'), idLink(a.contractId, 'contract'), 'contractId')}
${field(l10n.t('Package name'), a.packageName, 'packageName')}
${field(l10n.t('Implemented interfaces'), typeIds(a.implementedInterfaces), 'implementedInterfaces')}
${field(l10n.t('Witnesses'), parties(a.witnessParties), 'witnessParties')}`;
  }
  return html`<table class="fields event-detail"><tbody>${common}${rows}</tbody></table>`;
}
