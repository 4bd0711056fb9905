// The exercise tree of ledger effects, the error details every panel shows, numbers and times for people.
import * as assert from 'node:assert/strict';
import type { LedgerEvent } from '../../../src/ledger/apiTypes';
import { LedgerApiError } from '../../../src/ledger/ledgerApiError';
import { createdUnder, exerciseTree } from '../../../src/lookups/exerciseTree';
import { errorDetailsHtml } from '../../../src/panels/html/errorDetailsHtml';
import { formatCount, localDateTime, relativeTime } from '../../../src/l10n/forPeople';
import { enumHtml, timeHtml } from '../../../src/panels/html/peopleFormat';
import { valueTree } from '../../../src/panels/html/ledgerValues';

const ex = (nodeId: number, last: number | undefined, choice = 'C'): LedgerEvent =>
  ({ ExercisedEvent: { nodeId, lastDescendantNodeId: last, choice, contractId: `c${nodeId}`, templateId: 'p:M:T' } }) as unknown as LedgerEvent;
const cr = (nodeId: number): LedgerEvent => ({ CreatedEvent: { nodeId, contractId: `c${nodeId}`, templateId: 'p:M:T' } }) as unknown as LedgerEvent;

describe('exercise tree', () => {
  it('nests nodes under the exercise whose range holds them', () => {
    // 0 ⊃ {1 ⊃ {2}, 3 ⊃ {4, 5}, 6}, then a second root 7.
    const tree = exerciseTree([ex(0, 6), ex(1, 2), cr(2), ex(3, 5), cr(4), cr(5), ex(6, 6), cr(7)]);
    assert.deepEqual(
      tree.map((n) => [n.node.event.nodeId, n.parent, n.depth, n.descendants]),
      [
        [0, -1, 0, 6],
        [1, 0, 1, 1],
        [2, 1, 2, 0],
        [3, 0, 1, 2],
        [4, 3, 2, 0],
        [5, 3, 2, 0],
        [6, 0, 1, 0],
        [7, -1, 0, 0],
      ],
    );
    assert.deepEqual(
      createdUnder(tree, 3).map((c) => c.nodeId),
      [4, 5],
    );
    assert.deepEqual(
      createdUnder(tree, 0).map((c) => c.nodeId),
      [2, 4, 5],
    );
  });

  it('copes with events out of order and a missing lastDescendantNodeId (a leaf)', () => {
    const tree = exerciseTree([cr(2), ex(0, 2), ex(1, undefined)]);
    assert.deepEqual(
      tree.map((n) => [n.node.event.nodeId, n.parent]),
      [
        [0, -1],
        [1, 0],
        [2, 0],
      ],
    );
  });

  it('builds 10,000 nodes in one pass', () => {
    const events: LedgerEvent[] = [];
    for (let root = 0; root < 10_000; root += 100) {
      events.push(ex(root, root + 99));
      for (let n = root + 1; n < root + 100; n++) events.push(n % 2 ? ex(n, n + 1 < root + 100 ? n + 1 : n) : cr(n));
    }
    const tree = exerciseTree(events);
    assert.equal(tree.length, 10_000);
    assert.equal(tree.filter((n) => n.parent === -1).length, 100);
    assert.equal(Math.max(...tree.map((n) => n.depth)), 2);
  });
});

describe('error details', () => {
  it('shows every field the node sent, escaped, with ids in resources as links, and leaves nulls out', () => {
    const cid = `00${'ab'.repeat(32)}ca121220${'cd'.repeat(32)}`;
    const e = new LedgerApiError({
      kind: 'notFound',
      explanation: 'x',
      method: 'POST',
      path: '/v2/events/events-by-contract-id',
      status: 404,
      cantonError: {
        code: 'CONTRACT_EVENTS_NOT_FOUND',
        cause: '<img src=x onerror=alert(1)>',
        correlationId: null as unknown as string,
        traceId: 'abc123',
        context: {},
        resources: [['CONTRACT_ID', cid]],
        errorCategory: 11,
        grpcCodeValue: 5,
        retryInfo: '1 second',
        definiteAnswer: true,
      },
    });
    const out = errorDetailsHtml(e).toString();
    assert.ok(!out.includes('<img'), 'the cause is text');
    assert.match(out, /&lt;img src=x/);
    assert.match(out, /CONTRACT_EVENTS_NOT_FOUND/);
    assert.match(out, /11: not found/);
    assert.match(out, /1 second/);
    assert.match(out, /abc123/);
    assert.match(out, new RegExp(`data-open-id="${cid}"`), 'the contract id is a link');
    assert.match(out, /definitely not applied/);
    assert.doesNotMatch(out, /Correlation id/, 'null fields are left out');
  });

  it('says a redacted error is redacted', () => {
    const e = new LedgerApiError({
      kind: 'permissionDenied',
      explanation: 'x',
      status: 403,
      cantonError: { code: 'NA', cause: 'A security-sensitive error has been received', context: {}, errorCategory: -1 },
    });
    assert.match(errorDetailsHtml(e).toString(), /redacted by the node/);
  });
});

describe('numbers and times for people', () => {
  it('groups numbers one way and says how long ago', () => {
    assert.equal(formatCount(3333), '3,333');
    // One time format everywhere: day, month name, year, 24-hour time (the clock's zone).
    assert.match(localDateTime(Date.parse('2026-11-02T09:42:56Z')), /^\d{1,2} [A-Z][a-z]{2} 2026, \d{2}:\d{2}:56$/);
    const now = Date.parse('2026-11-23T10:00:00Z');
    assert.equal(relativeTime('2026-11-23T09:57:00Z', now), '3 min ago');
    assert.equal(relativeTime('2026-11-23T07:00:00.123456Z', now), '3 h ago');
    assert.equal(relativeTime('2026-11-25T10:00:00Z', now), 'in 2 d');
    assert.equal(relativeTime('not a time', now), undefined);
    assert.match(timeHtml('2026-11-23T09:57:00.430940Z', now)!.toString(), /title="2026-11-23T09:57:00.430940Z \(UTC\)".*3 min ago/);
  });

  it('puts enum values in words with the raw value on hover', () => {
    assert.equal(enumHtml('PARTICIPANT_PERMISSION_OBSERVATION').toString(), '<span title="PARTICIPANT_PERMISSION_OBSERVATION">observation</span>');
    assert.match(enumHtml('TRANSACTION_SHAPE_LEDGER_EFFECTS').toString(), /what happened/);
  });
});

describe('synchronizer ids in values', () => {
  it('are not shown as parties where the field says it is a synchronizer', () => {
    const id = `global-domain::1220${'ab'.repeat(32)}`;
    const out = valueTree({ synchronizerId: id, owner: `Alice::1220${'cd'.repeat(32)}` }).toString();
    assert.match(out, /class="v-str synchronizer" title="Synchronizer global-domain::1220/);
    assert.match(out, /class="party" title="Alice::1220/, 'a party field is still a party');
  });
});
