// The request history: tables and Follow Updates panels are entries too, kept per set of arguments; stored entries
// are checked; each kind opens the same request again, and a submission is never sent again.
import * as assert from 'node:assert/strict';
import { addRecent, browseKey, validRecent, type RecentLookup } from '../../../src/lookups/recentLookups';
import { entryText, openAction, recentPickDetail } from '../../../src/lookups/recentLookupText';

const at = Date.UTC(2026, 10, 23, 9, 0);
const acs = (parties?: string[], templates?: string[]): RecentLookup => ({
  kind: 'activeContracts',
  id: browseKey({ parties, templates }),
  node: 'p1',
  summary: 'table',
  at,
  args: { ...(parties ? { parties } : {}), ...(templates ? { templates } : {}) },
});

describe('the request history', () => {
  it('keeps one entry per table or Follow Updates panel and arguments, whatever their order', () => {
    assert.equal(browseKey({ parties: ['b', 'a'] }), browseKey({ parties: ['a', 'b'] }));
    assert.notEqual(browseKey({ parties: ['a'] }), browseKey({ templates: ['a'] }));
    let list = addRecent([], acs(['Alice::1220aa']));
    list = addRecent(list, acs(['Alice::1220aa']));
    list = addRecent(list, acs(['Alice::1220aa'], ['pkg:Iou:Iou']));
    list = addRecent(list, { ...acs(['Alice::1220aa']), kind: 'followUpdates' });
    assert.equal(list.length, 3);
  });

  it('reads back stored tables and Follow Updates panels, and drops arguments that are not lists of strings', () => {
    const stored = [acs(['A'], ['t']), { ...acs(), kind: 'tail', args: { parties: [1, 2], templates: 'x' } }, { ...acs(), kind: 'bogus' }];
    const read = validRecent(JSON.parse(JSON.stringify(stored)));
    assert.deepEqual(
      read.map((e) => e.kind),
      ['activeContracts', 'followUpdates'],
    );
    assert.deepEqual(read[0].args, { parties: ['A'], templates: ['t'] });
    assert.deepEqual(read[1].args, {});
  });

  it('opens each kind as it was asked', () => {
    const contract: RecentLookup = { kind: 'contract', id: '00abc', node: 'p1', summary: 'active', at, askedByUser: 'alice' };
    assert.deepEqual(openAction(contract), { command: 'cantonLens.showContract', args: ['00abc', 'p1', { recordedAs: 'alice' }] });
    assert.deepEqual(openAction({ ...contract, kind: 'update', askedByUser: undefined }), { command: 'cantonLens.showTransaction', args: ['00abc', 'p1'] });
    assert.deepEqual(openAction(acs(['A'], ['pkg:M:T'])), { command: 'cantonLens.showActiveContracts', args: ['p1', ['A'], ['pkg:M:T']] });
    assert.deepEqual(openAction({ ...acs(['A']), kind: 'followUpdates' }), { command: 'cantonLens.followUpdates', args: ['p1', ['A'], undefined] });
  });

  it('never sends a submission again: it opens the request file, or nothing', () => {
    const submission: RecentLookup = { kind: 'submission', id: 'sub-1', node: 'p1', summary: 'committed', at, file: 'file:///w/a.execute.json' };
    assert.deepEqual(openAction(submission), { file: 'file:///w/a.execute.json' });
    assert.equal(openAction({ ...submission, file: undefined }), undefined);
    assert.match(entryText(submission).tooltip, /never sent again/);
  });

  it('reads as what each entry is, with who asked and where', () => {
    assert.equal(entryText(acs(['A'], ['pkg:Iou:Iou'])).label, 'Active contracts of Iou:Iou');
    assert.equal(entryText({ ...acs(), kind: 'followUpdates' }).label, 'Updates');
    const t = entryText({ kind: 'contract', id: `00${'ab'.repeat(34)}`, node: 'p1', summary: 'active · Iou:Iou', at, askedByUser: 'alice', pinned: true });
    assert.match(t.label, /^Contract 00abab/);
    assert.equal(t.description, 'active · Iou:Iou · p1 as alice');
    assert.equal(t.icon, 'pinned');
    assert.match(t.tooltip, /Asked as alice/);
  });
});

describe('a recent contract in a pick list', () => {
  it('says an active contract was active when last seen, unless the node was just asked again', () => {
    const seen = { summary: 'active · Iou:Iou', at };
    assert.equal(recentPickDetail(seen, at + 25 * 60_000), 'last seen active 25 min ago · Iou:Iou');
    assert.equal(recentPickDetail(seen, at + 25 * 60_000, 'archived · Iou:Iou'), 'archived · Iou:Iou');
    assert.equal(recentPickDetail({ summary: 'archived · Iou:Iou', at }, at + 60_000), 'archived · Iou:Iou', 'archived is for good');
  });
});
