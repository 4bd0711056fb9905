// Compare Contracts as plain functions: the diff of two create arguments (decimals, missing and
// unknown fields, lists, upgraded records, hostile and deep values, a 2 MB argument) and its page,
// which never turns ledger text into markup.
import * as assert from 'node:assert/strict';
import type { CreatedEvent } from '../../../src/ledger/apiTypes';
import { diffContracts, diffValues, type DiffNode } from '../../../src/lookups/contractDiff';
import { contractDiffBody } from '../../../src/panels/html/contractDiffHtml';
import { HOSTILE_STRINGS } from '../../../fake-ledger/src/demoLedgerData';

const contract = (templateId: string, createArgument: unknown, more: Partial<CreatedEvent> = {}): CreatedEvent =>
  ({
    contractId: `00${'ab'.repeat(34)}`,
    templateId,
    createArgument,
    signatories: ['Bank::1220aa'],
    observers: ['Alice::1220aa'],
    offset: 5,
    createdAt: '2026-11-02T10:00:00Z',
    nodeId: 0,
    witnessParties: [],
    packageName: 'p',
    ...more,
  }) as unknown as CreatedEvent;
const find = (n: DiffNode, path: (string | number)[]): DiffNode | undefined => {
  let at: DiffNode | undefined = n;
  for (const k of path) at = at?.children?.find((c) => c.key === k);
  return at;
};

describe('Compare Contracts: the diff', () => {
  it('marks changed, added and removed fields, and compares decimals exactly', () => {
    const d = diffValues({ amount: '100.0000000000', owner: 'A', memo: 'x', list: [1, 2, 3] }, { amount: '100.0', owner: 'B', extra: true, list: [1, 2] });
    assert.equal(find(d, ['amount'])?.kind, 'same', '100.0000000000 is 100.0');
    assert.equal(find(d, ['owner'])?.kind, 'changed');
    assert.equal(find(d, ['memo'])?.kind, 'removed');
    assert.equal(find(d, ['extra'])?.kind, 'added');
    assert.equal(find(d, ['list', 2])?.kind, 'removed');
    assert.equal(d.kind, 'changed');
    assert.equal(diffValues({ a: { b: [1, { c: null }] } }, { a: { b: [1, { c: null }] } }).kind, 'same');
    assert.equal(diffValues('0.30000000000000000001', '0.3').kind, 'changed', 'no float rounding');
  });

  it('across two versions of a template, fields of one version are not changes; across templates it says so', () => {
    const v1 = contract('pkg1:Iou:Iou', { owner: 'A', amount: '1.0' });
    const v2 = contract('pkg2:Iou:Iou', { owner: 'A', amount: '1.0', note: null });
    const up = diffContracts(v1, v2);
    assert.equal(up.upgraded, true);
    assert.equal(find(up.argument, ['note'])?.kind, 'onlyRight');
    assert.deepEqual(up.counts, { changed: 0, added: 0, removed: 0, versionOnly: 1 });
    assert.equal(up.facts.find((f) => f.label === 'package')?.same, false);
    const other = diffContracts(v1, contract('pkg1:Notes:Note', { owner: 'A', text: 'hi' }));
    assert.equal(other.differentTemplates, true);
    assert.equal(find(other.argument, ['text'])?.kind, 'added');
  });

  it('copes with missing fields a real node leaves out, hostile keys and values, deep nesting and a 2 MB argument', () => {
    const bare = { contractId: '00aa', templateId: 'p:M:T' } as unknown as CreatedEvent;
    const d = diffContracts(bare, bare);
    assert.equal(d.argument.kind, 'same');
    let deep: unknown = 'leaf';
    for (let i = 0; i < 5_000; i++) deep = { n: deep };
    assert.equal(diffValues(deep, deep).kind, 'same', 'no stack overflow');
    const hostile = Object.fromEntries(HOSTILE_STRINGS.map((s, i) => [s, `${s}${i}`]));
    const page = contractDiffBody({
      diff: diffContracts(contract('p:M:T', hostile), contract('p:M:T', { ...hostile, [HOSTILE_STRINGS[0]]: '<b>x</b>' })),
      leftId: '00aa',
      rightId: '00bb',
    }).text;
    assert.doesNotMatch(page, /<script|<img|<b>x/i, 'ledger text never becomes markup');
    assert.match(page, /1 changed, 0 added, 0 removed/);
    const big = { rows: Array.from({ length: 20_000 }, (_, i) => ({ id: i, label: `row ${i} `.repeat(10) })) };
    assert.ok(JSON.stringify(big).length > 2_000_000);
    const changed = { rows: big.rows.map((r, i) => (i === 12_345 ? { ...r, label: 'changed' } : r)) };
    const bigDiff = diffValues(big, changed);
    assert.equal(find(bigDiff, ['rows', 12_345, 'label'])?.kind, 'changed');
    const bigPage = contractDiffBody({ diff: diffContracts(contract('p:M:T', big), contract('p:M:T', changed)), leftId: '00aa', rightId: '00bb' }).text;
    assert.match(bigPage, /\[0\]–\[12344\]: 12,345 unchanged items/, 'runs of unchanged items fold into one line');
    assert.match(bigPage, /\[12346\]–\[19999\]: 7,654 unchanged items/);
    assert.ok(bigPage.length < 50_000, `the page holds what differs, not the 2 MB (${bigPage.length} characters)`);
  });

  it('says which contract could not be read, and why', () => {
    const page = contractDiffBody({
      leftId: '00aa',
      rightId: '00bb',
      problems: [{ side: 'right', id: '00bb', explanation: 'Not found <as seen by Alice>' }],
    }).text;
    assert.match(page, /The second contract:/);
    assert.match(page, /Not found &lt;as seen by Alice&gt;/);
  });
});
