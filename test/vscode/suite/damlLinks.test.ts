// Code and ledger side by side, in VS Code with the test workspace's Daml model (two
// daml.yaml packages, the demo ledger's templates): ledger names open their Daml definition, and
// Daml templates show what is on the ledger in a CodeLens that opens the table.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { DamlTarget } from '../../../src/daml/damlIndex';
import type { AcsPanel } from '../../../src/panels/acsPanel';
import type { PanelTarget } from '../../../src/panels/lookupPanels';
import { cantonLens, resetNodes, until } from './testApi';

const MODEL = 'canton-lens-demo-model';

describe('Code and ledger side by side', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const iouFile = () => vscode.Uri.joinPath(folder(), 'daml-model', 'daml', 'Iou.daml');
  const iouTemplateId = () => `${'x'.repeat(64)}:Iou:Iou`;
  const activeFile = () => vscode.window.activeTextEditor?.document.uri.path ?? '';

  before(async () => {
    await resetNodes();
    node = await FakeLedgerNode.start({ version: '3.5' });
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'daml', url: node.url, parties: [node.ledger.parties.Alice] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'daml', node.mintToken('alice'));
    await vscode.commands.executeCommand('cantonLens.selectNode', 'daml');
  });
  after(async () => {
    await vscode.workspace.getConfiguration('cantonLens').update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await node.close();
  });

  it('opens a template by package name and module + entity, at its line, from the daml.yaml source folders', async () => {
    const target = await vscode.commands.executeCommand<DamlTarget>('cantonLens.openDamlDefinition', iouTemplateId(), undefined, MODEL);
    assert.ok(target);
    assert.equal(target.packageName, MODEL);
    assert.ok(activeFile().endsWith('/daml-model/daml/Iou.daml'), activeFile());
    const sel = vscode.window.activeTextEditor!.selection;
    assert.equal(vscode.window.activeTextEditor!.document.getText(sel), 'Iou');
    assert.match(vscode.window.activeTextEditor!.document.lineAt(sel.start.line).text, /^template Iou/);
    const api = await cantonLens();
    assert.equal(api.daml.workspace.stats.projects, 2);
    assert.equal(api.daml.workspace.stats.files, 6);
  });

  it('opens a choice declared in an interface of another package (a package-id interface id)', async () => {
    const target = await vscode.commands.executeCommand<DamlTarget>(
      'cantonLens.openDamlDefinition',
      `${'h'.repeat(64)}:Finance.Holding:Holding`,
      'Holding_Split',
    );
    assert.equal(target?.packageName, 'canton-lens-demo-holding');
    assert.equal(vscode.window.activeTextEditor!.document.getText(vscode.window.activeTextEditor!.selection), 'Holding_Split');
    assert.ok(activeFile().endsWith('/daml-holding/daml/Finance/Holding.daml'));
  });

  it('says what was searched when nothing defines the name, and ignores what is not an id', async () => {
    assert.equal(await vscode.commands.executeCommand('cantonLens.openDamlDefinition', 'p:Nowhere:Thing', undefined, MODEL), undefined);
    assert.equal(await vscode.commands.executeCommand('cantonLens.openDamlDefinition', { templateId: 42 }), undefined);
  });

  it('follows a new template into the index as the file is saved, and forgets a deleted file', async () => {
    const api = await cantonLens();
    const extra = vscode.Uri.joinPath(folder(), 'daml-model', 'daml', 'Extra.daml');
    await vscode.workspace.fs.writeFile(extra, Buffer.from('module Extra where\ntemplate Extra with p : Party where signatory p\n'));
    try {
      await until('Extra indexed', () => api.daml.workspace.index.find({ templateId: 'p:Extra:Extra' })?.targets.length === 1);
    } finally {
      await vscode.workspace.fs.delete(extra);
    }
    await until('Extra forgotten', () => api.daml.workspace.index.find({ templateId: 'p:Extra:Extra' })?.targets.length === 0);
  });

  it("a contract panel's template opens the Daml line (the package name from the shown event)", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = await cantonLens();
    const t = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.activeContract, 'daml');
    const panel = await until('the contract panel', () => api.panels.panels.find((p) => p.current.id === t.id && /data-daml-template/.test(p.lastBody)));
    const templateId = /data-daml-template="([^"]+)"/.exec(panel.lastBody)![1];
    assert.match(templateId, /:Iou:Iou$/);
    await panel.openDaml(templateId, undefined, undefined);
    await until('Iou.daml', () => activeFile().endsWith('/daml-model/daml/Iou.daml'));
  });

  it('shows counts above each template in a CodeLens, and its click opens the table filtered to it', async () => {
    const api = await cantonLens();
    const doc = await vscode.workspace.openTextDocument(iouFile());
    await vscode.window.showTextDocument(doc);
    const all = await until('resolved lenses', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 10);
      // Resolved with its counts, not the "counting…" a lens says while they are read.
      return l.length > 0 && l.every((x) => x.command?.title && !/counting on/.test(x.command.title)) ? l : undefined;
    });
    // One count above the template; above each of its choices, Exercise on the Ledger….
    const lenses = all.filter((l) => l.command?.command !== 'cantonLens.exerciseOnLedger');
    assert.deepEqual(
      all.filter((l) => l.command?.command === 'cantonLens.exerciseOnLedger').map((l) => (l.command?.arguments?.[0] as { choice: string }).choice),
      ['Iou_Transfer', 'Iou_Split'],
    );
    assert.equal(lenses.length, 1);
    const lens = lenses[0];
    assert.equal(lens.range.start.line, 6);
    assert.match(lens.command!.title, /[\d,]+ active · [\d,]+ created in the last 24 h on daml/);
    assert.deepEqual(lens.command!.arguments, ['daml', undefined, `#${MODEL}:Iou:Iou`]);
    node.requests.length = 0;
    const panel = await vscode.commands.executeCommand<AcsPanel>(lens.command!.command, ...lens.command!.arguments);
    // A page reads once it is shown: an editor an earlier test opens late can cover it, so it is brought forward.
    await until(
      'the table',
      () => {
        if (panel.shown.pages === 0) panel.reveal();
        return panel.shown.done || panel.shown.error !== '';
      },
      20_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(panel.shown)}, visible ${panel.webviewPanel.visible}, loaded again ${panel.pageReloads}×`);
    });
    assert.equal(panel.shown.error, '');
    const shown = /([\d,]+) active/.exec(lens.command!.title)![1].replace(/,/g, '');
    assert.equal(String(panel.shown.contracts), shown, 'the table shows as many as the lens counted');
    assert.equal(panel.target.templateId, `#${MODEL}:Iou:Iou`);

    // Typing asks nothing: the counts are cached per template, asked only when typing pauses.
    const before = api.daml.counts.requests;
    // A node check (the tree re-checks stale nodes) renews the counts once: that is "refreshed with the node".
    const checkedAt = () => {
      const st = api.nodes.status(api.nodes.find('daml')!);
      return 'checkedAt' in st ? st.checkedAt : 0;
    };
    const checkedBefore = checkedAt();
    const editor = await vscode.window.showTextDocument(doc);
    for (let i = 0; i < 10; i++) {
      await editor.edit((e) => e.insert(new vscode.Position(1, 0), '-'));
      void vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 10);
    }
    await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 10);
    assert.ok(api.daml.counts.requests - before <= (checkedAt() === checkedBefore ? 0 : 1), `${api.daml.counts.requests - before} requests while typing`);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('with a node whose user may not read, the lens says so briefly and switches to a node that can read', async () => {
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'executor', url: node.url });
    await vscode.commands.executeCommand('cantonLens.setToken', 'executor', node.mintToken('executor'));
    await vscode.commands.executeCommand('cantonLens.selectNode', 'executor');
    const api = await cantonLens();
    try {
      const doc = await vscode.workspace.openTextDocument(iouFile());
      await vscode.window.showTextDocument(doc);
      const lens = await until('the lens of the executor node', async () => {
        const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 10);
        return l.find((x) => x.command?.command !== 'cantonLens.exerciseOnLedger' && /no read right/.test(x.command?.title ?? ''));
      });
      assert.equal(lens.command!.title, '$(lock) Canton: no read right on executor · switch to daml');
      assert.match(lens.command!.tooltip ?? '', /executor/);
      assert.deepEqual(lens.command!.arguments, ['daml']);
      await vscode.commands.executeCommand(lens.command!.command, ...lens.command!.arguments);
      assert.equal(api.nodes.active()?.name, 'daml');
    } finally {
      await vscode.commands.executeCommand('cantonLens.selectNode', 'daml');
      await vscode.commands.executeCommand('cantonLens.removeNode', 'executor');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it("a template the node's packages lack says so in its lens; the file's other templates are still counted", async () => {
    // A real node refuses the whole read (404 NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME) and names the template.
    const extra = vscode.Uri.joinPath(folder(), 'daml-model', 'daml', 'IouExtra.daml');
    const text = 'module IouExtra where\ntemplate NotUploaded with p : Party where signatory p\ntemplate AlsoNot with p : Party where signatory p\n';
    await vscode.workspace.fs.writeFile(extra, Buffer.from(text));
    try {
      const api = await cantonLens();
      await until('indexed', () => api.daml.workspace.index.find({ templateId: 'p:IouExtra:NotUploaded' })?.targets.length === 1);
      const doc = await vscode.workspace.openTextDocument(extra);
      await vscode.window.showTextDocument(doc);
      const lenses = await until('resolved lenses', async () => {
        const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 10);
        return l.length === 2 && l.every((x) => x.command?.title && !/counting on/.test(x.command.title)) ? l : undefined;
      });
      for (const lens of lenses) assert.match(lens.command!.title, /not on daml/, lens.command!.title);
      const counted = await api.daml.counts.counts([`#${MODEL}:Iou:Iou`, `#${MODEL}:IouExtra:NotUploaded`, '#no-such-package:A:B']);
      assert.ok(counted?.state === 'counted', JSON.stringify(counted));
      assert.deepEqual([...counted.unknown].sort(), [`#${MODEL}:IouExtra:NotUploaded`, '#no-such-package:A:B']);
      assert.ok((counted.counts.get(`#${MODEL}:Iou:Iou`)?.active ?? 0) > 0, 'Iou still counted');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(extra);
    }
  });

  it('a hover on a template name shows the counts and the latest contracts as links', async () => {
    const doc = await vscode.workspace.openTextDocument(iouFile());
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(6, 10));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /Template/);
    assert.match(text, /\d+ active/);
    assert.match(text, /command:cantonLens\.showContract/);
  });

  it('asks nothing when CodeLens is off or no node is active', async () => {
    const doc = await vscode.workspace.openTextDocument(iouFile());
    await vscode.workspace.getConfiguration('cantonLens').update('codeLens.enabled', false, vscode.ConfigurationTarget.Global);
    assert.equal((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)).length, 0);
    await vscode.workspace.getConfiguration('cantonLens').update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('cantonLens').update('activeNode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', [], vscode.ConfigurationTarget.Global);
    await until('no node', async () => (await cantonLens()).nodes.active() === undefined);
    const requests = node.requests.length;
    assert.equal((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)).length, 0);
    assert.equal(node.requests.length, requests);
  });
});
