import * as assert from 'node:assert/strict';
import { exerciseTree } from '../../../src/lookups/exerciseTree';
import { eventRows, eventRowsFrom, packEventRows, packTreeRows, treeRows, treeRowsFrom } from '../../../src/panels/html/eventRowsData';
import { isPackedEventRows, isPackedTreeRows, unpackEventRows, unpackTreeRows, type EventRow, type TreeRow } from '../../../src/protocol/transactionRows';
import { hostileTransaction } from '../../support/hostileLookups';

const sentAndBack = (rows: EventRow[]) => {
  const packed = JSON.parse(JSON.stringify(packEventRows(rows))) as ReturnType<typeof packEventRows>;
  const back = unpackEventRows(packed);
  return { packed, rows: back.rows.map(([n, k, t, id, d, p]): EventRow => [n, k, t, back.contractIdOf(id), d, p]) };
};

describe('event rows written into the transaction page', () => {
  const party = `Alice::1220${'ab'.repeat(32)}`;
  const template = `${'d'.repeat(64)}:Iou:Iou`;
  const cid = (i: number) => `00${i.toString(16).padStart(64, '0')}ca121220${'cd'.repeat(32)}`;

  it('come back as they were: template ids and parties once each, hex contract ids as base64', () => {
    const rows: EventRow[] = Array.from({ length: 50 }, (_, i) => [
      i,
      i % 2 ? 'archived' : 'created',
      template,
      cid(i),
      '',
      [party, `Bob::1220${'ef'.repeat(32)}`],
    ]);
    const { packed, rows: back } = sentAndBack(rows);
    assert.deepEqual(back, rows);
    assert.equal(packed.words.length, 3);
    assert.equal(packed.hexIds, true);
    assert.ok(packed.rows[0][3].length < cid(0).length * 0.7, 'an id is shorter than its hex');
  });

  it('keeps contract ids as they are when one is not hex, and reads an unknown word as ""', () => {
    const rows: EventRow[] = [
      [0, 'exercised', template, 'not-hex</script>', 'Transfer (consuming)', [party]],
      [1, 'created', template, cid(1), '', []],
      [2, 'created', template, 'abc', '', [party]],
    ];
    const { packed, rows: back } = sentAndBack(rows);
    assert.deepEqual(back, rows);
    assert.equal(packed.hexIds, false);
    const odd = unpackEventRows({ words: [], hexIds: false, rows: [[0, 'created', 7, 'x', '', [9]]] });
    assert.deepEqual(odd.rows, [[0, 'created', '', 'x', '', ['']]]);
  });

  it('go in chunks that say where they start and how many rows there are, until none are left', () => {
    const l = hostileTransaction(12);
    assert.ok(l.found && l.update === 'transaction');
    const events = l.transaction.events;
    const all = eventRows(events);
    const chunks = [];
    for (let from = 0; from < events.length; from += 5) chunks.push(eventRowsFrom(events, from, 5));
    assert.deepEqual(
      chunks.map((c) => [c.from, c.rows.length, c.total]),
      [
        [0, 5, 12],
        [5, 5, 12],
        [10, 2, 12],
      ],
    );
    const back = chunks.flatMap((c) => {
      assert.ok(isPackedEventRows(JSON.parse(JSON.stringify(c))), "each chunk passes the page's check");
      const u = unpackEventRows(c);
      return u.rows.map(([n, k, t, id, d, p]): EventRow => [n, k, t, u.contractIdOf(id), d, p]);
    });
    assert.deepEqual(back, all);
    const past = eventRowsFrom(events, 40, 5);
    assert.deepEqual([past.from, past.rows.length, past.total], [12, 0, 12], 'past the end: no rows');
  });
});

describe('exercise tree rows written into the transaction page', () => {
  const party = `Alice::1220${'ab'.repeat(32)}`;
  const template = `${'d'.repeat(64)}:Batch:Job`;
  const iface = `${'e'.repeat(64)}:Batch:Runnable`;
  const cid = (i: number) => `00${i.toString(16).padStart(64, '0')}ca121220${'cd'.repeat(32)}`;
  /** Jobs of a run and a create each: rows in pre-order from `from` on. */
  const jobs = (count: number, from = 0): TreeRow[] =>
    Array.from({ length: count }, (_, k): TreeRow => {
      const i = from + k;
      return i % 2 === 0
        ? [i, -1, 0, 1, 'exercised', template, 'Job_Run', cid(i), [party], i % 4 === 0, i % 4 === 0 ? iface : '', i]
        : [i, i - 1, 1, 0, 'created', template, '', cid(i), [party, `Bob::1220${'ef'.repeat(32)}`], false, '', i];
    });
  const sentAndBack = (rows: TreeRow[], from = 0, total?: number) => {
    const packed = JSON.parse(JSON.stringify(packTreeRows(rows, from, total))) as ReturnType<typeof packTreeRows>;
    assert.ok(isPackedTreeRows(packed), "the page's check takes them");
    return { packed, rows: unpackTreeRows(packed) };
  };

  it('come back as they were: repeated strings once each, hex contract ids as base64, indices from where they start', () => {
    const rows = jobs(40, 100);
    const { packed, rows: back } = sentAndBack(rows, 100, 1_000);
    assert.deepEqual(back, rows);
    assert.deepEqual([packed.from, packed.total, packed.hexIds], [100, 1_000, true]);
    assert.deepEqual(new Set(packed.words), new Set([template, 'Job_Run', party, iface, '', `Bob::1220${'ef'.repeat(32)}`]));
    assert.equal(packed.words.length, 6, 'each string once');
    assert.ok(JSON.stringify(packed).length < JSON.stringify(rows).length / 2, 'less than half the JSON of the rows');
  });

  it('keep contract ids as they are when one is not hex', () => {
    const rows = jobs(4);
    rows[1][7] = 'not-hex</script>';
    const { packed, rows: back } = sentAndBack(rows);
    assert.equal(packed.hexIds, false);
    assert.deepEqual(back, rows);
  });

  it('go in chunks of the tree, in pre-order, until none are left', () => {
    const l = hostileTransaction(12);
    assert.ok(l.found && l.update === 'transaction');
    const tree = exerciseTree(l.transaction.events);
    const chunks = [];
    for (let from = 0; from < tree.length; from += 5) chunks.push(treeRowsFrom(tree, from, 5));
    assert.deepEqual(
      chunks.map((c) => [c.from, c.rows.length, c.total]),
      [
        [0, 5, tree.length],
        [5, 5, tree.length],
        [10, tree.length - 10, tree.length],
      ],
    );
    assert.deepEqual(
      chunks.flatMap((c) => unpackTreeRows(JSON.parse(JSON.stringify(c)) as typeof c)),
      treeRows(tree),
    );
    const past = treeRowsFrom(tree, 40, 5);
    assert.deepEqual([past.from, past.rows.length, past.total], [tree.length, 0, tree.length], 'past the end: no rows');
  });

  it('are refused when a node would come before its parent', () => {
    const packed = packTreeRows(jobs(4), 10, 20);
    assert.ok(isPackedTreeRows(packed));
    packed.rows[1][0] = 11;
    assert.equal(isPackedTreeRows(packed), false);
  });
});
