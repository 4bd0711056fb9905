// *.commands.json: the schema from the vendored specs, the checks before anything is sent, the
// review's rights checks, the Daml fields a request is written from, and the explanation of a
// refusal, with hostile inputs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { explainFailure, factsFromCantonError, factsFromStatus, decodeErrorInfo } from '../../../src/execute/commandFailure';
import { DESCRIBED_CODES } from '../../../src/execute/commandErrorCodes';
import { checkCommandsRequest, commandsPathFor, commandsRequestTemplate, exerciseRequest } from '../../../src/execute/commandsRequest';
import { commandsChecks, commandLines, submitAgainFirst } from '../../../src/execute/commandsReview';
import { CompletionFeed, RECENT_OFFSETS, recentCompletionsStart } from '../../../src/execute/completionFeed';
import { fieldsAt, skeletonOf } from '../../../src/daml/damlFields';
import { argumentFields, choiceCandidates, templateCandidates } from '../../../src/daml/commandCompletions';
import { DamlIndex } from '../../../src/daml/damlIndex';
import { parseDamlYaml } from '../../../src/daml/damlProject';
import { argumentKeyAt, stringValueAt } from '../../../src/execute/partyCandidates';
import { upgradeErrorNames, upgradeErrorPlaces } from '../../../src/daml/upgradeErrorPlaces';
import type { JsCantonError, JsCommands } from '../../../src/ledger/apiTypes';
import { commandsReviewBody } from '../../../src/panels/html/commandsReviewHtml';
import { completionsBody } from '../../../src/panels/html/completionsHtml';
import { commandsSchema, commandsSchemaFile } from '../../support/commandsSchemaGen';
import { ALICE, BOB } from '../../support/preparedTransactions';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const CID = `00${'ab'.repeat(32)}`;

