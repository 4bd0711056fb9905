// An argument's values read as Canton's JSON codec reads them, per version: each rule of
// docs/fake-node.md ("The values of a demo template's create or choice argument"), through the
// node's Daml-LF types (the partner package) and through the workspace's Daml source.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DamlIndex } from '../../../src/daml/damlIndex';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import { lfArgumentSkeleton } from '../../../src/daml/lf/lfCompletions';
import { commandArgumentIssues, issueLines } from '../../../src/daml/lf/lfValueCheck';
import { codecLineOf, javaDoubleText, scalarValueProblem } from '../../../src/execute/argumentValues';
import { explainFailure, factsFromCantonError } from '../../../src/execute/commandFailure';
import { commandsChecks } from '../../../src/execute/commandsReview';
import { sourceArgumentFields, sourceArgumentIssues, sourceType } from '../../../src/execute/sourceArgumentTypes';
import { partnerDalf } from '../../../fake-ledger/src/partnerPackage';

const INTERNAL = /internal error \(500\) that does not name the field/;

describe("argument values as Canton's JSON codec reads them", () => {
  it('knows which codec a version runs: 3.4, or 3.5 and later; nothing for an unknown version', () => {
    assert.equal(codecLineOf('3.4.9'), '3.4');
    assert.equal(codecLineOf('3.5.0-SNAPSHOT'), '3.5+');
    assert.equal(codecLineOf('3.6.1'), '3.5+');
    assert.equal(codecLineOf('4.0.0'), '3.5+');
    assert.equal(codecLineOf(undefined), undefined);
    assert.equal(codecLineOf('3.3.0'), undefined);
  });

  it('Text and Party: only a JSON string; anything else is the 500 that names nothing, on every version', () => {
    for (const version of ['3.4.9', '3.5.2', undefined])
      for (const type of ['Text', 'Party'] as const) {
        assert.equal(scalarValueProblem(type, 'x', version), undefined);
        for (const bad of [5, true, {}, ['a']]) assert.match(scalarValueProblem(type, bad, version) ?? '', INTERNAL, `${type} ${JSON.stringify(bad)}`);
      }
    assert.match(scalarValueProblem('Party', 5, '3.5.2') ?? '', /^a Party is written as a JSON string \(its party id\), not the number 5/);
  });

  it("Int64 text: Java's toLong (a sign, digits, 64 bits), else INVALID_ARGUMENT; the same on every version", () => {
    for (const version of ['3.4.9', '3.5.2', undefined]) {
      for (const ok of ['10', '-3', '+7', '9223372036854775807', '-9223372036854775808']) assert.equal(scalarValueProblem('Int64', ok, version), undefined, ok);
      for (const bad of ['ten', '1.5', '', '9223372036854775808', '1e3', ' 1'])
        assert.match(scalarValueProblem('Int64', bad, version) ?? '', /INVALID_ARGUMENT "For input string"/, bad);
    }
  });

  it('Int64 as a JSON number: read on 3.4 (a fraction dropped), the 500 from 3.5 on, not judged when the version is unknown', () => {
    assert.equal(scalarValueProblem('Int64', 10, '3.4.9'), undefined);
    assert.match(scalarValueProblem('Int64', 10.5, '3.4.9') ?? '', /Canton 3\.4 reads 10\.5 as 10; write it as text, like "10"/);
    const on35 = scalarValueProblem('Int64', 10, '3.5.2') ?? '';
    assert.match(on35, /^an Int64 is written as text on Canton 3\.5\.2, like "10"/);
    assert.match(on35, INTERNAL);
    assert.match(scalarValueProblem('Int64', 7, '3.6.0') ?? '', /like "7"/);
    assert.equal(scalarValueProblem('Int64', 10, undefined), undefined);
    // Neither text nor a number: 3.4 names it, 3.5 on fail in ujson.
    assert.match(scalarValueProblem('Int64', true, '3.4.9') ?? '', /Canton 3\.4 refuses it \(INVALID_ARGUMENT\)/);
    assert.match(scalarValueProblem('Int64', [1], '3.5.2') ?? '', INTERNAL);
  });

  it("Numeric: a number or text; text by ValueValidator's pattern; a number Java writes with an exponent is refused", () => {
    for (const ok of ['10', '10.5', '-0.25', '+1', '1.', '0.0000000001']) assert.equal(scalarValueProblem('Numeric', ok, '3.5.2'), undefined, ok);
    for (const bad of ['ten', '1e5', '.5', '1,5', '', `1${'0'.repeat(38)}`])
      assert.match(scalarValueProblem('Numeric', bad, '3.5.2') ?? '', /Could not read Numeric string/, bad);
    for (const ok of [0, 10, 10.5, -9999999, 0.001]) assert.equal(scalarValueProblem('Numeric', ok, '3.4.9'), undefined, String(ok));
    assert.match(scalarValueProblem('Numeric', 10000000, '3.5.2') ?? '', /exponent form .* write it as text, like "10000000\.0"/);
    assert.match(scalarValueProblem('Numeric', 0.0001, '3.4.9') ?? '', /like "0\.0001"/);
    assert.match(scalarValueProblem('Numeric', true, '3.4.9') ?? '', /not true \(a boolean\): Canton refuses it \(INVALID_ARGUMENT\)/);
    assert.match(scalarValueProblem('Numeric', `1${'0'.repeat(38)}`, '3.5.2') ?? '', /Could not read Numeric string/, '39 digits');
  });

  it("Numeric n: the engine's fit to the scale (decimals, digits before the point), a JSON number as Java writes it", () => {
    for (const ok of ['1.0000000001', '1.000000000000', '+1', '1.', `${'9'.repeat(28)}.5`, '-0.5'])
      assert.equal(scalarValueProblem('Numeric', ok, '3.5.2', 10), undefined, ok);
    assert.match(scalarValueProblem('Numeric', '1.00000000001', '3.5.2', 10) ?? '', /at most 10 decimals.*COMMAND_PREPROCESSING_FAILED/);
    assert.match(scalarValueProblem('Numeric', '9'.repeat(29), '3.5.2', 10) ?? '', /at most 28 digits before the point.*Out-of-bounds/);
    assert.equal(scalarValueProblem('Numeric', '9'.repeat(29), '3.5.2'), undefined, 'no scale: not judged');
    assert.match(scalarValueProblem('Numeric', 0.1 + 0.2, '3.5.2', 10) ?? '', /"0\.30000000000000004"/);
    assert.match(scalarValueProblem('Numeric', 12.5, '3.5.2', 0) ?? '', /at most 0 decimals/);
    assert.equal(scalarValueProblem('Numeric', 12, '3.5.2', 0), undefined, 'Java writes 12.0: no decimal once its zeros go');
    assert.match(scalarValueProblem('Int64', 1e19, '3.4.9') ?? '', /within 64 bits: Canton 3\.4 reads 10000000000000000000 as 9223372036854775807/);
    assert.equal(scalarValueProblem('Int64', 2 ** 53, '3.4.9'), undefined);
    assert.equal(javaDoubleText(1e7), '1.0E7');
    assert.equal(javaDoubleText(0.0001), '1.0E-4');
    assert.equal(javaDoubleText(12), '12.0');
    assert.equal(javaDoubleText(0.001), '0.001');
  });
});

