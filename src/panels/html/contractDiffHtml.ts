// The Compare Contracts page: the two contracts' facts side by side and their create arguments as one
// tree, changed branches open, unchanged ones folded, each field marked; whether one became the
// other (lineage), once read. Compare with JSON: a contract's create argument against a JSON value
// on the same tree. Ledger values only ever become escaped text (safeHtml). Pure: tested without VS Code.
import * as l10n from '../../l10n/l10n';
import type { ContractDiff, DiffNode, FactRow, JsonDiff } from '../../lookups/contractDiff';
import { MAX_LINEAGE_HOPS, MAX_LINEAGE_READS, type ArchivingStep, type Lineage } from '../../lookups/contractLineage';
import { idLink, ledgerString, typeId, valueTree } from './ledgerValues';
import { html, join, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import { dataTable } from './dataTable';
import { formatCount } from '../../l10n/forPeople';

/** One side that could not be read: its id and why. */
export interface CompareProblem {
  side: 'left' | 'right';
  id: string;
  explanation: string;
}

const KIND_LABEL = (): Record<DiffNode['kind'], string> => ({
  same: l10n.t('same'),
  changed: l10n.t('changed'),
  added: l10n.t('added'),
  removed: l10n.t('removed'),
  onlyLeft: l10n.t('only in the first version'),
  onlyRight: l10n.t('only in the second version'),
});

const FACT_LABEL = (): Record<FactRow['label'], string> => ({
  template: l10n.t('Template'),
  package: l10n.t('Package id'),
  packageName: l10n.t('Package name'),
  signatories: l10n.t('Signatories'),
  observers: l10n.t('Observers'),
  createdAt: l10n.t('Created at'),
  offset: l10n.t('Created at offset'),
  contractKey: l10n.t('Key'),
});

function cell(v: unknown): SafeHtml {
  return v === null || v === undefined || v === '' ? html`<span class="muted">—</span>` : typeof v === 'string' ? ledgerString(v) : valueTree(v);
}

function factRow(f: FactRow, labels: Record<FactRow['label'], string>): SafeHtml {
  return html`<tr class="${f.same ? 'diff-same' : 'diff-changed'}"><th scope="row">${labels[f.label]}</th><td>${cell(f.left)}</td><td>${cell(f.right)}</td><td>${f.same ? l10n.t('same') : l10n.t('differs')}</td></tr>`;
}

function keyText(key: string | number): SafeHtml {
  return typeof key === 'number' ? html`<span class="diff-index">[${String(key)}]</span>` : html`<span class="diff-key">${ledgerText(key)}</span>`;
}

/** How many fields or items a value holds, in words. */
function sizeText(v: unknown): string {
  if (Array.isArray(v)) return l10n.t('{0} items', formatCount(v.length));
  if (v !== null && typeof v === 'object') return l10n.t('{0} fields', formatCount(Object.keys(v).length));
  return '';
}

/**
 * A node of the tree: a branch that differs as an open details with its children, an unchanged
 * branch as one folded line (its contents are in each contract's panel), a leaf as a row.
 */
function node(n: DiffNode, labels: Record<DiffNode['kind'], string>): SafeHtml {
  const mark = html`<span class="diff-mark diff-${n.kind}">${labels[n.kind]}</span>`;
  const name = n.key === '' ? html`${l10n.t('Create argument')}` : keyText(n.key);
  if (n.children && n.children.length > 0) {
    if (n.kind === 'same') return html`<li class="diff-same">${name}: <span class="muted">${l10n.t('unchanged ({0})', sizeText(n.left))}</span></li>`;
    return html`<li class="diff-${n.kind}"><details open><summary>${name} ${mark}</summary><ul class="diff-tree">${children(n.children, labels)}</ul></details></li>`;
  }
  const value =
    n.kind === 'changed'
      ? html`<span class="diff-left">${cell(n.left)}</span> → <span class="diff-right">${cell(n.right)}</span>`
      : n.kind === 'added' || n.kind === 'onlyRight'
        ? cell(n.right)
        : cell(n.left);
  return html`<li class="diff-${n.kind}">${n.key === '' ? '' : html`${name}: `}${value} ${n.kind === 'same' ? '' : mark}</li>`;
}

/** Children, with each run of more than three unchanged siblings folded into one line. */
function children(list: readonly DiffNode[], labels: Record<DiffNode['kind'], string>): SafeHtml {
  const out: SafeHtml[] = [];
  let run: DiffNode[] = [];
  const flush = () => {
    if (run.length > 3) {
      const first = run[0].key;
      const last = run[run.length - 1].key;
      out.push(
        typeof first === 'number'
          ? html`<li class="diff-same diff-run muted">${l10n.t('[{0}]–[{1}]: {2} unchanged items', String(first), String(last), formatCount(run.length))}</li>`
          : html`<li class="diff-same diff-run muted">${l10n.t('{0} unchanged fields', formatCount(run.length))}: ${join(
              run.slice(0, 8).map((c) => keyText(c.key)),
              ', ',
            )}${run.length > 8 ? ', …' : ''}</li>`,
      );
    } else for (const c of run) out.push(node(c, labels));
    run = [];
  };
  for (const c of list) {
    if (c.kind === 'same') run.push(c);
    else {
      flush();
      out.push(node(c, labels));
    }
  }
  flush();
  return join(out);
}

/** The lineage row: being read, read, or why it could not be. */
export type LineageState = { state: 'reading' } | { state: 'read'; lineage: Lineage } | { state: 'failed'; explanation: string };

const choiceName = (step: ArchivingStep) => html`<code>${ledgerText(step.choice)}</code>`;

function lineageText(s: LineageState): SafeHtml {
  if (s.state === 'reading') return html`<span class="muted" role="status">${l10n.t('Reading whether one became the other…')}</span>`;
  if (s.state === 'failed') return html`<span class="error-text">${l10n.t('The lineage could not be read: {0}', s.explanation)}</span>`;
  const l = s.lineage;
  const anc = idLink(l.ancestor, 'contract');
  const desc = idLink(l.descendant, 'contract');
  if (l.found && l.steps.length === 1) {
    const [step] = l.steps;
    return tHtml('{0} was created by the archiving exercise {1} of {2} in transaction {3}.', desc, choiceName(step), anc, idLink(step.updateId, 'update'));
  }
  if (l.found) {
    const links = l.steps.map((step, i) => {
      const next = l.steps[i + 1]?.archived ?? l.descendant;
      return html`<li>${tHtml('{0} archived by {1} in transaction {2}, which created {3}', idLink(step.archived, 'contract'), choiceName(step), idLink(step.updateId, 'update'), idLink(next, 'contract'))}</li>`;
    });
    return html`${tHtml('{0} descends from {1} through {2} transactions:', desc, anc, String(l.steps.length))}<ol class="lineage-steps">${join(links)}</ol>`;
  }
  if (l.reason === 'same') return html`${l10n.t('The same contract.')}`;
  if (l.reason === 'active') return tHtml('No lineage found: {0}, the older of the two, is still active.', anc);
  if (l.reason === 'unknown') return tHtml('Lineage unknown: {0} {1}', anc, ledgerText(l.explanation));
  const first = tHtml(
    'No lineage found: {0} was archived by {1} in transaction {2}, which did not create {3}.',
    anc,
    choiceName(l.first),
    idLink(l.first.updateId, 'update'),
    desc,
  );
  const further =
    l.followed > 1 ? html` ${l10n.t('What it created was followed through {0} more transactions without reaching it.', String(l.followed - 1))}` : '';
  const bounded = l.bounded
    ? html` ${l10n.t('The search stopped at its limit ({0} transactions deep, {1} reads): the lineage may go further.', String(MAX_LINEAGE_HOPS), String(MAX_LINEAGE_READS))}`
    : '';
  const failed = l.failed ? html` ${l10n.t('A read on the way failed ({0}): the lineage may be there all the same. Refresh to read again.', l.failed)}` : '';
  return html`${first}${further}${bounded}${failed}`;
}

export function contractDiffBody(o: { diff?: ContractDiff; problems?: CompareProblem[]; leftId: string; rightId: string; lineage?: LineageState }): SafeHtml {
  const title = html`<header class="title"><h1>${l10n.t('Compare Contracts')}</h1>
<p>${idLink(o.leftId, 'contract')} ↔ ${idLink(o.rightId, 'contract')}</p></header>`;
  if (o.problems?.length || !o.diff) {
    return html`${title}${join(
      (o.problems ?? []).map(
        (p) =>
          html`<p class="error" role="alert">${p.side === 'left' ? l10n.t('The first contract:') : l10n.t('The second contract:')} ${idLink(p.id, 'contract')} ${ledgerText(p.explanation)}</p>`,
      ),
    )}`;
  }
  const d = o.diff;
  const c = d.counts;
  const summary =
    c.changed + c.added + c.removed + c.versionOnly === 0
      ? l10n.t('The create arguments are equal.')
      : l10n.t('{0} changed, {1} added, {2} removed, {3} in one version only.', String(c.changed), String(c.added), String(c.removed), String(c.versionOnly));
  const notes: SafeHtml[] = [];
  if (d.differentTemplates) notes.push(html`<p class="notice">${l10n.t('Different templates: their fields are compared all the same.')}</p>`);
  if (d.upgraded)
    notes.push(
      html`<p class="notice">${l10n.t('Two versions of one template (different packages): a field of one version only is shown as such, not as a change.')}</p>`,
    );
  const facts = FACT_LABEL();
  return html`${title}${join(notes)}
<section aria-labelledby="facts-h"><h2 id="facts-h">${l10n.t('Facts')}</h2>
${dataTable({
  kind: 'diff-facts',
  className: 'diff-facts',
  columns: [{ label: '' }, { label: l10n.t('First'), min: 22 }, { label: l10n.t('Second'), min: 22 }, { label: '' }],
  body: html`<tbody>${join(d.facts.map((f) => factRow(f, facts)))}${
    o.lineage ? html`<tr class="diff-lineage"><th scope="row">${l10n.t('Lineage')}</th><td colspan="3">${lineageText(o.lineage)}</td></tr>` : ''
  }</tbody>`,
})}</section>
<section aria-labelledby="arg-h"><h2 id="arg-h">${l10n.t('Create arguments')}</h2>
<p class="diff-summary" role="status">${summary}</p>
<ul class="diff-tree diff-root">${node(d.argument, KIND_LABEL())}</ul></section>
<p class="muted">${tHtml('Unchanged branches and runs are folded (each contract\u2019s panel shows them whole); {0}.', l10n.t('numbers compare as exact decimals'))}</p>`;
}

const JSON_KIND_LABEL = (): Record<DiffNode['kind'], string> => ({
  ...KIND_LABEL(),
  changed: l10n.t('differs'),
  added: l10n.t('only in the JSON'),
  removed: l10n.t('not in the JSON'),
});

/** Compare with JSON: the contract's create argument (left) against the JSON value (right, what is expected), named by `source`. */
export function jsonDiffBody(o: { diff?: JsonDiff; problem?: string; contractId: string; source: string }): SafeHtml {
  const title = html`<header class="title"><h1>${l10n.t('Compare with JSON')}</h1>
<p>${idLink(o.contractId, 'contract')} ↔ <span class="diff-expected">${tHtml('Expected ({0})', ledgerText(o.source))}</span></p></header>`;
  if (o.problem || !o.diff) {
    return html`${title}<p class="error" role="alert">${l10n.t('The contract:')} ${idLink(o.contractId, 'contract')} ${ledgerText(o.problem ?? '')}</p>`;
  }
  const d = o.diff;
  const c = d.counts;
  const summary =
    c.changed + c.added + c.removed === 0
      ? l10n.t('The create argument equals the JSON.')
      : l10n.t('{0} differ, {1} only in the JSON, {2} not in the JSON.', String(c.changed), String(c.added), String(c.removed));
  return html`${title}
<section aria-labelledby="facts-h"><h2 id="facts-h">${l10n.t('Facts')}</h2>
<table class="diff-facts"><tbody>
<tr><th scope="row">${l10n.t('Contract')}</th><td>${idLink(o.contractId, 'contract')}</td></tr>
<tr><th scope="row">${l10n.t('Template')}</th><td>${d.left.templateId ? typeId(d.left.templateId) : cell(undefined)}</td></tr>
<tr><th scope="row">${l10n.t('Expected')}</th><td>${ledgerText(o.source)}</td></tr>
</tbody></table></section>
<section aria-labelledby="arg-h"><h2 id="arg-h">${l10n.t('Create argument against the JSON')}</h2>
<p class="diff-summary" role="status">${summary}</p>
<p class="muted">${l10n.t('A difference reads: the contract’s value → the JSON’s.')}</p>
<ul class="diff-tree diff-root">${node(d.argument, JSON_KIND_LABEL())}</ul></section>`;
}
