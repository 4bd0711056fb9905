// Completion in *.commands.json from the workspace's Daml index: template ids where a templateId
// goes, and the template's choices (with their argument fields) where a choice goes. Parties
// complete through the party provider, the request's shape through the JSON schema.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { choiceCandidates, templateCandidates } from '../daml/commandCompletions';
import { stringValueAt } from '../execute/partyCandidates';
import type { DamlWorkspace } from '../services/damlWorkspace';

/** The templateId of the command around `offset`: the nearest one before it, else after it. */
function templateIdNear(text: string, offset: number): string | undefined {
  const all = [...text.matchAll(/"templateId"\s*:\s*"([^"]*)"/g)];
  return (all.filter((m) => (m.index ?? 0) < offset).at(-1) ?? all.find((m) => (m.index ?? 0) > offset))?.[1];
}

function textOf(file: string): string | undefined {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file);
  if (open) return open.getText();
  try {
    return fs.readFileSync(vscode.Uri.parse(file).fsPath, 'utf8');
  } catch {
    return undefined;
  }
}

export function registerCommandsCompletion(context: vscode.ExtensionContext, daml: DamlWorkspace): void {
  const provider: vscode.CompletionItemProvider = {
    async provideCompletionItems(document, position, cancel) {
      const text = document.getText();
      const slot = stringValueAt(text, document.offsetAt(position));
      if (!slot || (slot.field !== 'templateId' && slot.field !== 'choice')) return undefined;
      const index = await daml.ready(cancel);
      if (!index || cancel.isCancellationRequested) return undefined;
      const range = new vscode.Range(document.positionAt(slot.start), position);
      const item = (c: { label: string; detail: string; file: string; line: number }, kind: vscode.CompletionItemKind) => {
        const i = new vscode.CompletionItem(c.label, kind);
        i.detail = c.detail;
        i.documentation = new vscode.MarkdownString(`${vscode.workspace.asRelativePath(vscode.Uri.parse(c.file))}:${c.line + 1}`);
        i.range = range;
        return i;
      };
      if (slot.field === 'templateId') return templateCandidates(index).map((c) => item(c, vscode.CompletionItemKind.Class));
      const templateId = templateIdNear(text, slot.start);
      return templateId ? choiceCandidates(index, templateId, textOf).map((c) => item(c, vscode.CompletionItemKind.Method)) : undefined;
    },
  };
  context.subscriptions.push(vscode.languages.registerCompletionItemProvider({ pattern: '**/*.commands.json' }, provider, '"'));
}
