// The review of an execute request before it is sent: who submits what to which node, the
// decoded prepared transaction, and the hash check; then the outcome.
import type { ActionMatch, ActionStatus } from '../../execute/committedComparison';
import type { HashingComparison } from '../../execute/hashingDetails';
import type { Finding } from '../../execute/preSendChecks';
import type { PreparedTransactionReview } from '../../execute/preparedTransactionReview';
import type { JsExecuteSubmissionRequest } from '../../ledger/apiTypes';
import { templateName } from '../../ids/templateNames';
import { shortId } from '../../ids/ledgerIds';
import { field, idLink, parties, party, valueTree } from './ledgerValues';
import { html, join, ledgerText, tHtml, type SafeHtml } from './safeHtml';
import { dataTable } from './dataTable';
import * as l10n from '../../l10n/l10n';

export type SubmissionOutcome =
  | { state: 'sending' }
  | {
      state: 'accepted';
      node: string;
      at: string;
      submissionId: string;
      userId?: string;
      commandId?: string;
      actAs: string[];
      endpoint: 'execute' | 'executeAndWait' | 'executeAndWaitForTransaction';
      updateId?: string;
      completionOffset?: number;
      /** After a plain execute: the search for its completion; after executeAndWaitForTransaction: committed. */
      followUp?:
        | { state: 'searching' }
        | { state: 'committed'; via: 'completions' | 'completion-by-hash' | 'executeAndWaitForTransaction' }
        | { state: 'unknown'; reason: string };
      /** What the committed transaction does differently from the prepared one (executeAndWaitForTransaction). */
      differences?: string[];
      /** The prepared actions beside the committed ones, with each contract id the node completed. */
      actions?: ActionMatch[];
      /** Why it was sent otherwise than asked (a user who may not read the transaction). */
      note?: string;
    }
  | { state: 'failed'; code?: string; cause?: string; correlationId?: string; explanation: string; outcomeUnknown: boolean };

export interface ReviewView {
  fileName: string;
  node: string;
  party: string;
  request: JsExecuteSubmissionRequest;
  claimedHash?: string;
  review?: PreparedTransactionReview;
  /** Why the prepared transaction did not decode. */
  decodeError?: string;
  outcome?: SubmissionOutcome;
  /** The token's user: the change id's user when the request has no userId. */
  tokenUser?: string;
  /** The checks before sending: a blocking one hides the submit button. */
  findings: Finding[];
  /** The request has no signature yet: the review offers to sign it. */
  unsigned?: boolean;
  /** The node's hashingDetails (prepared with verboseHashing) beside the local computation. */
  hashing?: HashingComparison;
}

/** The node's hashing details (ledger text, shown as text only) beside the inputs hashed here. */
function hashingBlock(h: HashingComparison | undefined): SafeHtml {
  if (!h) return html``;
  const differ = h.computedHex !== undefined && h.computedHex !== h.nodeHex;
  return html`<section aria-labelledby="hd-h" class="hashing-details"><h2 id="hd-h">${l10n.t('Hashing details (verbose hashing)')}</h2>
<p class="${differ ? 'hash-mismatch' : 'muted'}" role="${differ ? 'alert' : 'status'}">${ledgerText(h.summary)}</p>
<div class="side-by-side"><div><h3>${l10n.t('Computed here')}</h3><table class="fields"><tbody>
${field(l10n.t('Hash (hex)'), h.computedHex ?? l10n.t('not recomputed'))}
${field(l10n.t("The node's hash (hex)"), h.nodeHex)}
</tbody></table>
${dataTable({
  kind: 'hash-inputs',
  className: 'hash-inputs',
  columns: [{ label: l10n.t('Input') }, { label: l10n.t('Value'), min: 20 }, { label: l10n.t("In the node's details") }],
  body: html`<tbody>
${h.inputs.map((i) => html`<tr class="${i.inNodeDetails ? 'input-found' : 'input-missing'}"><td>${ledgerText(i.label)}</td><td class="mono">${ledgerText(i.value)}</td><td>${i.inNodeDetails ? l10n.t('yes') : l10n.t('not found')}</td></tr>`)}
</tbody>`,
})}</div>
<div><h3>${l10n.t("The node's hashingDetails")}</h3><pre class="node-hashing-details">${ledgerText(h.nodeDetails)}</pre>
${h.truncated ? html`<p class="muted">${l10n.t('Cut short: the first {0} characters.', String(h.nodeDetails.length))}</p>` : ''}</div></div></section>`;
}

