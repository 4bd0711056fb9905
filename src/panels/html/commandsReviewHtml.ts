// The review of a `*.commands.json` before it is sent, and what happened after: the commands in
// words, who acts and reads (with the token user's rights), the command id and its deduplication,
// the checks; then the committed transaction, or why the node refused it, down to the Daml choice.
import type { FailureExplanation } from '../../execute/commandFailure';
import type { CommandLine } from '../../execute/commandsReview';
import type { DisclosedUse } from '../../execute/contractActions';
import type { Finding } from '../../execute/preSendChecks';
import { templateName } from '../../ids/templateNames';
import * as l10n from '../../l10n/l10n';
import { damlLink } from './damlLinkHtml';
import { categoryInWords } from './errorDetailsHtml';
import { field, idLink, parties, valueTree } from './ledgerValues';
import { html, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import { formatCount } from '../../l10n/forPeople';

export type CommandsOutcome =
  | { state: 'sending' }
  | { state: 'committed'; updateId: string; offset: number; events: number; at: string }
  /** archived: which update archived the contract a CONTRACT_NOT_FOUND names; pick: an active one can replace it in the file. */
  | { state: 'failed'; why: FailureExplanation; request: string; archived?: string; pick?: boolean }
  | { state: 'unknown'; reason: string }
  | { state: 'searching' };

export interface CommandsView {
  fileName: string;
  node: string;
  commandId: string;
  actAs: string[];
  readAs: string[];
  userId?: string;
  deduplication: string;
  lines: CommandLine[];
  /** The request's disclosed contracts and the commands that use each. */
  disclosed?: DisclosedUse[];
  findings: Finding[];
  outcome?: CommandsOutcome;
  /** How many times this review sent the commands (each click sends once). */
  sent: number;
}

function commandLine(c: CommandLine): SafeHtml {
  const template = html`<span title="${c.templateId}">${ledgerText(templateName(c.templateId))}</span>`;
  const choice = c.choice ? damlLink(c.choice, { templateId: c.templateId, choice: c.choice }) : html``;
  const what =
    c.kind === 'create'
      ? tHtml('Create {0}', template)
      : c.kind === 'createAndExercise'
        ? tHtml('Create {0}, then exercise {1} on it', template, choice)
        : c.kind === 'exerciseByKey'
          ? tHtml('Exercise {0} on the {1} with the key', choice, template)
          : tHtml('Exercise {0} on {1} {2}', choice, template, c.contractId ? idLink(c.contractId, 'contract') : '');
  const also =
    c.also === undefined || c.also.value === undefined
      ? html``
      : html`<p class="muted">${c.also.label === 'createArguments' ? l10n.t('Created with:') : l10n.t('Key:')}</p><div class="value-tree">${valueTree(c.also.value)}</div>`;
  return html`<li><p><strong>${what}</strong></p>${also}${c.argument === undefined ? '' : html`<div class="value-tree">${valueTree(c.argument)}</div>`}</li>`;
}

/** Why the node refused the commands, with the Daml places it names. */
export function failureBlock(why: FailureExplanation, request: string): SafeHtml {
  const f = why.facts;
  const places = why.places.filter((p) => p.templateId || p.contractId);
  return html`<section class="error" role="alert" aria-labelledby="why-h"><h2 id="why-h">${why.definite === false ? l10n.t('Outcome unknown') : l10n.t('Not committed')}: ${ledgerText(why.code || l10n.t('error'))}</h2>
<p>${ledgerText(why.title)}</p>
${why.userMessage ? html`<p class="user-message">${tHtml('The Daml code says: {0}', html`<q>${ledgerText(why.userMessage)}</q>`)}</p>` : ''}
${
  places.length === 0
    ? ''
    : html`<h3>${l10n.t('Where')}</h3><ul class="daml-places">${places.map(
        (p) =>
          html`<li>${p.templateId ? damlLink(p.choice ? `${templateName(p.templateId)} · ${p.choice}` : templateName(p.templateId), { templateId: p.templateId, choice: p.choice }) : ''}${p.contractId && p.contractId.length > 64 ? html` ${tHtml('on {0}', idLink(p.contractId, 'contract'))}` : p.contractId ? html` <span class="muted">${tHtml('on contract {0}…', ledgerText(p.contractId))}</span>` : ''}${p.nodeId === undefined ? '' : html` <span class="muted">(#${String(p.nodeId)})</span>`}</li>`,
      )}</ul>`
}
<p><strong>${l10n.t('What to do:')}</strong> ${ledgerText(why.next)}</p>
<table class="fields"><tbody>
${field(l10n.t('Request'), request)}
${field(l10n.t('Code'), why.code || undefined)}
${field(l10n.t('Cause'), f.cause ? html`${ledgerText(f.cause)}` : undefined)}
${field(l10n.t('Error id'), why.errorId)}
${field(l10n.t('Category'), categoryInWords(f.category))}
${field(l10n.t('Definite answer'), why.definite === undefined ? undefined : why.definite ? l10n.t('yes: nothing was committed') : l10n.t('no: it may still commit'))}
${field(l10n.t('Retry'), f.retryInfo ?? (why.permanent ? l10n.t('not as it is: the node would answer the same') : undefined))}
${field(l10n.t('Correlation id'), f.correlationId)}
${f.context.exercise_trace ? field(l10n.t('Exercise trace'), html`<pre>${ledgerText(f.context.exercise_trace)}</pre>`) : ''}
${field(l10n.t('Source of the code'), why.source ? html`<a href="${why.source}">${ledgerText(why.source.replace(/^https:\/\/github\.com\//, ''))}</a>` : undefined)}
</tbody></table></section>`;
}

function outcomeBlock(v: CommandsView): SafeHtml {
  const o = v.outcome;
  if (!o) return html``;
  switch (o.state) {
    case 'sending':
      return html`<section class="loading" role="status" aria-live="polite"><p><span class="spinner" aria-hidden="true"></span> ${l10n.t('Submitting to {0} and waiting for the transaction…', v.node)}</p></section>`;
    case 'searching':
      return html`<section class="loading" role="status" aria-live="polite"><p><span class="spinner" aria-hidden="true"></span> ${l10n.t('Looking for command {0} in the completions…', v.commandId)}</p></section>`;
    case 'committed':
      return html`<section class="accepted" role="status" aria-live="polite"><h2>${l10n.t('Committed')}</h2>
<p>${tHtml('Update {0} at offset {1}, {2} events seen by the acting and reading parties.', idLink(o.updateId, 'update'), String(o.offset), String(o.events))}</p>
<p><button data-action="submitAgain">${l10n.t('Submit Again…')}</button></p></section>`;
    case 'unknown':
      return html`<section class="error" role="alert"><h2>${l10n.t('Outcome unknown')}</h2><p>${ledgerText(o.reason)}</p>
<p><button class="primary" data-action="findOutcome">${l10n.t('Find Outcome')}</button> <button data-action="submitAgain">${l10n.t('Submit Again…')}</button></p></section>`;
    case 'failed':
      return html`${o.archived ? html`<p class="archived-by" role="status">${ledgerText(o.archived)}</p>` : ''}${failureBlock(o.why, o.request)}<p>${o.pick ? html`<button class="primary" data-action="pickActiveContract">${l10n.t('Pick an Active Contract…')}</button> ` : ''}${o.why.definite === false ? html`<button class="primary" data-action="findOutcome">${l10n.t('Find Outcome')}</button> ` : ''}<button data-action="submitAgain">${l10n.t('Submit Again…')}</button></p>`;
  }
}

/** The disclosed contracts sent with the commands, each with the commands (1-based, as the list numbers them) that use it. */
function disclosedBlock(disclosed: DisclosedUse[]): SafeHtml {
  if (disclosed.length === 0) return html``;
  const row = (d: DisclosedUse) => {
    const used =
      d.usedBy.length === 0
        ? html`<span class="muted">${l10n.t('no command uses it: the node ignores it')}</span>`
        : html`${l10n.t('used by command {0}', d.usedBy.map((i) => String(i + 1)).join(', '))}`;
    return html`<li class="disclosed"><p>${d.contractId ? idLink(d.contractId, 'contract') : l10n.t('(no contract id)')} <span title="${d.templateId}">${ledgerText(templateName(d.templateId))}</span> · ${used}</p>
<p class="muted">${d.blobLength > 0 ? l10n.t('created event blob: {0} base64 characters', formatCount(d.blobLength)) : l10n.t('no created event blob: the node refuses it')}${d.synchronizerId ? html` · ${tHtml('synchronizer {0}', html`<code>${d.synchronizerId}</code>`)}` : ''}</p></li>`;
  };
  return html`<section aria-labelledby="disclosed-h"><h2 id="disclosed-h">${l10n.t('Disclosed contracts ({0})', disclosed.length)}</h2><ul class="disclosed-contracts">${disclosed.map(row)}</ul></section>`;
}

export function commandsReviewBody(v: CommandsView): SafeHtml {
  const blocks = v.findings.filter((f) => f.severity === 'block');
  const busy = v.outcome?.state === 'sending' || v.outcome?.state === 'searching';
  const canSubmit = v.outcome === undefined && blocks.length === 0;
  return html`<header class="title"><h1>${l10n.t('Review commands')}</h1></header>
<p class="asked">${l10n.t('POST /v2/commands/submit-and-wait-for-transaction on {0}', v.node)}</p>
<section aria-labelledby="checks-h"><h2 id="checks-h">${l10n.t('Checks before sending')}</h2>
<ul class="checks">${v.findings.map((f) => html`<li class="check-${f.severity}" role="${f.severity === 'block' ? 'alert' : 'status'}"><strong>${f.severity === 'block' ? l10n.t('Blocks:') : f.severity === 'warn' ? l10n.t('Warning:') : l10n.t('OK:')}</strong> ${ledgerText(f.text)}</li>`)}</ul></section>
<p class="submit-bar">${canSubmit ? html`<button class="primary" data-action="submit">${l10n.t('Submit to {0}', v.node)}</button> ` : ''}${busy ? '' : html`<button data-action="reload">${l10n.t('Check Again')}</button>`}</p>
${outcomeBlock(v)}
<section aria-labelledby="cmd-h"><h2 id="cmd-h">${l10n.t('Commands ({0})', v.lines.length)}</h2><ol class="review-nodes">${v.lines.map(commandLine)}</ol></section>
${disclosedBlock(v.disclosed ?? [])}
<section aria-labelledby="req-h"><h2 id="req-h">${l10n.t('Request')}</h2><table class="fields"><tbody>
${field(l10n.t('File'), v.fileName)}
${field(l10n.t('Node'), v.node)}
${field(l10n.t('Act as'), parties(v.actAs))}
${field(l10n.t('Read as'), v.readAs.length ? parties(v.readAs) : undefined)}
${field(l10n.t('User id'), v.userId ?? l10n.t("(the token's user)"))}
${field(l10n.t('Command id'), v.commandId)}
${field(l10n.t('Deduplication'), v.deduplication)}
${field(l10n.t('Sent'), v.sent === 0 ? l10n.t('not yet') : v.sent === 1 ? l10n.t('once') : l10n.t('{0} times', v.sent))}
</tbody></table></section>`;
}
