// The Active Contracts rows on their way to the page and in it: batches of columns with a
// dictionary (src/browse/acsBatchEncoder.ts, acsRows.ts) read back row by row, searched and sorted
// (src/browse/acsTable.ts).
import * as assert from 'node:assert/strict';
import { AcsBatchEncoder } from '../../../src/browse/acsBatchEncoder';
import { MAX_ARGUMENT_TEXT, argumentFields, base64ToHex } from '../../../src/protocol/acsRows';
import { AcsRows } from '../../../src/browse/acsTable';
import type { CreatedEvent } from '../../../src/ledger/apiTypes';

const BANK = 'Bank::1220aa';
const ALICE = 'Alice::1220bb';
let next = 0;
function contract(over: Partial<CreatedEvent> = {}): CreatedEvent {
  next++;
  return {
    contractId: `00${next.toString(16).padStart(4, '0')}`,
    templateId: 'p:Iou:Iou',
    packageName: 'demo',
    createdAt: `2026-01-01T00:00:${String(next % 60).padStart(2, '0')}Z`,
    signatories: [BANK],
    observers: [ALICE],
    createArgument: { issuer: BANK, owner: ALICE, currency: 'USD', amount: String(next) },
    ...over,
  } as CreatedEvent;
}

/** Rows as the page holds them after these batches. */
function page(...batches: CreatedEvent[][]): AcsRows {
  const encoder = new AcsBatchEncoder();
  const rows = new AcsRows();
  for (const b of batches) rows.append(encoder.encode(b));
  return rows;
}

