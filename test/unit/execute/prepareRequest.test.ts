// *.prepare.json: the schema from the vendored spec, and the checks before anything is sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  checkPrepareRequest,
  executePathFor,
  executeRequestFromPrepare,
  prepareRequestTemplate,
  synchronizerForPrepare,
} from '../../../src/execute/prepareRequestCheck';
import { addTopLevelFields } from '../../../src/execute/requiredFields';
import { checkExecuteRequest } from '../../../src/execute/executeRequestCheck';
import { prepareSchema } from '../../support/prepareSchemaGen';
import { ALICE } from '../../support/preparedTransactions';

const root = path.resolve(__dirname, '..', '..', '..', '..');

describe('prepare requests', () => {
  const valid = {
    commandId: 'c-1',
    actAs: [ALICE],
    commands: [{ CreateCommand: { templateId: 'pkg:Iou:Iou', createArguments: { owner: ALICE } } }],
    synchronizerId: '',
    packageIdSelectionPreference: [],
    verboseHashing: true,
  };

  it('the schema is JsPrepareSubmissionRequest of the vendored 3.5 spec, with its docs (node out/test/support/prepareSchemaGen.js)', () => {
    const file = JSON.parse(fs.readFileSync(path.join(root, 'media', 'prepare-request.schema.json'), 'utf8'));
    assert.deepEqual(file, JSON.parse(JSON.stringify(prepareSchema())));
    for (const f of [
      'commands',
      'actAs',
      'readAs',
      'userId',
      'commandId',
      'synchronizerId',
      'disclosedContracts',
      'packageIdSelectionPreference',
      'verboseHashing',
      'minLedgerTime',
    ])
      assert.ok(f in file.properties, f);
    assert.deepEqual(
      Object.keys(file.definitions)
        .filter((d: string) => /Command$/.test(d))
        .sort(),
      ['Command', 'CreateAndExerciseCommand', 'CreateCommand', 'ExerciseByKeyCommand', 'ExerciseCommand'],
    );
  });

  it('accepts a valid request and the template once filled in', () => {
    assert.deepEqual(checkPrepareRequest(JSON.stringify(valid)).problems, []);
    assert.ok(checkPrepareRequest(prepareRequestTemplate('c-2', ALICE).replace('<package id or #package-name>:<Module>:<Template>', 'pkg:Iou:Iou')).request);
  });

  it('puts every wrong field on its JSON path', () => {
    const paths = (over: Record<string, unknown>, user?: string) =>
      checkPrepareRequest(JSON.stringify({ ...valid, ...over }), user).problems.map((p) => p.path);
    assert.deepEqual(paths({ commandId: undefined }), ['$.commandId']);
    assert.deepEqual(paths({ actAs: [] }), ['$.actAs']);
    assert.deepEqual(paths({ actAs: ['Alice'] }), ['$.actAs[0]']);
    assert.deepEqual(paths({ readAs: ['x'] }), ['$.readAs[0]']);
    assert.deepEqual(paths({ commands: [] }), ['$.commands']);
    assert.deepEqual(paths({ commands: [{ CreateCommand: { templateId: 'nocolons' } }] }), [
      '$.commands[0].CreateCommand.createArguments',
      '$.commands[0].CreateCommand.templateId',
    ]);
    assert.deepEqual(paths({ commands: [{ Bogus: {} }] }), ['$.commands[0]']);
    assert.deepEqual(paths({ commands: [{ ExerciseCommand: { templateId: 'a:b:c' } }] }), [
      '$.commands[0].ExerciseCommand.contractId',
      '$.commands[0].ExerciseCommand.choice',
      '$.commands[0].ExerciseCommand.choiceArgument',
    ]);
    assert.deepEqual(paths({ userId: 'bob' }, 'alice'), ['$.userId']);
    assert.deepEqual(paths({ verboseHashing: 'yes' }), ['$.verboseHashing']);
    assert.deepEqual(paths({ hashingSchemeVersion: 'V9' }), ['$.hashingSchemeVersion']);
    assert.deepEqual(paths({ actas: [ALICE] }), ['$.actas']);
    assert.deepEqual(paths({ synchronizerId: 'da1' }), ['$.synchronizerId']);
    assert.deepEqual(paths({ packageIdSelectionPreference: ['#iou'] }), ['$.packageIdSelectionPreference']);
    assert.deepEqual(checkPrepareRequest('{').problems[0].path, '$');
  });

  it("flags what every node's decoder requires and the spec does not, with the fields that fix it, and the fix keeps the layout", () => {
    const { synchronizerId: _s, packageIdSelectionPreference: _p, ...lacking } = valid;
    const text = JSON.stringify(lacking, null, 4);
    const checked = checkPrepareRequest(text);
    assert.equal(checked.request, undefined, 'nothing is sent');
    assert.deepEqual(
      checked.problems.map((p) => p.path),
      ['$.synchronizerId', '$.packageIdSelectionPreference'],
    );
    const fields = Object.assign({}, ...checked.problems.map((p) => p.add)) as Record<string, unknown>;
    assert.deepEqual(fields, { synchronizerId: '', packageIdSelectionPreference: [] });
    const edit = addTopLevelFields(text, fields)!;
    const fixed = text.slice(0, edit.offset) + edit.insert + text.slice(edit.offset);
    assert.deepEqual(JSON.parse(fixed), valid);
    assert.match(fixed, /\n {4}"synchronizerId": "",\n {4}"packageIdSelectionPreference": \[\]\n\}$/);
    assert.ok(checkPrepareRequest(fixed).request);
    // An empty object, and text that is not one object.
    const empty = addTopLevelFields('{}', { a: 1 })!;
    assert.deepEqual(JSON.parse('{}'.slice(0, empty.offset) + empty.insert + '}'), { a: 1 });
    assert.equal(addTopLevelFields('[1]', { a: 1 }), undefined);
    assert.equal(addTopLevelFields('{"a": ', { a: 1 }), undefined);
  });

  it('names the one synchronizer where the party is hosted, else lets the node choose', () => {
    const s = (id: string, permission = 'PARTICIPANT_PERMISSION_SUBMISSION') => ({ synchronizerId: id, permission });
    assert.equal(synchronizerForPrepare([s('da1::1220ab')]), 'da1::1220ab');
    assert.equal(synchronizerForPrepare([s('da1::1220ab'), s('global::1220cd', 'PARTICIPANT_PERMISSION_OBSERVATION')]), 'da1::1220ab');
    assert.equal(synchronizerForPrepare([s('da1::1220ab'), s('global::1220cd', 'PARTICIPANT_PERMISSION_CONFIRMATION')]), '');
    assert.equal(synchronizerForPrepare([]), '');
    assert.equal(JSON.parse(prepareRequestTemplate('c', ALICE, 'da1::1220ab')).synchronizerId, 'da1::1220ab');
  });

  it('writes the execute request to sign next to it: everything but the signature', () => {
    assert.equal(executePathFor('/w/a.prepare.json'), '/w/a.execute.json');
    const text = executeRequestFromPrepare(
      { preparedTransaction: 'CgA=', preparedTransactionHash: Buffer.alloc(32).toString('base64'), hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' },
      ALICE,
      'sub-1',
    );
    assert.deepEqual(
      checkExecuteRequest(text).problems.map((p) => p.path),
      ['$.partySignatures.signatures[0].signatures'],
    );
  });
});
