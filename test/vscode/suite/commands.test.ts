// The inner loop in the editor, on 3.4, 3.5 and 3.6: Exercise on the Ledger… writes a request for
// a Daml choice on a contract picked from the node; Submit Commands reviews it and sends it once
// per click; a failed assertion is explained down to the choice and shown in Follow Completions
// beside the node's completions; the fixed request commits and opens its transaction; the same
// command id again is refused by the node as a duplicate, which is a completion too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { CommandsReviewPanel } from '../../../src/panels/commandsReviewPanel';
import type { CompletionsPanel } from '../../../src/panels/completionsPanel';
import { PARTNER_PACKAGE } from '../../../fake-ledger/src/partnerPackage';
import { cantonLens, resetNodes, until, useFakeNode } from './testApi';

describe('Commands from the editor', function () {
  this.timeout(90_000);
  const fakes: FakeLedgerNode[] = [];
  const folder = () => vscode.workspace.workspaceFolders![0].uri;

  before(resetNodes);
  after(async () => {
    await resetNodes();
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), 'commands'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await Promise.all(fakes.map((f) => f.close()));
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: exercise a choice from its lens, see the refusal at its choice, fix it, commit once, and the duplicate`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `cmd-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      await api.nodes.check(api.nodes.find(name)!);

      // Follow Completions first: it starts at the ledger end.
      const completions = await vscode.commands.executeCommand<CompletionsPanel>('cantonLens.followCompletions', name);
      const loop = api.commands.loaded()!;
      loop.pickContract = async (contracts) => contracts.find((c) => c.contractId === fake.ledger.samples.activeContract);

      // The lens's arguments for choice Iou_Split of the demo model's Iou.daml.
      const iou = vscode.Uri.joinPath(folder(), 'daml-model', 'daml', 'Iou.daml');
      const lines = Buffer.from(await vscode.workspace.fs.readFile(iou))
        .toString('utf8')
        .split('\n');
      const target = vscode.Uri.joinPath(folder(), 'commands', `split-${version}.commands.json`);
      const target0 = {
        file: iou.toString(),
        line: lines.findIndex((l) => l.includes('choice Iou_Split')),
        module: 'Iou',
        template: 'Iou',
        choice: 'Iou_Split',
        packageName: 'canton-lens-demo-model',
      };
      const written = await vscode.commands.executeCommand<vscode.Uri>('cantonLens.exerciseOnLedger', target0, name, target);
      const request = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(written)).toString('utf8'));
      assert.deepEqual(request.commands[0].ExerciseCommand.choiceArgument, { splitAmount: '0.0' }, 'the skeleton of the choice argument');
      assert.equal(request.commands[0].ExerciseCommand.contractId, fake.ledger.samples.activeContract);
      assert.equal(request.actAs[0], fake.ledger.parties.Alice, "a party of the token's rights");

      // Submit as written: the assertion fails; one POST; the review names the choice.
      const posts = () => fake.requests.filter((r) => r.path === '/v2/commands/submit-and-wait-for-transaction').length;
      const panel = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', written, name);
      assert.deepEqual(
        panel.current?.findings.map((f) => f.severity),
        ['ok'],
      );
      const failed = await panel.submit();
      assert.equal(posts(), 1);
      assert.equal(failed?.state, 'failed');
      const why = failed?.state === 'failed' ? failed.why : undefined;
      assert.equal(why?.code, 'DAML_FAILURE');
      assert.equal(why?.places[0]?.choice, 'Iou_Split');
      assert.equal(why?.userMessage, 'the split amount must be more than 0 and less than the amount');
      // Nothing is sent again by itself, and a second click while showing the outcome sends nothing.
      assert.equal(await panel.submit(), undefined);
      assert.equal(posts(), 1);
      await until('the refusal in Follow Completions', () =>
        completions.feed.rows({ status: 'failed' }).find((r) => r.source === 'submission' && r.why?.code === 'DAML_FAILURE'),
      );
      // The language-model tool tells the same, as data.
      const toolText = (await vscode.lm.invokeTool('cantonLens_whyCommandFailed', { input: { node: name }, toolInvocationToken: undefined })).content
        .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : ''))
        .join('');
      assert.match(toolText, /"code": "DAML_FAILURE"/);
      assert.match(toolText, /"choice": "Iou_Split"/);
      assert.doesNotMatch(toolText, /eyJ[A-Za-z0-9_-]+\./, 'no token in the answer');

      // Fix the argument; Submit Again with the same command id: it commits, and its transaction opens.
      const doc = await vscode.workspace.openTextDocument(written);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(written, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), doc.getText().replace('"0.0"', '"100.0"'));
      await vscode.workspace.applyEdit(edit);
      await doc.save();
      const committed = await panel.submitAgain('same');
      assert.equal(posts(), 2);
      assert.equal(committed?.state, 'committed', JSON.stringify(committed));
      const updateId = committed?.state === 'committed' ? committed.updateId : '';
      await until('the transaction panel on its exercise tree', () =>
        api.panels.panels.find((p) => p.current.id === updateId && p.current.shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS' && p.lookupResult?.found),
      );
      const done = await until('the completion', () => completions.feed.rows({ status: 'succeeded' }).find((r) => r.commandId === request.commandId));
      assert.equal(done.updateId, updateId);

      const submitAgainAndWait = async () => {
        const before = completions.feed.rows({ status: 'failed' }).length;
        await panel.submitAgain('same');
        await until('the next failed completion', () => completions.feed.rows({ status: 'failed' }).length > before || undefined);
      };
      // The same change again: the node deduplicates (409), and says so in a failed completion too.
      const dup = await panel.submitAgain('same');
      assert.equal(posts(), 3);
      assert.equal(dup?.state === 'failed' && dup.why.code, 'DUPLICATE_COMMAND');
      const dupRow = await until('the duplicate completion', () => completions.feed.rows({ status: 'failed' }).find((r) => r.source === 'completion'));
      assert.equal(dupRow.why?.code, 'DUPLICATE_COMMAND');
      // Paused and resumed: the stream is read again after the last offset, and nothing shows twice.
      completions.pause();
      completions.resume();
      await submitAgainAndWait();
      assert.equal(completions.feed.rows().filter((r) => r.commandId === request.commandId && r.status === 'succeeded').length, 1, 'the commit shows once');
      assert.equal(completions.feed.rows({ status: 'failed' }).filter((r) => r.why?.code === 'DUPLICATE_COMMAND').length, 2, 'each duplicate once');
      completions.dispose();
      // Opened again after all this: the recent past, with the refusal at submission this editor saw.
      const later = await vscode.commands.executeCommand<CompletionsPanel>('cantonLens.followCompletions', name);
      await until('the earlier refusal at submission', () =>
        later.feed.rows({ status: 'failed' }).find((r) => r.source === 'submission' && r.why?.code === 'DAML_FAILURE'),
      );
      await until('the earlier commit', () => later.feed.rows({ status: 'succeeded' }).find((r) => r.commandId === request.commandId));
      later.dispose();
      panel.dispose();
      // Later suites look for "the" open lookup panel: leave none.
      for (const p of [...api.panels.panels]) p.dispose();
    });
  }

  it("completes template ids, the template's choices (with their fields) and its active contracts on the node", async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1 });
    fakes.push(fake);
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name: 'cmd-complete', url: fake.url }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('cmd-complete'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'cmd-complete', fake.mintToken('alice'));
    await api.nodes.setActive('cmd-complete');
    await api.nodes.check(api.nodes.find('cmd-complete')!);
    const uri = vscode.Uri.joinPath(folder(), 'commands', 'complete.commands.json');
    const text =
      '{\n  "commandId": "c",\n  "actAs": [],\n  "commands": [{ "ExerciseCommand": { "templateId": "#canton-lens-demo-model:Iou:Iou", "choice": "", "contractId": "" } },\n' +
      '    { "ExerciseCommand": { "templateId": "#canton-lens-demo-model:Iou:Iou", "choice": "Iou_Split", "choiceArgument": { "s } } }]\n}\n';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
    const doc = await vscode.workspace.openTextDocument(uri);
    const at = (needle: string) => doc.positionAt(text.indexOf(needle) + needle.length);
    const labels = async (p: vscode.Position) =>
      (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, p)).items.map((i) =>
        typeof i.label === 'string' ? i.label : i.label.label,
      );
    const choices = await until('the choices', async () => {
      const l = await labels(at('"choice": "'));
      return l.includes('Iou_Split') ? l : undefined;
    });
    assert.ok(choices.includes('Iou_Transfer') && choices.includes('Archive'), choices.join(', '));
    const templates = await labels(at('"templateId": "'));
    assert.ok(templates.includes('#canton-lens-demo-model:Notes:Note'), templates.join(', '));
    const contracts = await labels(at('"contractId": "'));
    assert.ok(contracts.includes(fake.ledger.samples.activeContract), contracts.join(', '));
    assert.ok(!contracts.includes(fake.ledger.samples.archivedContract), 'only active contracts');
    assert.deepEqual(await labels(at('"choiceArgument": { "s')), ['splitAmount'], "the choice argument's Daml fields");
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: completes a template with no source in the workspace from the node's packages, its choices with a skeleton, its fields`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `cmd-nosource-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      await api.nodes.check(api.nodes.find(name)!);
      const token = '#canton-lens-partner-app:Partner.Token:Token';
      const uri = vscode.Uri.joinPath(folder(), 'commands', `nosource-${version}.commands.json`);
      const text =
        `{\n  "commandId": "c",\n  "actAs": ["${fake.ledger.parties.Alice}"],\n  "commands": [{ "ExerciseCommand": { "templateId": "", "choice": "", "contractId": "" } },\n` +
        `    { "ExerciseCommand": { "templateId": "${token}", "choice": "", "contractId": "" } },\n` +
        `    { "ExerciseCommand": { "templateId": "${token}", "choice": "Transfer", "choiceArgument": { "n } } }]\n}\n`;
      await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
      const doc = await vscode.workspace.openTextDocument(uri);
      const at = (needle: string, nth = 0) => {
        let i = -1;
        for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
        return doc.positionAt(i + needle.length);
      };
      const items = async (p: vscode.Position) =>
        (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, p)).items;
      const labelOf = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);
      const templates = await until("the node's templates", async () => {
        const l = (await items(at('"templateId": "'))).map(labelOf);
        return l.includes(token) ? l : undefined;
      });
      assert.ok(templates.includes(`${PARTNER_PACKAGE}:Partner.Token:Holding`), 'interfaces too, by package id');
      assert.ok(templates.includes('#canton-lens-demo-model:Iou:Iou'), "the workspace's own still complete");
      const choices = await items(at('"choice": "', 1));
      assert.deepEqual(choices.map(labelOf).sort(), ['Archive', 'Token_Peek', 'Token_Split', 'Transfer']);
      const transfer = choices.find((c) => labelOf(c) === 'Transfer')!;
      const docText = (transfer.documentation as vscode.MarkdownString).value;
      assert.ok(
        docText.includes(`"newOwner": "${fake.ledger.parties.Alice}"`) &&
          docText.includes('"kind": "Direct"') &&
          docText.includes('TransferKind: Direct (also Escrow, Burn)'),
        docText,
      );
      assert.deepEqual(
        (await items(at('"choiceArgument": { "n'))).map(labelOf).sort(),
        ['amount', 'kind', 'newOwner'],
        "the choice argument's fields from the package",
      );
    });

    it(`${version}: the review checks the arguments against the node's Daml-LF types and sends nothing that does not fit`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1 });
      fakes.push(fake);
      const name = `cmd-types-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      await api.nodes.check(api.nodes.find(name)!);
      const { Alice } = fake.ledger.parties;
      const uri = vscode.Uri.joinPath(folder(), 'commands', `types-${version}.commands.json`);
      const transfer = (choiceArgument: unknown) => ({
        commandId: `types-${version}`,
        actAs: [Alice],
        commands: [
          {
            ExerciseCommand: {
              templateId: '#canton-lens-partner-app:Partner.Token:Token',
              contractId: `00${'ab'.repeat(32)}`,
              choice: 'Transfer',
              choiceArgument,
            },
          },
        ],
      });
      await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(transfer({ newOwnr: Alice, amount: '1.0', kind: 'Direct' }), null, 2)));
      const posts = () => fake.requests.filter((r) => r.path.startsWith('/v2/commands/')).length;
      const panel = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', uri, name);
      const types = panel.current?.findings.filter((f) => f.id === 'types').map((f) => `${f.severity} ${f.text}`);
      assert.deepEqual(types, [
        'block commands[0].ExerciseCommand.choiceArgument.newOwnr: Transfer has no field newOwnr (its fields: newOwner, amount, kind): the node would refuse the commands.',
        'block commands[0].ExerciseCommand.choiceArgument.newOwner: missing: Transfer needs newOwner (Party): the node would refuse the commands.',
      ]);
      assert.equal(await panel.submit(), undefined);
      assert.equal(posts(), 0, 'nothing sent');
      // Fixed in the file: the review follows it, and the arguments fit.
      await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(transfer({ newOwner: Alice, amount: '1.0', kind: 'Direct' }), null, 2)));
      await until(
        'the fixed review',
        () => panel.current?.findings.some((f) => f.id === 'types' && f.severity === 'ok' && /fit the types of the node's packages/.test(f.text)) || undefined,
      );
      panel.dispose();
    });
  }

  it("3.5: the review warns of an Int64 written as a number by the workspace's Daml source, and explains the node's 500 when sent anyway", async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5' });
    fakes.push(fake);
    const name = 'cmd-int64';
    await useFakeNode(api, fake, name, 'alice');
    await api.nodes.check(api.nodes.find(name)!);
    const { Alice } = fake.ledger.parties;
    const uri = vscode.Uri.joinPath(folder(), 'commands', 'int64.commands.json');
    const settlement = (legs: unknown) => ({
      commandId: 'int64',
      actAs: [Alice],
      commands: [
        {
          CreateCommand: {
            templateId: '#canton-lens-demo-model:Settlement:Settlement',
            createArguments: { operator: Alice, buyer: Alice, seller: Alice, legs, memo: '' },
          },
        },
      ],
    });
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(settlement(2), null, 2)));
    const panel = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', uri, name);
    const types = panel.current?.findings.filter((f) => f.id === 'types').map((f) => `${f.severity} ${f.text}`);
    assert.equal(types?.length, 1, String(types));
    assert.match(types[0], /^warn commands\[0\]\.CreateCommand\.createArguments\.legs: an Int64 is written as text on Canton 3\.5\.\S+, like "2"/);
    // A warning, not a block: sent, the node's 500 is explained.
    const outcome = await panel.submit();
    assert.equal(outcome?.state, 'failed');
    const why = outcome?.state === 'failed' ? outcome.why : undefined;
    assert.equal(why?.code, 'LEDGER_API_INTERNAL_ERROR');
    assert.match(why?.title ?? '', /an argument value of the wrong JSON type for its Daml type/);
    assert.equal(why?.definite, false);
    // Written as text: nothing to say.
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ ...settlement('2'), commandId: 'int64-text' }, null, 2)));
    await until('the fixed review', () => (panel.current?.commandId === 'int64-text' ? panel.current : undefined));
    assert.deepEqual(
      panel.current?.findings.filter((f) => f.id === 'types'),
      [],
    );
    panel.dispose();
  });

  it('the review follows its file: an edit shows, a file that stops parsing shows its problem, Submit sends the file as it is now', async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5' });
    fakes.push(fake);
    const name = 'cmd-follow';
    await useFakeNode(api, fake, name, 'alice');
    await api.nodes.check(api.nodes.find(name)!);
    const uri = vscode.Uri.joinPath(folder(), 'commands', 'follow.commands.json');
    const body = (amount: string) =>
      JSON.stringify(
        {
          commandId: `follow-${Date.now()}`,
          actAs: [fake.ledger.parties.Alice],
          commands: [
            {
              ExerciseCommand: {
                templateId: '#canton-lens-demo-model:Iou:Iou',
                choice: 'Iou_Split',
                contractId: fake.ledger.samples.activeContract,
                choiceArgument: { splitAmount: amount },
              },
            },
          ],
        },
        null,
        2,
      );
    await vscode.workspace.fs.writeFile(uri, Buffer.from(body('1500.0')));
    const panel = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', uri, name);
    const amountShown = () => JSON.stringify(panel.current?.lines[0]?.argument);
    assert.match(amountShown(), /1500\.0/);
    const doc = await vscode.workspace.openTextDocument(uri);
    const replaceAll = async (text: string) => {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      assert.ok(await vscode.workspace.applyEdit(edit));
    };

    // Saved with a fix: the review shows it, not the body it first read.
    await replaceAll(body('100.0'));
    await doc.save();
    await until('the review of the saved fix', () => /100\.0/.test(amountShown()) || undefined);

    // A file that no longer parses: its problem in the review, no stale body to submit.
    await replaceAll('{ "commandId": ');
    const problems = await until('the parse error in the review', () => panel.fileProblems);
    assert.match(problems[0].message, /JSON/);
    assert.equal(panel.current, undefined, 'no stale review');
    assert.equal(await panel.submit(), undefined, 'nothing to send');

    // Edited and submitted at once, before the review read it: what is sent is the file as it is now.
    const posts = () => fake.requests.filter((r) => r.path === '/v2/commands/submit-and-wait-for-transaction');
    await replaceAll(body('250.0'));
    const outcome = await panel.submit();
    assert.equal(outcome?.state, 'committed', JSON.stringify(outcome));
    assert.equal(posts().length, 1);
    assert.match(posts()[0].body, /"splitAmount":\s*"250\.0"/);
    assert.match(amountShown(), /250\.0/);
    await doc.save();
    const updateId = outcome?.state === 'committed' ? outcome.updateId : '';
    await until('the committed transaction', () => api.panels.panels.find((p) => p.current.id === updateId));
    panel.dispose();
    for (const p of [...api.panels.panels]) p.dispose();
  });

  it('a refusal for an archived contract says which update archived it, and Pick an Active Contract… writes one into the file', async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5' });
    fakes.push(fake);
    const name = 'cmd-archived';
    await useFakeNode(api, fake, name, 'alice');
    await api.nodes.check(api.nodes.find(name)!);
    const { archivedContract } = fake.ledger.samples;
    const templateId = '#canton-lens-demo-model:Iou:Iou';
    const uri = vscode.Uri.joinPath(folder(), 'commands', 'archived.commands.json');
    const request = {
      commandId: `archived-${Date.now()}`,
      actAs: [fake.ledger.parties.Alice],
      commands: [{ ExerciseCommand: { templateId, choice: 'Archive', contractId: archivedContract, choiceArgument: {} } }],
    };
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(request, null, 2)));
    const panel = await vscode.commands.executeCommand<CommandsReviewPanel>('cantonLens.submitCommands', uri, name);
    const failed = await panel.submit();
    assert.equal(failed?.state === 'failed' && failed.why.code, 'CONTRACT_NOT_FOUND', JSON.stringify(failed));
    const said = await until('which update archived it', () => {
      const o = panel.current?.outcome;
      return o?.state === 'failed' ? o.archived : undefined;
    });
    assert.match(said, /was archived by update 1220[0-9a-f]{6}…[0-9a-f]{6} at offset \d+/);
    assert.ok(panel.current?.outcome?.state === 'failed' && panel.current.outcome.pick, 'the pick is offered');

    let offered: string[] = [];
    const picked = await panel.pickActiveContract(async (list) => {
      offered = list.map((c) => c.contractId);
      return list[0];
    });
    assert.ok(picked && !offered.includes(archivedContract), 'only active contracts are offered');
    const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    assert.ok(text.includes(picked) && !text.includes(archivedContract), 'the file names the picked contract');
    assert.equal(JSON.parse(text).commands[0].ExerciseCommand.templateId, templateId, 'same template');
    assert.equal(panel.current?.lines[0]?.contractId, picked, 'the review shows it, ready to submit');
    assert.equal(panel.current?.outcome, undefined);
    panel.dispose();
  });

  it('a request with problems is refused before anything is sent, each problem on its JSON path', async () => {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5' });
    fakes.push(fake);
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name: 'cmd-bad', url: fake.url }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('cmd-bad'));
    const uri = vscode.Uri.joinPath(folder(), 'commands', 'bad.commands.json');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ commandId: 'x', actAs: ['Alice'], commands: [] })));
    const panel = await vscode.commands.executeCommand('cantonLens.submitCommands', uri, 'cmd-bad');
    assert.equal(panel, undefined);
    assert.equal(fake.requests.filter((r) => r.path.startsWith('/v2/commands/')).length, 0);
    const problems = vscode.languages.getDiagnostics(uri).map((d) => d.message.split(':')[0]);
    assert.deepEqual(problems, ['$.actAs[0]', '$.commands']);
  });
});