describe('commands requests', () => {
  const valid = {
    commandId: 'c-1',
    actAs: [ALICE],
    commands: [
      { ExerciseCommand: { templateId: '#canton-lens-demo-model:Iou:Iou', contractId: CID, choice: 'Iou_Transfer', choiceArgument: { newOwner: BOB } } },
    ],
    deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } },
  };

  it('has a schema per version: JsCommands of each vendored spec (node out/test/support/commandsSchemaGen.js); they differ only in prefetchContractKeys[].limit (and the order of a required list)', () => {
    for (const v of ['3.4', '3.5', '3.6'] as const)
      assert.deepEqual(JSON.parse(fs.readFileSync(commandsSchemaFile(v), 'utf8')), JSON.parse(JSON.stringify(commandsSchema(v))), v);
    const file = JSON.parse(fs.readFileSync(commandsSchemaFile('3.6'), 'utf8'));
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.ok(
      manifest.contributes.jsonValidation.some(
        (j: { fileMatch: string; url: string }) => j.fileMatch === '*.commands.json' && j.url === './media/commands-request-3.6.schema.json',
      ),
    );
    const strip = (n: unknown): unknown =>
      Array.isArray(n)
        ? n.map(strip)
        : n && typeof n === 'object'
          ? Object.fromEntries(
              Object.entries(n)
                .filter(([k]) => k !== 'description' && k !== 'title' && k !== '$id')
                .map(([k, v]) => [k, k === 'required' && Array.isArray(v) ? [...(v as string[])].sort() : strip(v)]),
            )
          : n;
    const without = (s: Record<string, unknown>) => {
      const c = strip(s) as { definitions: { PrefetchContractKey: { properties: Record<string, unknown> } } };
      delete c.definitions.PrefetchContractKey.properties.limit;
      return JSON.stringify(c);
    };
    assert.equal(without(commandsSchema('3.4')), without(file), '3.4');
    assert.equal(without(commandsSchema('3.5')), without(file), '3.5');
    assert.deepEqual(file.required, ['commandId', 'commands', 'actAs']);
    assert.ok(
      ['CreateCommand', 'ExerciseCommand', 'CreateAndExerciseCommand', 'ExerciseByKeyCommand', 'DeduplicationPeriod'].every((d) => d in file.definitions),
    );
  });

  it('accepts a valid request, the skeleton once filled in, and an exercise request', () => {
    assert.deepEqual(checkCommandsRequest(JSON.stringify(valid)).problems, []);
    const skeleton = commandsRequestTemplate('c-2', ALICE).replace('<package id or #package-name>:<Module>:<Template>', '#pkg:Iou:Iou');
    assert.deepEqual(checkCommandsRequest(skeleton).problems, []);
    const ex = exerciseRequest({
      commandId: 'c-3',
      party: ALICE,
      templateId: '#pkg:Iou:Iou',
      choice: 'Iou_Split',
      contractId: CID,
      choiceArgument: { splitAmount: '1.0' },
    });
    assert.ok(checkCommandsRequest(ex).request);
    assert.equal(commandsPathFor('/w/a.json'), '/w/a.commands.json');
    assert.equal(commandsPathFor('/w/a.commands.json'), '/w/a.commands.json');
  });

  it('puts every problem on its JSON path, and nothing is a request then', () => {
    const paths = (over: Record<string, unknown>, user?: string) =>
      checkCommandsRequest(JSON.stringify({ ...valid, ...over }), user).problems.map((p) => p.path);
    assert.deepEqual(
      checkCommandsRequest('{ nope').problems.map((p) => p.path),
      ['$'],
    );
    assert.deepEqual(
      checkCommandsRequest('[]').problems.map((p) => p.path),
      ['$'],
    );
    assert.deepEqual(paths({ actAs: ['Alice'] }), ['$.actAs[0]']);
    assert.deepEqual(paths({ actAs: [] }), ['$.actAs']);
    assert.deepEqual(paths({ commandId: '<script>' }), ['$.commandId']);
    assert.deepEqual(paths({ commands: [{ ExerciseCommand: { ...valid.commands[0].ExerciseCommand, contractId: 'not-a-cid', choice: 'x y' } }] }), [
      '$.commands[0].ExerciseCommand.contractId',
      '$.commands[0].ExerciseCommand.choice',
    ]);
    assert.deepEqual(paths({ commands: [{ CreateCommand: { templateId: 'Iou', createArguments: [] } }] }), [
      '$.commands[0].CreateCommand.templateId',
      '$.commands[0].CreateCommand.createArguments',
    ]);
    assert.deepEqual(paths({ deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -1 } } } }), [
      '$.deduplicationPeriod.DeduplicationDuration.value',
    ]);
    assert.deepEqual(paths({ deduplicationPeriod: { Both: {} } }), ['$.deduplicationPeriod']);
    assert.deepEqual(paths({ userId: 'mallory' }, 'alice'), ['$.userId']);
    assert.deepEqual(paths({ actas: [ALICE] }), ['$.actas']);
    assert.equal(checkCommandsRequest(JSON.stringify({ ...valid, actAs: 1 })).request, undefined);
  });

  it("blocks acting or reading as a party the token's user has no right for; warns when the rights are unknown", () => {
    const request = valid as unknown as JsCommands;
    const ok = commandsChecks({ request, tokenUser: 'alice', rights: [{ canActAs: ALICE }] });
    assert.deepEqual(
      ok.map((f) => f.severity),
      ['ok'],
    );
    const blocked = commandsChecks({ request: { ...request, readAs: [BOB] }, tokenUser: 'alice', rights: [{ canReadAs: ALICE }, 'participantAdmin'] });
    assert.deepEqual(
      blocked.map((f) => f.severity),
      ['block', 'block'],
    );
    assert.match(blocked[0].text, /lacks CanActAs/);
    assert.deepEqual(
      commandsChecks({ request, rights: ['canActAsAnyParty'] }).map((f) => f.severity),
      ['ok'],
    );
    assert.equal(commandsChecks({ request, rightsUnknownReason: 'no token' })[0].severity, 'warn');
    const prefetching = { ...request, prefetchContractKeys: [{ templateId: 't', contractKey: {}, limit: 2 }] } as unknown as JsCommands;
    assert.match(commandsChecks({ request: prefetching, rights: ['canActAsAnyParty'], nodeVersion: '3.4.12' })[0].text, /new in Canton 3\.5/);
    assert.equal(commandsChecks({ request: prefetching, rights: ['canActAsAnyParty'], nodeVersion: '3.5.10' }).length, 1, 'nothing to say on 3.5');
    assert.deepEqual(
      commandLines(request).map((l) => [l.kind, l.choice, l.contractId]),
      [['exercise', 'Iou_Transfer', CID]],
    );
    // What is sent besides the choice argument is shown too: the created payload, the key.
    const both = commandLines({
      commandId: 'c',
      actAs: [ALICE],
      commands: [
        { CreateAndExerciseCommand: { templateId: 'p:M:T', createArguments: { owner: ALICE }, choice: 'C', choiceArgument: {} } },
        { ExerciseByKeyCommand: { templateId: 'p:M:T', contractKey: { _1: 'k' }, choice: 'C', choiceArgument: {} } },
      ],
    });
    assert.deepEqual(
      both.map((l) => l.also),
      [
        { label: 'createArguments', value: { owner: ALICE } },
        { label: 'contractKey', value: { _1: 'k' } },
      ],
    );
  });

  it("reads a choice's and a template's fields from the Daml source, and writes a skeleton of them", () => {
    const text = fs.readFileSync(path.join(root, 'test', 'fixtures', 'workspace', 'daml-model', 'daml', 'Iou.daml'), 'utf8');
    const lines = text.split('\n');
    const at = (needle: string) => lines.findIndex((l) => l.includes(needle));
    assert.deepEqual(fieldsAt(text, at('choice Iou_Split')), [{ name: 'splitAmount', type: 'Decimal' }]);
    assert.deepEqual(
      fieldsAt(text, at('template Iou')).map((f) => f.name),
      ['issuer', 'owner', 'currency', 'amount', 'observers'],
    );
    assert.deepEqual(skeletonOf(fieldsAt(text, at('template Iou')), ALICE), { issuer: ALICE, owner: ALICE, currency: '', amount: '0.0', observers: [] });
    assert.deepEqual(fieldsAt('template T\n  with a : Int; b : Optional Text\n  where\n    signatory p\n', 0), [
      { name: 'a', type: 'Int' },
      { name: 'b', type: 'Optional Text' },
    ]);
    assert.deepEqual(fieldsAt('    choice C : ()\n      controller p\n      do pure ()\n', 0), []);
  });
});

