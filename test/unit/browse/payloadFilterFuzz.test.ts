// Payload filters: the fields of a sample and completion at the cursor, and the fuzz test (nothing
// throws, every invalid filter a message with its position, every valid one answers a boolean).
import * as assert from 'node:assert/strict';
import { compileFilter, completeFilter, fieldPathsOf, parseFilter } from '../../../src/browse/payloadFilter';
import { HOSTILE_STRINGS } from '../../../fake-ledger/src/demoLedgerData';
import { ALICE, BOB, contract } from '../../support/payloadFilterSample';

describe('payload filters: fields and completion', () => {
  const sample = [contract, { ...contract, note: 'later', status: 'Closed', owner: BOB, amount: 7 }, { ...contract, status: { tag: 'Pending', value: {} } }];
  const fields = fieldPathsOf(sample);
  const kind = (path: string) => fields.find((f) => f.path === path)?.kind;

  it('lists the paths of a sample with their kinds, in the order first seen', () => {
    assert.deepEqual(
      fields.slice(0, 6).map((f) => f.path),
      ['amount', 'small', 'zero', 'big', 'count', 'ratio'],
    );
    assert.deepEqual(
      [
        'amount',
        'owner',
        'observers',
        'note',
        'memo',
        'shape',
        'shape.tag',
        'shape.value.radius',
        'createdAt',
        'due',
        'flag',
        'items',
        'items[0].qty',
        'tags.red',
        '"odd key"',
      ].map(kind),
      ['number', 'party', 'list', 'text', 'text', 'variant', 'text', 'number', 'time', 'time', 'bool', 'list', 'number', 'number', 'text'],
    );
    assert.equal(kind('nested.optional'), 'optional', 'null in every sample');
    assert.equal(kind('status'), 'text', 'the first kind seen for enum and variant alike');
    assert.deepEqual(fields.find((f) => f.path === 'owner')?.values, [ALICE, BOB]);
    assert.deepEqual(fields.find((f) => f.path === 'status')?.values, ['Open', 'Closed', 'Pending']);
    assert.deepEqual(fields.find((f) => f.path === 'observers')?.values, [ALICE, BOB]);
    assert.equal(fields.find((f) => f.path === 'amount')?.values, undefined);
    for (const f of fields) {
      const c = compileFilter(`${f.path} exists or not ${f.path} exists`);
      assert.ok(c.ok && c.test(contract), `${f.path} reads back`);
    }
    assert.equal(fieldPathsOf(sample, 3).length, 3);
    assert.deepEqual(fieldPathsOf([]), []);
    const free = fieldPathsOf(Array.from({ length: 50 }, (_, i) => ({ text: `note number ${i}` })));
    assert.equal(free[0].values, undefined, 'free text has too many values to offer');
  });

  const complete = (text: string, cursor = text.length) => completeFilter(text, cursor, fields);
  const labels = (text: string, cursor = text.length) => complete(text, cursor).items.map((i) => i.label);

  it('offers field paths where a path goes, prefix matches first', () => {
    const start = complete('');
    assert.deepEqual([start.from, start.to], [0, 0]);
    assert.deepEqual(
      start.items.map((i) => i.label),
      fields.map((f) => f.path),
    );
    assert.equal(start.items[0].detail, 'number');
    assert.deepEqual(labels('ow'), ['owner']);
    assert.deepEqual([complete('ow').from, complete('ow').to], [0, 2]);
    assert.deepEqual([complete('owner = 1', 1).from, complete('owner = 1', 1).to], [0, 5], 'the whole word at the cursor is replaced');
    assert.deepEqual(labels('radius'), ['shape.value.radius'], 'then paths that contain the text');
    assert.deepEqual(labels('amount > 1 and (not sm'), ['small']);
    assert.deepEqual(labels('no'), ['note', 'not']);
    const inner = complete('items[0].q');
    assert.deepEqual([inner.from, inner.to, inner.items.map((i) => i.label)], [0, 10, ['items[0].qty']]);
    assert.deepEqual(labels('shape.value.'), ['shape.value.radius']);
  });

  it('offers the operators that suit the field’s kind, then values, then and/or', () => {
    assert.deepEqual(labels('amount '), ['=', '!=', '>', '>=', '<', '<=', 'in', 'exists']);
    assert.deepEqual(labels('memo '), ['=', '!=', 'in', 'contains', 'exists']);
    assert.deepEqual(labels('owner '), ['=', '!=', 'in', 'exists']);
    assert.deepEqual(labels('createdAt '), ['=', '!=', '>', '>=', '<', '<=', 'exists']);
    assert.deepEqual(labels('observers '), ['contains', 'exists']);
    assert.deepEqual(labels('flag '), ['=', '!=', 'exists', 'and', 'or']);
    assert.equal(labels('unknown ').length, 11, 'every operator for a field not in the sample');
    const co = complete('memo co');
    assert.deepEqual([co.from, co.to, co.items.map((i) => i.insert)], [5, 7, ['contains ']]);
    assert.equal(complete('amount ').items.find((i) => i.label === 'in')?.insert, 'in [');
    assert.ok(
      complete('items[0]').items.every((i) => i.insert.startsWith(' ')),
      'a space before an operator typed right after the path',
    );
    const owner = complete('owner = ');
    assert.deepEqual(
      owner.items.map((i) => [i.label, i.insert]),
      [
        ['Alice::1220ce…', ALICE],
        ['Bob::1220bb…', BOB],
      ],
    );
    assert.deepEqual(labels('owner = B'), ['Bob::1220bb…']);
    assert.deepEqual(labels('status = '), ['Open', 'Closed', 'Pending']);
    assert.deepEqual(labels('status != "Cl'), ['Closed']);
    assert.deepEqual(labels('flag = '), ['true', 'false']);
    assert.deepEqual(labels('status in '), ['[']);
    assert.deepEqual(labels('status in [Open, '), ['Open', 'Closed', 'Pending']);
    assert.deepEqual(labels('status in [Open '), [',', ']']);
    assert.deepEqual(labels('amount > 5 '), ['and', 'or']);
    assert.deepEqual(labels('note exists '), ['and', 'or']);
    const or = complete('amount > 5 o');
    assert.deepEqual([or.from, or.to, or.items.map((i) => i.insert)], [11, 12, ['or ']]);
    assert.deepEqual(labels('(amount > 5 '), ['and', 'or', ')']);
    assert.deepEqual(labels('status in [Open] and (flag '), ['=', '!=', 'exists', 'and', 'or', ')']);
    assert.deepEqual(labels('amount = = '), [], 'nothing after what cannot be read');
    const quoted = completeFilter('memo = ', 7, [{ path: 'memo', kind: 'text', values: ['two words', 'and', 'plain'] }]);
    assert.deepEqual(
      quoted.items.map((i) => i.insert),
      ['"two words"', '"and"', 'plain'],
    );
  });
});

