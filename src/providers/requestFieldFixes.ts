// The quick fix on a *.prepare.json or *.execute.json that lacks fields every Canton node's
// decoder requires (synchronizerId and packageIdSelectionPreference; deduplicationPeriod): it adds
// them with neutral values, keeping the file's layout. The fields come from the file's own check.
import * as vscode from 'vscode';
import { checkExecuteRequest } from '../execute/executeRequestCheck';
import { checkPrepareRequest } from '../execute/prepareRequestCheck';
import { addTopLevelFields } from '../execute/requiredFields';

const PREPARE = /\.prepare\.json$/i;

export function registerRequestFieldFixes(ctx: Pick<vscode.ExtensionContext, 'subscriptions'>): void {
  const provider: vscode.CodeActionProvider = {
    provideCodeActions(document, _range, context) {
      const ours = context.diagnostics.filter((d) => d.source === 'Canton Lens');
      if (ours.length === 0) return undefined;
      const text = document.getText();
      const problems = PREPARE.test(document.uri.path)
        ? checkPrepareRequest(text).problems
        : checkExecuteRequest(text, undefined, { allowUnsigned: true }).problems;
      const fields = Object.assign({}, ...problems.map((p) => p.add ?? {})) as Record<string, unknown>;
      const names = Object.keys(fields);
      const edit = addTopLevelFields(text, fields);
      if (!edit) return undefined;
      const action = new vscode.CodeAction(vscode.l10n.t('Add what every Canton node requires: {0}', names.join(', ')), vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.insert(document.uri, document.positionAt(edit.offset), edit.insert);
      action.diagnostics = ours.filter((d) => names.some((n) => d.message.startsWith(`$.${n}:`)));
      action.isPreferred = true;
      return [action];
    },
  };
  ctx.subscriptions.push(
    vscode.languages.registerCodeActionsProvider([{ pattern: '**/*.prepare.json' }, { pattern: '**/*.execute.json' }], provider, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
  );
}
