// The external signing loop in the editor: a prepare request (fixed by the quick fix where it lacks
// what every node requires), prepared on the node, a development key, its signature, execute and
// wait, on 3.4, 3.5 and 3.6; and an execute-only user, who may neither prepare nor see the transaction.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PrepareResult } from '../../../src/commands/externalSigningCommands';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { knowExternalParty } from '../../../fake-ledger/src/interactiveSubmissions';
import type { ExecuteReviewPanel } from '../../../src/panels/executeReviewPanel';
import type { DevKeyInfo } from '../../../src/services/devSigningKeys';
import { noteCreate } from '../../support/demoCommands';
import { cantonLens, resetNodes } from './testApi';

describe('The external signing loop', function () {
  this.timeout(90_000);
  let node: FakeLedgerNode;
  let dir: string;

  before(async () => {
    await resetNodes();
    node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-loop-'));
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'loop', url: node.url });
    await vscode.commands.executeCommand('cantonLens.setToken', 'loop', node.mintToken('wallet'));
    (await cantonLens()).execute.confirm = async () => true;
  });

  /** The quick fix offered on the file's diagnostics, applied and saved. */
  const applyQuickFix = async (uri: vscode.Uri): Promise<string> => {
    const doc = await vscode.workspace.openTextDocument(uri);
    const diagnostics = vscode.languages.getDiagnostics(uri);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostics[0].range);
    const fix = actions.find((a) => a.kind?.value === 'quickfix' && a.isPreferred);
    assert.ok(fix?.edit, `a quick fix among ${actions.map((a) => a.title).join(', ')}`);
    await vscode.workspace.applyEdit(fix.edit);
    await doc.save();
    return fix.title;
  };
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: prepare → review hash → generate key → sign → execute and wait`, async () => {
      node.version = version;
      const key = await vscode.commands.executeCommand<DevKeyInfo>('cantonLens.generateSigningKey');
      assert.match(key.fingerprint, /^1220[0-9a-f]{64}$/);
      assert.ok(!JSON.stringify(key).includes('PRIVATE'), 'only the public part leaves the key store');
      const party = `Loop${version.replace('.', '')}::${key.fingerprint}`;
      knowExternalParty(node.ledger, party, Buffer.from(key.publicKey, 'base64'));
      const file = path.join(dir, `loop-${version}.prepare.json`);
      fs.writeFileSync(
        file,
        JSON.stringify(
          {
            commandId: `loop-${version}`,
            actAs: [party],
            verboseHashing: true,
            commands: [noteCreate(node, party, 'hi')],
          },
          null,
          2,
        ),
      );
      // Written as the spec allows, refused as every node would refuse it: nothing is sent, the quick fix adds the fields.
      const prepares = () => node.requests.filter((r) => r.path.endsWith('/prepare')).length;
      const before = prepares();
      assert.equal(await vscode.commands.executeCommand('cantonLens.prepareTransaction', vscode.Uri.file(file), 'loop'), undefined);
      assert.equal(prepares(), before, 'nothing sent');
      assert.ok(vscode.languages.getDiagnostics(vscode.Uri.file(file)).some((d) => d.message.startsWith('$.synchronizerId: Missing.')));
      assert.match(await applyQuickFix(vscode.Uri.file(file)), /synchronizerId, packageIdSelectionPreference/);
      const fixed = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      assert.deepEqual([fixed.synchronizerId, fixed.packageIdSelectionPreference], ['', []]);
      const prepared = await vscode.commands.executeCommand<PrepareResult>('cantonLens.prepareTransaction', vscode.Uri.file(file), 'loop');
      assert.equal(prepared.computedHash, prepared.preparedTransactionHash, "the hash recomputed locally equals the node's");
      assert.ok(
        await vscode.commands.executeCommand<boolean>('cantonLens.signPreparedTransaction', prepared.executeFile, key.fingerprint),
        `${version}: signing with the key just generated failed`,
      );
      const signed = JSON.parse(fs.readFileSync(prepared.executeFile.fsPath, 'utf8'));
      assert.equal(signed.partySignatures.signatures[0].signatures[0].signedBy, key.fingerprint);
      const panel = await vscode.commands.executeCommand<ExecuteReviewPanel>('cantonLens.executeSubmission', prepared.executeFile, 'loop');
      assert.ok(
        panel.current!.findings.some((f) => f.id === 'signature' && f.severity === 'ok'),
        'the signature is verified before sending',
      );
      assert.deepEqual(
        panel.current!.findings.filter((f) => f.severity === 'block'),
        [],
      );
      assert.equal(panel.current!.findings.find((f) => f.id === 'rights')?.severity, 'ok', "the user's rights were read from the node");
      assert.deepEqual(
        panel.current!.hashing?.inputs.filter((i) => !i.inNodeDetails),
        [],
        "the node's hashing details are beside the local computation",
      );
      const outcome = await panel.submit('executeAndWait');
      assert.ok(outcome?.state === 'accepted' && /^1220[0-9a-f]{64}$/.test(outcome.updateId ?? ''), JSON.stringify(outcome));
      assert.equal(outcome.userId, 'wallet');
    });
  }

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[])
    it(`${version}: an execute-only user: its prepare is not sent, and Submit and Show Transaction executes and waits, saying why`, async () => {
      node.version = version;
      const key = await vscode.commands.executeCommand<DevKeyInfo>('cantonLens.generateSigningKey');
      const party = `OnlyExec${version.replace('.', '')}::${key.fingerprint}`;
      knowExternalParty(node.ledger, party, Buffer.from(key.publicKey, 'base64'));
      const file = path.join(dir, `only-exec-${version}.prepare.json`);
      const request = { commandId: `only-exec-${version}`, actAs: [party], synchronizerId: '', packageIdSelectionPreference: [], verboseHashing: true };
      const commands = [noteCreate(node, party, 'x')];
      fs.writeFileSync(file, JSON.stringify({ ...request, commands }, null, 2));
      await vscode.commands.executeCommand('cantonLens.setToken', 'loop', node.mintToken('executor'));
      try {
        const prepares = () => node.requests.filter((r) => r.path.endsWith('/prepare')).length;
        const before = prepares();
        assert.equal(await vscode.commands.executeCommand('cantonLens.prepareTransaction', vscode.Uri.file(file), 'loop'), undefined);
        assert.equal(prepares(), before, 'a prepare the node would refuse (403) is not sent');
        // Prepared by a user who may read; executed by the one who may only execute.
        await vscode.commands.executeCommand('cantonLens.setToken', 'loop', node.mintToken('wallet'));
        const prepared = await vscode.commands.executeCommand<PrepareResult>('cantonLens.prepareTransaction', vscode.Uri.file(file), 'loop');
        assert.ok(await vscode.commands.executeCommand<boolean>('cantonLens.signPreparedTransaction', prepared.executeFile, key.fingerprint));
        await vscode.commands.executeCommand('cantonLens.setToken', 'loop', node.mintToken('executor'));
        const panel = await vscode.commands.executeCommand<ExecuteReviewPanel>('cantonLens.executeSubmission', prepared.executeFile, 'loop');
        assert.equal(panel.current!.findings.find((f) => f.id === 'rights')?.severity, 'ok', 'it may execute');
        assert.match(panel.current!.findings.find((f) => f.id === 'showRights')?.text ?? '', /not read as it .*executeAndWait instead/);
        const outcome = await panel.submit('executeAndWaitForTransaction');
        // What the review showed when Submit sent nothing, so that a failure says why.
        const shown = () =>
          JSON.stringify({ outcome, findings: panel.current?.findings, decodeError: panel.current?.decodeError, problems: panel.fileProblems });
        assert.ok(outcome?.state === 'accepted', shown());
        assert.equal(outcome.endpoint, 'executeAndWait');
        assert.match(outcome.updateId ?? '', /^1220[0-9a-f]{64}$/);
        assert.match(outcome.note ?? '', /CanExecuteAs is not a read right/);
        assert.ok(
          !node.requests.some((r) => r.path.endsWith('/executeAndWaitForTransaction') && r.body.includes(party)),
          'the request the node would refuse is not sent',
        );
      } finally {
        await vscode.commands.executeCommand('cantonLens.setToken', 'loop', node.mintToken('wallet'));
      }
    });

  it('a prepare request with problems sends nothing, and shows them on their JSON paths', async () => {
    const file = path.join(dir, 'bad.prepare.json');
    fs.writeFileSync(file, JSON.stringify({ commandId: 'x', actAs: ['Alice'], commands: [] }));
    const before = node.requests.length;
    assert.equal(await vscode.commands.executeCommand('cantonLens.prepareTransaction', vscode.Uri.file(file), 'loop'), undefined);
    assert.equal(node.requests.length, before);
    assert.ok(vscode.languages.getDiagnostics(vscode.Uri.file(file)).some((d) => d.message.startsWith('$.actAs[0]')));
  });
  it("a prepare whose argument does not fit the workspace's Daml source asks first; sent anyway, the node's 500 is explained", async () => {
    node.version = '3.5';
    const key = await vscode.commands.executeCommand<DevKeyInfo>('cantonLens.generateSigningKey');
    const party = `Types::${key.fingerprint}`;
    knowExternalParty(node.ledger, party, Buffer.from(key.publicKey, 'base64'));
    const file = path.join(dir, 'types.prepare.json');
    const create = noteCreate(node, party, 'hi');
    const commands = [{ CreateCommand: { ...create.CreateCommand, createArguments: { ...create.CreateCommand.createArguments, tags: 'a' } } }];
    fs.writeFileSync(file, JSON.stringify({ commandId: 'types', actAs: [party], synchronizerId: '', packageIdSelectionPreference: [], commands }));
    const win = vscode.window as unknown as { showWarningMessage: unknown; showErrorMessage: unknown };
    const original = { warn: win.showWarningMessage, error: win.showErrorMessage };
    const warned: string[] = [];
    const errors: string[] = [];
    let answer: string | undefined;
    win.showWarningMessage = async (m: string) => (warned.push(m), answer);
    win.showErrorMessage = async (m: string) => (errors.push(m), undefined);
    const prepares = () => node.requests.filter((r) => r.path.endsWith('/prepare')).length;
    try {
      const before = prepares();
      assert.equal(await vscode.commands.executeCommand('cantonLens.prepareTransaction', vscode.Uri.file(file), 'loop'), undefined);
      assert.equal(prepares(), before, 'declined: nothing sent');
      assert.match(warned[0] ?? '', /1 argument\(s\) do not fit the types of the workspace's Daml source/);
      const tags = vscode.languages
        .getDiagnostics(vscode.Uri.file(file))
        .find((d) => d.message.startsWith('$.commands[0].CreateCommand.createArguments.tags:'));
      assert.match(tags?.message ?? '', /a list is written as a JSON array, not text: .*internal error \(500\)/);
      answer = 'Prepare Anyway';
      assert.equal(await vscode.commands.executeCommand('cantonLens.prepareTransaction', vscode.Uri.file(file), 'loop'), undefined);
      assert.equal(prepares(), before + 1, 'sent once');
      assert.match(errors.at(-1) ?? '', /Not prepared on loop: .*usually means an argument value of the wrong JSON type for its Daml type/);
    } finally {
      win.showWarningMessage = original.warn;
      win.showErrorMessage = original.error;
    }
  });
});