export function hashCheck(v: ReviewView): { state: 'match' | 'mismatch' | 'unclaimed' | 'unknown'; text: string } {
  const computed = v.review?.computedHash;
  if (!computed) return { state: 'unknown', text: v.review?.hashNote ?? l10n.t('The hash could not be recomputed: the prepared transaction did not decode.') };
  if (!v.claimedHash)
    return {
      state: 'unclaimed',
      text: l10n.t('The request does not say which hash the signatures cover (add "preparedTransactionHash" from the prepare response to check it).'),
    };
  return computed === v.claimedHash
    ? { state: 'match', text: l10n.t('The recomputed hash equals the hash the signatures cover.') }
    : {
        state: 'mismatch',
        text: l10n.t('The recomputed hash differs from the hash the signatures cover: this is not the transaction that was signed. Do not submit it.'),
      };
}

function outcomeBlock(o: SubmissionOutcome | undefined): SafeHtml {
  if (!o) return html``;
  if (o.state === 'sending')
    return html`<section class="loading" role="status" aria-live="polite"><p><span class="spinner" aria-hidden="true"></span> ${l10n.t('Submitting…')}</p></section>`;
  if (o.state === 'accepted') {
    return html`<section class="accepted" role="status" aria-live="polite"><h2>${tHtml('Accepted by {0} at {1}', ledgerText(o.node), o.at)}</h2>
${o.updateId ? html`<p>${tHtml('Committed as update {0} at completion offset {1}.', idLink(o.updateId, 'update'), String(o.completionOffset ?? ''))}</p>` : o.followUp?.state === 'searching' ? html`<p><span class="spinner" aria-hidden="true"></span> ${l10n.t('The node accepted the submission for processing; looking for its completion (cancel in the notification)…')}</p>` : o.followUp?.state === 'unknown' ? '' : html`<p>${l10n.t('The node accepted the submission for processing (the answer is an empty object): track its outcome through the completions or the update stream.')}</p>`}
${o.followUp?.state === 'unknown' ? html`<section class="error" role="alert"><h3>${l10n.t('Outcome unknown')}</h3><p>${ledgerText(o.followUp.reason)}</p></section>` : ''}
${o.followUp?.state === 'committed' ? html`<p class="muted">${l10n.t('Found through {0}.', o.followUp.via)}</p>` : ''}
${o.note ? html`<p class="note">${ledgerText(o.note)}</p>` : ''}
${
  o.differences === undefined
    ? ''
    : o.differences.length === 0
      ? html`<p class="hash-match" role="status">${l10n.t('The committed transaction has the same creates and exercises as the prepared one.')}</p>`
      : html`<div role="alert"><p class="hash-mismatch">${l10n.t('The committed transaction differs from the prepared one:')}</p><ul>${o.differences.map((d) => html`<li>${ledgerText(d)}</li>`)}</ul></div>`
}
${o.actions && o.actions.length > 0 ? committedActionsTable(o.actions) : ''}
<table class="fields"><tbody>
${field(l10n.t('Endpoint'), `POST /v2/interactive-submission/${o.endpoint}`)}
${field(l10n.t('Submission id'), o.submissionId)}
${field(l10n.t('Change id: user'), o.userId ?? l10n.t("the token's user (not known)"))}
${field(l10n.t('Change id: command id'), o.commandId)}
${field(l10n.t('Change id: act as'), parties(o.actAs))}
</tbody></table>
<p><button data-action="submitAgain">${l10n.t('Submit Again…')}</button> <span class="muted">${l10n.t('uses a new submission id and asks again')}</span></p></section>`;
  }
  return html`<section class="error" role="alert"><h2>${o.outcomeUnknown ? l10n.t('Outcome unknown') : l10n.t('Not accepted')}</h2>
<p>${ledgerText(o.explanation)}</p>
<table class="fields"><tbody>${field(l10n.t('Error code'), o.code)}${field(l10n.t('Cause'), o.cause)}${field(l10n.t('Correlation id'), o.correlationId)}</tbody></table>
<p><button data-action="submitAgain">${l10n.t('Submit Again…')}</button> <span class="muted">${l10n.t('uses a new submission id and asks again')}</span></p></section>`;
}

