// The argument check before sending agrees with the fake node, Canton's model: a commands file
// whose values the check passes (by the workspace's Daml source of the demo model, on the node's
// version) is accepted, and one it names a value of is refused the way the check says: the 500
// that names nothing, or a 400 INVALID_ARGUMENT about that value. Per version where they differ.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DamlIndex } from '../../../src/daml/damlIndex';
import { checkCommandsRequest } from '../../../src/execute/commandsRequest';
import { sourceArgumentFields, sourceArgumentIssues } from '../../../src/execute/sourceArgumentTypes';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { send } from '../../support/specBodies';

type Json = Record<string, unknown>;

describe("the argument check and the node's JSON layer agree", function () {
  this.timeout(30_000);
  let node: FakeLedgerNode;
  let n = 0;
  const root = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'workspace', 'daml-model');
  const index = new DamlIndex();
  const texts = new Map<string, string>();
  for (const rel of ['Iou.daml', 'Notes.daml', 'Settlement.daml']) {
    const file = `file://${root}/daml/${rel}`;
    texts.set(file, fs.readFileSync(path.join(root, 'daml', rel), 'utf8'));
    index.setFile(file, texts.get(file)!, { root, name: 'canton-lens-demo-model', version: '1.0.0', source: `${root}/daml` });
  }
  const fieldsOf = (t: string, c: string | undefined) => sourceArgumentFields(index, t, c, (f) => texts.get(f));

  before(async () => {
    node = await FakeLedgerNode.start({ checkResponses: true });
  });
  after(() => node.close());
  afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

  const bank = () => node.ledger.parties.Bank;
  const iou = (over: Json = {}) => ({ issuer: bank(), owner: bank(), currency: 'USD', amount: '1.0', observers: [], ...over });
  const settlement = (legs: unknown) => ({ operator: bank(), buyer: bank(), seller: bank(), legs, memo: '' });
  const note = (over: Json = {}) => ({ author: bank(), reader: bank(), title: 't', body: '', tags: [], ...over });

  /** The file as a person writes it: one create of the demo model's template. */
  const file = (entity: string, createArguments: Json) =>
    JSON.stringify({
      commandId: `types-${n++}`,
      actAs: [bank()],
      commands: [{ CreateCommand: { templateId: `${node.generated.template(0).packageId}:${entity}`, createArguments } }],
    });

  /** The check's verdict on the file, then the node's answer to it, which must be the one the check foretold. */
  async function agree(entity: string, createArguments: Json, version: string): Promise<'accepted' | 'refused'> {
    const checked = checkCommandsRequest(file(entity, createArguments));
    assert.deepEqual(checked.problems, []);
    const issues = sourceArgumentIssues(checked.request!.commands, fieldsOf, [], version, '$.');
    assert.ok(issues, `the source describes ${entity}`);
    const reply = await send(node, 'POST', '/v2/commands/submit-and-wait-for-transaction', JSON.stringify({ commands: checked.request }), {
      authorization: `Bearer ${node.mintToken('bank')}`,
    });
    const said = `${entity} ${JSON.stringify(createArguments)} on ${version}: check ${JSON.stringify(issues)}; node ${reply.status} ${reply.text}`;
    if (issues.length === 0) {
      assert.equal(reply.status, 200, said);
      return 'accepted';
    }
    assert.equal(issues.length, 1, said);
    const [issue] = issues;
    if (/internal error \(500\)/.test(issue.message)) {
      assert.equal(reply.status, 500, said);
      assert.equal(reply.json?.code, 'LEDGER_API_INTERNAL_ERROR', said);
    } else if (/COMMAND_PREPROCESSING_FAILED/.test(issue.message)) {
      // The engine's fit of a Decimal to its scale.
      assert.equal(reply.status, 400, said);
      assert.equal(reply.json?.code, 'COMMAND_PREPROCESSING_FAILED', said);
    } else {
      assert.match(issue.message, /INVALID_ARGUMENT/, said);
      assert.equal(reply.status, 400, said);
      assert.equal(reply.json?.code, 'INVALID_ARGUMENT', said);
      // The value the check names is the one the node's cause names.
      const value = createArguments[issue.path.split('.').pop()!];
      if (typeof value === 'string') assert.ok(String(reply.json?.cause).includes(value), said);
    }
    return 'refused';
  }

  for (const version of ['3.4', '3.5'] as FakeVersion[])
    it(`${version}: each file the check passes is accepted, each it names a value of is refused as it says`, async () => {
      node.version = version;
      const reported = (await send(node, 'GET', '/v2/version')).json?.version;
      assert.ok(typeof reported === 'string' && reported.startsWith(version), `the node reports ${String(reported)}`);
      const v = reported;
      const outcomes = {
        wellTyped: [
          await agree('Iou:Iou', iou(), v),
          await agree('Iou:Iou', iou({ amount: 12.5 }), v),
          await agree('Settlement:Settlement', settlement('2'), v),
          await agree('Notes:Note', note({ tags: ['a', 'b'] }), v),
        ],
        textOrPartyOrList: [
          await agree('Iou:Iou', iou({ owner: 7 }), v),
          await agree('Iou:Iou', iou({ currency: 5 }), v),
          await agree('Iou:Iou', iou({ observers: bank() }), v),
          await agree('Iou:Iou', iou({ observers: [3] }), v),
          await agree('Notes:Note', note({ tags: 'a' }), v),
        ],
        badTexts: [
          await agree('Iou:Iou', iou({ amount: 'ten' }), v),
          await agree('Iou:Iou', iou({ amount: {} }), v),
          await agree('Settlement:Settlement', settlement('two'), v),
          await agree('Settlement:Settlement', settlement('9223372036854775808'), v),
          await agree('Settlement:Settlement', settlement(true), v),
        ],
        int64Number: await agree('Settlement:Settlement', settlement(2), v),
        // A Decimal (Numeric 10): more decimals than 10, more than 28 digits before the point, more
        // than 38 digits; a JSON number as Java writes it (0.1 + 0.2 has 17 decimals); `+1` and `1.`.
        decimalScale: [
          await agree('Iou:Iou', iou({ amount: '1.00000000001' }), v),
          await agree('Iou:Iou', iou({ amount: 0.1 + 0.2 }), v),
          await agree('Iou:Iou', iou({ amount: '12345678901234567890123456789' }), v),
          await agree('Iou:Iou', iou({ amount: '1234567890123456789012345678901234567.89' }), v),
          await agree('Iou:Iou', iou({ amount: '+1' }), v),
          await agree('Iou:Iou', iou({ amount: '1.' }), v),
          await agree('Iou:Iou', iou({ amount: '1.000000000000' }), v),
        ],
      };
      assert.deepEqual(outcomes, {
        wellTyped: ['accepted', 'accepted', 'accepted', 'accepted'],
        textOrPartyOrList: ['refused', 'refused', 'refused', 'refused', 'refused'],
        badTexts: ['refused', 'refused', 'refused', 'refused', 'refused'],
        // 3.4 reads an Int64 from a JSON number; 3.5 does not.
        int64Number: version === '3.4' ? 'accepted' : 'refused',
        decimalScale: ['refused', 'refused', 'refused', 'refused', 'accepted', 'accepted', 'accepted'],
      });
    });
});
