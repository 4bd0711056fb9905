// Submitting a reviewed execute request, as a use case of its own: one POST (execute, or
// executeAndWait(ForTransaction)), never sent again by itself; a plain execute's outcome looked for
// in the completions; a failure judged definite or unknown; the submission recorded among the
// recents. The review panel shows what it answers.
import * as vscode from 'vscode';
import { compareCommittedDetail } from '../execute/committedComparison';
import { findOutcome, outcomeUnknownAdvice, type OutcomeQuery } from '../execute/outcomeFinder';
import { judgeFailure, unknownOutcomeAdvice } from '../execute/submissionOutcome';
import type { JsTransaction } from '../ledger/apiTypes';
import { withLedgerEffectsOf } from '../ledger/commandRequests';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { Endpoint } from './executeReviews';
import type { ReviewView, SubmissionOutcome } from './html/reviewHtml';

export interface ExecuteSubmissionDeps {
  readonly nodes: NodeReader;
  readonly recent: RecentLookupStore;
  /** How long a plain execute's outcome is looked for. */
  readonly outcomeSearchMs: number;
}

/**
 * Sends the review's request once to `node`; `searching` is told when an accepted execute's
 * outcome is being looked for. Answers the outcome (the review compares a committed transaction
 * with the prepared one, and links its update id).
 */
export async function sendExecute(
  deps: ExecuteSubmissionDeps,
  file: vscode.Uri,
  node: NodeConfig,
  view: ReviewView,
  endpoint: Endpoint,
  searching: (accepted: SubmissionOutcome) => void,
): Promise<Exclude<SubmissionOutcome, { state: 'sending' }>> {
  const outcome = await send(deps, node, view, endpoint, searching);
  void deps.recent.add({
    kind: 'submission',
    id: view.request.submissionId,
    node: node.name,
    at: Date.now(),
    file: file.toString(),
    summary:
      outcome.state === 'accepted'
        ? vscode.l10n.t('accepted')
        : outcome.outcomeUnknown
          ? vscode.l10n.t('outcome unknown')
          : outcome.code
            ? vscode.l10n.t('not accepted ({0})', outcome.code)
            : vscode.l10n.t('not accepted'),
  });
  return outcome;
}

async function send(
  deps: ExecuteSubmissionDeps,
  node: NodeConfig,
  view: ReviewView,
  asked: Endpoint,
  searching: (accepted: SubmissionOutcome) => void,
): Promise<Exclude<SubmissionOutcome, { state: 'sending' }>> {
  // A user who may execute but not read as the party would get 403 for the transaction: executeAndWait.
  const hidden = asked === 'executeAndWaitForTransaction' ? view.findings.find((f) => f.id === 'showRights') : undefined;
  const endpoint: Endpoint = hidden ? 'executeAndWait' : asked;
  try {
    const client = deps.nodes.client(node);
    // A plain execute's outcome is looked for in the completions after the ledger end of now (a read, not retried).
    const ledgerEnd =
      endpoint === 'execute'
        ? await client.getLedgerEnd().then(
            (r) => r.offset,
            () => undefined,
          )
        : undefined;
    const party = view.party;
    const answer: unknown = await vscode.window.withProgress<unknown>(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Submitting to {0}…', node.name) },
      () =>
        endpoint === 'executeAndWait'
          ? client.executeSubmissionAndWait(view.request)
          : endpoint === 'executeAndWaitForTransaction'
            ? client.executeSubmissionAndWaitForTransaction(withLedgerEffectsOf(view.request, party))
            : client.executeSubmission(view.request),
    );
    const waited = answer as { updateId?: string; completionOffset?: number; transaction?: JsTransaction };
    const accepted: Extract<SubmissionOutcome, { state: 'accepted' }> = {
      state: 'accepted',
      node: node.name,
      at: new Date().toISOString(),
      submissionId: view.request.submissionId,
      endpoint,
      userId: view.request.userId || view.tokenUser,
      commandId: view.review?.commandId,
      actAs: view.review?.submitters ?? [view.party],
      updateId: typeof waited.updateId === 'string' ? waited.updateId : waited.transaction?.updateId,
      completionOffset: waited.completionOffset ?? waited.transaction?.offset,
      ...(hidden ? { note: hidden.text } : {}),
    };
    if (waited.transaction) {
      accepted.followUp = { state: 'committed', via: 'executeAndWaitForTransaction' };
      const comparison = view.review ? compareCommittedDetail(view.review, waited.transaction) : undefined;
      accepted.differences = comparison?.differences;
      accepted.actions = comparison?.actions;
    }
    if (endpoint !== 'execute') return accepted;
    accepted.followUp = { state: 'searching' };
    searching(accepted);
    const query: OutcomeQuery = {
      submissionId: view.request.submissionId,
      userId: accepted.userId,
      parties: accepted.actAs,
      transactionHash: view.review?.computedHash ?? view.claimedHash,
      beginExclusive: ledgerEnd,
    };
    const found = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Looking for the outcome of submission {0} on {1}', view.request.submissionId, node.name),
        cancellable: true,
      },
      (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        return findOutcome(client, query, {
          timeoutMs: deps.outcomeSearchMs,
          signal: ac.signal,
          onProgress: (message) => progress.report({ message }),
        });
      },
    );
    if (found.kind === 'committed') {
      accepted.updateId = found.updateId;
      accepted.completionOffset = found.offset;
      accepted.followUp = { state: 'committed', via: found.via };
      return accepted;
    }
    if (found.kind === 'rejected') {
      return {
        state: 'failed',
        code: String(found.code),
        cause: found.message,
        outcomeUnknown: false,
        explanation: vscode.l10n.t(
          'The node accepted the submission, then rejected it: its completion (offset {0}, through {1}) has status {2}: {3}',
          found.offset,
          found.via,
          found.code,
          found.message,
        ),
      };
    }
    accepted.followUp = { state: 'unknown', reason: `${found.reason} ${outcomeUnknownAdvice(query)}` };
    return accepted;
  } catch (e) {
    if (!isLedgerApiError(e))
      return { state: 'failed', explanation: `${(e as Error).message} ${unknownOutcomeAdvice(view.request.submissionId)}`, outcomeUnknown: true };
    const verdict = judgeFailure(e);
    const explanation = !verdict.definite
      ? `${e.explanation} ${verdict.reason} ${unknownOutcomeAdvice(view.request.submissionId)}`
      : e.kind === 'unauthenticated'
        ? `${e.explanation} ${vscode.l10n.t('Set a fresh token, then submit again.')}`
        : `${e.explanation} ${verdict.reason}`;
    return {
      state: 'failed',
      code: e.code,
      cause: e.cantonError?.cause ?? e.plainText,
      correlationId: e.correlationId,
      explanation,
      outcomeUnknown: !verdict.definite,
    };
  }
}
