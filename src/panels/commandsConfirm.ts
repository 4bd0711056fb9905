// What a commands review asks before it sends (off this machine), and what it tells of a refusal
// (Follow Completions shows it beside the completions).
import * as vscode from 'vscode';
import type { FailureFacts } from '../execute/commandFailure';
import { isLoopbackUrl } from '../ledger/loopbackUrl';
import type { NodeConfig } from '../nodes/nodeSettings';

/** A command the node refused in its answer: Follow Completions shows it beside the completions. */
export interface Refusal {
  node: string;
  commandId: string;
  actAs: string[];
  userId?: string;
  facts: FailureFacts;
  /** When the answer came (epoch ms). */
  at?: number;
}

/** Asks before sending to a node that is not on this machine; tests replace it. */
export type ConfirmCommands = (node: NodeConfig, commandId: string) => Thenable<boolean>;

export const confirmUnlessLoopback: ConfirmCommands = async (node, commandId) => {
  if (isLoopbackUrl(node.url)) return true;
  const submit = vscode.l10n.t('Submit');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Submit command {0} to "{1}"?', commandId, node.name),
    {
      modal: true,
      detail: vscode.l10n.t('POST {0}/v2/commands/submit-and-wait-for-transaction. Once the node accepts it, it cannot be called back.', node.url),
    },
    submit,
  );
  return pick === submit;
};