describe('active contract rows (batches and the page)', () => {
  it('a row reads back as the node sent it: ids, template, package, time, parties, key and its first fields', () => {
    const e = contract({
      contractKey: { _1: BANK },
      createArgument: { issuer: BANK, owner: ALICE, note: '<img src=x onerror=alert(1)>', nested: { a: [1, 2] }, extra: 'x' },
    });
    const rows = page([e]);
    assert.equal(rows.count, 1);
    assert.equal(rows.contractId(0), e.contractId);
    assert.equal(rows.templateId(0), 'p:Iou:Iou');
    assert.equal(rows.packageName(0), 'demo');
    assert.equal(rows.createdAt(0), e.createdAt);
    assert.deepEqual(rows.signatories(0), [BANK]);
    assert.deepEqual(rows.observers(0), [ALICE]);
    assert.equal(rows.key(0), `{"_1":"${BANK}"}`);
    // The issuer is a signatory, already a column of its own.
    assert.deepEqual(rows.fields(0), [
      ['owner', ALICE],
      ['note', '<img src=x onerror=alert(1)>'],
      ['nested', '{"a":[1,2]}'],
    ]);
  });

  it('sends each repeated string once per read: later batches name it by number', () => {
    const encoder = new AcsBatchEncoder();
    const first = encoder.encode([contract(), contract()]);
    const second = encoder.encode([contract(), contract({ templateId: 'p:Iou:Other' })]);
    assert.deepEqual(first.words, ['p:Iou:Iou', 'demo', BANK, ALICE, '["issuer","owner","currency","amount"]']);
    assert.deepEqual(first.templates, [0, 0]);
    assert.deepEqual(second.words, ['p:Iou:Other']);
    assert.deepEqual(second.templates, [0, 5]);
    assert.deepEqual([first.keyRows, first.fieldRows], [[], []], 'no keys, no cut arguments');
    // A new read starts its dictionary again.
    assert.deepEqual(new AcsBatchEncoder().encode([contract()]).words, ['p:Iou:Iou', 'demo', BANK, ALICE, '["issuer","owner","currency","amount"]']);
  });

  it('sends party ids inside arguments as words, and reads them back exactly; a control character in the data stays data', () => {
    const bank = `Bank::1220${'ab'.repeat(32)}`;
    const carol = `Carol:-_ x::1220${'cd'.repeat(32)}`;
    const argument = { issuer: bank, owner: carol, note: `\u0001AAA ${bank}`, list: [carol, 'plain'] };
    const encoder = new AcsBatchEncoder();
    const batch = encoder.encode([contract({ signatories: [bank], createArgument: argument })]);
    // Whole string values that are party ids; a party inside other text stays as it is.
    assert.equal(batch.args[0].split('::1220').length, 2, batch.args[0]);
    assert.ok(batch.args[0].length < JSON.stringify(argument).length - 200);
    const rows = new AcsRows();
    rows.append(batch);
    assert.equal(JSON.stringify(rows.argument(0)), JSON.stringify(argument));
    assert.deepEqual(rows.fields(0), [
      ['owner', carol],
      ['note', `\u0001AAA ${bank}`],
      ['list', JSON.stringify([carol, 'plain'])],
    ]);
    assert.deepEqual(rows.matching('carol:-_ x::1220cdcd'), [0]);
    assert.deepEqual(rows.matching('"owner":"carol'), [0], 'the JSON as the node sent it');
    assert.deepEqual(rows.matching('aaa'), [0]);
    // The next batch names the same parties by the same words.
    const next = encoder.encode([contract({ signatories: [bank], createArgument: { ...argument, owner: carol } })]);
    assert.deepEqual(next.words, []);
  });

  it('sends a record argument as its values under a word of field names, and reads back the same JSON', () => {
    const args: unknown[] = [
      { issuer: BANK, nested: { b: [1, { c: null }], a: '2' }, 2: 'two', 1: 'one', __proto__x: true },
      JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}'),
      [1, 'two', { three: 3 }],
      'a text argument',
      {},
      { amount: 1e21, small: -0.000001, unicode: 'é\u2028\ud800' },
    ];
    const encoder = new AcsBatchEncoder();
    const rows = new AcsRows();
    rows.append(encoder.encode(args.map((a) => contract({ createArgument: a }))));
    for (const [i, a] of args.entries()) assert.equal(JSON.stringify(rows.argument(i)), JSON.stringify(a), String(i));
    assert.equal(({} as { polluted?: boolean }).polluted, undefined, 'no prototype touched');
    const second = encoder.encode([contract({ createArgument: { issuer: BANK, nested: {}, 2: 'x', 1: 'y', __proto__x: false } })]);
    assert.deepEqual(second.words, [], 'the same field names: the same word');
    assert.deepEqual(rows.matching('"nested":{"b":[1,{"c":null}]'), [0]);
  });

  it('sends hex contract ids as base64 (other ids as they are) and reads them back', () => {
    for (const hex of ['', '00', '00ab', '00abcd', '00abcdef', `00${'7f'.repeat(33)}ca121220${'e0'.repeat(32)}`])
      assert.equal(base64ToHex(Buffer.from(hex, 'hex').toString('base64').replace(/=+$/, '')), hex, hex);
    const id = `00${'ab'.repeat(32)}ca121220${'cd'.repeat(32)}`;
    const encoder = new AcsBatchEncoder();
    const hex = encoder.encode([contract({ contractId: id }), contract()]);
    assert.ok(hex.hexIds);
    assert.ok(hex.ids[0].length < (id.length * 3) / 4 + 2, hex.ids[0]);
    const mixed = encoder.encode([contract({ contractId: 'not-hex' }), contract({ contractId: id })]);
    assert.deepEqual([mixed.hexIds, mixed.ids], [false, ['not-hex', id]]);
    const rows = new AcsRows();
    rows.append(hex);
    rows.append(mixed);
    assert.deepEqual([rows.contractId(0), rows.contractId(2), rows.contractId(3)], [id, 'not-hex', id]);
    assert.deepEqual(rows.matching(id.slice(40, 90)), [0, 3]);
  });

  it('shows a contract key as text, its parties back in place, long ones cut', () => {
    const bank = `Bank::1220${'ab'.repeat(32)}`;
    const keys: unknown[] = [{ _1: bank, _2: 'x' }, 'a \u0001ABC text key', { long: 'y'.repeat(200) }, 42];
    const rows = page(keys.map((k) => contract({ contractKey: k })));
    assert.deepEqual(
      [0, 1, 2, 3].map((r) => rows.key(r)),
      [JSON.stringify(keys[0]), keys[1], `${JSON.stringify(keys[2]).slice(0, 119)}…`, '42'],
    );
    assert.deepEqual(rows.matching('bank::1220abab'), [0]);
  });

  it('keeps the rows of several batches in order, keys and cut fields at their rows', () => {
    const big = 'x'.repeat(MAX_ARGUMENT_TEXT);
    const rows = page([contract(), contract({ contractKey: 'k1' })], [contract({ createArgument: { owner: ALICE, blob: big, tail: 'end' } }), contract()]);
    assert.equal(rows.count, 4);
    assert.deepEqual(
      [0, 1, 2, 3].map((r) => rows.key(r)),
      ['', 'k1', '', ''],
    );
    // Cut where the page could not read it: its fields came with it.
    assert.deepEqual(rows.fields(2), [
      ['owner', ALICE],
      ['blob', `${'x'.repeat(119)}…`],
      ['tail', 'end'],
    ]);
  });

  it('searches the argument, id, template, parties and key, in any case; from a row on', () => {
    const rows = page([
      contract({ createArgument: { owner: ALICE, memo: 'Coffee BEANS' } }),
      contract({ templateId: 'p:Finance.Cash:Holding' }),
      contract({ signatories: ['Carol::1220cc'], createArgument: { owner: 'x' } }),
      contract({ contractKey: 'Serial-42' }),
    ]);
    assert.deepEqual(rows.matching('beans'), [0]);
    assert.deepEqual(rows.matching('finance.cash'), [1]);
    assert.deepEqual(rows.matching('carol::'), [2]);
    assert.deepEqual(rows.matching('serial-42'), [3]);
    assert.deepEqual(rows.matching(rows.contractId(1)), [1]);
    assert.deepEqual(rows.matching('alice'), [0, 1, 2, 3], 'an observer of every row');
    assert.deepEqual(rows.matching('alice', 2), [2, 3]);
    assert.deepEqual(rows.matching('<nothing>'), []);
  });

  it('sorts by creation time both ways, keeping the node order among equal times', () => {
    const rows = page([
      contract({ createdAt: '2026-01-02T00:00:00Z' }),
      contract({ createdAt: '2026-01-01T00:00:00Z' }),
      contract({ createdAt: '2026-01-02T00:00:00Z' }),
    ]);
    assert.deepEqual(rows.sort([0, 1, 2], 'asc'), [1, 0, 2]);
    assert.deepEqual(rows.sort([0, 1, 2], 'desc'), [0, 2, 1]);
    assert.deepEqual(rows.sort([2, 0, 1], ''), [2, 0, 1]);
  });

  it('a read started again keeps its dictionary; a new read does not', () => {
    const encoder = new AcsBatchEncoder();
    const rows = new AcsRows();
    rows.append(encoder.encode([contract()]));
    rows.clear(true);
    rows.append(encoder.encode([contract({ templateId: 'p:Iou:Iou' })]));
    assert.equal(rows.templateId(0), 'p:Iou:Iou', 'the word from the first batch');
    rows.clear();
    const fresh = new AcsBatchEncoder();
    rows.append(fresh.encode([contract({ templateId: 'p:M:New' })]));
    assert.equal(rows.templateId(0), 'p:M:New');
  });

  it('an argument that is not a record has no fields; an unknown word reads as nothing', () => {
    assert.deepEqual(argumentFields([1, 2], []), []);
    assert.deepEqual(argumentFields('text', []), []);
    const rows = new AcsRows();
    rows.append({
      words: [],
      ids: ['00aa'],
      hexIds: false,
      createdAt: [''],
      templates: [7],
      packages: [7],
      signatories: [7],
      observers: [7],
      shapes: [7],
      args: ['{'],
      keyRows: [],
      keys: [],
      fieldRows: [],
      fields: [],
    });
    assert.deepEqual([rows.templateId(0), rows.signatories(0), rows.fields(0)], ['', [], []]);
  });

  it('a search in slices finds what one pass finds, rows and dictionary words that came between slices included', () => {
    const encoder = new AcsBatchEncoder();
    const rows = new AcsRows();
    rows.append(encoder.encode([contract(), contract({ templateId: 'p:Finance:Cash' }), contract({ observers: ['Carol::1220cc'] })]));
    const hits: boolean[] = [];
    const found: number[] = [];
    let at = rows.matchSome('cash', hits, 0, 2, found);
    assert.equal(at, 2);
    rows.append(encoder.encode([contract({ templateId: 'p:Finance:Cash' }), contract({ createArgument: { note: 'petty CASH' } })]));
    while (at < rows.count) at = rows.matchSome('cash', hits, at, 2, found);
    assert.deepEqual(found, rows.matching('cash'));
    assert.deepEqual(found, [1, 3, 4]);
  });

  it('100,000 rows: encoded, appended and searched whole', function () {
    this.timeout(20_000);
    const events = Array.from({ length: 100_000 }, () => contract());
    const encoder = new AcsBatchEncoder();
    const rows = new AcsRows();
    for (let i = 0; i < events.length; i += 1000) rows.append(encoder.encode(events.slice(i, i + 1000)));
    assert.equal(rows.count, 100_000);
    assert.equal(rows.matching('usd').length, 100_000);
    assert.equal(rows.matching(events[99_999].contractId).length, 1);
    assert.equal(rows.prepareSearch(99_990, 100), 100_000);
  });
});