export function reviewBody(v: ReviewView): SafeHtml {
  const check = hashCheck(v);
  const r = v.review;
  const sending = v.outcome?.state === 'sending';
  const submitted = v.outcome !== undefined;
  const submitLabel = l10n.t('Submit to {0} as {1}', v.node, v.party.split('::')[0] ?? v.party);
  const decodeWarning = v.decodeError
    ? html`<section class="error" role="alert"><h2>${l10n.t('The prepared transaction does not decode')}</h2>
<p>${ledgerText(v.decodeError)}</p><p>${l10n.t('Canton Lens cannot show what it does or check its hash. Submitting it needs an explicit confirmation.')}</p></section>`
    : html``;
  const hash = html`<section aria-labelledby="hash-h"><h2 id="hash-h">${l10n.t('Hash')}</h2><p class="hash-${check.state}" role="${check.state === 'mismatch' ? 'alert' : 'status'}">${check.text}</p>
<table class="fields"><tbody>${field(l10n.t('Recomputed'), r?.computedHash)}${field(l10n.t('Signed (claimed)'), v.claimedHash)}${field(l10n.t('Hashing scheme'), v.request.hashingSchemeVersion)}</tbody></table></section>`;
  const request = html`<section aria-labelledby="req-h"><h2 id="req-h">${l10n.t('Request')}</h2><table class="fields"><tbody>
${field(l10n.t('File'), v.fileName)}
${field(l10n.t('Node'), v.node)}
${field(l10n.t('Party'), party(v.party))}
${field(l10n.t('Signed by'), (v.request.partySignatures.signatures[0]?.signatures ?? []).map((s) => `${s.signedBy} (${s.signingAlgorithmSpec}, ${s.format})`).join(', '))}
${field(l10n.t('Submission id'), v.request.submissionId)}
${field(l10n.t('User id'), v.request.userId ?? l10n.t("(the token's user)"))}
${field(l10n.t('Deduplication'), v.request.deduplicationPeriod ? JSON.stringify(v.request.deduplicationPeriod) : l10n.t("(the node's maximum)"))}
${field(l10n.t('Min ledger time'), v.request.minLedgerTime ? JSON.stringify(v.request.minLedgerTime) : undefined)}
</tbody></table></section>`;
  const decoded = !r
    ? html``
    : html`<section aria-labelledby="tx-h"><h2 id="tx-h">${l10n.t('What it does')}</h2><table class="fields"><tbody>
${field(l10n.t('Submitting parties'), parties(r.submitters))}
${field(l10n.t('Command id'), r.commandId)}
${field(l10n.t('Synchronizer'), r.synchronizerId)}
${field(l10n.t('Transaction UUID'), r.transactionUuid)}
${field(l10n.t('Prepared at'), r.preparationTime)}
${field(l10n.t('Ledger time from'), r.minLedgerEffectiveTime)}
${field(l10n.t('Ledger time until'), r.maxLedgerEffectiveTime)}
${field(l10n.t('Max record time'), r.maxRecordTime)}
</tbody></table>
<h3>${l10n.t('Actions ({0})', r.nodes.length)}</h3>
<ol class="review-nodes">${r.nodes.map(
        (
          n,
        ) => html`<li><p><strong>${n.kind === 'exercise' ? tHtml(n.consuming ? 'Exercise {0} (consuming) on' : 'Exercise {0} on', ledgerText(n.choice ?? '')) : n.kind === 'create' ? l10n.t('Create') : n.kind === 'fetch' ? l10n.t('Fetch') : l10n.t('Rollback')}</strong>
${n.templateId ? html`<span title="${n.templateId}">${ledgerText(templateName(n.templateId))}</span>` : ''}
${n.contractId && n.kind !== 'create' ? idLink(n.contractId, 'contract') : ''}
${n.actingParties?.length ? html` ${tHtml('by {0}', parties(n.actingParties))}` : ''}</p>
${n.argument === undefined ? '' : html`<div class="value-tree">${valueTree(n.argument)}</div>`}</li>`,
      )}</ol>
<h3>${l10n.t('Input contracts ({0})', r.inputContracts.length)}</h3>
${r.inputContracts.length === 0 ? html`<p class="muted">${l10n.t('none')}</p>` : html`<ul>${r.inputContracts.map((c) => html`<li>${idLink(c.contractId, 'contract')} ${c.templateId ? html`<span title="${c.templateId}">${ledgerText(templateName(c.templateId))}</span>` : ''} <span class="muted">${c.createdAt ?? ''}</span></li>`)}</ul>`}
</section>`;
  const blocks = v.findings.filter((f) => f.severity === 'block');
  const canSubmit = !submitted && check.state !== 'mismatch' && blocks.length === 0;
  const checks =
    v.findings.length === 0
      ? html``
      : html`<section aria-labelledby="checks-h"><h2 id="checks-h">${l10n.t('Checks before sending')}</h2>
<ul class="checks">${v.findings.map((f) => html`<li class="check-${f.severity}" role="${f.severity === 'block' ? 'alert' : 'status'}"><strong>${f.severity === 'block' ? l10n.t('Blocks:') : f.severity === 'warn' ? l10n.t('Warning:') : l10n.t('OK:')}</strong> ${ledgerText(f.text)}</li>`)}</ul></section>`;
  return html`<header class="title"><h1>${l10n.t('Review submission')}</h1></header>
<p class="asked">${l10n.t('POST /v2/interactive-submission/execute on {0}, as {1}', v.node, v.party)}</p>
${decodeWarning}${checks}${hash}
${hashingBlock(v.hashing)}
<p class="submit-bar">${v.unsigned && !submitted ? html`<button class="primary" data-action="sign">${l10n.t('Sign with Development Key…')}</button> ` : ''}${canSubmit ? html`<button class="primary" data-action="submit">${submitLabel}…</button> <button data-action="submitAndWait">${l10n.t('Submit and Wait…')}</button> <button data-action="submitAndWaitForTransaction">${l10n.t('Submit and Wait for Transaction…')}</button>` : ''} ${sending ? '' : html`<button data-action="reload">${l10n.t('Check Again')}</button>`}</p>
${outcomeBlock(v.outcome)}${request}${decoded}`;
}

