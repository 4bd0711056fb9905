// Transactions as a developer debugs them, on nodes of 3.4, 3.5 and 3.6: the exercise tree of
// ledger effects, each event in full, reassignments, a contract whose create was pruned, lineage
// links, and panels that share one column.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { LookupPanel, PanelTarget } from '../../../src/panels/lookupPanels';
import { cantonLens, resetNodes, until } from './testApi';

describe('Transactions as a developer debugs them', function () {
  this.timeout(60_000);
  const nodes = new Map<FakeVersion, FakeLedgerNode>();

  const panelFor = async (t: PanelTarget | undefined, text: RegExp): Promise<LookupPanel> => {
    assert.ok(t, 'no panel was opened');
    const api = await cantonLens();
    return until(`a panel showing ${text}`, () => api.panels.panels.find((p) => p.current.id === t.id && p.current.node === t.node && text.test(p.lastBody)));
  };

  before(async () => {
    await resetNodes();
    for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
      const node = await FakeLedgerNode.start({ version, bigTransactionEvents: 3, bigTreeNodes: 120 });
      nodes.set(version, node);
      await vscode.commands.executeCommand('cantonLens.addNode', { name: `t${version}`, url: node.url, parties: [node.ledger.parties.Alice] });
      await vscode.commands.executeCommand('cantonLens.setToken', `t${version}`, node.mintToken('alice'));
    }
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    for (const n of nodes.values()) await n.close();
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: switches a transaction to what happened: the exercise tree, each node in full, remembered by the panel`, async () => {
      const node = nodes.get(version)!;
      const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showTransaction', node.ledger.samples.settlementUpdate, `t${version}`);
      const panel = await panelFor(target, /What happened/);
      assert.doesNotMatch(panel.lastBody, /Exercise tree/);
      const shell = panel.webviewPanel.webview.html;
      node.requests.length = 0;
      await panel.setShape('TRANSACTION_SHAPE_LEDGER_EFFECTS');
      await until('the tree', () => /Exercise tree/.test(panel.lastBody));
      assert.equal(panel.webviewPanel.webview.html, shell, 'the page is not reloaded: the tree came as a message');
      assert.equal(panel.current.shape, 'TRANSACTION_SHAPE_LEDGER_EFFECTS', 'the panel keeps the shape (saved with its state)');
      const sent = node.requests.filter((r) => r.path.startsWith('/v2/updates/')).map((r) => JSON.parse(r.body) as Record<string, unknown>);
      const shapeOf = (b: Record<string, unknown>) =>
        (b.transactionFormat as { transactionShape?: string } | undefined)?.transactionShape ??
        (b.updateFormat as { includeTransactions?: { transactionShape?: string } }).includeTransactions?.transactionShape;
      assert.equal(
        shapeOf(sent[0]),
        'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        `asked for ledger effects through ${version === '3.6' ? 'update-by-id' : 'transaction-by-id'}`,
      );
      // The root exercise in full: choice, acting parties, argument and result; what it created, one click away.
      const root = panel.showEventDetail('tree', 0);
      assert.ok(root);
      assert.match(root, /Settlement_Execute/);
      assert.match(root, /Exercise result/);
      assert.match(root, /Created by this exercise/);
      assert.doesNotMatch(root, /<img src=x|<\/script>|<svg/, 'hostile choice values are text');
      const viaInterface = panel.showEventDetail('tree', 3);
      assert.match(viaInterface ?? '', /Through interface/);
    });
  }

  it("opens a reassignment's update id as a reassignment, with its synchronizers", async () => {
    const node = nodes.get('3.5')!;
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showTransaction', node.ledger.samples.unassignUpdate, 't3.5');
    const panel = await panelFor(target, /Reassignment/);
    assert.match(panel.lastBody, /Target synchronizer/);
    assert.match(panel.lastBody, /global-domain::/);
    assert.doesNotMatch(panel.lastBody, /Update not found/);
  });

  it('shows a contract whose create was pruned by its archive event, and walks to the archiving exercise', async () => {
    const node = nodes.get('3.6')!;
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.prunedCreateContract, 't3.6');
    const panel = await panelFor(target, /was pruned/);
    assert.match(panel.lastBody, /Archived in/);
    const archive = node.ledger.transactions.find((t) => t.commandId === 'close-note-1')!;
    node.requests.length = 0;
    await panel.openOffset(archive.offset, 0, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    await until(
      'the archiving transaction',
      () => panel.current.kind === 'update' && /Note_Close/.test(panel.lastBody) && /Exercise tree/.test(panel.lastBody),
    );
    assert.equal(panel.current.id, archive.updateId);
    assert.equal(panel.current.highlight, 0);
    assert.ok(
      node.requests.some((r) => r.path === '/v2/updates/update-by-offset'),
      'found through update-by-offset',
    );
  });

  it('Show Contract given an update id opens it as a transaction', async () => {
    const node = nodes.get('3.5')!;
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.transferUpdate, 't3.5');
    assert.equal(target?.kind, 'update');
    await panelFor(target, /Committed/);
  });

  it('opens every panel in the column panels are already in', async () => {
    const node = nodes.get('3.5')!;
    const api = await cantonLens();
    const before = api.panels.panels.length;
    assert.ok(before > 0, 'earlier tests left panels open');
    const column = api.panels.panels[0].webviewPanel.viewColumn;
    await vscode.commands.executeCommand('cantonLens.showContract', node.ledger.samples.activeContract, 't3.5');
    await vscode.commands.executeCommand('cantonLens.showContract', node.ledger.samples.keyedContract, 't3.5');
    await until('two more panels', () => api.panels.panels.length >= before + 2);
    const columns = new Set(api.panels.panels.map((p) => p.webviewPanel.viewColumn));
    assert.deepEqual([...columns], [column], `panels in columns ${[...columns].join(', ')}`);
  });
});
