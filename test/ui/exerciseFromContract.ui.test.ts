// Exercise… from a contract panel, as a person does it, on a package with no source in the
// workspace: the partner app's Token (its DAR uploaded and vetted by the operator, the contract
// created over the Ledger API). The panel's Exercise… lists the contract's choices from the node's
// Daml-LF, the choice picked writes the request with its argument skeleton, Submit Commands reviews
// it (the arguments fit the package's types) and the commit opens its transaction.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildDemoLedger } from '../../fake-ledger/src/demoLedgerData';
import { createPartner, PARTNER_TOKEN, tokenArgument, vetPartnerApp } from '../support/partnerContracts';
import { useWorkbench } from './uiFixture';

describe('UI: Exercise… from a contract panel of a package with no source', function () {
  this.timeout(240_000);
  const { Alice } = buildDemoLedger({ bigTransactionEvents: 1 }).parties;
  let token = '';
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.5', bigTransactionEvents: 1, singleSynchronizer: true } },
    files: () => ({ 'README.txt': 'partner app\n' }),
    tokens: { participant1: 'alice' },
    ready: async ({ wb, nodes, folder }) => {
      await vetPartnerApp(nodes.participant1);
      token = await createPartner(nodes.participant1, 'alice', Alice, PARTNER_TOKEN, tokenArgument(Alice, Alice));
      fs.writeFileSync(path.join(folder, 'token.log'), `token=${token}\n`);
      await wb.openFile('token.log');
    },
  });
  const requestFile = () => path.join(ui.folder, 'commands', 'Token_Transfer.commands.json');

  it("lists the Token's choices and its interface's from the node's Daml-LF and writes the request for the one picked", async () => {
    await ui.wb.goTo(1, 10);
    await ui.wb.runCommand('Canton: Inspect Id at Cursor');
    const exercise = ui.wb.webview().locator('button[data-action="exercise"]');
    await exercise.waitFor({ timeout: 30_000 });
    await ui.wb.webview().locator('.badge', { hasText: 'Active' }).waitFor({ timeout: 30_000 });
    await exercise.click();
    const rows = ui.wb.page.locator('.quick-input-list .monaco-list-row >> visible=true');
    const holding = rows.filter({ hasText: 'Holding_Lock' });
    await holding.first().waitFor({ timeout: 30_000 });
    assert.match(await holding.first().innerText(), /via #canton-lens-partner-app:Partner\.Token:Holding/);
    await ui.wb.screenshot('exercise-from-contract.png');
    await rows.filter({ hasText: 'newOwner : Party, amount : Numeric 10, kind : TransferKind' }).first().click();
    await ui.wb.page.locator('.tabs-container .tab.active', { hasText: 'Token_Transfer.commands.json' }).first().waitFor({ timeout: 30_000 });
    const request = JSON.parse(fs.readFileSync(requestFile(), 'utf8'));
    assert.deepEqual(request.commands[0].ExerciseCommand, {
      templateId: '#canton-lens-partner-app:Partner.Token:Token',
      contractId: token,
      choice: 'Transfer',
      choiceArgument: { newOwner: Alice, amount: '0.0', kind: 'Direct' },
    });
  });

  it('reviews it (the arguments fit the types) and submits it: it commits and its transaction opens', async () => {
    const request = JSON.parse(fs.readFileSync(requestFile(), 'utf8'));
    request.commands[0].ExerciseCommand.choiceArgument.amount = '4.0';
    fs.writeFileSync(requestFile(), `${JSON.stringify(request, null, 2)}\n`);
    await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Token_Transfer.commands.json' }).first().click();
    await ui.wb.page.locator('.view-lines', { hasText: '"4.0"' }).first().waitFor({ timeout: 30_000 });
    const submits = () => ui.nodes.participant1.requests.filter((r) => r.path === '/v2/commands/submit-and-wait-for-transaction').length;
    const before = submits();
    await ui.wb.runCommand('Canton: Submit Commands');
    const review = await ui.wb.webviewShowing(/The arguments fit the types of the node's packages/, 60_000);
    assert.match(await review.locator('main').innerText(), /Exercise Transfer on Partner\.Token:Token/);
    await review.locator('button[data-action="submit"]').first().click();
    const tree = await ui.wb.webviewShowing(/Exercise tree \(2 nodes\)/, 30_000);
    await tree.locator('#tree-rows tr', { hasText: 'Transfer' }).first().waitFor({ timeout: 30_000 });
    await ui.wb.screenshot('exercise-from-contract-committed.png');
    assert.equal(submits() - before, 1, 'sent once');
  });
});
