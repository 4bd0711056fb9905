// The request history in VS Code: a lookup and an Active Contracts table are recorded with who
// asked; opening a lookup again is answered from the cache, Run Again asks the node afresh; a
// table reopens with its arguments.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { cantonLens, resetNodes, until } from './testApi';

describe('The request history', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  const lookupsOf = (id: string) => node.requests.filter((r) => r.path === '/v2/events/events-by-contract-id' && r.body.includes(id)).length;

  before(async () => {
    await resetNodes();
    node = await FakeLedgerNode.start({ version: '3.5', generated: { contracts: 2000 } });
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'history', url: node.url, parties: [node.ledger.parties.Alice] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'history', node.mintToken('alice'));
    await vscode.commands.executeCommand('cantonLens.selectNode', 'history');
    await (await cantonLens()).recent.clear();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await node.close();
  });

  it('records a lookup with who asked; opening it again is answered from the cache, Run Again asks the node', async () => {
    const api = await cantonLens();
    // An active contract: Run Again re-checks it (an archived one never changes and stays cached).
    const id = node.ledger.samples.activeContract;
    await vscode.commands.executeCommand('cantonLens.showContract', id, 'history');
    const entry = await until('the history entry', () => api.recent.all().find((e) => e.kind === 'contract' && e.id === id));
    assert.equal(entry.node, 'history');
    assert.equal(entry.askedByUser, 'alice');
    await until('the lookup', () => (lookupsOf(id) === 1 ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // The tree's click: the same request, from the cache.
    const item = api.nodeTree.getTreeItem({ kind: 'recent', name: 'history', entry });
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    await until('the panel', () => api.panels.panels.find((p) => p.current.id === id && p.lookupResult?.found));
    assert.equal(lookupsOf(id), 1, 'opening from the history asked the node again');

    await vscode.commands.executeCommand('cantonLens.runAgain', { entry });
    await until('a fresh request', () => (lookupsOf(id) === 2 ? true : undefined));
  });

  it('records an Active Contracts table with its arguments and reopens it with them', async () => {
    const api = await cantonLens();
    await vscode.commands.executeCommand('cantonLens.showActiveContracts', 'history', node.ledger.parties.Alice);
    const entry = await until('the table entry', () => api.recent.all().find((e) => e.kind === 'activeContracts'));
    assert.deepEqual(entry.args?.parties, [node.ledger.parties.Alice]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The extension host hears of the closed panel a moment later.
    await until('the table closed', () => (api.browse.acs.panels.length === 0 ? true : undefined));
    // A table reads the websocket channel (an upgrade), or the HTTP forms where it is refused.
    const acsReads = () =>
      node.requests.filter((r) => r.path.startsWith('/v2/state/active-contracts')).length +
      node.channels.upgrades.filter((u) => u.url.startsWith('/v2/state/active-contracts')).length;
    const before = acsReads();
    await vscode.commands.executeCommand('cantonLens.runAgain', { entry });
    const panel = await until(
      'the reopened table',
      () => api.browse.acs.panels.find((p) => p.target.node === 'history' && (p.shown.done || p.shown.error !== '')),
      30_000,
    );
    assert.equal(panel.shown.error, '');
    assert.deepEqual(panel.target.parties, [node.ledger.parties.Alice]);
    assert.ok(acsReads() > before, 'the table asked the node');
    // Run Again on the table that is open now: the same panel reads the node again.
    const again = acsReads();
    await vscode.commands.executeCommand('cantonLens.runAgain', { entry });
    await until('a fresh read', () => (acsReads() > again ? true : undefined), 30_000);
    assert.equal(api.browse.acs.panels.filter((p) => p.target.node === 'history').length, 1, 'the open table was read again, not opened twice');
  });
});
