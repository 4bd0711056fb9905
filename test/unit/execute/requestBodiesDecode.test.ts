// Every request body Canton Lens builds, decoded as each release line's node decodes it: the spec's
// schema, then the fields Canton's case classes require (spec/canton-decoders-<version>.json). The
// bodies built inline where a request is sent are checked in every tier instead: a fake node counts
// each body of Canton Lens's client it could not decode (test/support/specConformance.ts).
import * as assert from 'node:assert/strict';
import { ApiSchemas } from '../../../fake-ledger/src/spec/apiSchemas';
import { SPEC_VERSIONS } from '../../../fake-ledger/src/spec/specRoutes';
import { checkCommandsRequest, commandsRequestTemplate, exerciseRequest } from '../../../src/execute/commandsRequest';
import { checkExecuteRequest, executeRequestTemplate, HASH_FIELD } from '../../../src/execute/executeRequestCheck';
import { checkPrepareRequest, executeRequestFromPrepare, prepareRequestTemplate } from '../../../src/execute/prepareRequestCheck';
import { addTopLevelFields } from '../../../src/execute/requiredFields';
import { ledgerEffectsFor, withLedgerEffectsOf } from '../../../src/ledger/commandRequests';
import type { JsExecuteSubmissionRequest } from '../../../src/ledger/apiTypes';
import { eventFormatFor, otherUpdatesFormat, transactionByIdRequest, transactionQueryFor, updateByIdRequest } from '../../../src/ledger/requestForms';
import { ALICE } from '../../support/preparedTransactions';

