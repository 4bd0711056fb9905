// A request file's problems as diagnostics, each on the JSON path it names (the whole file's start
// when the path is not in the text): one shape for execute, prepare and commands requests.
import * as vscode from 'vscode';
import { jsonValueSpans, spanOf } from '../execute/jsonPathRanges';

export function requestDiagnostics(doc: vscode.TextDocument, text: string, problems: readonly { path: string; message: string }[]): vscode.Diagnostic[] {
  const spans = jsonValueSpans(text);
  return problems.map((p) => {
    const span = spanOf(spans, p.path) ?? { start: 0, end: 0 };
    const d = new vscode.Diagnostic(
      new vscode.Range(doc.positionAt(span.start), doc.positionAt(span.end)),
      `${p.path}: ${p.message}`,
      vscode.DiagnosticSeverity.Error,
    );
    d.source = 'Canton Lens';
    return d;
  });
}
