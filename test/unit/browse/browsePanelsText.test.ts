// What the Active Contracts and Follow Updates panels say and count, without VS Code
// (src/browse/acsReading.ts, src/browse/updatesControls.ts).
import * as assert from 'node:assert/strict';
import { acsScope, acsTitle, AcsTally } from '../../../src/browse/acsReading';
import type { AcsPage } from '../../../src/browse/acsPaging';
import { parseStartOffset, stopOffers, updatesScope, UpdatesTally } from '../../../src/browse/updatesControls';
import type { UpdateRow } from '../../../src/protocol/updateRows';
import type { CreatedEvent } from '../../../src/ledger/apiTypes';
import { VIEW_FAILED } from '../../../src/protocol/acsRows';

const event = (i: number, amount: number): CreatedEvent =>
  ({ contractId: `00${i}`, templateId: `p:M:T${i % 2}`, createArgument: { amount }, signatories: [], observers: [] }) as unknown as CreatedEvent;
const acsPage = (events: CreatedEvent[], over: Partial<AcsPage> = {}): AcsPage => ({ activeAtOffset: 7, events, done: false, ...over });

describe('the Active Contracts panel, in words and counts', () => {
  it('titles and scopes name the template, the offset, the parties and the filter', () => {
    assert.equal(acsTitle({ node: 'p1' }), 'Active Contracts on p1');
    assert.equal(acsTitle({ node: 'p1', templateId: 'pkg:Iou:Iou', activeAtOffset: 12_345 }), 'Active Iou on p1 at offset 12,345');
    assert.equal(acsScope({ node: 'p1' }, undefined, undefined), 'every template, as seen by …');
    assert.equal(
      acsScope({ node: 'p1', interfaceId: 'pkg:M:I', activeAtOffset: 5 }, [], { text: 'amount > 1', test: () => true }),
      'interface pkg:M:I, as seen by any party on the node, as it was at offset 5, payload filter: amount > 1',
    );
  });

  it('counts what the filter keeps and what it leaves out; a restart counts again', () => {
    const tally = new AcsTally();
    tally.start();
    const big = { text: 'amount > 10', test: (a: unknown) => (a as { amount: number }).amount > 10 };
    const kept = tally.page(acsPage([event(1, 5), event(2, 50), event(3, 500)], { notice: 'cut short' }), big);
    assert.deepEqual(
      kept.map((e) => e.contractId),
      ['002', '003'],
    );
    assert.deepEqual(
      { ...tally.shown, templates: [...tally.shown.templates] },
      {
        contracts: 2,
        firstIds: ['002', '003'],
        templates: ['p:M:T0', 'p:M:T1'],
        activeAtOffset: 7,
        notice: 'cut short',
        error: '',
        done: false,
        pages: 1,
        parties: undefined,
        filteredOut: 1,
        viewColumns: undefined,
        failedViews: 0,
        step: 'reading contracts',
      },
    );
    assert.equal(tally.sample.length, 3, 'the sample is of every row read');
    tally.page(acsPage([event(4, 40)], { restarted: true }), big);
    assert.deepEqual([tally.shown.contracts, tally.shown.firstIds, tally.shown.filteredOut, tally.shown.pages], [1, ['004'], 0, 2]);
    tally.start();
    assert.deepEqual([tally.shown.contracts, tally.shown.pages, tally.shown.notice, tally.sample.length], [0, 0, '', 0]);
  });

  it('counts the rows of an interface table whose view failed', () => {
    const tally = new AcsTally();
    tally.start();
    const failed = { ...event(1, 5), createArgument: { [VIEW_FAILED]: 'The view failed (code 9): no' } };
    tally.page(acsPage([failed, event(2, 50)]), undefined);
    assert.equal(tally.shown.failedViews, 1);
    tally.page(acsPage([event(3, 5)], { restarted: true }), undefined);
    assert.equal(tally.shown.failedViews, 0, 'a restart counts again');
  });
});

describe('the Follow Updates panel, in words and counts', () => {
  it('reads a typed start offset, or says why it is not one', () => {
    assert.deepEqual(parseStartOffset(''), { start: undefined });
    assert.deepEqual(parseStartOffset(' 1,234_567 '), { start: 1_234_567 });
    assert.match((parseStartOffset('12a') as { error: string }).error, /"12a" is not an offset/);
    assert.ok('error' in parseStartOffset('1'.repeat(16)));
  });

  it('offers what fits the stop: the ledger end, the earliest offset, another try and a token', () => {
    assert.deepEqual(
      stopOffers({ state: 'stopped', reason: 'beyondEnd', error: 'e' }).map((o) => [o.action, o.offset]),
      [['startAt', undefined]],
    );
    assert.deepEqual(
      stopOffers({ state: 'stopped', reason: 'pruned', error: 'e', earliest: 10 }).map((o) => [o.action, o.offset]),
      [['startAt', 10]],
    );
    assert.deepEqual(
      stopOffers({ state: 'stopped', reason: 'pruned', error: 'e' }).map((o) => o.action),
      ['startAtEarliest'],
    );
    assert.deepEqual(
      stopOffers({ state: 'stopped', reason: 'error', error: 'e', kind: 'permissionDenied' }).map((o) => o.action),
      ['resume', 'setToken'],
    );
    assert.deepEqual(stopOffers({ state: 'stopped', reason: 'cancelled' }), []);
    assert.equal(updatesScope({ node: 'p1', templates: ['A', 'B'] }, ['Alice::1220abcdef']), 'templates A, B, as seen by Alice::1220ab…');
  });

  it('counts the rows sent (sum of offsets: no gap, no duplicate) and keeps the last 20', () => {
    const tally = new UpdatesTally();
    tally.started(100);
    const rows = Array.from({ length: 30 }, (_, i) => ({ offset: 101 + i }) as UpdateRow);
    tally.rows(rows.slice(0, 10), 110, 0);
    tally.rows(rows.slice(10), 130, 2);
    assert.deepEqual(
      [tally.shown.rows, tally.shown.offsetSum, tally.shown.position, tally.shown.duplicates, tally.shown.start],
      [30, rows.reduce((s, r) => s + r.offset, 0), 130, 2, 100],
    );
    assert.deepEqual(
      tally.recent.map((r) => r.offset),
      rows.slice(10).map((r) => r.offset),
    );
  });
});
