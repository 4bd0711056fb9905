// Packages on the node beside the workspace's Daml projects, and a DAR put on the node, on 3.4,
// 3.5 and 3.6: the tree's Packages section (read when expanded; this participant's vetting apart
// from other participants'), each project's state against the node, Upload DAR (one POST, on the
// synchronizer picked among the node's two, the tree read again) and Validate DAR on Node (on the
// remembered synchronizer; a refusal shown on the project's daml.yaml); a 3.4.9 node, whose
// vetting list is the older GET, and a node whose vetting list fails.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { dar, packageIdOf } from '../../support/darBuilder';
import { writeDemoDars } from '../../../fake-ledger/src/demo';
import type { DarChoice } from '../../../src/commands/darCommands';
import type { SynchronizerRef } from '../../../src/daml/darSynchronizer';
import { cantonLens, resetNodes, until } from './testApi';

describe('Packages and DARs', function () {
  this.timeout(60_000);
  const fakes: FakeLedgerNode[] = [];
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const written: vscode.Uri[] = [];
  const write = async (path: string, data: Buffer | string) => {
    const uri = vscode.Uri.joinPath(folder(), path);
    await vscode.workspace.fs.writeFile(uri, typeof data === 'string' ? Buffer.from(data) : data);
    written.push(uri);
    return uri;
  };

  before(resetNodes);
  after(async () => {
    await resetNodes();
    for (const dir of ['daml-app', 'daml-model/.daml', 'daml-holding/.daml'])
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), dir), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await Promise.all(fakes.map((f) => f.close()));
  });

  /** The rows under the node's Packages, as a person expanding only that section reads them. */
  const packagesRows = async (name: string): Promise<{ label: string; description: string }[]> => {
    const api = await cantonLens();
    const text = (v: unknown) => (typeof v === 'string' ? v : ((v as { label?: string } | undefined)?.label ?? ''));
    const nodeElement = (await api.nodeTree.getChildren()).find((e) => text(api.nodeTree.getTreeItem(e).label) === name)!;
    const root = (await api.nodeTree.getChildren(nodeElement)).find((e) => text(api.nodeTree.getTreeItem(e).label) === 'Packages');
    assert.ok(root, 'a Packages row under the node');
    return (await api.nodeTree.getChildren(root)).map((e) => {
      const item = api.nodeTree.getTreeItem(e);
      return { label: text(item.label), description: text(item.description) };
    });
  };

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: lists the node's packages and each project's state, uploads a DAR once, validates another build`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `pkg-${version}`;
      const config = vscode.workspace.getConfiguration('cantonLens');
      await config.update('nodes', [{ name, url: fake.url }], vscode.ConfigurationTarget.Global);
      await until('the node', () => api.nodes.find(name));
      await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken('participant_admin'));
      await api.nodes.check(api.nodes.find(name)!);

      // A new project, built; and the demo model built here with other code than the node runs.
      const app = Buffer.from(`my-app code ${version}`);
      await write('daml-app/daml.yaml', 'sdk-version: 3.4.0\nname: my-app\nversion: 0.1.0\nsource: daml\n');
      await write('daml-app/.daml/dist/my-app-0.1.0.dar', dar({ name: 'my-app-0.1.0', payload: app }));
      const otherModel = dar({ name: 'canton-lens-demo-model-1.0.0', payload: Buffer.from(`edited model ${version}`) });
      const modelDar = await write('daml-model/.daml/dist/canton-lens-demo-model-1.0.0.dar', otherModel);

      let rows = await packagesRows(name);
      const row = (label: string) => rows.find((r) => r.label === label);
      assert.match(row('my-app 0.1.0')?.description ?? '', /^workspace · not uploaded \(click to upload\)$/);
      assert.match(row('canton-lens-demo-model 1.0.0')?.description ?? '', /^workspace · another build on the node \([0-9a-f]{8}…\)$/);
      assert.match(row('canton-lens-demo-holding 1.0.0')?.description ?? '', /^workspace · not built here; the node has [0-9a-f]{8}…$/);
      // The demo model is vetted here and by a second participant; the partner app only there.
      assert.ok(
        rows.some((r) => r.label === 'canton-lens-demo-model 1.0.0' && r.description === 'vetted here on da1 · also vetted by 1 other participant'),
        rows.map((r) => `${r.label} ${r.description}`).join(' | '),
      );
      assert.equal(row('canton-lens-partner-app 1.0.0')?.description, 'not vetted here · also vetted by 1 other participant');
      const own = fake.requests.filter((r) => r.path === '/v2/package-vetting/list').map((r) => JSON.parse(r.body) as { topologyStateFilter?: unknown });
      assert.ok(
        own.some((b) => JSON.stringify(b.topologyStateFilter) === JSON.stringify({ participantIds: [fake.ledger.participantId], synchronizerIds: [] })),
      );

      // Two synchronizers: the upload asks which, and vets there.
      const asked: string[][] = [];
      const pickDa1 = (choices: readonly SynchronizerRef[]) => {
        asked.push(choices.map((c) => c.alias));
        return choices.find((c) => c.alias === 'da1');
      };
      const before = fake.requests.length;
      assert.equal(
        await vscode.commands.executeCommand('cantonLens.uploadDar', vscode.Uri.joinPath(folder(), 'daml-app/.daml/dist/my-app-0.1.0.dar'), name, {
          vetAllPackages: true,
          pickSynchronizer: pickDa1,
        }),
        true,
      );
      assert.deepEqual(asked, [['da1', 'global']]);
      const uploads = fake.requests.slice(before).filter((r) => r.path === '/v2/dars');
      assert.equal(uploads.length, 1, 'one POST');
      rows = await packagesRows(name);
      assert.equal(row('my-app 0.1.0')?.description, 'workspace · vetted on da1');
      assert.ok(rows.some((r) => r.label === 'my-app 0.1.0' && r.description === 'vetted here on da1'));

      // The same states above each daml.yaml's name line.
      const lensTitles = async (path: string) =>
        (
          (await vscode.commands.executeCommand<vscode.CodeLens[]>(
            'vscode.executeCodeLensProvider',
            (await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder(), path))).uri,
            10,
          )) ?? []
        ).map((l) => l.command?.title);
      assert.deepEqual(await lensTitles('daml-app/daml.yaml'), [`Canton: vetted on "${name}" (da1)`]);
      assert.deepEqual(await lensTitles('daml-model/daml.yaml'), [
        `Canton: "${name}" runs another build of canton-lens-demo-model 1.0.0`,
        'Validate DAR on Node',
      ]);

      // Another build of a vetted name and version: the node refuses it, and the daml.yaml says so.
      // The synchronizer picked for the upload is remembered: validation does not ask again.
      const beforeValidate = fake.requests.length;
      assert.equal(await vscode.commands.executeCommand('cantonLens.validateDar', modelDar, name, { pickSynchronizer: pickDa1 }), false);
      assert.equal(asked.length, 1, 'not asked again');
      const validated = fake.requests.slice(beforeValidate).filter((r) => r.path === '/v2/dars/validate');
      assert.equal(validated.length, 1);
      const yaml = vscode.Uri.joinPath(folder(), 'daml-model', 'daml.yaml');
      const diagnostics = await until('the refusal on daml.yaml', () => {
        const d = vscode.languages.getDiagnostics(yaml);
        return d.length ? d : undefined;
      });
      assert.equal(diagnostics[0].code, 'KNOWN_PACKAGE_VERSION');
      assert.match(diagnostics[0].message, new RegExp(`^${name}: .*same name and version`));
      assert.ok(!fake.requests.slice(before).some((r) => r.path === '/v2/dars' && r !== uploads[0]), 'validation uploads nothing');
      assert.deepEqual(
        [uploads[0], validated[0]].map((r) => new URLSearchParams(r.query).get('synchronizerId')),
        [fake.ledger.synchronizerId, fake.ledger.synchronizerId],
      );
      assert.ok(!(await packagesRows(name)).some((r) => r.description?.includes(packageIdOf(Buffer.from(`edited model ${version}`)).slice(0, 8))));

      // A new version the upgrade checks refuse: the refusal lands on the choice it names, in Iou.daml.
      const reason = 'The upgraded input type of choice Iou_Split on template Iou has changed the types of some of its original fields.';
      const next = await write(
        'daml-model/.daml/dist/canton-lens-demo-model-1.1.0.dar',
        dar({ name: 'canton-lens-demo-model-1.1.0', payload: Buffer.from(`model ${version} canton-lens-fake:not-valid-upgrade:${reason}`) }),
      );
      assert.equal(await vscode.commands.executeCommand('cantonLens.validateDar', next, name), false);
      const iou = vscode.Uri.joinPath(folder(), 'daml-model', 'daml', 'Iou.daml');
      const onChoice = await until('the refusal on the choice', () => vscode.languages.getDiagnostics(iou).find((d) => d.code === 'NOT_VALID_UPGRADE_PACKAGE'));
      const text = (await vscode.workspace.openTextDocument(iou)).getText(onChoice.range);
      assert.equal(text, 'Iou_Split');
      assert.match(onChoice.message, /Reason: The upgraded input type of choice Iou_Split/);
      await vscode.workspace.fs.delete(next);
    });
  }

  it('3.4.9 reads the vetting with the older GET; a node whose vetting list fails still shows its packages and the projects', async () => {
    const api = await cantonLens();
    const old = await FakeLedgerNode.start({ version: '3.4', versionString: '3.4.9' });
    const failing = await FakeLedgerNode.start({ version: '3.5' });
    fakes.push(old, failing);
    failing.injectFault({ path: '/v2/package-vetting/list', fault: { type: 'html500' } });
    const config = vscode.workspace.getConfiguration('cantonLens');
    await config.update(
      'nodes',
      [
        { name: 'old-3.4.9', url: old.url },
        { name: 'no-vetting', url: failing.url },
      ],
      vscode.ConfigurationTarget.Global,
    );
    await until('the nodes', () => api.nodes.find('old-3.4.9') && api.nodes.find('no-vetting'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'old-3.4.9', old.mintToken('participant_admin'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'no-vetting', failing.mintToken('participant_admin'));
    await write('daml-app/daml.yaml', 'sdk-version: 3.4.0\nname: my-app\nversion: 0.1.0\nsource: daml\n');

    const rows = await packagesRows('old-3.4.9');
    const text = rows.map((r) => `${r.label}: ${r.description}`);
    assert.ok(text.includes('canton-lens-demo-model 1.0.0: vetted here on da1 · also vetted by 1 other participant'), text.join(' | '));
    assert.ok(text.includes('canton-lens-partner-app 1.0.0: not vetted here · also vetted by 1 other participant'), text.join(' | '));
    assert.ok(old.requests.some((r) => r.method === 'GET' && r.path === '/v2/package-vetting'));
    assert.ok(!old.requests.some((r) => r.path === '/v2/package-vetting/list'), 'the route 3.4.9 lacks is not asked');

    const partial = await packagesRows('no-vetting');
    assert.equal(partial[0].label, 'Where packages are vetted is not known: the vetting list could not be read');
    assert.ok(
      partial.some((r) => r.label === 'my-app 0.1.0' && r.description.startsWith('workspace · ')),
      'the projects are shown',
    );
    // Without the vetting list their names are not known either: each package by its id.
    const unnamed = partial.filter((r) => /^[0-9a-f]{8}…$/.test(r.label));
    assert.ok(
      unnamed.length >= 2 && unnamed.every((r) => r.description === 'vetting not known'),
      partial.map((r) => `${r.label}: ${r.description}`).join(' | '),
    );
  });

  it('a node with one synchronizer: validate and upload do not ask, and let the node pick it', async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5', singleSynchronizer: true });
    fakes.push(fake);
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name: 'solo', url: fake.url }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('solo'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'solo', fake.mintToken('participant_admin'));
    const solo = await write('daml-app/.daml/dist/solo-1.0.0.dar', dar({ name: 'solo-1.0.0', payload: Buffer.from('solo app') }));
    const ask = () => assert.fail('not asked with one synchronizer');
    assert.equal(await vscode.commands.executeCommand('cantonLens.validateDar', solo, 'solo', { pickSynchronizer: ask }), true);
    assert.equal(await vscode.commands.executeCommand('cantonLens.uploadDar', solo, 'solo', { vetAllPackages: true, pickSynchronizer: ask }), true);
    const sent = fake.requests.filter((r) => r.path.startsWith('/v2/dars'));
    assert.deepEqual(
      sent.map((r) => [r.path, new URLSearchParams(r.query).get('synchronizerId')]),
      [
        ['/v2/dars/validate', null],
        ['/v2/dars', null],
      ],
    );
    assert.ok((await packagesRows('solo')).some((r) => r.label === 'solo 1.0.0' && r.description === 'vetted here on da1'));
  });

  it('a file that is not a DAR gets a clear error, and nothing is sent', async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5' });
    fakes.push(fake);
    const config = vscode.workspace.getConfiguration('cantonLens');
    await config.update('nodes', [{ name: 'notdar', url: fake.url }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('notdar'));
    const bad = await write('daml-app/not-a.dar', 'plain text, not a zip');
    const before = fake.requests.length;
    assert.equal(await vscode.commands.executeCommand('cantonLens.uploadDar', bad, 'notdar', { vetAllPackages: true }), false);
    assert.equal(fake.requests.slice(before).filter((r) => r.path.startsWith('/v2/dars')).length, 0);
  });

  it("without a DAR named, offers the workspace's built DARs (name, version, project), and Browse… opens at the project's .daml/dist", async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5', singleSynchronizer: true });
    fakes.push(fake);
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name: 'picks', url: fake.url }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('picks'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'picks', fake.mintToken('participant_admin'));
    // The demo's builds, as the demo workspace has them.
    writeDemoDars(folder().fsPath, { 'canton-lens-demo-holding': 'daml-holding', 'canton-lens-demo-model': 'daml-model' });
    let offered: readonly DarChoice[] = [];
    const pickModel = (choices: readonly DarChoice[]) => {
      offered = choices;
      return choices.find((c) => c.label === 'canton-lens-demo-model 1.0.0');
    };
    assert.equal(await vscode.commands.executeCommand('cantonLens.validateDar', undefined, 'picks', { pickDar: pickModel }), true);
    const row = (label: string) => offered.find((c) => c.label === label);
    assert.equal(row('canton-lens-demo-model 1.0.0')?.description, 'daml-model · built');
    assert.equal(row('canton-lens-demo-model 1.0.0')?.detail, 'daml-model/.daml/dist/canton-lens-demo-model-1.0.0.dar');
    assert.equal(row('canton-lens-demo-holding 1.0.0')?.description, 'daml-holding · built');
    assert.equal(offered.at(-1)?.label, 'Browse…');
    assert.equal(offered.at(-1)?.uri, undefined);
    assert.deepEqual(
      fake.requests.filter((r) => r.path.startsWith('/v2/dars')).map((r) => r.path),
      ['/v2/dars/validate'],
    );

    // Browse… from a file of the model: the dialog opens at the model's builds.
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder(), 'daml-model/daml/Iou.daml'));
    let dialog: vscode.OpenDialogOptions | undefined;
    const browse = (choices: readonly DarChoice[]) => choices.find((c) => c.label === 'Browse…');
    const uploaded = await vscode.commands.executeCommand('cantonLens.uploadDar', undefined, 'picks', {
      vetAllPackages: true,
      pickDar: browse,
      openDialog: (o: vscode.OpenDialogOptions) => ((dialog = o), undefined),
    });
    assert.equal(uploaded, false, 'the dialog was cancelled');
    assert.equal(dialog?.defaultUri?.toString(), vscode.Uri.joinPath(folder(), 'daml-model/.daml/dist').toString());
    assert.deepEqual(dialog?.filters && Object.values(dialog.filters), [['dar']]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
