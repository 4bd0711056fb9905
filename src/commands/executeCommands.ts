// Write and execute prepared transactions: `cantonLens.newExecuteRequest`, `cantonLens.executeSubmission`.
// In the execute bundle (dist/execute.js); executeRegistration.ts registers them at activation.
import * as vscode from 'vscode';
import { executeRequestTemplate, requestFilePath } from '../execute/executeRequestCheck';
import type { ExecuteReviewPanelLike, ExecuteReviews } from '../panels/executeReviews';
import { newSubmissionId } from '../panels/randomIds';
import type { NodeReader } from '../services/ledgerNodes';
import type { CommandRegistrar } from './commandRegistrar';
import { nodeForCommand } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';

const isRequestFile = (uri: vscode.Uri | undefined) => Boolean(uri && /\.execute\.json$/i.test(uri.path));

export function registerExecuteCommands(nodes: NodeReader, reviews: ExecuteReviews, register: CommandRegistrar): void {
  const newRequest = async (): Promise<vscode.Uri | undefined> => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('New Execute Request'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, 'submission.execute.json') : undefined,
      // A plain "json" filter: some dialogs append the filter's extension to a name that has it.
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Create'),
    });
    if (!target) return undefined;
    const uri = target.with({ path: requestFilePath(target.path) });
    await vscode.workspace.fs.writeFile(uri, Buffer.from(executeRequestTemplate(newSubmissionId()), 'utf8'));
    await vscode.window.showTextDocument(uri);
    return uri;
  };

  const execute = async (fileArg?: unknown, nodeArg?: unknown): Promise<ExecuteReviewPanelLike | undefined> => {
    let uri = fileArg instanceof vscode.Uri ? fileArg : typeof fileArg === 'string' ? vscode.Uri.parse(fileArg) : undefined;
    const active = vscode.window.activeTextEditor?.document.uri;
    if (!uri && isRequestFile(active)) uri = active;
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        title: vscode.l10n.t('Execute Which Request?'),
        filters: { 'Execute requests': ['execute.json', 'json'] },
        canSelectMany: false,
      });
      uri = picked?.[0];
    }
    if (!uri) return undefined;
    const node = await nodeForCommand(nodes, nodeArg, vscode.l10n.t('Submit to which ledger node?'));
    if (!node) return undefined;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty) await doc.save();
    return reviews.review(uri, node);
  };

  register(COMMAND.newExecuteRequest, newRequest);
  register(COMMAND.executeSubmission, execute);
}
