// The Compare Contracts page: the two contracts' facts side by side and their create arguments as one
// tree, changed branches open, unchanged ones folded, each field marked. Ledger values only ever
// become escaped text (safeHtml). Pure: tested without VS Code.
import * as l10n from '../../l10n/l10n';
import type { ContractDiff, DiffNode, FactRow } from '../../lookups/contractDiff';
import { idLink, ledgerString, valueTree } from './ledgerValues';
import { html, join, ledgerText, tHtml, type SafeHtml } from './safeHtml';

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
  if (Array.isArray(v)) return l10n.t('{0} items', v.length.toLocaleString('en-US'));
  if (v !== null && typeof v === 'object') return l10n.t('{0} fields', Object.keys(v).length.toLocaleString('en-US'));
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
          ? html`<li class="diff-same diff-run muted">${l10n.t('[{0}]–[{1}]: {2} unchanged items', String(first), String(last), run.length.toLocaleString('en-US'))}</li>`
          : html`<li class="diff-same diff-run muted">${l10n.t('{0} unchanged fields', run.length.toLocaleString('en-US'))}: ${join(
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

export function contractDiffBody(o: { diff?: ContractDiff; problems?: CompareProblem[]; leftId: string; rightId: string }): SafeHtml {
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
<table class="diff-facts"><thead><tr><th></th><th>${l10n.t('First')}</th><th>${l10n.t('Second')}</th><th></th></tr></thead>
<tbody>${join(d.facts.map((f) => factRow(f, facts)))}</tbody></table></section>
<section aria-labelledby="arg-h"><h2 id="arg-h">${l10n.t('Create arguments')}</h2>
<p class="diff-summary" role="status">${summary}</p>
<ul class="diff-tree diff-root">${node(d.argument, KIND_LABEL())}</ul></section>
<p class="muted">${tHtml('Unchanged branches and runs are folded (each contract\u2019s panel shows them whole); {0}.', l10n.t('numbers compare as exact decimals'))}</p>`;
}
