// The messages of the Active Contracts and Follow Updates pages (src/protocol/acsMessages.ts,
// updatesMessages.ts): what each side accepts, and what it drops.
import * as assert from 'node:assert/strict';
import { AcsBatchEncoder } from '../../../src/browse/acsBatchEncoder';
import { parseAcsFromPage, parseAcsToPage, type AcsToPage } from '../../../src/protocol/acsMessages';
import { ROWS_PER_MESSAGE, parseTailFromPage, parseTailToPage, rowsMessages, type UpdatesToPage } from '../../../src/protocol/updatesMessages';
import type { CreatedEvent } from '../../../src/ledger/apiTypes';
import type { UpdateRow } from '../../../src/protocol/updateRows';

const UPDATE = `1220${'ab'.repeat(32)}`;
const batch = () =>
  new AcsBatchEncoder().encode([
    {
      contractId: '00aa',
      templateId: 'p:M:T',
      packageName: 'x',
      createdAt: '2026-01-01T00:00:00Z',
      signatories: ['A::1'],
      observers: [],
      contractKey: 'k',
      createArgument: { a: 1 },
    } as unknown as CreatedEvent,
  ]);
const row: UpdateRow = {
  offset: 5,
  updateId: UPDATE,
  commandId: 'c',
  workflowId: '',
  recordTime: 't',
  kinds: ['created'],
  templates: ['M:T'],
  choices: [],
  parties: ['A::1'],
  events: 1,
};

describe('the Active Contracts page messages', () => {
  it('from the page: known actions and well-formed links only', () => {
    assert.deepEqual(parseAcsFromPage({ type: 'refresh' }), { type: 'refresh' });
    assert.deepEqual(parseAcsFromPage({ type: 'openContract', id: '00ab' }), { type: 'openContract', id: '00ab' });
    assert.deepEqual(parseAcsFromPage({ type: 'openDaml', templateId: 'p:M:T', packageName: '' }), { type: 'openDaml', templateId: 'p:M:T' });
    for (const bad of [
      null,
      'refresh',
      { type: 'eval' },
      { type: 'openContract', id: 'javascript:1' },
      { type: 'openContract', id: 7 },
      { type: 'openDaml', templateId: 'x'.repeat(2000) },
      { type: 'openDaml', templateId: 'p:M:T', packageName: 3 },
    ])
      assert.equal(parseAcsFromPage(bad), undefined, JSON.stringify(bad));
  });

  it('to the page: every message the panel sends is accepted as it is, through JSON', () => {
    const sent: AcsToPage[] = [
      { type: 'scope', text: 's' },
      { type: 'reset' },
      { type: 'rows', batch: batch(), activeAtOffset: 3 },
      { type: 'rows', batch: batch(), activeAtOffset: 3, restarted: true },
      { type: 'notice', text: 'n' },
      { type: 'done' },
      { type: 'done', cancelled: true },
      { type: 'error', text: 'e', actions: [{ action: 'retry', label: 'Retry' }] },
    ];
    for (const m of sent) assert.deepEqual(parseAcsToPage(JSON.parse(JSON.stringify(m))), m);
  });

  it('to the page: a batch whose columns do not line up, or of the wrong types, is dropped', () => {
    const broken = [
      { ...batch(), createdAt: [] },
      { ...batch(), templates: ['0'] },
      { ...batch(), signatories: [-1] },
      { ...batch(), args: [{}] },
      { ...batch(), keyRows: [5] },
      { ...batch(), keys: [] },
      { ...batch(), fieldRows: [0], fields: [[['a']]] },
    ];
    for (const b of broken) assert.equal(parseAcsToPage({ type: 'rows', batch: b, activeAtOffset: 1 }), undefined, JSON.stringify(b));
    assert.equal(parseAcsToPage({ type: 'rows', batch: batch(), activeAtOffset: -1 }), undefined);
    assert.equal(parseAcsToPage({ type: 'error', text: 'e', actions: [{ action: 1 }] }), undefined);
  });
});

describe('the Follow Updates page messages', () => {
  it('from the page: known actions, a restart offset as typed (short), an update id', () => {
    assert.deepEqual(parseTailFromPage({ type: 'pause' }), { type: 'pause' });
    assert.deepEqual(parseTailFromPage({ type: 'restart', start: '1,000' }), { type: 'restart', start: '1,000' });
    assert.deepEqual(parseTailFromPage({ type: 'openUpdate', id: UPDATE }), { type: 'openUpdate', id: UPDATE });
    for (const bad of [{ type: 'startAt' }, { type: 'restart', start: 'x'.repeat(200) }, { type: 'openUpdate', id: '00ab' }, { type: 'restart' }])
      assert.equal(parseTailFromPage(bad), undefined, JSON.stringify(bad));
  });

  it('to the page: rows, states and offers as sent; malformed ones dropped', () => {
    const sent: UpdatesToPage[] = [
      { type: 'scope', text: 's' },
      { type: 'reset', position: 4 },
      { type: 'rows', rows: [row], position: 5 },
      {
        type: 'state',
        state: 'stopped',
        position: 5,
        message: 'm',
        offers: [{ action: 'startAt', label: 'Start', offset: 10 }],
        canResume: false,
      },
    ];
    for (const m of sent) {
      const parsed = parseTailToPage(JSON.parse(JSON.stringify(m)));
      assert.deepEqual(JSON.parse(JSON.stringify(parsed)), m);
    }
    assert.equal(parseTailToPage({ type: 'rows', rows: [{ ...row, kinds: 'created' }] }), undefined);
    assert.equal(parseTailToPage({ type: 'state', state: 'exploded' }), undefined);
    assert.equal(parseTailToPage({ type: 'state', state: 'stopped', offers: [{ action: 'eval', label: 'x' }] }), undefined);
  });

  it('a long batch of followed rows goes in several messages, in order, the last with the position', () => {
    const batch = Array.from({ length: 2 * ROWS_PER_MESSAGE + 5 }, (_, i) => ({ ...row, offset: 10 + i }));
    const messages = rowsMessages(batch, 999);
    assert.deepEqual(
      messages.map((m) => m.rows.length),
      [ROWS_PER_MESSAGE, ROWS_PER_MESSAGE, 5],
    );
    assert.deepEqual(
      messages.flatMap((m) => m.rows),
      batch,
    );
    assert.deepEqual(
      messages.map((m) => m.position),
      [9 + ROWS_PER_MESSAGE, 9 + 2 * ROWS_PER_MESSAGE, 999],
    );
    assert.deepEqual(rowsMessages([row], 7), [{ type: 'rows', rows: [row], position: 7 }]);
  });
});