describe("arguments checked against the node's types, per version", () => {
  const ALICE = `Alice::1220${'aa'.repeat(32)}`;
  const TOKEN = '#canton-lens-partner-app:Partner.Token:Token';
  const partner = [decodeArchive(partnerDalf())];
  const token = (over: Record<string, unknown>) => ({
    CreateCommand: { templateId: TOKEN, createArguments: { ...(lfArgumentSkeleton(partner, TOKEN, undefined, ALICE)!.value as object), ...over } },
  });

  it('an Int64 as a JSON number: fine on 3.4, named on 3.5; a list for a list of Numeric, a record as an object, a Bool as a boolean', () => {
    assert.deepEqual(issueLines(commandArgumentIssues(partner, [token({ decimals: 2 })], '3.4.9')), []);
    const [p] = issueLines(commandArgumentIssues(partner, [token({ decimals: 2 })], '3.5.2'))!;
    assert.match(p, /^commands\[0\]\.CreateCommand\.createArguments\.decimals: an Int64 is written as text on Canton 3\.5\.2, like "2"/);
    assert.deepEqual(issueLines(commandArgumentIssues(partner, [token({ decimals: '2' })], '3.5.2')), []);
    const split = { ExerciseCommand: { templateId: TOKEN, contractId: '00ab', choice: 'Token_Split', choiceArgument: { amounts: '1.0' } } };
    assert.match(issueLines(commandArgumentIssues(partner, [split], '3.5.2'))![0], /choiceArgument\.amounts: a list is written as a JSON array, not text/);
    const listed = { ...split, ExerciseCommand: { ...split.ExerciseCommand, choiceArgument: [['1.0']] } };
    assert.match(
      issueLines(commandArgumentIssues(partner, [listed], '3.5.2'))![0],
      /choiceArgument: a Token_Split record is written as a JSON object of its fields, not a list/,
    );
    assert.match(
      issueLines(commandArgumentIssues(partner, [token({ active: 'true' })], '3.4.9'))![0],
      /createArguments\.active: a Bool is written as true or false, not text: .*internal error \(500\)/,
    );
  });
});

