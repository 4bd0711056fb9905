// A review's watch on the request file it reviews: an edit, a save or a change on disk reads the
// file again, once after a burst (reviewFollow.ts decides whether and when).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Debounced, type FollowStep } from '../execute/reviewFollow';

/** How long after the last edit the review reads the file again. */
export const FOLLOW_DELAY_MS = 300;

export function followRequestFile(uri: vscode.Uri, reread: () => Promise<FollowStep | void>, delayMs = FOLLOW_DELAY_MS): vscode.Disposable {
  const debounced = new Debounced(reread, delayMs);
  const ours = (u: vscode.Uri) => u.toString() === uri.toString();
  const subscriptions: vscode.Disposable[] = [
    vscode.workspace.onDidChangeTextDocument((e) => ours(e.document.uri) && e.contentChanges.length > 0 && debounced.poke()),
    vscode.workspace.onDidSaveTextDocument((doc) => ours(doc.uri) && debounced.poke()),
  ];
  // Written by another program while no editor holds it.
  if (uri.scheme === 'file') {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(uri.fsPath)), path.basename(uri.fsPath)));
    subscriptions.push(
      watcher,
      watcher.onDidChange(() => debounced.poke()),
      watcher.onDidCreate(() => debounced.poke()),
    );
  }
  return vscode.Disposable.from(...subscriptions, { dispose: () => debounced.dispose() });
}
