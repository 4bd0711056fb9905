// The Follow Updates page's rows (src/browse/updatesTable.ts): bounded, oldest dropped and counted,
// filtered by party and by template or choice as rows arrive.
import * as assert from 'node:assert/strict';
import { UpdateRows } from '../../../src/browse/updatesTable';
import type { UpdateRow } from '../../../src/protocol/updateRows';

const row = (offset: number, over: Partial<UpdateRow> = {}): UpdateRow => ({
  offset,
  updateId: `1220${String(offset).padStart(64, '0')}`,
  commandId: `c${offset}`,
  workflowId: '',
  recordTime: '2026-01-01T00:00:00Z',
  kinds: ['created'],
  templates: ['Iou:Iou'],
  choices: [],
  parties: ['Alice::1220aa'],
  events: 1,
  ...over,
});
const offsets = (rows: readonly UpdateRow[]) => rows.map((r) => r.offset);

describe('the Follow Updates page rows', () => {
  it('keep the newest up to the capacity (with some slack), counting those dropped', () => {
    const t = new UpdateRows(10);
    assert.deepEqual(t.add([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((o) => row(o))), { added: 11, rebuilt: false });
    assert.deepEqual(t.add([row(12)]), { added: 1, rebuilt: true });
    assert.deepEqual(t.offsets(), [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    assert.deepEqual({ kept: t.kept, dropped: t.dropped, received: t.received }, { kept: 10, dropped: 2, received: 12 });
    t.reset();
    assert.deepEqual({ kept: t.kept, dropped: t.dropped, received: t.received }, { kept: 0, dropped: 0, received: 0 });
  });

  it('filter by party and by template or choice, new rows included as they arrive', () => {
    const t = new UpdateRows(100);
    t.add([row(1), row(2, { parties: ['Bob::1220bb'] }), row(3, { templates: ['Finance:Cash'], choices: ['Transfer'] })]);
    t.filter('  ALICE ', '');
    assert.deepEqual(offsets(t.view), [1, 3]);
    assert.ok(t.filtered);
    t.filter('', 'transfer');
    assert.deepEqual(offsets(t.view), [3]);
    assert.deepEqual(t.add([row(4, { choices: ['Transfer'] }), row(5)]), { added: 1, rebuilt: false });
    assert.deepEqual(offsets(t.view), [3, 4]);
    t.filter('', 'cash');
    assert.deepEqual(offsets(t.view), [3]);
    t.filter('', '');
    assert.ok(!t.filtered);
    assert.deepEqual(offsets(t.view), [1, 2, 3, 4, 5]);
  });

  it('a filtered view stays filtered when the oldest are dropped', () => {
    const t = new UpdateRows(4);
    t.filter('bob', '');
    t.add([1, 2, 3, 4].map((o) => row(o, o % 2 ? {} : { parties: ['Bob::1220bb'] })));
    assert.deepEqual(t.add([row(5), row(6, { parties: ['Bob::1220bb'] })]), { added: 1, rebuilt: true });
    assert.deepEqual(offsets(t.view), [4, 6]);
  });
});