describe('payload filters: fuzz', () => {
  const VALID = [
    'amount > 100',
    'owner = Alice',
    'status in [Open, Pending]',
    'path.to.field exists',
    'note contains "x"',
    'amount >= 10.5 and (owner = Alice or owner = Bob)',
    'not archived',
    'items[0].qty <= 1e3 || !(tags contains red)',
    `owner = ${ALICE} && createdAt > 2026-11-26T10:00:00.000001Z`,
    '"odd key" != \'x\\"y\' and a["b"][2].c = null',
    'shape.radius < -0.5 or due >= 2026-11-26',
  ];
  const ALPHABET = [
    'a',
    'amount',
    '.',
    '[',
    ']',
    '(',
    ')',
    '"',
    "'",
    '\\',
    '0',
    '-',
    '1.5',
    '1e3',
    '=',
    '==',
    '!=',
    '!',
    '>',
    '>=',
    '<',
    '&&',
    '||',
    '&',
    '|',
    ' ',
    'in',
    'IN',
    'and',
    'or',
    'not',
    'exists',
    'contains',
    'true',
    'null',
    ',',
    '::',
    'Alice',
    '2026-11-26',
    'T10:00:00Z',
    '\u0000',
    '\u202e',
    '{',
    '}',
    '__proto__',
    'constructor',
    ...HOSTILE_STRINGS,
  ];
  // Deterministic: the same cases on every run.
  let seed = 20261126;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)];
  const randomValue = (depth: number): unknown => {
    const scalars = [
      null,
      true,
      false,
      0,
      -1.5,
      1e21,
      '100.0000000000',
      '-5',
      '9223372036854775807',
      '2026-11-26T10:00:00.000001Z',
      '2026-11-26',
      ALICE,
      BOB,
      'Open',
      'x',
      '',
    ];
    const roll = rand(10);
    if (depth <= 0 || roll < 5) return pick([...scalars, ...HOSTILE_STRINGS]);
    if (roll < 7) return Array.from({ length: rand(4) }, () => randomValue(depth - 1));
    if (roll < 8) return { tag: pick(['Open', 'Circle', 'Pending']), value: randomValue(depth - 1) };
    const keys = ['amount', 'owner', 'status', 'items', 'note', 'a', 'b', 'tag', 'value', '__proto__', 'constructor', 'odd key'];
    const out: Record<string, unknown> = {};
    for (let k = rand(5); k > 0; k--)
      Object.defineProperty(out, pick(keys), { value: randomValue(depth - 1), enumerable: true, configurable: true, writable: true });
    return out;
  };
  const values = Array.from({ length: 40 }, () => randomValue(4));
  const fields = fieldPathsOf(values);

  function check(text: string): boolean {
    const parsedOnce = parseFilter(text);
    const compiled = compileFilter(text, { parties: [ALICE, BOB] });
    for (const r of [parsedOnce, compiled]) {
      if (r.ok) continue;
      assert.ok(r.message.length > 0, JSON.stringify(text));
      assert.ok(Number.isInteger(r.position) && r.position >= 0 && r.position <= text.length, `${JSON.stringify(text)} at ${r.position}`);
    }
    if (compiled.ok) for (const v of values) assert.equal(typeof compiled.test(v), 'boolean', JSON.stringify(text));
    const cursor = rand(text.length + 1);
    const c = completeFilter(text, cursor, fields);
    assert.ok(c.from >= 0 && c.from <= c.to && c.to <= text.length, `${JSON.stringify(text)} completes ${c.from}..${c.to}`);
    assert.ok(c.items.every((i) => typeof i.label === 'string' && typeof i.insert === 'string'));
    return compiled.ok;
  }

  it('never throws on random text, and every failure has a message and a position within the text', () => {
    let ok = 0;
    for (let i = 0; i < 3_000; i++) {
      let text = '';
      for (let j = rand(12); j >= 0; j--) text += pick(ALPHABET) + (rand(3) ? ' ' : '');
      if (check(text)) ok++;
    }
    assert.ok(ok > 50, `${ok} random filters were valid`);
  });

  it('never throws on mutations of valid filters, and every valid one answers a boolean on random values', () => {
    for (const text of VALID) assert.ok(check(text), text);
    let ok = 0;
    for (let i = 0; i < 3_000; i++) {
      let text = pick(VALID);
      for (let m = rand(3); m >= 0; m--) {
        const at = rand(text.length + 1);
        const len = 1 + rand(4);
        switch (rand(5)) {
          case 0:
            text = text.slice(0, at) + text.slice(at + len);
            break;
          case 1:
            text = text.slice(0, at) + pick(ALPHABET) + text.slice(at);
            break;
          case 2:
            text = text.slice(0, at) + text.slice(at, at + len).repeat(2) + text.slice(at + len);
            break;
          case 3:
            text = text.slice(0, at);
            break;
          default:
            text =
              text.slice(0, at) +
              text
                .slice(at, at + len)
                .split('')
                .reverse()
                .join('') +
              text.slice(at + len);
        }
      }
      if (check(text)) ok++;
    }
    assert.ok(ok > 300, `${ok} mutated filters were valid`);
    assert.doesNotThrow(() => completeFilter('amount', Number.NaN, fields));
    assert.deepEqual(completeFilter('ab', 99, []).to, 2);
  });
});
