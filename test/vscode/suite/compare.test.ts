// Compare Contracts in the extension host, on 3.4, 3.5 and 3.6: two contracts of the demo ledger
// read as the token's parties and compared; an unknown one is explained.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../src/fakeNode/fakeLedgerNode';
import type { ContractDiffPanel } from '../../../src/panels/contractDiffPanel';
import { cantonLens, resetNodes, useFakeNode } from './testApi';

describe('Compare Contracts', function () {
  this.timeout(60_000);
  const fakes: FakeLedgerNode[] = [];
  before(resetNodes);
  after(async () => {
    await resetNodes();
    await Promise.all(fakes.map((f) => f.close()));
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: compares two contracts side by side, and says which one cannot be read`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `compare-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      const { activeContract, archivedContract, unknownContract } = fake.ledger.samples;
      const panel = await vscode.commands.executeCommand<ContractDiffPanel>('cantonLens.compareContracts', activeContract, archivedContract, name);
      assert.ok(panel.shown, 'both contracts read');
      assert.equal(panel.shown.differentTemplates, false);
      assert.ok(panel.shown.facts.some((f) => f.label === 'template' && f.same));
      assert.equal(panel.shown.facts.find((f) => f.label === 'offset')?.same, false, 'created at different offsets');
      panel.dispose();
      const missing = await vscode.commands.executeCommand<ContractDiffPanel>('cantonLens.compareContracts', activeContract, unknownContract, name);
      assert.equal(missing.shown, undefined, 'nothing compared when one is not found');
      missing.dispose();
    });
  }
});
