// "Look Up on All Nodes" as a matrix: a cell per node and party, errors of the token apart.
import * as assert from 'node:assert/strict';
import { allNodesBody } from '../../../src/panels/html/allNodesHtml';
import { LedgerApiError } from '../../../src/ledger/ledgerApiError';
import type { LedgerLookup } from '../../../src/lookups/ledgerLookups';
import { visibilityMatrix } from '../../../src/lookups/visibilityMatrix';

const cid = `00${'ab'.repeat(32)}ca121220${'cd'.repeat(32)}`;
const alice = `Alice::1220${'a1'.repeat(32)}`;
const evil = `<img src=x onerror=alert(1)>::1220${'b0'.repeat(32)}`;

describe('the visibility matrix', () => {
  const body = allNodesBody('contract', cid, [
    {
      node: 'p1',
      url: 'http://p1',
      summary: 'active · Iou:Iou',
      state: 'found',
      asked: 'asked',
      askedAs: 'As seen by alice',
      cells: [
        { party: alice, state: 'seen', summary: 'active · Iou:Iou' },
        { party: evil, state: 'notSeen', summary: 'not found', why: 'not a stakeholder <b>' },
      ],
    },
    { node: 'p2', url: 'http://p2', summary: 'requires a token (401)', state: 'error', asked: '', askedAs: '', cells: [], authProblem: true },
  ]).toString();

  it('counts only the nodes asked, and says which could not be', () => {
    assert.match(body, /Visible on 1 of 1 node asked\. 1 node could not be asked/);
  });

  it('opens each cell as its party, and offers Set Token where the token was refused', () => {
    assert.match(body, new RegExp(`data-node="p1" data-as-party="${alice}"`));
    assert.match(body, /class="cell cell-notSeen"/);
    assert.match(body, /data-set-token-for="p2"/);
    assert.doesNotMatch(body, /data-node="p2"/, 'no Open on a row that was not asked');
  });

  it('keeps hostile party ids and reasons as text', () => {
    assert.ok(!body.includes('<img src=x'), body);
    assert.ok(!body.includes('<b>'), body);
  });
});

describe('the visibility matrix, asked', () => {
  const bob = `Bob::1220${'b1'.repeat(32)}`;
  const found = (parties: string[], status = 'active') =>
    ({
      kind: 'contract',
      found: true,
      status,
      response: { created: { createdEvent: { templateId: 'p:Iou:Iou' } } },
      asked: 'asked',
      askedAs: { parties, identity: { key: 'user:u', kind: 'user', user: 'u' } },
    }) as unknown as LedgerLookup;
  const notFound = (parties: string[]) =>
    ({
      kind: 'contract',
      found: false,
      asked: 'asked',
      askedAs: { parties, identity: { key: 'user:u', kind: 'user', user: 'u' } },
      explanation: 'not a stakeholder',
    }) as unknown as LedgerLookup;

  it('asks each party alone on a node that reads as several; a refused token is an error of the row, never "not seen"', async () => {
    const asked: string[] = [];
    const { answers } = await visibilityMatrix(
      [
        { name: 'p1', url: 'http://p1' },
        { name: 'p2', url: 'http://p2' },
        { name: 'p3', url: 'http://p3' },
      ],
      async (n, o) => {
        asked.push(`${n.name}:${o.asParty ?? '*'}`);
        if (n.name === 'p2') throw new LedgerApiError({ kind: 'permissionDenied', explanation: 'refused (403)' });
        if (n.name === 'p3') return notFound([]);
        if (o.asParty === bob) return notFound([bob]);
        return found(o.asParty ? [o.asParty] : [alice, bob]);
      },
    );
    assert.deepEqual(asked.sort(), ['p1:*', `p1:${alice}`, `p1:${bob}`, 'p2:*', 'p3:*']);
    assert.deepEqual(
      answers[0].cells.map((c) => [c.party, c.state]),
      [
        [alice, 'seen'],
        [bob, 'notSeen'],
      ],
    );
    assert.equal(answers[0].cells[1].why, 'not a stakeholder');
    assert.deepEqual([answers[1].state, answers[1].authProblem, answers[1].cells], ['error', true, []]);
    assert.deepEqual(
      answers[2].cells.map((c) => c.state),
      ['notSeen'],
    );
  });
});
