// Messages from a panel's page are untrusted: only known types with the fields they need get through.
import * as assert from 'node:assert/strict';
import { parseHostMessage, parsePageMessage } from '../../../src/panels/panelMessages';

describe('panel messages', () => {
  it('lets through the known messages with their fields', () => {
    assert.deepEqual(parsePageMessage({ type: 'refresh' }), { type: 'refresh' });
    assert.deepEqual(parsePageMessage({ type: 'setShape', shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }), {
      type: 'setShape',
      shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    });
    assert.deepEqual(parsePageMessage({ type: 'eventDetail', source: 'tree', index: 3, extra: 'ignored' }), { type: 'eventDetail', source: 'tree', index: 3 });
    assert.deepEqual(parsePageMessage({ type: 'openOffset', offset: 12, nodeId: 0 }), { type: 'openOffset', offset: 12, nodeId: 0, shape: undefined });
  });

  it('drops anything else', () => {
    for (const raw of [
      null,
      'refresh',
      {},
      { type: 'eval' },
      { type: 'setShape', shape: 'TRANSACTION_SHAPE_FLAT' },
      { type: 'eventDetail', source: 'events', index: -1 },
      { type: 'eventDetail', source: 'x', index: 1 },
      { type: 'openOffset', offset: 0 },
      { type: 'openOffset', offset: 1.5 },
      { type: 'openId', id: 7 },
      { type: 'copy' },
      { type: '__proto__' },
    ]) {
      assert.equal(parsePageMessage(raw), undefined, JSON.stringify(raw));
    }
    assert.equal(parseHostMessage({ type: 'eventDetail', source: 'tree', index: 1 }), undefined, 'no html');
  });
});
