// A ledger transaction in VS Code's debugger, as a person does it in the packaged extension: a
// breakpoint on a choice of the demo model's Daml file, Canton: Debug Transaction with the
// settlement's update id, the stop on that line with the choice argument in Variables, and Step
// Out to the exercise's result.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useWorkbench } from './uiFixture';

describe('UI: debugging a ledger transaction', function () {
  this.timeout(240_000);
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.5', bigTransactionEvents: 1 } },
    fixtures: ['daml-model', 'daml-holding'],
    tokens: { participant1: 'alice' },
  });

  it('stops at a breakpoint on a Daml choice with its argument, and steps out to its result', async () => {
    const { page } = ui.wb;
    const iou = fs.readFileSync(path.join(ui.folder, 'daml-model', 'daml', 'Iou.daml'), 'utf8').split('\n');
    const line = iou.findIndex((l) => l.includes('choice Iou_Transfer')) + 1;
    await ui.wb.openFile('Iou.daml');
    await ui.wb.goTo(line, 5);
    await ui.wb.runCommand('Debug: Toggle Breakpoint');
    await page.locator('.monaco-editor .codicon-debug-breakpoint, .monaco-editor .codicon-debug-breakpoint-unverified').first().waitFor({ timeout: 30_000 });

    // The cursor elsewhere: the stop must bring the editor to the choice line.
    await ui.wb.goTo(1, 1);
    await ui.wb.runCommand('Canton: Debug Transaction');
    await ui.wb.answerInput('Debug Transaction', ui.nodes.participant1.ledger.samples.settlementUpdate);

    // Stopped on the choice line, in the Daml file, the exercise on top of the call stack.
    const frame = page.locator('.debug-call-stack .monaco-list-row', { hasText: 'Iou:Iou.Iou_Transfer' }).first();
    await frame.waitFor({ timeout: 60_000 });
    await page.locator('.monaco-editor .codicon-debug-breakpoint-stackframe, .monaco-editor .codicon-debug-stackframe').first().waitFor({ timeout: 30_000 });
    await page.locator('.tabs-container .tab.active', { hasText: 'Iou.daml' }).first().waitFor();
    const cursor = await page.locator('#status\\.editor\\.selection').innerText();
    assert.match(cursor, new RegExp(`Ln ${line},`), 'the editor is on the choice line');
    const stack = await page.locator('.debug-call-stack').innerText();
    assert.match(stack, /Settlement:Settlement\.Settlement_Execute/, 'the enclosing exercise below it');

    // The argument in Variables (the first scope, expanded).
    const newOwner = page.locator('.debug-variables .monaco-list-row', { hasText: 'newOwner' }).first();
    await newOwner.waitFor({ timeout: 30_000 });
    assert.match(await newOwner.innerText(), /newOwner\s*[:=]?\s*"Bob::1220/);
    await ui.wb.screenshot('debugger-breakpoint.png');

    // Step Out: the exercise returns; its result is a scope.
    await ui.wb.runCommand('Debug: Step Out');
    await page.locator('.debug-call-stack .monaco-list-row', { hasText: '(returning)' }).first().waitFor({ timeout: 30_000 });
    const result = page.locator('.debug-variables .monaco-list-row', { hasText: 'Result' }).first();
    await result.waitFor({ timeout: 30_000 });
    await result.click();
    await page
      .locator('.debug-variables .monaco-list-row', { hasText: /value\s*[:=]?\s*"00[0-9a-f]{8}/ })
      .first()
      .waitFor({ timeout: 30_000 });
    await ui.wb.screenshot('debugger-step-out.png');
    await ui.wb.runCommand('Debug: Stop');
  });
});