describe('completion in commands requests, from the Daml index', () => {
  it("offers the templates as #package:Module:Entity, the choices of the command's template with their fields, and their argument fields", () => {
    const dir = path.join(root, 'test', 'fixtures', 'workspace', 'daml-model');
    const project = parseDamlYaml(fs.readFileSync(path.join(dir, 'daml.yaml'), 'utf8'), dir);
    const index = new DamlIndex();
    const files: Record<string, string> = {};
    for (const rel of ['daml/Iou.daml', 'daml/Notes.daml']) {
      const file = `file://${path.join(dir, rel)}`;
      files[file] = fs.readFileSync(path.join(dir, rel), 'utf8');
      index.setFile(file, files[file], project);
    }
    assert.deepEqual(
      templateCandidates(index).map((c) => c.label),
      ['#canton-lens-demo-model:Iou:Iou', '#canton-lens-demo-model:Notes:Note'],
    );
    const choices = choiceCandidates(index, '#canton-lens-demo-model:Iou:Iou', (f) => files[f]);
    assert.deepEqual(
      choices.map((c) => [c.label, c.detail]),
      [
        ['Iou_Transfer', 'newOwner : Party'],
        ['Iou_Split', 'splitAmount : Decimal'],
        ['Archive', '()'],
      ],
    );
    assert.deepEqual(
      choiceCandidates(index, '#other-package:Iou:Iou', (f) => files[f]),
      [],
    );
    assert.deepEqual(
      argumentFields(index, '#canton-lens-demo-model:Notes:Note', undefined, (f) => files[f]).map((f) => f.name),
      ['author', 'reader', 'title', 'body', 'tags'],
    );
    assert.deepEqual(
      argumentFields(index, 'Iou:Iou', 'Iou_Split', (f) => files[f]),
      [{ name: 'splitAmount', type: 'Decimal' }],
    );
    assert.deepEqual(stringValueAt('{"commands":[{"ExerciseCommand":{"choice":"Iou_', 46)?.field, 'choice');
    const typing = '{"commands":[{"CreateCommand":{"templateId":"x","createArguments":{"ow';
    assert.deepEqual(argumentKeyAt(typing, typing.length), { field: 'createArguments', typed: 'ow', start: typing.length - 2 });
    assert.equal(argumentKeyAt('{"commandId":"c', 15), undefined, 'a value is not a key');
    assert.equal(argumentKeyAt('{"comm', 6), undefined, 'a key outside the arguments');
  });
});