const SIGNED = {
  party: ALICE,
  signatures: [
    { format: 'SIGNATURE_FORMAT_CONCAT', signature: 'AAAA', signedBy: `1220${'ab'.repeat(32)}`, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' },
  ],
};

/** What is sent of an execute file: the request without the hash Canton Lens checks. */
function sentOf(file: string): Record<string, unknown> {
  const { [HASH_FIELD]: _hash, ...request } = JSON.parse(file) as Record<string, unknown>;
  return request;
}

function bodies(): [route: string, what: string, body: unknown][] {
  const prepare = JSON.parse(prepareRequestTemplate('cmd-1', ALICE)) as Record<string, unknown>;
  const fromPrepare = sentOf(
    executeRequestFromPrepare(
      { preparedTransaction: 'CgA=', preparedTransactionHash: Buffer.alloc(32).toString('base64'), hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' },
      ALICE,
      'sub-1',
    ),
  );
  const signed = { ...fromPrepare, partySignatures: { signatures: [SIGNED] } } as unknown as JsExecuteSubmissionRequest;
  const created = JSON.parse(commandsRequestTemplate('cmd-2', ALICE, '#iou:Iou:Iou'));
  const exercised = JSON.parse(
    exerciseRequest({
      commandId: 'cmd-3',
      party: ALICE,
      templateId: '#iou:Iou:Iou',
      choice: 'Iou_Transfer',
      contractId: `00${'ab'.repeat(33)}`,
      choiceArgument: {},
    }),
  );
  const query = transactionQueryFor([ALICE], 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
  const update = updateByIdRequest('1220ab', query);
  update.updateFormat = { ...update.updateFormat, ...otherUpdatesFormat(query) };
  return [
    ['POST /v2/interactive-submission/prepare', 'New Prepare Request', prepare],
    ['POST /v2/interactive-submission/execute', 'the execute request written from a prepare answer', signed],
    ['POST /v2/interactive-submission/execute', 'New Execute Request', sentOf(executeRequestTemplate('sub-2'))],
    ['POST /v2/interactive-submission/executeAndWait', 'Submit and Wait', signed],
    ['POST /v2/interactive-submission/executeAndWaitForTransaction', 'Submit and Show Transaction', withLedgerEffectsOf(signed, ALICE)],
    ['POST /v2/commands/submit-and-wait-for-transaction', 'New Commands Request', { commands: created, transactionFormat: ledgerEffectsFor(created) }],
    ['POST /v2/commands/submit-and-wait-for-transaction', 'Exercise on the Ledger', { commands: exercised, transactionFormat: ledgerEffectsFor(exercised) }],
    ['POST /v2/updates/transaction-by-id', 'a transaction lookup', transactionByIdRequest('1220ab', transactionQueryFor([ALICE]))],
    ['POST /v2/updates/update-by-id', 'an update lookup', update],
    ['POST /v2/events/events-by-contract-id', 'a contract lookup', { contractId: `00${'ab'.repeat(33)}`, eventFormat: eventFormatFor([ALICE]) }],
    ['POST /v2/state/active-contracts', 'Active Contracts (any party)', { activeAtOffset: 5, eventFormat: eventFormatFor(undefined) }],
  ];
}

describe('every request body Canton Lens builds decodes as each Canton release line decodes it', () => {
  for (const version of SPEC_VERSIONS)
    it(`on ${version}`, () => {
      const schemas = ApiSchemas.for(version);
      for (const [route, what, body] of bodies()) {
        if (!schemas.route(route)) continue;
        const decoded = schemas.checkRequest(route, JSON.stringify(body));
        assert.ok(decoded.ok, `${what} (${route}) on ${version}: ${decoded.ok ? '' : `${decoded.reason} at '${decoded.at}'`}`);
      }
    });

  it("refuses the files written before the decoder's fields were known, and the checks' quick fix makes each decodable", () => {
    const schemas = ApiSchemas.for('3.5');
    const old = { commandId: 'c', actAs: [ALICE], commands: [{ CreateCommand: { templateId: '#iou:Iou:Iou', createArguments: {} } }] };
    const refused = schemas.checkRequest('POST /v2/interactive-submission/prepare', JSON.stringify(old));
    assert.deepEqual(refused, { ok: false, reason: 'Missing required field', at: 'synchronizerId' });
    const text = JSON.stringify(old, null, 2);
    const fields = Object.assign({}, ...checkPrepareRequest(text).problems.map((p) => p.add)) as Record<string, unknown>;
    const edit = addTopLevelFields(text, fields)!;
    assert.ok(schemas.checkRequest('POST /v2/interactive-submission/prepare', text.slice(0, edit.offset) + edit.insert + text.slice(edit.offset)).ok);

    const execute = { ...sentOf(executeRequestTemplate('sub')), partySignatures: { signatures: [SIGNED] } } as Record<string, unknown>;
    delete execute.deduplicationPeriod;
    assert.equal(schemas.checkRequest('POST /v2/interactive-submission/execute', JSON.stringify(execute)).ok, false);
    const executeText = JSON.stringify(execute);
    const executeFix = addTopLevelFields(executeText, Object.assign({}, ...checkExecuteRequest(executeText).problems.map((p) => p.add)))!;
    const fixed = executeText.slice(0, executeFix.offset) + executeFix.insert + executeText.slice(executeFix.offset);
    assert.ok(schemas.checkRequest('POST /v2/interactive-submission/execute', fixed).ok);
  });

  it('the commands a person writes are checked for what the decoder requires of each command', () => {
    // JsCommands: commands, commandId and actAs have no default; each command's choiceArgument neither.
    const schemas = ApiSchemas.for('3.6');
    const lacking = {
      commands: { commandId: 'c', actAs: [ALICE], commands: [{ ExerciseCommand: { templateId: '#a:B:C', contractId: '00ab', choice: 'X' } }] },
    };
    assert.deepEqual(schemas.checkRequest('POST /v2/commands/submit-and-wait-for-transaction', JSON.stringify(lacking)), {
      ok: false,
      reason: 'Missing required field',
      at: 'commands.commands[0].ExerciseCommand.choiceArgument',
    });
    assert.ok(checkCommandsRequest(JSON.stringify(lacking.commands)).problems.some((p) => p.path === '$.commands[0].ExerciseCommand.choiceArgument'));
  });
});
