// "Look Up on All Nodes" as a matrix: a cell per node and party, errors of the token apart.
import * as assert from 'node:assert/strict';
import { allNodesBody } from '../../src/panels/html/allNodesHtml';

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