describe("arguments checked against the workspace's Daml source", () => {
  const root = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'workspace', 'daml-model');
  const index = new DamlIndex();
  const texts = new Map<string, string>();
  for (const rel of ['Iou.daml', 'Notes.daml', 'Settlement.daml', 'Batch/Job.daml', 'Bank/Account.daml']) {
    const file = `file://${root}/daml/${rel}`;
    const text = fs.readFileSync(path.join(root, 'daml', rel), 'utf8');
    texts.set(file, text);
    index.setFile(file, text, { root, name: 'canton-lens-demo-model', version: '1.0.0', source: `${root}/daml` });
  }
  const fieldsOf = (t: string, c: string | undefined) => sourceArgumentFields(index, t, c, (f) => texts.get(f));
  const pkg = 'ab'.repeat(32);
  const BANK = `Bank::1220${'bb'.repeat(32)}`;

  it('reads the builtin types a field names; a type of the package or an alias is not judged', () => {
    assert.deepEqual(sourceType('Int'), { kind: 'builtin', builtin: 'Int64', args: [] });
    assert.deepEqual(sourceType('(Numeric 10)'), { kind: 'builtin', builtin: 'Numeric', args: [{ kind: 'nat', value: 10 }] });
    assert.deepEqual(sourceType('Decimal'), { kind: 'builtin', builtin: 'Numeric', args: [{ kind: 'nat', value: 10 }] });
    assert.deepEqual(sourceType('[Party]'), { kind: 'builtin', builtin: 'List', args: [{ kind: 'builtin', builtin: 'Party', args: [] }] });
    assert.deepEqual(sourceType('[Asset]'), { kind: 'builtin', builtin: 'List', args: [] });
    assert.deepEqual(sourceType('Optional Text'), { kind: 'builtin', builtin: 'Optional', args: [{ kind: 'builtin', builtin: 'Text', args: [] }] });
    assert.equal(sourceType('Optional (Optional Int)'), undefined);
    assert.equal(sourceType('Amount'), undefined);
    assert.equal(sourceType('Map Text Int'), undefined);
  });

  it("finds a template's and a choice's fields by package name or package id; none for an unknown one", () => {
    assert.deepEqual(
      fieldsOf('#canton-lens-demo-model:Settlement:Settlement', undefined)?.map((f) => `${f.name} : ${f.type}`),
      ['operator : Party', 'buyer : Party', 'seller : Party', 'legs : Int', 'memo : Text'],
    );
    assert.deepEqual(
      fieldsOf(`${pkg}:Batch.Job:Job`, 'Job_Run')?.map((f) => f.name),
      ['job', 'label'],
    );
    assert.equal(fieldsOf(`${pkg}:Batch.Job:Nope`, undefined), undefined);
    assert.equal(fieldsOf(`${pkg}:Batch.Job:Job`, 'Job_Nope'), undefined);
  });

  it('names each value of the wrong JSON type on its path, per version; judges nothing of templates it does not know', () => {
    const create = (t: string, a: unknown) => ({ CreateCommand: { templateId: `${pkg}:${t}`, createArguments: a } });
    const settlement = { operator: BANK, buyer: BANK, seller: BANK, legs: 2, memo: 'm' };
    assert.deepEqual(issueLines(sourceArgumentIssues([create('Settlement:Settlement', settlement)], fieldsOf, [], '3.4.9')), []);
    assert.deepEqual(issueLines(sourceArgumentIssues([create('Settlement:Settlement', settlement)], fieldsOf, [], '3.5.2')), [
      'commands[0].CreateCommand.createArguments.legs: an Int64 is written as text on Canton 3.5.2, like "2": for a JSON number ' +
        "Canton's JSON layer answers it with an internal error (500) that does not name the field",
    ]);
    const iou = { issuer: BANK, owner: 5, currency: 'USD', amount: 'ten', observers: BANK };
    const problems = issueLines(sourceArgumentIssues([create('Iou:Iou', iou)], fieldsOf, [], '3.5.2'))!;
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      [
        'commands[0].CreateCommand.createArguments.owner',
        'commands[0].CreateCommand.createArguments.amount',
        'commands[0].CreateCommand.createArguments.observers',
      ],
    );
    const run = { ExerciseCommand: { templateId: `${pkg}:Batch.Job:Job`, contractId: '00ab', choice: 'Job_Run', choiceArgument: { job: '1', label: 3 } } };
    assert.match(
      issueLines(sourceArgumentIssues([run], fieldsOf, [], '3.4.9'))![0],
      /^commands\[0\]\.ExerciseCommand\.choiceArgument\.label: a Text is written as a JSON string/,
    );
    assert.equal(issueLines(sourceArgumentIssues([create('Other:Thing', {})], fieldsOf, [], '3.5.2')), undefined);
  });
});

