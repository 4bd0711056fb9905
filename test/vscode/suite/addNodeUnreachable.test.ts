// Add Ledger Node for a URL that does not answer: Edit URL is the default, and Cancel goes back to
// the URL box holding what was typed. The dialogs are answered by stand-ins for the window's.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resetNodes } from './testApi';

type Window = { showInputBox: typeof vscode.window.showInputBox; showWarningMessage: typeof vscode.window.showWarningMessage };

describe('Add Ledger Node for an unreachable URL', function () {
  this.timeout(60_000);
  const win = vscode.window as unknown as Window;
  const original = { showInputBox: win.showInputBox, showWarningMessage: win.showWarningMessage };
  after(async () => {
    Object.assign(win, original);
    await resetNodes();
  });

  it('offers Edit URL first, goes back to the URL box with the URL on Cancel, and saves only on Save Anyway', async function () {
    const unreachable = 'http://127.0.0.1:9/api/json';
    const boxes: (string | undefined)[] = [];
    const questions: string[][] = [];
    const answers = ['cancel', 'edit', 'save'];
    const inputs = ['unreachable node', unreachable, unreachable, unreachable];
    try {
      win.showInputBox = async (o?: vscode.InputBoxOptions) => {
        boxes.push(o?.value);
        return inputs.shift();
      };
      win.showWarningMessage = async (_m: string, ...rest: unknown[]) => {
        const items = rest.filter((r): r is vscode.MessageItem => typeof r === 'object' && r !== null && 'title' in r);
        questions.push(items.map((i) => i.title));
        const a = answers.shift();
        return a === 'cancel' ? undefined : a === 'edit' ? items[0] : items.find((i) => i.title === 'Save Anyway');
      };
    } catch {
      this.skip();
    }
    if (vscode.window.showInputBox !== win.showInputBox) this.skip();
    const added = await vscode.commands.executeCommand<{ name: string } | undefined>('cantonLens.addNode');
    Object.assign(win, original);
    assert.deepEqual(
      questions.map((q) => q[0]),
      ['Edit URL', 'Edit URL', 'Edit URL'],
      'Edit URL is the first (default) button',
    );
    assert.ok(questions.every((q) => q.includes('Save Anyway') && !q.some((t) => t === 'Cancel')));
    // Name box, the empty URL box, then the URL box again holding what was typed (after Cancel, after Edit URL).
    assert.deepEqual(boxes, [undefined, undefined, unreachable, unreachable]);
    assert.equal(added?.name, 'unreachable node');
    const saved = vscode.workspace.getConfiguration('cantonLens').get<{ name: string; url: string }[]>('nodes') ?? [];
    assert.ok(saved.some((n) => n.name === 'unreachable node' && n.url === unreachable));
  });
});
