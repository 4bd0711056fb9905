// Inspecting ids from editors: commands, panels, hovers and links, against fake nodes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { LookupPanel, PanelTarget } from '../../../src/panels/lookupPanels';
import { cantonLens, find, renderTree, resetNodes, until } from './testApi';

describe('Inspecting ids', function () {
  this.timeout(60_000);
  let v35: FakeLedgerNode;
  let v36: FakeLedgerNode;
  let doc: vscode.TextDocument;
  let editor: vscode.TextEditor;

  const lines = () => [
    '2026-11-21T09:14:05.120Z INFO  c.d.c.p.TransactionProcessor - submitted',
    `  contractId=${v35.ledger.samples.activeContract} (the Iou)`,
    `  updateId: "${v35.ledger.samples.transferUpdate}"`,
    `  archived ${v35.ledger.samples.archivedContract}`,
    `  unknown ${v35.ledger.samples.unknownContract}`,
    `  party ${v35.ledger.parties.Alice}`,
    '  a hash that is not an id: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  ];

  const panelFor = async (t: PanelTarget | undefined, text: RegExp): Promise<LookupPanel> => {
    assert.ok(t, 'no panel was opened');
    const api = await cantonLens();
    return until(`a panel showing ${text}`, () =>
      api.panels.panels.find((p) => p.current.id === t.id && p.current.kind === t.kind && p.current.node === t.node && text.test(p.lastBody)),
    );
  };

  const cursorOn = async (line: number, needle: string) => {
    const col = doc.lineAt(line).text.indexOf(needle) + 5;
    editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    editor.selection = new vscode.Selection(line, col, line, col);
  };

  before(async () => {
    await resetNodes();
    await (await cantonLens()).recent.clear();
    v35 = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 30 });
    v36 = await FakeLedgerNode.start({ version: '3.6', bigTransactionEvents: 30 });
    const alice = v35.ledger.parties.Alice;
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'p35', url: v35.url, parties: [alice] });
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'p36', url: v36.url, parties: [alice] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'p35', v35.mintToken('alice'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'p36', v36.mintToken('alice'));
    // The same participant read as Bob: Alice's contracts are not visible to him.
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'p35 as Bob', url: v35.url, parties: [v35.ledger.parties.Bob] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'p35 as Bob', v35.mintToken('bob'));
    await vscode.commands.executeCommand('cantonLens.selectNode', 'p35');
    doc = await vscode.workspace.openTextDocument({ language: 'log', content: lines().join('\n') });
    editor = await vscode.window.showTextDocument(doc);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await v35.close();
    await v36.close();
  });

  it('inspects a contract id at the cursor: status, template and parties in a panel', async () => {
    await cursorOn(1, 'contractId=');
    await cursorOn(1, v35.ledger.samples.activeContract);
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.inspectAtCursor');
    assert.deepEqual(target, { kind: 'contract', id: v35.ledger.samples.activeContract, node: 'p35' });
    const panel = await panelFor(target, /badge active/);
    assert.match(panel.lastBody, /Iou:Iou/);
    assert.match(panel.lastBody, /Bank::1220[0-9a-f]{2}…/);
    assert.match(panel.lastBody, /Create argument/);
  });

  it('opens the same id again by revealing its panel, not a second one', async () => {
    const api = await cantonLens();
    const before = api.panels.panels.length;
    await vscode.commands.executeCommand('cantonLens.showContract', v35.ledger.samples.activeContract);
    assert.equal(api.panels.panels.length, before);
  });

  it('refreshes a panel in place: the answer stays, busy, until the new one replaces it; Cancel leaves it with a note', async () => {
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', v35.ledger.samples.activeContract);
    const panel = await panelFor(target, /badge active/);
    const shown = panel.lastBody;
    await panel.whenReady();
    const webview = panel.webviewPanel.webview;
    const posted: { type: string; busy?: boolean; note?: string }[] = [];
    const post = webview.postMessage.bind(webview);
    webview.postMessage = (m: { type: string }) => (posted.push(m), post(m));
    const lookups = () => v35.requests.filter((r) => r.path === '/v2/events/events-by-contract-id').length;
    try {
      v35.injectFault({ path: '/v2/events/events-by-contract-id', fault: { type: 'latency', ms: 60_000 }, times: 1 });
      const sent = lookups();
      const refreshing = panel.load(true);
      await until('the refresh at the node', () => lookups() > sent || undefined);
      assert.deepEqual(posted, [{ type: 'busy', busy: true }], 'no lookup page in between');
      assert.equal(panel.lastBody, shown);
      assert.ok(panel.lookupResult, 'what is shown can still be opened as JSON');
      panel.cancel();
      await refreshing;
      assert.deepEqual(posted.slice(1), [{ type: 'busy', busy: false, note: 'Not refreshed: the lookup was cancelled. This is the earlier answer.' }]);
      assert.equal(panel.lastBody, shown);
      v35.clearFaults();
      posted.length = 0;
      await panel.load(true);
      assert.deepEqual(
        posted.map((m) => m.type),
        ['busy', 'content'],
        'the answer replaces the one shown',
      );
      assert.match(panel.lastBody, /badge active/);
    } finally {
      v35.clearFaults();
      webview.postMessage = post;
    }
  });

  it('inspects an update id: a transaction panel with its events', async () => {
    await cursorOn(2, v35.ledger.samples.transferUpdate);
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.inspectAtCursor');
    assert.equal(target?.kind, 'update');
    const panel = await panelFor(target, /Committed/);
    assert.match(panel.lastBody, /transfer-alice-bob-7f3a/);
    assert.match(panel.lastBody, /"archived"/, 'Alice sees the archive of her Iou');
  });

  it('shows an archived contract as archived, with the archive event', async () => {
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', v35.ledger.samples.archivedContract);
    const panel = await panelFor(target, /badge archived/);
    assert.match(panel.lastBody, /<h2 id="archived-h">Archived<\/h2>/);
  });

  it('explains a contract that is not found, naming who asked', async () => {
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', v35.ledger.samples.unknownContract);
    const panel = await panelFor(target, /Not found/);
    assert.match(panel.lastBody, /Contract not found on p35 for CanActAs Alice::1220[0-9a-f]{2}…\. This node has pruned up to offset 10/);
  });

  it('looks a transaction up on 3.6 through update-by-id', async () => {
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showTransaction', v36.ledger.samples.transferUpdate, 'p36');
    v36.requests.length = 0;
    const panel = await panelFor(target, /Committed|Could not/);
    assert.match(panel.lastBody, /via update-by-id/);
  });

  it('refuses text that is not an id, saying why', async () => {
    assert.equal(await vscode.commands.executeCommand('cantonLens.showContract', 'deadbeef'), undefined);
    assert.equal(
      await vscode.commands.executeCommand('cantonLens.showTransaction', v35.ledger.samples.activeContract),
      undefined,
      'a contract id is not an update id',
    );
    await cursorOn(5, v35.ledger.parties.Alice);
    assert.equal(await vscode.commands.executeCommand('cantonLens.inspectAtCursor'), undefined, 'a party id opens no panel');
  });

  it("in JSON, a synchronizer id (by its key) hovers as a synchronizer, a signature's signedBy not as an update; nothing is asked", async () => {
    const sync = `global-domain::1220${'a1'.repeat(32)}`;
    const fingerprint = `1220${'c3'.repeat(32)}`;
    const payload = {
      update: { Reassignment: { value: { events: [{ JsAssignmentEvent: { source: sync, target: sync, submitter: v35.ledger.parties.Alice } }] } } },
      partySignatures: { signatures: [{ party: v35.ledger.parties.Alice, signatures: [{ signedBy: fingerprint }] }] },
    };
    const json = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(payload, null, 2) });
    const hoverAt = async (needle: string, nth = 0) => {
      let at = -1;
      for (let i = 0; i <= nth; i++) at = json.getText().indexOf(needle, at + 1);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', json.uri, json.positionAt(at + 5));
      return hovers.flatMap((x) => x.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    };
    v35.requests.length = 0;
    const source = await hoverAt(sync);
    assert.match(source, /Canton synchronizer/);
    assert.doesNotMatch(source, /Canton party/);
    assert.match(await hoverAt(sync, 1), /Canton synchronizer/);
    assert.match(await hoverAt(v35.ledger.parties.Alice), /Canton party/);
    // A fingerprint has an update id's shape; its key says what it is, so it is no update id.
    assert.doesNotMatch(await hoverAt(fingerprint), /update id/);
    assert.equal(v35.requests.filter((r) => r.path.startsWith('/v2/updates')).length, 0, 'a fingerprint is not looked up as an update');
  });

  it('hovers an id with its essentials; repeated hovers make one request', async () => {
    const api = await cantonLens();
    api.lookups.clear();
    v35.requests.length = 0;
    const line = 3;
    const pos = new vscode.Position(line, doc.lineAt(line).text.indexOf(v35.ledger.samples.archivedContract) + 3);
    const hovers = await Promise.all(
      Array.from({ length: 100 }, () => vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)),
    );
    const text = (h: vscode.Hover[]) => h.flatMap((x) => x.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text(hovers[0]), /Canton contract id/);
    // A hover waits 1.5 s for the node, then says it is still looking (a loaded machine can take
    // that long): the hovers after it get the answer of that same request.
    const answered = await until(
      'a hover with the answer',
      async () => {
        const t = text(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos));
        return /Still looking it up/.test(t) ? undefined : t;
      },
      30_000,
    );
    assert.match(answered, /Archived · `Iou:Iou`/);
    assert.match(answered, /command:cantonLens\.showContract/);
    const lookups = v35.requests.filter((r) => r.path === '/v2/events/events-by-contract-id');
    assert.equal(lookups.length, 1, `${lookups.length} requests for 100 hovers and more`);
    const none = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(6, 40));
    assert.equal(text(none).includes('Canton'), false, 'no hover on a hash');
  });

  it('turns ids into links, not hashes or party ids', async () => {
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri, 10);
    const ours = links.filter((l) => l.target?.scheme === 'command' || l.tooltip?.includes('Canton Lens'));
    assert.equal(ours.length, 4);
    const targets = ours.map((l) => decodeURIComponent(l.target!.toString(true)));
    assert.ok(
      targets.some((t) => t.includes('cantonLens.showTransaction') && t.includes(v35.ledger.samples.transferUpdate)),
      targets.join('\n'),
    );
  });

  it('looks an id up on all nodes side by side', async () => {
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.lookUpOnAllNodes', v35.ledger.samples.activeContract);
    const panel = await panelFor(target, /on every node/);
    assert.match(panel.lastBody, /Visible on 2 of 3 nodes/);
    assert.match(panel.lastBody, /<td title="[^"]+"><bdi>p35 as Bob<\/bdi><\/td>\s*<td><ul class="cells"><li class="cell cell-notSeen"/);
    assert.match(
      panel.lastBody,
      /<bdi>p35<\/bdi><\/td>\s*<td><ul class="cells"><li class="cell cell-seen"[^>]*><span class="party" title="Alice::1220/,
      'a cell per party, naming it',
    );
  });

  it('navigates to an id inside a panel and back', async () => {
    const api = await cantonLens();
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', v35.ledger.samples.hostileContract);
    const panel = await panelFor(target, /badge active/);
    assert.ok(panel.lastBody.includes(`data-open-id="${v35.ledger.samples.activeContract}"`), 'the argument links the Iou it mentions');
    panel.navigate({ kind: 'contract', id: v35.ledger.samples.activeContract, node: 'p35' });
    await until('the linked contract', () => (panel.current.id === v35.ledger.samples.activeContract && /Iou:Iou/.test(panel.lastBody) ? true : undefined));
    assert.equal(panel.canGoBack, true);
    panel.back();
    await until('the first contract again', () =>
      panel.current.id === v35.ledger.samples.hostileContract && /Notes:Note/.test(panel.lastBody) ? true : undefined,
    );
    assert.equal(panel.canGoForward, true);
    assert.ok(api.panels.panels.includes(panel), 'still the same panel');
  });

  it('keeps recent lookups in the node tree, with pin and clear, persisted in the global state', async () => {
    const api = await cantonLens();
    const tree = await until('recent lookups', async () => find(await renderTree(api), 'Recent Lookups'));
    assert.ok(tree.children.length >= 4, `${tree.children.length} recent lookups`);
    const first = api.recent.all()[0];
    assert.ok(
      tree.children.some((c) => c.description === `${first.summary} · ${first.node} as ${first.askedByUser}`),
      'who asked is part of the entry',
    );
    assert.ok(tree.children.every((c) => c.command === 'cantonLens.showContract' || c.command === 'cantonLens.showTransaction'));
    await vscode.commands.executeCommand('cantonLens.pinLookup', { kind: 'recent', name: first.node, entry: first });
    await vscode.commands.executeCommand('cantonLens.clearRecentLookups');
    assert.deepEqual(
      api.recent.all().map((e) => [e.id, e.pinned]),
      [[first.id, true]],
    );
    const after = find(await renderTree(api), 'Recent Lookups')!;
    assert.equal(after.children.length, 1);
    assert.equal(after.children[0].contextValue, 'cantonLens.recent.pinned');
    await vscode.commands.executeCommand('cantonLens.unpinLookup', { kind: 'recent', name: first.node, entry: first });
    await vscode.commands.executeCommand('cantonLens.clearRecentLookups');
    assert.equal(find(await renderTree(api), 'Recent Lookups'), undefined, 'an empty list is not shown');
  });

  it('does not ask the node from a hover when network hovers are off', async () => {
    const api = await cantonLens();
    api.lookups.clear();
    await vscode.workspace.getConfiguration('cantonLens').update('hover.fetchFromNode', false, vscode.ConfigurationTarget.Global);
    try {
      v35.requests.length = 0;
      const pos = new vscode.Position(1, doc.lineAt(1).text.indexOf(v35.ledger.samples.activeContract) + 3);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos);
      const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
      assert.match(text, /Canton contract id/);
      assert.match(text, /Hovers do not ask the node/);
      assert.equal(v35.requests.length, 0);
    } finally {
      await vscode.workspace.getConfiguration('cantonLens').update('hover.fetchFromNode', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('keeps a 10 MB log responsive: links are bounded', async () => {
    const line = `2026-11-21T09:14:05.120Z INFO contract ${v35.ledger.samples.activeContract} update ${v35.ledger.samples.transferUpdate} ${'x'.repeat(60)}\n`;
    const big = await vscode.workspace.openTextDocument({ language: 'log', content: line.repeat(Math.ceil((10 * 1024 * 1024) / line.length)) });
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', big.uri, 0);
    assert.equal(links.length, 2000, 'at most 2,000 links, from the first 4 MB');
    const pos = new vscode.Position(big.lineCount - 10, line.indexOf(v35.ledger.samples.transferUpdate) + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', big.uri, pos);
    assert.ok(
      hovers.some((h) => h.contents.some((c) => (typeof c === 'string' ? c : c.value).includes('Canton update id'))),
      'hovers work anywhere in the file',
    );
  });
});
