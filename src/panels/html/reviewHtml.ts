// The review of an execute request before it is sent: who submits what to which node, the
// decoded prepared transaction, and the hash check; then the outcome.
import type { PreparedTransactionReview } from '../../execute/preparedTransactionReview';
import type { JsExecuteSubmissionRequest } from '../../ledger/apiTypes';
import { templateName } from '../../lookups/ledgerLookups';
import { field, idLink, parties, party, valueTree } from './ledgerValues';
import { html, ledgerText, type SafeHtml } from './safeHtml';

export type SubmissionOutcome =
  | { state: 'sending' }
  | { state: 'accepted'; node: string; at: string; submissionId: string; userId?: string; commandId?: string; actAs: string[] }
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
}

export function hashCheck(v: ReviewView): { state: 'match' | 'mismatch' | 'unclaimed' | 'unknown'; text: string } {
  const computed = v.review?.computedHash;
  if (!computed) return { state: 'unknown', text: v.review?.hashNote ?? 'The hash could not be recomputed: the prepared transaction did not decode.' };
  if (!v.claimedHash) return { state: 'unclaimed', text: 'The request does not say which hash the signatures cover (add "preparedTransactionHash" from the prepare response to check it).' };
  return computed === v.claimedHash
    ? { state: 'match', text: 'The recomputed hash equals the hash the signatures cover.' }
    : { state: 'mismatch', text: 'The recomputed hash differs from the hash the signatures cover: this is not the transaction that was signed. Do not submit it.' };
}

function outcomeBlock(o: SubmissionOutcome | undefined): SafeHtml {
  if (!o) return html``;
  if (o.state === 'sending') return html`<section class="loading" role="status" aria-live="polite"><p><span class="spinner" aria-hidden="true"></span> Submitting…</p></section>`;
  if (o.state === 'accepted') {
    return html`<section class="accepted" role="status" aria-live="polite"><h2>Accepted by ${ledgerText(o.node)} at ${o.at}</h2>
<p>The node accepted the submission for processing (the answer is an empty object): track its outcome through the completions or the update stream.</p>
<table class="fields"><tbody>
${field('Submission id', o.submissionId)}
${field('Change id: user', o.userId ?? 'the token\'s user')}
${field('Change id: command id', o.commandId)}
${field('Change id: act as', parties(o.actAs))}
</tbody></table>
<p><button data-action="submitAgain">Submit Again…</button> <span class="muted">uses a new submission id and asks again</span></p></section>`;
  }
  return html`<section class="error" role="alert"><h2>${o.outcomeUnknown ? 'Outcome unknown' : 'Not accepted'}</h2>
<p>${ledgerText(o.explanation)}</p>
<table class="fields"><tbody>${field('Error code', o.code)}${field('Cause', o.cause)}${field('Correlation id', o.correlationId)}</tbody></table>
<p><button data-action="submitAgain">Submit Again…</button> <span class="muted">uses a new submission id and asks again</span></p></section>`;
}

export function reviewBody(v: ReviewView): SafeHtml {
  const check = hashCheck(v);
  const r = v.review;
  const sending = v.outcome?.state === 'sending';
  const submitted = v.outcome !== undefined;
  const submitLabel = `Submit to ${v.node} as ${v.party.split('::')[0]}`;
  const decodeWarning = v.decodeError ? html`<section class="error" role="alert"><h2>The prepared transaction does not decode</h2>
<p>${ledgerText(v.decodeError)}</p><p>Canton Lens cannot show what it does or check its hash. Submitting it needs an explicit confirmation.</p></section>` : html``;
  const hash = html`<section aria-labelledby="hash-h"><h2 id="hash-h">Hash</h2><p class="hash-${check.state}" role="${check.state === 'mismatch' ? 'alert' : 'status'}">${check.text}</p>
<table class="fields"><tbody>${field('Recomputed', r?.computedHash)}${field('Signed (claimed)', v.claimedHash)}${field('Hashing scheme', v.request.hashingSchemeVersion)}</tbody></table></section>`;
  const request = html`<section aria-labelledby="req-h"><h2 id="req-h">Request</h2><table class="fields"><tbody>
${field('File', v.fileName)}
${field('Node', v.node)}
${field('Party', party(v.party))}
${field('Signed by', (v.request.partySignatures.signatures[0]?.signatures ?? []).map((s) => `${s.signedBy} (${s.signingAlgorithmSpec}, ${s.format})`).join(', '))}
${field('Submission id', v.request.submissionId)}
${field('User id', v.request.userId ?? '(the token\'s user)')}
${field('Deduplication', v.request.deduplicationPeriod ? JSON.stringify(v.request.deduplicationPeriod) : '(the node\'s maximum)')}
${field('Min ledger time', v.request.minLedgerTime ? JSON.stringify(v.request.minLedgerTime) : undefined)}
</tbody></table></section>`;
  const decoded = !r ? html`` : html`<section aria-labelledby="tx-h"><h2 id="tx-h">What it does</h2><table class="fields"><tbody>
${field('Submitting parties', parties(r.submitters))}
${field('Command id', r.commandId)}
${field('Synchronizer', r.synchronizerId)}
${field('Transaction UUID', r.transactionUuid)}
${field('Prepared at', r.preparationTime)}
${field('Ledger time from', r.minLedgerEffectiveTime)}
${field('Ledger time until', r.maxLedgerEffectiveTime)}
${field('Max record time', r.maxRecordTime)}
</tbody></table>
<h3>Actions (${r.nodes.length})</h3>
<ol class="review-nodes">${r.nodes.map((n) => html`<li><p><strong>${n.kind === 'exercise' ? html`Exercise ${ledgerText(n.choice ?? '')}${n.consuming ? ' (consuming)' : ''} on` : n.kind === 'create' ? 'Create' : n.kind === 'fetch' ? 'Fetch' : 'Rollback'}</strong>
${n.templateId ? html`<span title="${n.templateId}">${ledgerText(templateName(n.templateId))}</span>` : ''}
${n.contractId && n.kind !== 'create' ? idLink(n.contractId, 'contract') : ''}
${n.actingParties?.length ? html` by ${parties(n.actingParties)}` : ''}</p>
${n.argument === undefined ? '' : html`<div class="value-tree">${valueTree(n.argument)}</div>`}</li>`)}</ol>
<h3>Input contracts (${r.inputContracts.length})</h3>
${r.inputContracts.length === 0 ? html`<p class="muted">none</p>` : html`<ul>${r.inputContracts.map((c) => html`<li>${idLink(c.contractId, 'contract')} ${c.templateId ? html`<span title="${c.templateId}">${ledgerText(templateName(c.templateId))}</span>` : ''} <span class="muted">${c.createdAt ?? ''}</span></li>`)}</ul>`}
</section>`;
  const canSubmit = !submitted && check.state !== 'mismatch';
  return html`<header class="title"><h1>Review submission</h1></header>
<p class="asked">POST /v2/interactive-submission/execute on ${v.node}, as ${v.party}</p>
${decodeWarning}${hash}
<p class="submit-bar">${canSubmit ? html`<button class="primary" data-action="submit">${submitLabel}…</button>` : ''} ${sending ? '' : html`<button data-action="reload">Check Again</button>`}</p>
${outcomeBlock(v.outcome)}${request}${decoded}`;
}
