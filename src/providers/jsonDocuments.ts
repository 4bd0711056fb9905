// Read-only JSON documents ("Open as JSON"): served by a content provider under the
// `cantonLens-json:` scheme, so they are never dirty and closing one never asks to save. The
// documents are held in memory, the last few only.
import * as vscode from 'vscode';

export const JSON_SCHEME = 'cantonLens-json';
const KEPT = 50;

const contents = new Map<string, string>();
let counter = 0;

export function registerJsonDocuments(ctx: Pick<vscode.ExtensionContext, 'subscriptions'>): void {
  ctx.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, {
      provideTextDocumentContent: (uri) =>
        contents.get(uri.toString()) ??
        `${JSON.stringify({ note: vscode.l10n.t('This document is no longer held by Canton Lens (it keeps the last {0}). Open it again from its panel (Open as JSON).', KEPT) }, null, 2)}\n`,
    }),
    { dispose: () => contents.clear() },
  );
}

/** Opens `value` as a read-only JSON document titled `name` (ledger ids are cut and made file-safe). */
export async function openJsonDocument(name: string, value: unknown, column = vscode.ViewColumn.Active): Promise<vscode.TextEditor> {
  const safe = name.replace(/[^\w .\u2026-]+/g, '_').slice(0, 80) || 'ledger';
  const uri = vscode.Uri.from({ scheme: JSON_SCHEME, path: `/${safe}.json`, query: String(++counter) });
  contents.set(uri.toString(), `${JSON.stringify(value, null, 2)}\n`);
  while (contents.size > KEPT) contents.delete(contents.keys().next().value!);
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
  return vscode.window.showTextDocument(doc, { viewColumn: column, preview: true });
}
