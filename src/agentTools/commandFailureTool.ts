// The language-model tool "why did my command fail": for a command id (or the latest failure), the
// node's refusal when this editor submitted it, else the failed completion the node reports for the
// token's user; explained as the review shows it (code, what happened, what to do, the Daml places).
// Reads only. toolRegistration.ts registers it.
import * as vscode from 'vscode';
import { explainFailure, factsFromStatus, type FailureExplanation, type FailureFacts } from '../execute/commandFailure';
import type { Completion } from '../ledger/apiTypes';
import { completionElementOffset } from '../execute/completionWatch';
import { DEFAULT_NODE_LIST_LIMIT, isLedgerApiError, nodeListLimitOf } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { toolAnswer } from './toolText';

export interface CommandFailureInput {
  commandId?: string;
  node?: string;
}

/** A refusal this editor saw when it submitted a command. */
export interface SeenRefusal {
  node: string;
  commandId: string;
  facts: FailureFacts;
}

/** How far back the node's completions are read, in offsets, and in at most how many pages of how many. */
const LOOK_BACK = 100_000;
const MAX_PAGES = 100;
/** Canton's default list limit: a longer list is refused (413), not shortened. */
const PAGE = DEFAULT_NODE_LIST_LIMIT;

export function failureData(commandId: string, why: FailureExplanation, seen: 'submission' | 'completion') {
  return {
    commandId,
    seen: seen === 'submission' ? 'refused in the answer to the submission (no completion exists for it)' : 'a failed completion of the node',
    code: why.code,
    whatHappened: why.title,
    whatToDo: why.next,
    cause: why.facts.cause,
    errorId: why.errorId,
    messageFromDamlCode: why.userMessage,
    damlPlaces: why.places.map((p) => ({ templateId: p.templateId, choice: p.choice, contractId: p.contractId, node: p.nodeId })),
    definitelyNotCommitted: why.definite,
    category: why.facts.category,
    codeDefinedIn: why.source,
  };
}

export function commandFailureTool(nodes: NodeReader, refusals: () => readonly SeenRefusal[]): vscode.LanguageModelTool<CommandFailureInput> {
  const answer = (s: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);
  return {
    prepareInvocation: (o) => ({
      invocationMessage: vscode.l10n.t('Looking for why a command failed on {0}', o.input.node || vscode.l10n.t('the active node')),
    }),
    invoke: async (o, token) => {
      const node: NodeConfig | undefined = o.input.node ? nodes.find(o.input.node) : nodes.active();
      if (!node)
        return answer(toolAnswer('No such ledger node: ask again naming one of the configured nodes.', { configuredNodes: nodes.all().map((n) => n.name) }));
      const wanted = typeof o.input.commandId === 'string' && o.input.commandId.trim() !== '' ? o.input.commandId.trim() : undefined;
      const local = refusals()
        .filter((r) => r.node === node.name && (!wanted || r.commandId === wanted))
        .at(-1);
      if (local)
        return answer(
          toolAnswer(
            'The node refused this command when it was submitted from the editor.',
            failureData(local.commandId, explainFailure(local.facts), 'submission'),
          ),
        );
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort());
      try {
        const client = nodes.client(node);
        const parties = (await nodes.facts.readAs(node, undefined, ac.signal)).parties;
        const end = (await client.getLedgerEnd({ signal: ac.signal })).offset ?? 0;
        // Forward in pages from a look-back window to the ledger end: the latest completions, not the first page's.
        const completions: Completion[] = [];
        let begin = Math.max(0, end - LOOK_BACK);
        let limit = PAGE;
        for (let page = 0; page < MAX_PAGES && begin < end; page++) {
          let list;
          try {
            list = await client.getCompletions({ parties, beginExclusive: begin }, { limit, streamIdleTimeoutMs: 200 }, { signal: ac.signal });
          } catch (e) {
            // A node whose list limit is lower names it: read at its limit.
            const named = isLedgerApiError(e) && e.status === 413 ? nodeListLimitOf(e) : undefined;
            if (named === undefined || named >= limit) throw e;
            limit = named;
            continue;
          }
          let last = begin;
          for (const item of list) {
            const { completion, offset } = completionElementOffset(item);
            if (typeof offset === 'number') last = Math.max(last, offset);
            if (completion && (!wanted || completion.commandId === wanted)) completions.push(completion);
          }
          // The node cuts a list once none came for the idle time: a short one is not the end, the ledger end is.
          if (last >= end || last === begin) break;
          begin = last;
        }
        const failed = completions.filter((c) => (c.status?.code ?? 0) !== 0).at(-1);
        if (failed)
          return answer(
            toolAnswer('The node reports this failed completion.', failureData(failed.commandId, explainFailure(factsFromStatus(failed.status)), 'completion')),
          );
        const ok = completions.at(-1);
        return answer(
          toolAnswer(
            ok
              ? 'The command did not fail: its completion succeeded.'
              : 'No failure found: no refusal was seen in the editor and the completions of the token user name none. A refusal at submission (a Daml error) is not a completion; ask the user to submit from the editor (Canton: Submit Commands) to see it.',
            { node: node.name, commandId: wanted ?? null, succeeded: ok ? { commandId: ok.commandId, updateId: ok.updateId, offset: ok.offset } : null },
          ),
        );
      } catch (e) {
        return answer(
          toolAnswer('The completions could not be read.', { node: node.name, explanation: isLedgerApiError(e) ? e.explanation : (e as Error).message }),
        );
      }
    },
  };
}