describe('what the review does with them, and the 500 they would have caused', () => {
  it("the node's types block the send; the workspace's source warns (it may not be what the node runs)", () => {
    const request = { commandId: 'c', actAs: [], commands: [] };
    const findings = commandsChecks({ request, argumentProblems: ['commands[0].x: lf'], sourceArgumentProblems: ['commands[1].y: source'], rights: [] });
    const types = findings.filter((f) => f.id === 'types');
    assert.deepEqual(
      types.map((f) => [f.severity, f.text]),
      [
        ['block', 'commands[0].x: lf: the node would refuse the commands.'],
        ['warn', "commands[1].y: source (by the workspace's Daml source of the template)."],
      ],
    );
  });

  it('a 500 LEDGER_API_INTERNAL_ERROR says what it usually means for a command and what to check, with the codec as its source', () => {
    const why = explainFailure(
      factsFromCantonError({
        code: 'LEDGER_API_INTERNAL_ERROR',
        cause: 'An error occurred. Please contact the operator and inquire about the request',
        context: {},
        errorCategory: 4,
      }),
    );
    assert.match(why.title, /an argument value of the wrong JSON type for its Daml type/);
    assert.match(why.title, /does not report field by field/);
    assert.match(why.next, /Int64 \(on Canton 3\.5 and later\)/);
    assert.match(why.next, /names the field when it knows the package/);
    assert.match(why.source ?? '', /\/transcode\/codec-json\/.*\/JsonCodec\.scala$/);
    assert.equal(why.definite, false, 'an internal error does not say the command was refused');
  });
});
