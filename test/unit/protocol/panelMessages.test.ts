// Messages from a panel's page are untrusted: only known types with the fields they need get through.
import * as assert from 'node:assert/strict';
import {
  acceptedBy,
  busyMessage,
  CHANGES_ACTIONS,
  COMMANDS_REVIEW_ACTIONS,
  LOOKUP_ACTIONS,
  parseHostMessage,
  parsePageMessage,
} from '../../../src/protocol/panelMessages';

describe('panel messages', () => {
  it('lets through the known messages with their fields', () => {
    assert.deepEqual(parsePageMessage({ type: 'refresh' }), { type: 'refresh' });
    assert.deepEqual(parsePageMessage({ type: 'setShape', shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }), {
      type: 'setShape',
      shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    });
    assert.deepEqual(parsePageMessage({ type: 'eventDetail', requestId: 4, source: 'tree', index: 3, extra: 'ignored' }), {
      type: 'eventDetail',
      requestId: 4,
      source: 'tree',
      index: 3,
    });
    assert.deepEqual(parsePageMessage({ type: 'eventRows', requestId: 5, source: 'events', from: 500, extra: 1 }), {
      type: 'eventRows',
      requestId: 5,
      source: 'events',
      from: 500,
    });
    assert.deepEqual(parsePageMessage({ type: 'eventRows', requestId: 6, source: 'tree', from: 500 }), {
      type: 'eventRows',
      requestId: 6,
      source: 'tree',
      from: 500,
    });
    assert.deepEqual(parsePageMessage({ type: 'openOffset', offset: 12, nodeId: 0 }), { type: 'openOffset', offset: 12, nodeId: 0, shape: undefined });
  });

  it('drops anything else', () => {
    for (const raw of [
      null,
      'refresh',
      {},
      { type: 'eval' },
      { type: 'setShape', shape: 'TRANSACTION_SHAPE_FLAT' },
      { type: 'eventDetail', requestId: 1, source: 'events', index: -1 },
      { type: 'eventDetail', requestId: 1, source: 'x', index: 1 },
      { type: 'eventDetail', source: 'tree', index: 1 },
      { type: 'eventDetail', requestId: '1', source: 'tree', index: 1 },
      { type: 'eventRows', requestId: 1, source: 'events', from: -1 },
      { type: 'eventRows', source: 'events', from: 500 },
      { type: 'eventRows', requestId: 1, from: 500 },
      { type: 'eventRows', requestId: 1, source: 'acs', from: 500 },
      { type: 'openOffset', offset: 0 },
      { type: 'openOffset', offset: 1.5 },
      { type: 'openId', id: 7 },
      { type: 'copy' },
      { type: '__proto__' },
    ]) {
      assert.equal(parsePageMessage(raw), undefined, JSON.stringify(raw));
    }
    assert.equal(parseHostMessage({ type: 'answer', html: '<p>x</p>' }), undefined, 'an answer to no request');
    assert.equal(parseHostMessage({ type: 'answer', requestId: 1, html: 7 }), undefined);
    assert.equal(parseHostMessage({ type: 'content', html: '', node: 7 }), undefined);
    assert.equal(parseHostMessage({ type: 'content', html: '', actions: [{ action: 'back' }] }), undefined, 'a button without a label');
  });

  it('lets the page have answers by request id, and content with its toolbar, node and state', () => {
    assert.deepEqual(parseHostMessage({ type: 'answer', requestId: 3, html: '<table></table>' }), { type: 'answer', requestId: 3, html: '<table></table>' });
    assert.deepEqual(parseHostMessage({ type: 'answer', requestId: 3 }), { type: 'answer', requestId: 3 }, 'nothing to show');
    const content = {
      type: 'content',
      html: '<p></p>',
      actions: [{ action: 'back', label: 'Back', enabled: false }],
      state: { history: [], index: 0 },
      node: 'p1',
    };
    assert.deepEqual(parseHostMessage(content), content);
    assert.deepEqual(parseHostMessage({ type: 'content', html: '<p></p>' }), { type: 'content', html: '<p></p>' });
  });

  it('gives the page the event rows it asked for, checked row by row, or none', () => {
    const rows = {
      words: ['T', 'Alice'],
      hexIds: false,
      from: 500,
      total: 502,
      rows: [
        [500, 'created', 0, 'c1', '', [1]],
        [501, 'exercised', 0, 'c2', 'X', []],
      ],
    };
    assert.deepEqual(parseHostMessage({ type: 'eventRows', requestId: 7, source: 'events', rows }), {
      type: 'eventRows',
      requestId: 7,
      source: 'events',
      rows,
    });
    assert.deepEqual(
      parseHostMessage({ type: 'eventRows', requestId: 7, source: 'events' }),
      { type: 'eventRows', requestId: 7, source: 'events' },
      'none to give',
    );
    assert.equal(parseHostMessage({ type: 'eventRows', requestId: 7, source: 'tree', rows }), undefined, 'event rows are not tree rows');
    assert.equal(parseHostMessage({ type: 'eventRows', requestId: 7, rows }), undefined, 'rows of no source');
    for (const bad of [
      { ...rows, total: 501 },
      { ...rows, from: -1 },
      { ...rows, hexIds: 'no' },
      { ...rows, words: [7] },
      { ...rows, rows: [[500, 'deleted', 0, 'c1', '', []]] },
      { ...rows, rows: [[500, 'created', 0, 'c1', '', ['1']]] },
      { ...rows, rows: [[500, 'created', 0, 'c1', '']] },
      { ...rows, rows: [[500, 'created', 0.5, 'c1', '', []]] },
    ])
      assert.equal(parseHostMessage({ type: 'eventRows', requestId: 7, source: 'events', rows: bad }), undefined, JSON.stringify(bad).slice(0, 120));
    assert.equal(parseHostMessage({ type: 'eventRows', source: 'events', rows }), undefined, 'rows no request asked for');
  });

  it('gives the page the tree rows it asked for, checked row by row (a parent before its node), or none', () => {
    const rows = {
      words: ['T', 'Go', 'Alice', ''],
      hexIds: false,
      from: 500,
      total: 503,
      rows: [
        [-1, 0, 2, 'exercised', 0, 1, 'c1', [2], true, 3, 500],
        [500, 1, 0, 'created', 0, 3, 'c2', [2], false, 3, 501],
        [500, 1, 0, 'archived', 0, 3, 'c3', [], true, 3, 502],
      ],
    };
    assert.deepEqual(parseHostMessage({ type: 'eventRows', requestId: 8, source: 'tree', rows }), { type: 'eventRows', requestId: 8, source: 'tree', rows });
    assert.deepEqual(
      parseHostMessage({ type: 'eventRows', requestId: 8, source: 'tree' }),
      { type: 'eventRows', requestId: 8, source: 'tree' },
      'none to give',
    );
    assert.equal(parseHostMessage({ type: 'eventRows', requestId: 8, source: 'events', rows }), undefined, 'tree rows are not event rows');
    const row = rows.rows[1];
    const withRow = (r: unknown[]) => ({ ...rows, rows: [rows.rows[0], r] });
    for (const bad of [
      { ...rows, total: 502 },
      { ...rows, from: -1 },
      { ...rows, words: [null] },
      withRow([501, ...row.slice(1)]),
      withRow([-2, ...row.slice(1)]),
      withRow([500, -1, ...row.slice(2)]),
      withRow([...row.slice(0, 3), 'deleted', ...row.slice(4)]),
      withRow([...row.slice(0, 4), 0.5, ...row.slice(5)]),
      withRow([...row.slice(0, 6), 7, ...row.slice(7)]),
      withRow([...row.slice(0, 7), ['Alice'], ...row.slice(8)]),
      withRow([...row.slice(0, 8), 'false', ...row.slice(9)]),
      withRow([...row.slice(0, 10), '501']),
      withRow(row.slice(0, 10)),
    ])
      assert.equal(parseHostMessage({ type: 'eventRows', requestId: 8, source: 'tree', rows: bad }), undefined, JSON.stringify(bad).slice(0, 160));
  });

  it('tells the page it is busy, and why a refresh left the content as it was', () => {
    assert.deepEqual(parseHostMessage(busyMessage(true)), { type: 'busy', busy: true });
    assert.deepEqual(parseHostMessage(busyMessage(false, 'Not refreshed')), { type: 'busy', busy: false, note: 'Not refreshed' });
    assert.deepEqual(parseHostMessage({ type: 'busy', busy: false, extra: 1 }), { type: 'busy', busy: false }, 'only its fields');
    for (const raw of [
      { type: 'busy' },
      { type: 'busy', busy: 'true' },
      { type: 'busy', busy: true, note: 7 },
      { type: 'busy', busy: false, note: 'x'.repeat(1_001) },
    ])
      assert.equal(parseHostMessage(raw), undefined, JSON.stringify(raw).slice(0, 60));
  });

  it('each panel takes its own messages and the shared ones, and refuses another panel’s', () => {
    const lookup = acceptedBy(LOOKUP_ACTIONS, 'lookup');
    const review = acceptedBy(COMMANDS_REVIEW_ACTIONS);
    const changes = acceptedBy(CHANGES_ACTIONS, 'changes');
    for (const parse of [lookup, review, changes]) {
      assert.deepEqual(parse({ type: 'ready' }), { type: 'ready' });
      assert.deepEqual(parse({ type: 'copy', text: 'x' }), { type: 'copy', text: 'x' });
    }
    assert.deepEqual(review({ type: 'submit' }), { type: 'submit' });
    assert.equal(lookup({ type: 'submit' }), undefined, 'a lookup panel submits nothing');
    assert.equal(review({ type: 'openJson' }), undefined);
    assert.equal(review({ type: 'eventDetail', requestId: 1, source: 'events', index: 0 }), undefined);
    assert.deepEqual(lookup({ type: 'eventDetail', requestId: 1, source: 'events', index: 0 }), {
      type: 'eventDetail',
      requestId: 1,
      source: 'events',
      index: 0,
    });
    assert.deepEqual(changes({ type: 'setView', key: 'kind', value: 'x' }), { type: 'setView', key: 'kind', value: 'x' });
    assert.equal(lookup({ type: 'setView', key: 'kind', value: 'x' }), undefined);
    assert.equal(changes({ type: 'sign' }), undefined);
    assert.deepEqual(lookup({ type: 'eventRows', requestId: 2, source: 'tree', from: 0 }), { type: 'eventRows', requestId: 2, source: 'tree', from: 0 });
    assert.equal(changes({ type: 'eventRows', requestId: 2, source: 'events', from: 0 }), undefined, 'only a lookup panel has event rows to give');
  });
});
