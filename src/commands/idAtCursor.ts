// The id under the cursor: for the inspect, compare and debug commands, and the editor menu's
// context keys (kept at activation, so the menu shows "Inspect" before any panel code loads).
import * as vscode from 'vscode';
import { classifyLedgerId, ledgerIdAt, type LedgerIdKind } from '../ids/ledgerIds';

/** The id under the cursor or in the selection of the active editor, if any. */
export function idInEditor(editor: vscode.TextEditor | undefined): { id: string; kind: LedgerIdKind } | { reason: string } | undefined {
  if (!editor) return undefined;
  const sel = editor.selection;
  if (!sel.isEmpty && sel.isSingleLine) {
    const text = editor.document.getText(sel);
    const c = classifyLedgerId(text);
    if (c.kind !== 'none') return { id: text.trim().replace(/^["'`]|["'`]$/g, ''), kind: c.kind };
    return { reason: c.reason };
  }
  const line = editor.document.lineAt(sel.active.line).text;
  const m = ledgerIdAt(line, sel.active.character);
  return m ? { id: m.text, kind: m.kind } : undefined;
}

/** The context keys of the editor menu: is there an id under the cursor, and is it an update's? */
export function registerIdAtCursorContext(ctx: Pick<vscode.ExtensionContext, 'subscriptions'>): void {
  let timer: NodeJS.Timeout | undefined;
  const updateContext = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const found = idInEditor(vscode.window.activeTextEditor);
      void vscode.commands.executeCommand('setContext', 'cantonLens.idAtCursor', found && 'id' in found && found.kind !== 'party');
      void vscode.commands.executeCommand('setContext', 'cantonLens.updateIdAtCursor', found && 'id' in found && found.kind === 'update');
    }, 100);
  };
  ctx.subscriptions.push(vscode.window.onDidChangeTextEditorSelection(updateContext), vscode.window.onDidChangeActiveTextEditor(updateContext), {
    dispose: () => clearTimeout(timer),
  });
}
