// Submitting a reviewed commands request, as a use case of its own: one POST
// submit-and-wait-for-transaction (never sent again by itself), the failure judged (a definite
// refusal, or an unknown outcome), the refusal reported, the submission recorded among the recents;
// and Find Outcome's search of the completions after it. The review panel shows what it answers.
import * as vscode from 'vscode';
import { explainFailure, factsFromCantonError, factsFromStatus, type FailureFacts } from '../execute/commandFailure';
import { findOutcome } from '../execute/outcomeFinder';
import { judgeFailure } from '../execute/submissionOutcome';
import type { JsCommands } from '../ledger/apiTypes';
import { submitAndWaitForTransaction } from '../ledger/commandRequests';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { Refusal } from './commandsConfirm';
import type { CommandsOutcome } from './html/commandsReviewHtml';

export interface CommandsSubmissionDeps {
  readonly nodes: NodeReader;
  readonly recent: RecentLookupStore;
  reportRefusal(r: Refusal): void;
  /** How long Find Outcome looks. */
  readonly outcomeSearchMs: number;
}

export class CommandsSubmission {
  /** The ledger end before the last send: Find Outcome reads the completions after it. */
  private endBefore: number | undefined;

  constructor(
    private readonly deps: CommandsSubmissionDeps,
    /** The request file, named in the recents. */
    private readonly file: vscode.Uri,
  ) {}

  /** Sends `request` once to `node`; `sending` is told when the POST goes out. */
  async send(node: NodeConfig, request: JsCommands, sending: () => void): Promise<CommandsOutcome> {
    const client = this.deps.nodes.client(node);
    // Where Find Outcome starts reading; a read, never in the way of the send.
    this.endBefore = await client.getLedgerEnd().then(
      (r) => r.offset,
      () => undefined,
    );
    sending();
    const requestLine = `POST ${node.url}/v2/commands/submit-and-wait-for-transaction`;
    let outcome: CommandsOutcome;
    try {
      const answer = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Submitting command {0} to {1}…', request.commandId, node.name),
          cancellable: true,
        },
        (_p, cancel) => {
          const ac = new AbortController();
          cancel.onCancellationRequested(() => ac.abort());
          return submitAndWaitForTransaction(client, request, { signal: ac.signal });
        },
      );
      const t = answer.transaction;
      outcome = { state: 'committed', updateId: t.updateId, offset: t.offset, events: t.events?.length ?? 0, at: new Date().toISOString() };
    } catch (e) {
      outcome = this.failed(e, node, request, requestLine);
    }
    void this.deps.recent.add({
      kind: 'submission',
      id: request.commandId,
      node: node.name,
      at: Date.now(),
      file: this.file.toString(),
      summary:
        outcome.state === 'committed'
          ? vscode.l10n.t('committed')
          : outcome.state === 'failed'
            ? vscode.l10n.t('refused ({0})', outcome.why.code)
            : vscode.l10n.t('outcome unknown'),
    });
    return outcome;
  }

  private failed(e: unknown, node: NodeConfig, request: JsCommands, requestLine: string): CommandsOutcome {
    const verdict = isLedgerApiError(e) ? judgeFailure(e) : undefined;
    // A Canton error, or a refusal without one that still says nothing ran (a body the JSON layer could not decode).
    if (isLedgerApiError(e) && verdict && (e.cantonError || verdict.definite)) {
      const facts: FailureFacts = e.cantonError ? factsFromCantonError(e.cantonError) : { cause: e.plainText ?? e.explanation, context: {}, resources: [] };
      const why = explainFailure(facts);
      why.definite = verdict.definite;
      if (verdict.definite)
        this.deps.reportRefusal({ node: node.name, commandId: request.commandId, actAs: request.actAs ?? [], userId: request.userId, facts });
      return { state: 'failed', why, request: `${requestLine} → ${e.status ?? ''}` };
    }
    const reason = isLedgerApiError(e) ? `${e.explanation} ${judgeFailure(e).reason}` : (e as Error).message;
    return {
      state: 'unknown',
      reason: vscode.l10n.t(
        '{0} The command may still commit: Find Outcome looks command id {1} up in the completions. Submit again only with the same command id.',
        reason,
        request.commandId,
      ),
    };
  }

  /** Looks the command id up in the completions after the last send (a read; until found or the deadline). */
  async findOutcome(node: NodeConfig, request: JsCommands): Promise<CommandsOutcome> {
    const client = this.deps.nodes.client(node);
    const found = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Looking for command {0} on {1}', request.commandId, node.name),
        cancellable: true,
      },
      async (progress, cancel) => {
        const ac = new AbortController();
        cancel.onCancellationRequested(() => ac.abort());
        return findOutcome(
          client,
          {
            commandId: request.commandId,
            userId: request.userId || (await this.deps.nodes.tokenUser(node)),
            parties: request.actAs ?? [],
            beginExclusive: this.endBefore,
          },
          { timeoutMs: this.deps.outcomeSearchMs, signal: ac.signal, onProgress: (message) => progress.report({ message }) },
        );
      },
    );
    return found.kind === 'committed'
      ? { state: 'committed', updateId: found.updateId ?? '', offset: found.offset, events: 0, at: new Date().toISOString() }
      : found.kind === 'rejected'
        ? { state: 'failed', why: explainFailure(factsFromStatus(found.completion.status)), request: vscode.l10n.t('completion at offset {0}', found.offset) }
        : { state: 'unknown', reason: found.reason };
  }
}
