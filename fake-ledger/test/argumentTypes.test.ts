// A record field of the wrong JSON type, as Canton's JSON layer transcodes it (the transcode
// library's JsonCodec, then the Ledger API's ValueValidator): text where a number or a list is,
// a number where a text or a party is, a numeric's text that is no number; per version where they
// differ (3.4 reads an Int64 from a JSON number). The same for a prepare's commands and a submission's.
import * as assert from 'node:assert/strict';
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
  const prepare = (createArguments: Json, name: string) =>
    send(
      node,
      'POST',
      '/v2/interactive-submission/prepare',
      JSON.stringify({
        commandId: `types-${n++}`,
        actAs: [node.ledger.parties.Bank],
        synchronizerId: '',
        packageIdSelectionPreference: [],
        commands: [{ CreateCommand: { templateId: template(name), createArguments } }],
      }),
      { authorization: `Bearer ${node.mintToken('bank')}` },
    );
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
});
