// Prepared against committed: local contract ids completed by the node's suffix are matched (in ids
// and inside arguments), arguments compared as values (exact decimals, positional labels), and what
// the node added, dropped or changed is flagged; the review's table shows it, escaped.
import * as assert from 'node:assert/strict';
import { compareCommittedDetail } from '../../../src/execute/committedComparison';
import { reviewBody } from '../../../src/panels/html/reviewHtml';
import { HOSTILE_STRINGS } from '../../../fake-ledger/src/storedLedger';

const T = 'pkg:Iou:Iou';
const local = `00${'ab'.repeat(32)}`;
const suffixed = `${local}ca121220${'cd'.repeat(32)}`;
const input = `00${'11'.repeat(32)}ca121220${'22'.repeat(32)}`;
const review = (nodes: unknown[]) => ({ nodes }) as never;
const tx = (events: unknown[]) => ({ events }) as never;

describe('prepared against committed', () => {
  it('matches a local id to the id the node completed, in the exercise on it and inside arguments', () => {
    const r = compareCommittedDetail(
      review([
        { kind: 'exercise', templateId: T, choice: 'Iou_Transfer', contractId: input, argument: { newOwner: 'Bob::1220aa' } },
        { kind: 'create', templateId: T, contractId: local, argument: { owner: 'Bob::1220aa', amount: '100.0', previous: input } },
        { kind: 'exercise', templateId: T, choice: 'Iou_Lock', contractId: local, argument: { note: local } },
      ]),
      tx([
        { ExercisedEvent: { templateId: T, choice: 'Iou_Transfer', contractId: input, choiceArgument: { newOwner: 'Bob::1220aa' } } },
        {
          CreatedEvent: {
            templateId: '#model:Iou:Iou',
            contractId: suffixed,
            createArgument: { owner: 'Bob::1220aa', amount: '100.0000000000', previous: input },
          },
        },
        { ExercisedEvent: { templateId: T, choice: 'Iou_Lock', contractId: suffixed, choiceArgument: { note: suffixed } } },
      ]),
    );
    assert.deepEqual(r.differences, []);
    assert.deepEqual(
      r.actions.map((a) => a.status),
      ['same', 'same', 'same'],
    );
    assert.equal(r.actions[1].completedId, suffixed);
  });

  it('names an argument that differs by its path, and an action the node added or dropped', () => {
    const r = compareCommittedDetail(
      review([
        { kind: 'create', templateId: T, contractId: local, argument: { owner: 'Bob', amount: '100.0', tags: ['a', 'b'] } },
        { kind: 'exercise', templateId: T, choice: 'Archive', contractId: input, argument: {} },
      ]),
      tx([
        { CreatedEvent: { templateId: T, contractId: suffixed, createArgument: { owner: 'Bob', amount: '100.5', tags: ['a', 'c'] } } },
        { ExercisedEvent: { templateId: T, choice: 'Archive', contractId: input, choiceArgument: {} } },
        { CreatedEvent: { templateId: T, contractId: `00${'ee'.repeat(32)}`, createArgument: {} } },
      ]),
    );
    assert.deepEqual(
      r.actions.map((a) => a.status),
      ['differs', 'same', 'added'],
    );
    assert.match(r.differences[0], /argument differs at amount, tags\[1\]/);
    assert.match(r.differences[1], /Committed but not prepared: create of pkg:Iou:Iou/);
    const dropped = compareCommittedDetail(review([{ kind: 'create', templateId: T, contractId: local }]), tx([]));
    assert.equal(dropped.actions[0].status, 'dropped');
  });

  it('flags a committed id that does not extend the prepared one, and compares unlabelled records by position', () => {
    const r = compareCommittedDetail(
      review([{ kind: 'create', templateId: T, contractId: local, argument: { _1: 'Bob', _2: '5.0' } }]),
      tx([{ CreatedEvent: { templateId: T, contractId: `00${'99'.repeat(32)}ca12`, createArgument: { owner: 'Bob', amount: '5' } } }]),
    );
    assert.equal(r.actions[0].status, 'differs');
    assert.equal(r.differences.length, 1);
    assert.match(r.differences[0], /does not extend the prepared one/);
  });

  it('matches local ids by their extension wherever the node put the create, and takes a missing field as a null one', () => {
    const other = `00${'ab'.repeat(31)}ef`;
    const r = compareCommittedDetail(
      review([
        { kind: 'create', templateId: T, contractId: local, argument: { owner: 'Bob' } },
        { kind: 'exercise', templateId: T, choice: 'Iou_Lock', contractId: local, argument: {} },
      ]),
      tx([
        // An action the node added before, which shifts every position.
        { CreatedEvent: { templateId: T, contractId: `${other}ca121220${'77'.repeat(32)}`, createArgument: {} } },
        { CreatedEvent: { templateId: T, contractId: suffixed, createArgument: { owner: 'Bob', note: null } } },
        { ExercisedEvent: { templateId: T, choice: 'Iou_Lock', contractId: suffixed, choiceArgument: {} } },
      ]),
    );
    assert.equal(r.actions.find((a) => a.completedId)?.completedId, suffixed);
    assert.ok(
      r.differences.every((d) => !/argument differs at note/.test(d)),
      r.differences.join(' | '),
    );
    assert.ok(r.differences.some((d) => /Committed but not prepared/.test(d)));
  });

  it('survives malformed committed events', () => {
    const r = compareCommittedDetail(review([]), tx([null, 3, { CreatedEvent: null }, { Unknown: {} }]));
    assert.deepEqual(r.actions, []);
  });

  it('is shown in the review as a table, ledger text escaped', () => {
    const hostile = HOSTILE_STRINGS[0];
    const r = compareCommittedDetail(
      review([{ kind: 'create', templateId: `pkg:${hostile}:T`, contractId: local, argument: { x: hostile } }]),
      tx([{ CreatedEvent: { templateId: `pkg:${hostile}:T`, contractId: suffixed, createArgument: { x: 'other' } } }]),
    );
    const page = reviewBody({
      fileName: 'a.execute.json',
      node: 'n',
      party: 'p',
      request: { partySignatures: { signatures: [] }, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' } as never,
      findings: [],
      outcome: {
        state: 'accepted',
        node: 'n',
        at: 'now',
        submissionId: 's',
        actAs: [],
        endpoint: 'executeAndWaitForTransaction',
        differences: r.differences,
        actions: r.actions,
      },
    } as never).text;
    assert.match(page, /Prepared against committed \(1 actions\)/);
    assert.match(page, /differs/);
    assert.ok(!page.includes('<img src=x'), 'no ledger string becomes markup');
  });
});
