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
    assert.deepEqual(parsePageMessage({ type: 'eventRows', requestId: 5, from: 500, extra: 1 }), { type: 'eventRows', requestId: 5, from: 500 });
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
      { type: 'eventRows', requestId: 1, from: -1 },
      { type: 'eventRows', from: 500 },
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
    assert.deepEqual(parseHostMessage({ type: 'eventRows', requestId: 7, rows }), { type: 'eventRows', requestId: 7, rows });
    assert.deepEqual(parseHostMessage({ type: 'eventRows', requestId: 7 }), { type: 'eventRows', requestId: 7 }, 'none to give');
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
      assert.equal(parseHostMessage({ type: 'eventRows', requestId: 7, rows: bad }), undefined, JSON.stringify(bad).slice(0, 120));
    assert.equal(parseHostMessage({ type: 'eventRows', rows }), undefined, 'rows no request asked for');
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
    assert.deepEqual(lookup({ type: 'eventRows', requestId: 2, from: 0 }), { type: 'eventRows', requestId: 2, from: 0 });
    assert.equal(changes({ type: 'eventRows', requestId: 2, from: 0 }), undefined, 'only a lookup panel has event rows to give');
  });
});
