// A submitted exercise of a template's choice is the node Canton's engine builds: its template is
// the one the command resolved to (for `#name`, the highest vetted package), which may differ from
// the exercised contract's; the event carries that template and package name, the choice's creates
// are in that package, and the errors that name the node's template name that one. Over HTTP.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../src/testing';
import { MODEL_PACKAGE_V2 } from '../src/demoLedgerHistory';
import { send } from '../../test/support/specBodies';

type Json = Record<string, unknown>;
const BY_NAME = '#canton-lens-demo-model:Iou:Iou';
const V2_IOU = `${MODEL_PACKAGE_V2}:Iou:Iou`;

describe('the template of a submitted exercise', function () {
  this.timeout(30_000);
  let node: FakeLedgerNode;
  let n = 0;

  before(async () => {
    node = await FakeLedgerNode.start({ checkResponses: true });
  });
  after(() => node.close());
  afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

  const submit = (user: string, party: string, command: Json, shape = 'TRANSACTION_SHAPE_LEDGER_EFFECTS') =>
    send(
      node,
      'POST',
      '/v2/commands/submit-and-wait-for-transaction',
      JSON.stringify({
        commands: { commandId: `exercised-${n++}`, actAs: [party], commands: [command] },
        transactionFormat: {
          eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } }, verbose: true },
          transactionShape: shape,
        },
      }),
      { authorization: `Bearer ${node.mintToken(user)}` },
    );
  const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: Json) => ({
    ExerciseCommand: { templateId, contractId, choice, choiceArgument },
  });
  const eventsOf = (r: { json?: Json }) => ((r.json?.transaction as Json).events ?? []) as Json[];
  const pkg8 = MODEL_PACKAGE_V2.slice(0, 8);

  it('names the resolved template in an authorization error and in the failed assertion of its choice', async () => {
    const { Alice, Bank } = node.ledger.parties;
    const iou = node.ledger.samples.activeContract;
    assert.notEqual(node.generated.template(0).templateId, V2_IOU, 'the seeded Iou is of the 1.0.0 package');
    const unauthorized = await submit('bank', Bank, exercise(BY_NAME, iou, 'Iou_Transfer', { newOwner: Bank }));
    assert.equal(unauthorized.status, 400, unauthorized.text);
    assert.equal(unauthorized.json?.code, 'DAML_AUTHORIZATION_ERROR');
    assert.match(String(unauthorized.json?.cause), new RegExp(`node NodeId\\(0\\) \\(${V2_IOU}\\) requires authorizers`));
    const failed = await submit('alice', Alice, exercise(BY_NAME, iou, 'Iou_Split', { splitAmount: '5000.0' }));
    assert.equal(failed.status, 400, failed.text);
    assert.equal(failed.json?.code, 'DAML_FAILURE');
    const trace = String((failed.json?.context as Json).exercise_trace);
    assert.match(trace, new RegExp(`in choice ${pkg8}:Iou:Iou:Iou_Split on contract ${iou.slice(0, 10)} \\(#0\\)`));
    assert.match(trace, new RegExp(`in exercise command ${pkg8}:Iou:Iou:Iou_Split on contract ${iou.slice(0, 10)}\\.`));
  });

  it("writes the exercised event with the resolved template and package, and the choice's creates in that package", async () => {
    const { Alice } = node.ledger.parties;
    const iou = node.ledger.samples.activeContract;
    const r = await submit('alice', Alice, exercise(BY_NAME, iou, 'Iou_Split', { splitAmount: '400.0' }));
    assert.equal(r.status, 200, r.text);
    const [first, ...children] = eventsOf(r);
    const exercised = first.ExercisedEvent as Json;
    assert.equal(exercised.contractId, iou);
    assert.equal(exercised.templateId, V2_IOU);
    assert.equal(exercised.packageName, 'canton-lens-demo-model');
    assert.equal(exercised.interfaceId ?? null, null);
    assert.equal(children.length, 2);
    for (const c of children) assert.equal((c.CreatedEvent as Json).templateId, V2_IOU);
    // The same node seen as the ACS delta: the archive carries the exercise's template.
    const tx = await send(
      node,
      'POST',
      '/v2/updates/update-by-id',
      JSON.stringify({
        updateId: (r.json?.transaction as Json).updateId,
        updateFormat: {
          includeTransactions: {
            eventFormat: { filtersByParty: { [Alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } }, verbose: true },
            transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
          },
        },
      }),
      { authorization: `Bearer ${node.mintToken('alice')}` },
    );
    assert.equal(tx.status, 200, tx.text);
    const archived = (((tx.json?.update as Json).Transaction as Json).value as Json).events as Json[];
    assert.equal((archived[0].ArchivedEvent as Json).templateId, V2_IOU);
  });
});
