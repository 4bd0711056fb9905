// A transaction of the partner app (no source in the workspace) in a real VS Code, per version: the
// panel paints its events untyped, and a row opened once the node's Daml-LF is read shows the
// choice's argument and result by their declared types, the result a link that says its template.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FakeLedgerNode, FakeVersion } from '../../../fake-ledger/src/testing';
import type { LookupPanel, PanelTarget } from '../../../src/panels/lookupPanels';
import { PARTNER_TOKEN } from '../../support/partnerContracts';
import { cantonLens, resetNodes, until, usePartnerNode } from './testApi';

/** Exercises Transfer on `token` as Alice; the transaction's update id. */
async function transfer(fake: FakeLedgerNode, token: string): Promise<string> {
  const { Alice, Bob } = fake.ledger.parties;
  const res = await fetch(`${fake.url}/v2/commands/submit-and-wait-for-transaction`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${fake.mintToken('alice')}` },
    body: JSON.stringify({
      commands: {
        commandId: `typed-transfer-${Date.now()}`,
        actAs: [Alice],
        commands: [
          {
            ExerciseCommand: {
              templateId: PARTNER_TOKEN,
              contractId: token,
              choice: 'Transfer',
              choiceArgument: { newOwner: Bob, amount: '1.0', kind: 'Escrow' },
            },
          },
        ],
      },
    }),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return (JSON.parse(text) as { transaction: { updateId: string } }).transaction.updateId;
}

describe('Transaction events typed from the Daml-LF of a package without source', function () {
  this.timeout(90_000);
  const fakes: FakeLedgerNode[] = [];
  before(resetNodes);
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await Promise.all(fakes.map((f) => f.close()));
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: an exercise's argument and result, and a create's argument, by their declared types`, async () => {
      const api = await cantonLens();
      const name = `typed-${version}`;
      const { fake, token } = await usePartnerNode(api, version, name, fakes);
      const updateId = await transfer(fake, token);

      const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showTransaction', updateId, name);
      const panel = await until('the transaction panel', () =>
        api.panels.panels.find((p: LookupPanel) => p.current.id === target?.id && p.current.node === name && /What happened/.test(p.lastBody)),
      );
      await panel.setShape('TRANSACTION_SHAPE_LEDGER_EFFECTS');
      await until('the tree', () => /Exercise tree/.test(panel.lastBody));
      const root = await until('the exercise typed', () => {
        const detail = panel.showEventDetail('tree', 0);
        return detail && /title="choiceArgument: Transfer"/.test(detail) ? detail : undefined;
      });
      assert.match(root, /title="exerciseResult: ContractId Token"/);
      assert.match(root, /class="v-enum" title="Escrow, an enum of [0-9a-f]{64}:Partner\.Types:TransferKind"/);
      assert.match(root, /title="A contract of [0-9a-f]{64}:Partner\.Token:Token"><bdi>Token<\/bdi>/);
      const created = panel.showEventDetail('tree', 1);
      assert.match(created ?? '', /<span class="v-key" title="Numeric 10"><bdi>amount<\/bdi><\/span>/, 'the new Token, typed by its template');
      panel.dispose();
    });
  }
});