const STATUS_LABEL = (): Record<ActionStatus, string> => ({
  same: l10n.t('as prepared'),
  differs: l10n.t('differs'),
  dropped: l10n.t('dropped by the node'),
  added: l10n.t('added by the node'),
});

/** Each prepared create and exercise beside what committed at its place, contract ids matched. */
function committedActionsTable(actions: readonly ActionMatch[]): SafeHtml {
  const labels = STATUS_LABEL();
  const name = (a: ActionMatch['prepared']) =>
    a ? (a.kind === 'create' ? l10n.t('create {0}', a.templateId.split(':').slice(1).join(':')) : l10n.t('exercise {0}', a.choice ?? '')) : '';
  const contract = (m: ActionMatch) => {
    const committed = m.committed?.contractId;
    const prepared = m.prepared?.contractId;
    if (!committed) return prepared ? html`<code>${shortId(prepared)}</code>` : html`<span class="muted">—</span>`;
    return m.completedId
      ? html`<code title="${prepared ?? ''}">${shortId(prepared ?? '')}</code> → ${idLink(committed, 'contract')}`
      : idLink(committed, 'contract');
  };
  return html`<details open class="committed-actions"><summary>${l10n.t('Prepared against committed ({0} actions)', actions.length)}</summary>${dataTable({
    kind: 'committed-actions',
    className: 'fields',
    columns: [{ label: '#' }, { label: l10n.t('Action') }, { label: l10n.t('Contract (prepared → committed)'), min: 20 }, { label: l10n.t('Outcome') }],
    body: html`<tbody>${join(
      actions.map(
        (m) =>
          html`<tr class="action-${m.status}"><td>${String(m.index + 1)}</td><td>${name(m.prepared ?? m.committed)}</td><td>${contract(m)}</td><td><span class="${m.status === 'same' ? 'hash-match' : 'hash-mismatch'}">${labels[m.status]}</span>${
            m.notes.length
              ? html`<br><span class="muted">${join(
                  m.notes.map((n) => ledgerText(n)),
                  ' ',
                )}</span>`
              : ''
          }</td></tr>`,
      ),
    )}</tbody>`,
  })}</details>`;
}