describe("an upgrade refusal's places in the Daml source", () => {
  it('reads the names of Daml-LF upgrade reasons and finds their declarations in the project', () => {
    const iou = fs.readFileSync(path.join(root, 'test', 'fixtures', 'workspace', 'daml-model', 'daml', 'Iou.daml'), 'utf8');
    const notes = fs.readFileSync(path.join(root, 'test', 'fixtures', 'workspace', 'daml-model', 'daml', 'Notes.daml'), 'utf8');
    const files = [
      { file: 'file:///w/Iou.daml', module: 'Iou', text: iou },
      { file: 'file:///w/Notes.daml', module: 'Notes', text: notes },
    ];
    const cause = (reason: string) => `Upgrade checks indicate that a (x v2) cannot be an upgrade of b (x v1). Reason: ${reason}`;
    assert.deepEqual(upgradeErrorNames(cause('The upgraded template Iou is missing some of its original fields.')), [{ kind: 'template', name: 'Iou' }]);
    assert.deepEqual(upgradeErrorNames(cause('The upgraded choice Note_Close cannot change its return type.')), [{ kind: 'choice', name: 'Note_Close' }]);
    assert.deepEqual(upgradeErrorNames(cause('Module Notes appears in package that is being upgraded, but does not appear in the upgrading package.')), [
      { kind: 'module', name: 'Notes' },
    ]);
    assert.deepEqual(upgradeErrorNames(cause('The upgraded data type Batch.Job.Step has added a new variant.')), [
      { kind: 'dataType', name: 'Batch.Job.Step' },
    ]);
    const places = upgradeErrorPlaces(
      upgradeErrorNames(cause('The upgraded input type of choice Iou_Split on template Iou has changed the types of some of its original fields.')),
      files,
    );
    const lines = iou.split('\n');
    assert.deepEqual(
      places.map((p) => [p.file, p.line, lines[p.line].slice(p.column, p.column + p.length)]),
      [['file:///w/Iou.daml', lines.findIndex((l) => l.includes('choice Iou_Split')), 'Iou_Split']],
    );
    assert.deepEqual(
      upgradeErrorPlaces([{ kind: 'template', name: 'Note' }], files).map((p) => [p.file, p.line]),
      [['file:///w/Notes.daml', notes.split('\n').findIndex((l) => l.startsWith('template Note'))]],
    );
    assert.deepEqual(upgradeErrorPlaces([{ kind: 'choice', name: 'Iou_Split', template: 'Note' }], files), [], 'a choice of another template');
  });
});

