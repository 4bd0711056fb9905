import * as assert from 'node:assert/strict';
import { addRecent, clearRecent, ordered, setPinned, validRecent, type RecentLookup } from '../../../src/lookups/recentLookups';

const entry = (id: string, at: number, node = 'dev'): RecentLookup => ({ kind: 'contract', id, node, summary: 's', at });

describe('recent lookups', () => {
  it('keeps one entry per id and node, newest first, bounded', () => {
    let list: RecentLookup[] = [];
    for (let i = 0; i < 40; i++) list = addRecent(list, entry(`c${i}`, i), 30);
    assert.equal(list.length, 30);
    assert.equal(list[0].id, 'c39');
    list = addRecent(list, entry('c20', 100));
    assert.equal(list.length, 30);
    assert.equal(list[0].id, 'c20');
    assert.equal(list.filter((e) => e.id === 'c20').length, 1);
    assert.equal(addRecent(list, entry('c20', 101, 'other')).filter((e) => e.id === 'c20').length, 2, 'another node is another entry');
  });

  it('keeps pinned entries beyond the bound and through clear; a new lookup keeps the pin', () => {
    let list = addRecent([], entry('keep', 1));
    list = setPinned(list, entry('keep', 1), true);
    for (let i = 0; i < 40; i++) list = addRecent(list, entry(`c${i}`, i + 2), 30);
    assert.ok(list.some((e) => e.id === 'keep' && e.pinned));
    assert.equal(list.length, 31);
    list = addRecent(list, entry('keep', 99));
    assert.equal(list.find((e) => e.id === 'keep')!.pinned, true);
    assert.deepEqual(
      clearRecent(list).map((e) => e.id),
      ['keep'],
    );
    assert.equal(ordered([entry('a', 5), { ...entry('b', 1), pinned: true }])[0].id, 'b');
  });

  it('ignores junk from storage', () => {
    assert.deepEqual(validRecent('nope'), []);
    assert.deepEqual(
      validRecent([{ kind: 'x' }, entry('ok', 1), null]).map((e) => e.id),
      ['ok'],
    );
  });

  it('record who asked (a user id), the latest asker replacing the earlier; junk in its place is dropped', () => {
    let list = addRecent([], { ...entry('c', 1), askedByUser: 'reader' });
    list = addRecent(list, { ...entry('c', 2), askedByUser: 'participant_admin' });
    assert.deepEqual(
      list.map((e) => [e.id, e.askedByUser]),
      [['c', 'participant_admin']],
    );
    assert.equal(validRecent([{ ...entry('d', 1), askedByUser: { token: 'x' } }])[0].askedByUser, undefined);
    assert.equal(validRecent([{ ...entry('d', 1), askedAs: 'alice' }])[0].askedByUser, 'alice');
  });
});
