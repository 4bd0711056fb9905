// Reading by interface in a real VS Code, per version, against the fake node: the Active Contracts
// table of the partner app's Holding (no source in the workspace: its view type comes from the
// node's Daml-LF) shows the contracts of both templates that implement it, the view's fields as the
// columns and one view that failed; the tree's By Interface row counts them and opens the table.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { PARTNER_LOCKED, PARTNER_TOKEN } from '../../../fake-ledger/src/partnerHoldings';
import type { AcsPanel } from '../../../src/panels/acsPanel';
import { cantonLens, find, renderTree, resetNodes, until } from './testApi';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];
const HOLDING = '#canton-lens-partner-app:Partner.Token:Holding';

for (const version of VERSIONS) {
  describe(`Reading a ${version} node by interface`, function () {
    this.timeout(90_000);
    let node: FakeLedgerNode;
    const name = `interfaces ${version}`;

    before(async () => {
      await resetNodes();
      node = await FakeLedgerNode.start({ version });
      const { Alice, Bob } = node.ledger.parties;
      await vscode.commands.executeCommand('cantonLens.addNode', { name, url: node.url, parties: [Alice, Bob] });
      await vscode.commands.executeCommand('cantonLens.setToken', name, node.mintToken('auditor'));
      await vscode.commands.executeCommand('cantonLens.selectNode', name);
    });
    after(async () => {
      const api = await cantonLens();
      api.browse.acs.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await resetNodes();
      await node.close();
    });

    it("an interface table shows each contract's view under the view type's fields, and the view that failed", async () => {
      const panel = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', name, undefined, undefined, { interfaceId: HOLDING });
      assert.deepEqual(panel.target, { node: name, parties: undefined, templateId: undefined, interfaceId: HOLDING });
      await until('every page read and the columns named', () => (panel.shown.done && panel.shown.viewColumns) || panel.shown.error !== '', 30_000);
      assert.equal(panel.shown.error, '');
      const { tokens, locked, failedView } = node.ledger.samples.partnerHoldings;
      assert.equal(panel.shown.contracts, 4, 'Alice’s and Bob’s tokens, the locked one and the one whose view fails');
      assert.deepEqual([...panel.shown.firstIds].sort(), [...tokens, locked, failedView].sort());
      assert.deepEqual([...panel.shown.templates].sort(), [PARTNER_LOCKED, PARTNER_TOKEN].sort(), 'both templates behind the interface');
      assert.deepEqual(panel.shown.viewColumns, ['owner', 'amount', 'instrument'], "named by the view type in the node's Daml-LF");
      assert.equal(panel.shown.failedViews, 1);
    });

    it('the tree lists the interface with how many active contracts implement it, and opens its table', async () => {
      const api = await cantonLens();
      const row = await until(
        'the interface counted',
        async () => {
          const n = find(await renderTree(api, 4), name);
          const byInterface = n && find(n.children, 'By Interface');
          return byInterface?.children.find((c) => c.label.startsWith('Partner.Token:Holding · canton-lens-partner-app') && /\d$/.test(c.label));
        },
        60_000,
      );
      assert.equal(row.label, 'Partner.Token:Holding · canton-lens-partner-app  4');
      assert.equal(row.tooltip.replace(/\\/g, ''), HOLDING, 'the tooltip names the interface (markdown-escaped)');
      assert.equal(row.command, 'cantonLens.showActiveContracts');
    });
  });
}