describe('why a command failed', () => {
  const damlFailure: JsCantonError = {
    code: 'DAML_FAILURE',
    cause:
      'Interpretation error: Error: User failure: UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed (error category 9): the split amount must be <b>positive</b>',
    context: {
      participant: 'participant1',
      category: '9',
      definite_answer: 'false',
      error_id: 'UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed',
      exercise_trace:
        '    in choice 5e3a0b9c:Iou:Iou:Iou_Split on contract 00a1b2c3d4 (#1)\n    in choice 5e3a0b9c:Deal:Deal:Deal_Settle on contract 00ffeeddcc (#0)\n    in exercise command 5e3a0b9c:Deal:Deal:Deal_Settle on contract 00ffeeddcc.\n',
    },
    resources: [],
    errorCategory: 9,
    correlationId: null as unknown as string,
    definiteAnswer: null as unknown as boolean,
  };

  it('reads the error id, the message and every level of the exercise trace, innermost first', () => {
    const why = explainFailure(factsFromCantonError(damlFailure));
    assert.equal(why.code, 'DAML_FAILURE');
    assert.equal(why.definite, true, 'category 9 was refused, whatever definite_answer says');
    assert.equal(why.userMessage, 'the split amount must be <b>positive</b>');
    assert.deepEqual(
      why.places.map((p) => [p.templateId, p.choice, p.contractId, p.nodeId]),
      [
        ['5e3a0b9c:Iou:Iou', 'Iou_Split', '00a1b2c3d4', 1],
        ['5e3a0b9c:Deal:Deal', 'Deal_Settle', '00ffeeddcc', 0],
      ],
    );
    assert.match(why.source ?? '', /^https:\/\/github\.com\/digital-asset\/canton\/blob\/main\/community\/.*CommandExecutionErrors\.scala$/);
  });

  it('names the template and contract of other refusals; resources in either spelling; unknown codes by category', () => {
    const cid = `00${'cd'.repeat(40)}`;
    const notFound = explainFailure(
      factsFromCantonError({
        code: 'CONTRACT_NOT_FOUND',
        cause: `Contract could not be found with id ${cid}`,
        context: {},
        resources: [['ErrorResource(CONTRACT_ID)', cid]],
        errorCategory: 11,
      }),
    );
    assert.equal(notFound.places[0].contractId, cid);
    assert.deepEqual(notFound.facts.resources, [['CONTRACT_ID', cid]]);
    const auth = explainFailure(
      factsFromCantonError({
        code: 'DAML_AUTHORIZATION_ERROR',
        cause: `Interpretation error: Error: node NodeId(0) (${'ab'.repeat(32)}:Iou:Iou) requires authorizers Bank, but only Alice were given`,
        context: {},
        errorCategory: 8,
      }),
    );
    assert.equal(auth.places[0].templateId, `${'ab'.repeat(32)}:Iou:Iou`);
    const other = explainFailure(factsFromCantonError({ code: 'SOMETHING_NEW', cause: 'x', context: {}, errorCategory: 1 }));
    assert.equal(other.definite, false);
    assert.equal(other.permanent, false);
    assert.ok(DESCRIBED_CODES().includes('DUPLICATE_COMMAND'));
  });

  it("reads a failed completion's status: code and cause from its message, the context from its ErrorInfo detail; garbage is survived", () => {
    const info = Buffer.concat([
      Buffer.from([0x0a, 17]),
      Buffer.from('DUPLICATE_COMMAND'),
      Buffer.from([0x1a, 23, 0x0a, 17]),
      Buffer.from('completion_offset'),
      Buffer.from([0x12, 2]),
      Buffer.from('42'),
    ]).toString('base64');
    assert.deepEqual(decodeErrorInfo(info), { reason: 'DUPLICATE_COMMAND', metadata: { completion_offset: '42' } });
    const facts = factsFromStatus({
      code: 6,
      message: 'DUPLICATE_COMMAND(10,abc12345): Command submission already exists.',
      details: [
        { typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo', value: info },
        { typeUrl: 'x', value: '!!!' },
      ],
    });
    assert.equal(facts.code, 'DUPLICATE_COMMAND');
    assert.equal(facts.category, 10);
    assert.equal(facts.context.completion_offset, '42');
    assert.equal(decodeErrorInfo(Buffer.from([0x0a, 200]).toString('base64')), undefined, 'a truncated field');
    assert.equal(factsFromStatus({ code: 3, message: 'plain words' }).cause, 'plain words');
    assert.equal(factsFromStatus(undefined).cause, '');
  });

  it('renders the review and the completions with every ledger string escaped', () => {
    const why = explainFailure(factsFromCantonError(damlFailure));
    const body = commandsReviewBody({
      fileName: '<img src=x>.commands.json',
      node: 'n<script>',
      commandId: '"><svg onload=alert(1)>',
      actAs: [ALICE],
      readAs: [],
      deduplication: 'd',
      lines: commandLines({
        commandId: 'c',
        actAs: [ALICE],
        commands: [{ CreateCommand: { templateId: 'p:M:<T>', createArguments: { x: '<b>' } } }],
      }),
      findings: [{ id: 'rights', severity: 'block', text: '<i>no</i>' }],
      outcome: { state: 'failed', why, request: 'POST x' },
      sent: 1,
    }).text;
    for (const raw of ['<img src=x>', '<script>', '<svg onload', '<b>positive</b>', '<i>no</i>', '<T>']) assert.ok(!body.includes(raw), raw);
    assert.match(body, /data-daml-choice="Iou_Split"/);
    assert.doesNotMatch(body, /data-action="submit"/, 'a blocking check hides Submit');
    const feed = new CompletionFeed(3);
    for (let i = 1; i <= 5; i++)
      feed.addCompletion({
        offset: i,
        commandId: `<c${i}>`,
        userId: 'u',
        actAs: [ALICE],
        synchronizerTime: { synchronizerId: 's', recordTime: '2026-11-26T09:00:00Z' },
      });
    feed.addCompletion({ offset: 2, commandId: 'again', userId: 'u', actAs: [ALICE] } as never);
    assert.equal(feed.size, 3, 'bounded');
    assert.equal(feed.repeats, 1, 'an offset seen before is not shown twice');
    assert.equal(feed.lastOffset, 5);
    const page = completionsBody({
      node: 'n',
      parties: [ALICE],
      state: 's',
      paused: false,
      filter: {},
      rows: feed.rows(),
      total: feed.size,
      lastOffset: feed.lastOffset,
    }).text;
    assert.ok(!page.includes('<c5>'));
    assert.equal(feed.rows({ commandId: 'c4' }).length, 1);
    assert.equal(feed.rows({ status: 'failed' }).length, 0);
  });

  it('Submit Again offers first the command id the last outcome calls for', () => {
    assert.equal(submitAgainFirst({ state: 'failed', why: { definite: true } }), 'new', 'a definite refusal: the same change id would be refused again');
    assert.equal(submitAgainFirst({ state: 'failed', why: {} }), 'new');
    assert.equal(submitAgainFirst({ state: 'failed', why: { definite: false } }), 'same', 'not definite: a retry, deduplicated');
    assert.equal(submitAgainFirst({ state: 'unknown' }), 'same');
    assert.equal(submitAgainFirst({ state: 'committed' }), 'new');
    assert.equal(submitAgainFirst(undefined), 'same');
  });

  it('Follow Completions opens on the recent past: the last offsets before the ledger end, none of them pruned', () => {
    assert.equal(recentCompletionsStart(34), 0, 'a young ledger: from its start');
    assert.equal(recentCompletionsStart(34, 12), 12, 'never before the pruned offset');
    assert.equal(recentCompletionsStart(50_000, 12), 50_000 - RECENT_OFFSETS);
  });
});
