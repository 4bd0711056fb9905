// A record field of the wrong JSON type, as Canton's JSON layer transcodes it (the transcode
// library's JsonCodec, then the Ledger API's ValueValidator): text where a number or a list is,
// a number where a text or a party is, a numeric's text that is no number; per version where they
// differ (3.4 reads an Int64 from a JSON number). The same for a prepare's commands and a submission's.
import * as assert from 'node:assert/strict';
import { javaDoubleText, storedRecord } from '../src/argumentTypes';
import { jsonToValue } from '../src/preparedTransactions';
import { decodePrepared } from '../src/cantonHashes';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { send } from '../../test/support/specBodies';

type Json = Record<string, unknown>;

describe("the JSON layer's transcoding of argument values by their type", function () {
  this.timeout(30_000);
  let node: FakeLedgerNode;
  let n = 0;

  before(async () => {
    node = await FakeLedgerNode.start({ checkResponses: true, bigTransactionEvents: 1 });
  });
  after(() => node.close());
  afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

  // The demo model's 1.0.0 package, which the seeded Iou (the first template) is of.
  const template = (name: string) => `${node.generated.template(0).packageId}:${name}`;
  const prepareCommands = (commands: Json[]) =>
    send(
      node,
      'POST',
      '/v2/interactive-submission/prepare',
      JSON.stringify({
        commandId: `types-${n++}`,
        actAs: [node.ledger.parties.Bank],
        synchronizerId: '',
        packageIdSelectionPreference: [],
        commands,
      }),
      { authorization: `Bearer ${node.mintToken('bank')}` },
    );
  const prepare = (createArguments: Json, name: string) => prepareCommands([{ CreateCommand: { templateId: template(name), createArguments } }]);
  const submit = (createArguments: Json, name: string) =>
    send(
      node,
      'POST',
      '/v2/commands/submit-and-wait-for-transaction',
      JSON.stringify({
        commands: {
          commandId: `types-${n++}`,
          actAs: [node.ledger.parties.Bank],
          commands: [{ CreateCommand: { templateId: template(name), createArguments } }],
        },
      }),
      { authorization: `Bearer ${node.mintToken('bank')}` },
    );
  const iou = (over: Json = {}) => ({
    issuer: node.ledger.parties.Bank,
    owner: node.ledger.parties.Bank,
    currency: 'USD',
    amount: '1.0',
    observers: [],
    ...over,
  });
  const settlement = (legs: unknown) => ({
    operator: node.ledger.parties.Bank,
    buyer: node.ledger.parties.Bank,
    seller: node.ledger.parties.Bank,
    legs,
    memo: '',
  });
  const refused = (r: { status: number; text: string }, status: number, code: string, cause?: string) => {
    assert.equal(r.status, status, r.text);
    const body = JSON.parse(r.text) as Json;
    assert.equal(body.code, code);
    if (cause !== undefined) assert.equal(body.cause, cause);
  };

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[])
    it(`${version}: a number for a text, party or list is the codec's unexpected failure (500); a wrong numeric or Int64 text is INVALID_ARGUMENT`, async () => {
      node.version = version;
      refused(await prepare(iou({ currency: 5 }), 'Iou:Iou'), 500, 'LEDGER_API_INTERNAL_ERROR');
      refused(await prepare(iou({ owner: 7 }), 'Iou:Iou'), 500, 'LEDGER_API_INTERNAL_ERROR');
      refused(await prepare(iou({ observers: node.ledger.parties.Bank }), 'Iou:Iou'), 500, 'LEDGER_API_INTERNAL_ERROR');
      refused(await submit(iou({ observers: [3] }), 'Iou:Iou'), 500, 'LEDGER_API_INTERNAL_ERROR');
      refused(
        await prepare(iou({ amount: true }), 'Iou:Iou'),
        400,
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: true is not a valid numeric value',
      );
      refused(
        await submit(iou({ amount: 'ten' }), 'Iou:Iou'),
        400,
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: Could not read Numeric string "ten"',
      );
      // The codec reads the whole record before the validator reads a numeric's text.
      refused(await prepare(iou({ amount: 'ten', currency: 5 }), 'Iou:Iou'), 500, 'LEDGER_API_INTERNAL_ERROR');
      refused(
        await prepare(settlement('two'), 'Settlement:Settlement'),
        400,
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: For input string: "two"',
      );
      refused(await prepare(settlement('9223372036854775808'), 'Settlement:Settlement'), 400, 'INVALID_ARGUMENT');
      // Missing and unexpected fields come first.
      refused(
        await prepare({ ...iou({ amount: true }), extra: 1 }, 'Iou:Iou'),
        400,
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: Unexpected fields: extra',
      );
      // Well typed: a JSON number is a numeric too.
      assert.equal((await prepare(iou({ amount: 2.5 }), 'Iou:Iou')).status, 200);
      assert.equal((await prepare(settlement('2'), 'Settlement:Settlement')).status, 200);
      // An Int64 as a JSON number: 3.4's codec reads it, 3.5's does not; an object is 3.4's INVALID_ARGUMENT.
      if (version === '3.4') {
        assert.equal((await prepare(settlement(2), 'Settlement:Settlement')).status, 200);
        refused(
          await prepare(settlement({}), 'Settlement:Settlement'),
          400,
          'INVALID_ARGUMENT',
          'The submitted request has invalid arguments: {} is not a valid Int64 value',
        );
      } else refused(await prepare(settlement(2), 'Settlement:Settlement'), 500, 'LEDGER_API_INTERNAL_ERROR');
    });
  it("a JSON number reaches the validator as Java's Double.toString writes it", () => {
    const cases: [number, string][] = [
      [0, '0.0'],
      [100, '100.0'],
      [-2.5, '-2.5'],
      [0.001, '0.001'],
      [9999999.5, '9999999.5'],
      [1e7, '1.0E7'],
      [12345678.9, '1.23456789E7'],
      [0.0001, '1.0E-4'],
      [-1.25e-10, '-1.25E-10'],
      [1e21, '1.0E21'],
      [0.1 + 0.2, '0.30000000000000004'],
    ];
    for (const [v, text] of cases) assert.equal(javaDoubleText(v), text, String(v));
  });

  for (const version of ['3.4', '3.5'] as FakeVersion[])
    it(`${version}: a numeric's text is read by ValueValidator's pattern and 38 digits, then fitted to Numeric 10 by the engine`, async () => {
      node.version = version;
      const ok = async (amount: unknown) => assert.equal((await prepare(iou({ amount }), 'Iou:Iou')).status, 200, JSON.stringify(amount));
      // A sign, a bare point, trailing zeros past the scale: all read.
      for (const amount of ['+1', '1.', '-0.5', '1.000000000000', '0.0000000001', '1234567890123456789012345678.5', 9999999.5, 0.001]) await ok(amount);
      // More than 38 digits, though each part is within the pattern.
      refused(
        await prepare(iou({ amount: '1234567890123456789012345678901234567.89' }), 'Iou:Iou'),
        400,
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: Could not read Numeric string "1234567890123456789012345678901234567.89"',
      );
      // A JSON number Java writes in exponent form is no numeric string.
      refused(
        await prepare(iou({ amount: 1e7 }), 'Iou:Iou'),
        400,
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: Could not read Numeric string "1.0E7"',
      );
      refused(
        await submit(iou({ amount: 0.0001 }), 'Iou:Iou'),
        400,
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: Could not read Numeric string "1.0E-4"',
      );
      // Read, but more decimals than a Decimal has, or too many digits before the point: the engine's type mismatch.
      refused(
        await prepare(iou({ amount: '+1.00000000001' }), 'Iou:Iou'),
        400,
        'COMMAND_PREPROCESSING_FAILED',
        'Cannot represent 1.00000000001 as (Numeric 10) without loss of precision',
      );
      refused(
        await submit(iou({ amount: 0.1 + 0.2 }), 'Iou:Iou'),
        400,
        'COMMAND_PREPROCESSING_FAILED',
        'Cannot represent 0.30000000000000004 as (Numeric 10) without loss of precision',
      );
      refused(
        await submit(iou({ amount: '12345678901234567890123456789' }), 'Iou:Iou'),
        400,
        'COMMAND_PREPROCESSING_FAILED',
        'Out-of-bounds (Numeric 10) 12345678901234567890123456789.0000000000',
      );
      // The request's validation comes first: a later command's contract id that does not parse.
      const both = await prepareCommands([
        { CreateCommand: { templateId: template('Iou:Iou'), createArguments: iou({ amount: '1.00000000001' }) } },
        { ExerciseCommand: { templateId: template('Iou:Iou'), contractId: 'not-a-contract', choice: 'Archive', choiceArgument: {} } },
      ]);
      refused(both, 400, 'INVALID_FIELD');
      // A choice's argument too, before the create before it is interpreted.
      const splitBody = JSON.stringify({
        commands: {
          commandId: `types-${n++}`,
          actAs: [node.ledger.parties.Bank],
          commands: [
            {
              CreateAndExerciseCommand: {
                templateId: template('Iou:Iou'),
                createArguments: iou({ amount: '5.0' }),
                choice: 'Iou_Split',
                choiceArgument: { splitAmount: '1.00000000005' },
              },
            },
          ],
        },
      });
      refused(
        await send(node, 'POST', '/v2/commands/submit-and-wait-for-transaction', splitBody, { authorization: `Bearer ${node.mintToken('bank')}` }),
        400,
        'COMMAND_PREPROCESSING_FAILED',
        'Cannot represent 1.00000000005 as (Numeric 10) without loss of precision',
      );
    });

  for (const version of ['3.4', '3.5'] as FakeVersion[])
    it(`${version}: values come back as the engine holds them: a Decimal with its ten decimals, an Int64 as text`, async () => {
      node.version = version;
      const created = async (r: Awaited<ReturnType<typeof submit>>) => {
        assert.equal(r.status, 200, r.text);
        const events = (r.json as unknown as { transaction: { events: { CreatedEvent?: { createArgument: Json } }[] } }).transaction.events;
        return events.flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent.createArgument] : []));
      };
      assert.deepEqual(
        (await created(await submit(iou({ amount: '999.99' }), 'Iou:Iou'))).map((a) => a.amount),
        ['999.9900000000'],
      );
      assert.deepEqual(
        (await created(await submit(iou({ amount: 5 }), 'Iou:Iou'))).map((a) => a.amount),
        ['5.0000000000'],
      );
      assert.deepEqual(
        (await created(await submit(iou({ amount: '+0.5' }), 'Iou:Iou'))).map((a) => a.amount),
        ['0.5000000000'],
      );
      const legs = version === '3.4' ? 2.7 : '02';
      assert.deepEqual(
        (await created(await submit(settlement(legs), 'Settlement:Settlement'))).map((a) => a.legs),
        ['2'],
      );
      // A choice's argument and what it creates, on submit and in a prepared transaction alike.
      const split = {
        CreateAndExerciseCommand: {
          templateId: template('Iou:Iou'),
          createArguments: iou({ amount: '5' }),
          choice: 'Iou_Split',
          choiceArgument: { splitAmount: '1.5' },
        },
      };
      const bank = node.ledger.parties.Bank;
      const body = JSON.stringify({
        commands: { commandId: `types-${n++}`, actAs: [bank], commands: [split] },
        transactionFormat: {
          eventFormat: { filtersByParty: { [bank]: { cumulative: [] } }, verbose: true },
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        },
      });
      const r = await send(node, 'POST', '/v2/commands/submit-and-wait-for-transaction', body, { authorization: `Bearer ${node.mintToken('bank')}` });
      assert.equal(r.status, 200, r.text);
      const tree = r.text;
      assert.match(tree, /"amount":"5\.0000000000"/);
      assert.match(tree, /"splitAmount":"1\.5000000000"/);
      assert.match(tree, /"amount":"1\.5000000000"/);
      assert.match(tree, /"amount":"3\.5000000000"/);
      // Exact decimals, as Numeric 10 is (in doubles 1.1 - 0.2 is 0.9000000000000001).
      const exact = JSON.stringify({
        commands: {
          commandId: `types-${n++}`,
          actAs: [bank],
          commands: [
            {
              ...split,
              CreateAndExerciseCommand: { ...split.CreateAndExerciseCommand, createArguments: iou({ amount: '1.1' }), choiceArgument: { splitAmount: 0.2 } },
            },
          ],
        },
        transactionFormat: {
          eventFormat: { filtersByParty: { [bank]: { cumulative: [] } }, verbose: true },
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        },
      });
      const parts = await send(node, 'POST', '/v2/commands/submit-and-wait-for-transaction', exact, { authorization: `Bearer ${node.mintToken('bank')}` });
      assert.deepEqual(parts.text.match(/"amount":"[^"]*"/g), ['"amount":"1.1000000000"', '"amount":"0.2000000000"', '"amount":"0.9000000000"']);
      if (version === '3.4') {
        // longValue: the fraction dropped, clamped to 64 bits.
        assert.deepEqual(
          (await created(await submit(settlement(1e20), 'Settlement:Settlement'))).map((a) => a.legs),
          ['9223372036854775807'],
        );
        assert.deepEqual(
          (await created(await submit(settlement(-2.9), 'Settlement:Settlement'))).map((a) => a.legs),
          ['-2'],
        );
      }
      const prepared = await prepareCommands([split, { CreateCommand: { templateId: template('Settlement:Settlement'), createArguments: settlement('3') } }]);
      assert.equal(prepared.status, 200, prepared.text);
      const nodes = JSON.stringify(decodePrepared(prepared.json!.preparedTransaction as string)?.transaction?.nodes, (_, v: unknown) =>
        typeof v === 'bigint' ? String(v) : v,
      );
      assert.match(nodes, /"label":"amount","value":\{"sum":\{"oneofKind":"numeric","numeric":"5\.0000000000"\}/);
      assert.match(nodes, /"label":"splitAmount","value":\{"sum":\{"oneofKind":"numeric","numeric":"1\.5000000000"\}/);
      assert.match(nodes, /"label":"legs","value":\{"sum":\{"oneofKind":"int64","int64":"3"\}/);
      // A choice's Int field too (the seeded ledger has no Job contract to prepare on).
      assert.deepEqual(jsonToValue(storedRecord({ job: 'Int', label: 'Text' }, { job: '+4', label: '4' }), 0, { job: 'Int', label: 'Text' }).sum, {
        oneofKind: 'record',
        record: {
          fields: [
            { label: 'job', value: { sum: { oneofKind: 'int64', int64: '4' } } },
            { label: 'label', value: { sum: { oneofKind: 'text', text: '4' } } },
          ],
        },
      });
    });
});
