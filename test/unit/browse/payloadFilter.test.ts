// Payload filters: each construct parsed, every invalid filter a message with its position, and
// comparisons typed by the value found (exact decimals, times to the last fraction digit, parties by
// full id or hint, variants, optionals, lists). Completion and the fuzz test: payloadFilterFuzz.test.ts.
import * as assert from 'node:assert/strict';
import { compileFilter, completeFilter, fieldPathsOf, parseFilter, pathText, type FilterAst } from '../../../src/browse/payloadFilter';
import { MAX_NESTING } from '../../../src/browse/payloadFilterParse';
import { ALICE, BOB, contract } from '../../support/payloadFilterSample';
import { REAL_PARTY_IDS } from '../../fixtures/realIds';

const OTHER_ALICE = `Alice::1220${'a'.repeat(64)}`;

/** The tree as short text: `(a and b)`, `!x`, `path op value`, `path?` for a path alone. */
function show(e: FilterAst): string {
  switch (e.type) {
    case 'all':
      return '*';
    case 'and':
    case 'or':
      return `(${e.operands.map(show).join(` ${e.type} `)})`;
    case 'not':
      return `!${show(e.operand)}`;
    case 'compare':
      return `${e.path.text} ${e.op} ${e.value.quoted ? JSON.stringify(e.value.text) : e.value.text}`;
    case 'in':
      return `${e.path.text} in [${e.values.map((v) => v.text).join('|')}]`;
    case 'exists':
      return `${e.path.text} exists`;
    case 'isTrue':
      return `${e.path.text}?`;
  }
}

function parsed(text: string): string {
  const r = parseFilter(text);
  assert.ok(r.ok, `${text}: ${r.ok ? '' : r.message}`);
  return show(r.filter);
}

function matches(filter: string, argument: unknown, parties?: readonly string[]): boolean {
  const c = compileFilter(filter, { parties });
  assert.ok(c.ok, `${filter}: ${c.ok ? '' : c.message}`);
  const result = c.test(argument);
  assert.equal(typeof result, 'boolean');
  return result;
}

const is = (filter: string, parties?: readonly string[]) => matches(filter, contract, parties);

describe('payload filters: parsing', () => {
  it('reads every construct, keywords in any case, with and over or and not over and', () => {
    assert.equal(parsed('amount > 100'), 'amount > 100');
    assert.equal(parsed('owner == Alice'), 'owner = Alice');
    assert.equal(parsed('owner=Alice'), 'owner = Alice');
    assert.equal(parsed('status IN [Open, "Pending"]'), 'status in [Open|Pending]');
    assert.equal(parsed('path.to.field exists'), 'path.to.field exists');
    assert.equal(parsed('note CONTAINS "x"'), 'note contains "x"');
    assert.equal(parsed('amount >= 10.5 and (owner = Alice or owner = Bob)'), '(amount >= 10.5 and (owner = Alice or owner = Bob))');
    assert.equal(parsed('not archived'), '!archived?');
    assert.equal(parsed('a = 1 or b = 2 and c = 3'), '(a = 1 or (b = 2 and c = 3))');
    assert.equal(parsed('not a = 1 AND b = 2'), '(!a = 1 and b = 2)');
    assert.equal(parsed('!a && b || c'), '((!a? and b?) or c?)');
    assert.equal(parsed('a != 1 and b < 2 and c <= 3 and d > 4 and e >= 5'), '(a != 1 and b < 2 and c <= 3 and d > 4 and e >= 5)');
    assert.equal(parsed('items[0].qty <= -1.5e3'), 'items[0].qty <= -1.5e3');
    assert.equal(parsed('"odd key" = 1'), '"odd key" = 1');
    assert.equal(parsed(`a["odd key"].b[ 2 ] != x`), 'a["odd key"].b[2] != x');
    assert.equal(parsed(`a.'in' exists`), 'a.in exists', 'a quoted step is the same as a bare one');
    assert.equal(parsed(`owner' = x`), "owner' = x", 'Daml names may have primes');
    assert.equal(parsed(`owner = ${ALICE}`), `owner = ${ALICE}`);
    assert.equal(parsed('t > 2026-11-26T10:00:00.123456+01:00'), 't > 2026-11-26T10:00:00.123456+01:00');
    assert.equal(parsed(`note = O'Brien`), `note = O'Brien`);
    assert.equal(parsed(String.raw`note = "say \"hi\"\n\u00e9"`), `note = ${JSON.stringify('say "hi"\né')}`);
    assert.equal(parsed(`note = 'it\\'s'`), `note = "it's"`);
    assert.equal(parsed(''), '*', 'an empty filter keeps every row');
    assert.equal(parsed(' \n\t'), '*');
    const r = parseFilter('flag = TRUE');
    assert.ok(r.ok && r.filter.type === 'compare');
    assert.equal(r.filter.value.keyword, 'true');
    const at = parseFilter('  owner = Alice');
    assert.ok(at.ok && at.filter.type === 'compare');
    assert.deepEqual([at.filter.path.at, at.filter.path.end, at.filter.value.at, at.filter.value.end], [2, 7, 10, 15]);
  });

  it('writes paths the way it reads them back', () => {
    const paths: (string | number)[][] = [['a'], ['a', 0, 'b'], ['odd key', 'x'], ['in', 'and'], ['x', 'q"uote\n'], ['__proto__'], ['é', 2]];
    for (const steps of paths) {
      const text = pathText(steps);
      const r = parseFilter(`${text} exists`);
      assert.ok(r.ok && r.filter.type === 'exists', text);
      assert.deepEqual(r.filter.path.steps, steps, text);
    }
    assert.equal(pathText(['a', 0, 'odd key', 'b']), 'a[0]["odd key"].b');
    assert.equal(pathText(['in']), '"in"', 'a keyword first is quoted');
  });

  it('gives every invalid filter a message naming what was expected and where', () => {
    const cases: [string, number, RegExp][] = [
      ['note = "abc', 7, /quoted text .* no closing "/],
      ["note = 'abc", 7, /no closing '/],
      ['note = "abc\\', 7, /no closing/],
      ['amount >', 8, /Expected a value after ">" .* found the end/],
      ['amount > and b = 1', 9, /found the keyword "and"/],
      ['amount ~ 5', 7, /Expected an operator .* found "~"/],
      ['amount <> 5', 7, /Unknown operator "<>"/],
      ['amount === 5', 7, /Unknown operator "==="/],
      ['amount => 5', 7, /Unknown operator "=>"/],
      ['amount ! 5', 7, /Unknown operator "!"/],
      ['amount like 5', 7, /Expected an operator .* found "like"/],
      ['amount = 5 owner', 11, /Unexpected "owner" .* expected "and", "or" or the end/],
      ['owner = Alice Bob', 14, /Unexpected "Bob"/],
      ['status in []', 11, /list after "in" is empty/],
      ['status in [ ]', 12, /is empty/],
      ['status in Open', 10, /Expected "\[" after "in"/],
      ['status in [Open', 15, /Expected "," or "\]" .* found the end/],
      ['status in [Open Closed]', 16, /Expected "," or "\]"/],
      ['status in [Open,]', 16, /Expected a value after ","/],
      ['(amount = 5', 11, /Expected "\)" .* to close the "\(" at character 1/],
      ['((a) or (b)', 11, /Expected "\)"/],
      ['amount = 5)', 10, /Unexpected "\)"/],
      [')', 0, /Expected a field name .* found "\)"/],
      ['= 5', 0, /Expected a field name at character 1/],
      ['5 < amount', 0, /Expected a field name/],
      ['a. = 1', 2, /field name after "\."/],
      ['a.1 = 1', 2, /field name after "\."/],
      ['items[x] = 1', 6, /index .* or a quoted key/],
      ['items[-1] = 1', 6, /index/],
      ['items[0 = 1', 8, /Expected "\]"/],
      ['and = 1', 0, /keyword "and"/],
      ['a = 1 and', 9, /Expected a field name .* found the end/],
      ['a = 1 or or b', 9, /keyword "or"/],
      ['a = 1 &', 6, /Unexpected "&"/],
      ['a &', 2, /Expected an operator/],
      ['a contains', 10, /Expected a value after "contains"/],
      ['a = [1]', 4, /Expected a value after "="/],
      ['not', 3, /Expected a field name .* found the end/],
      ['x = "\\uZZ"', 5, /four hex digits/],
      ['a = 1 $', 6, /Unexpected "\$"/],
    ];
    for (const [text, position, message] of cases) {
      const r = parseFilter(text);
      assert.ok(!r.ok, `${text} parsed`);
      assert.equal(r.position, position, `${text}: ${r.message}`);
      assert.match(r.message, message, text);
      assert.ok(r.message.includes(`character ${position + 1}`), `${text}: ${r.message} names its position`);
      const c = compileFilter(text);
      assert.deepEqual(c, r, 'compiling reports the same');
    }
    const long = parseFilter('a = 1 and '.repeat(1_001) + 'a = 1');
    assert.ok(!long.ok && long.position === 10_000);
  });

  it('refuses nesting deeper than the limit, with its position, and keeps long flat chains', () => {
    assert.ok(parseFilter('('.repeat(MAX_NESTING) + 'a' + ')'.repeat(MAX_NESTING)).ok);
    const deep = parseFilter('('.repeat(MAX_NESTING + 1) + 'a' + ')'.repeat(MAX_NESTING + 1));
    assert.ok(!deep.ok && deep.position === MAX_NESTING && /more than 64 levels/.test(deep.message));
    const nots = parseFilter('not '.repeat(MAX_NESTING + 1) + 'a');
    assert.ok(!nots.ok && nots.position === MAX_NESTING * 4);
    assert.ok(!parseFilter('!'.repeat(5_000) + 'a').ok);
    assert.ok(!parseFilter('('.repeat(5_000)).ok);
    const chain = compileFilter('a = 1 and '.repeat(999) + 'a = 1');
    assert.ok(chain.ok && chain.test({ a: '1' }) && !chain.test({ a: '2' }));
    const ors = compileFilter('a = 1 || '.repeat(999) + 'a = 2');
    assert.ok(ors.ok && ors.test({ a: 2 }) && !ors.test({ a: 3 }));
  });
});

describe('payload filters: typed comparisons', () => {
  it('compares Numeric and Int64 as exact decimals, whether text or JSON numbers', () => {
    assert.equal(is('amount > 99.9999999999'), true);
    assert.equal(is('amount = 100'), true, '"100.0000000000" is 100');
    assert.equal(is('amount = "100.0"'), true, 'a quoted number is a number too');
    assert.equal(is('amount > 1000'), false, 'not a text comparison ("100…" > "1000")');
    assert.equal(is('amount >= 100.00000000001'), false);
    assert.equal(is('amount = 1e2'), true, 'exponents are applied exactly');
    assert.equal(is('amount < 1.0000000001E2'), true);
    assert.equal(is('small < 0'), true);
    assert.equal(is('small > -1'), true);
    assert.equal(is('small = -0.50'), true);
    assert.equal(is('zero = -0'), true);
    assert.equal(is('big > 9223372036854775806'), true, 'beyond 2^53: floats would call these equal');
    assert.equal(is('big = 9223372036854775806'), false);
    assert.equal(is('big = +9223372036854775807'), true);
    assert.equal(is('count >= 4.2e1'), true);
    assert.equal(is('count = 42.000'), true);
    assert.equal(is('ratio = 0.1'), true);
    assert.equal(is('ratio < 0.10000000000000001'), true, 'the number as written, not its float');
    assert.equal(is('items[1].qty > 9'), true, '"10" > 9 as numbers, not as text');
    assert.equal(is('memo = 5'), false, 'a number against other text: text equality');
    assert.equal(is('memo != 5'), true);
    assert.equal(is('memo > 5'), false, 'and no order');
    assert.equal(is('memo < 5'), false);
    assert.equal(is('amount > abc'), false, 'text does not order numbers');
    assert.equal(matches('code = 5', { code: 'N/A' }), false);
    assert.equal(matches('code = 1e3', { code: '1000.0' }), true);
    assert.equal(matches('n = 1e-7', { n: 1e-7 }), true, 'a JSON number written with an exponent');
    assert.equal(matches('n > 1e20', { n: 1e21 }), true);
  });

  it('compares times and dates as instants, below the millisecond', () => {
    assert.equal(is('createdAt > 2026-11-26T10:00:00Z'), true, 'one microsecond later');
    assert.equal(is('createdAt < 2026-11-26T10:00:00.000002Z'), true);
    assert.equal(is('createdAt > 2026-11-26T10:00:00.0000009Z'), true, 'below the microsecond too');
    assert.equal(is('createdAt < 2026-11-26T10:00:00.0000011Z'), true);
    assert.equal(is('createdAt = 2026-11-26T10:00:00.0000010Z'), true, 'trailing zeros do not matter');
    assert.equal(is('createdAt = 2026-11-26T11:00:00.000001+01:00'), true, 'across zones');
    assert.equal(is('createdAt = "2026-11-26T05:30:00.000001-0430"'), true);
    assert.equal(is('createdAt = 2026-11-26T10:00:00.000001'), true, 'no zone is UTC');
    assert.equal(is('createdAt > 2026-11-26'), true, 'a date is midnight UTC');
    assert.equal(is('createdAt < 2026-11-27'), true);
    assert.equal(is('due = 2026-11-26T00:00:00Z'), true);
    assert.equal(is('due < 2026-11-26T00:00:00.000001Z'), true);
    assert.equal(is('due >= 2026-11-27'), false);
    assert.equal(is('due > 2024-02-29'), true, 'a leap day');
    assert.equal(matches('t < 2026-01-01', { t: '2025-12-31T23:59:59.999999999Z' }), true);
    assert.equal(matches('t > 2026-01-01', { t: '0001-01-01T00:00:00Z' }), false, 'the first Daml year');
    assert.equal(matches('t > 2026-02-30', { t: '2026-03-01' }), true, 'not a date: compared as text');
    assert.equal(matches('t = 2026-02-30', { t: '2026-03-02' }), false);
    assert.equal(is('createdAt > 2026'), false, 'a number does not order a time');
  });

  it('compares parties by full id: a bare word names the one known party with that hint', () => {
    assert.equal(is('owner = Alice', [ALICE, BOB]), true);
    assert.equal(is('owner = Alice', [OTHER_ALICE, BOB]), false, 'the Alice known here is another party');
    assert.equal(is('owner = Alice'), true, 'no known parties: the hint');
    assert.equal(is('owner = Alice', [BOB]), true, 'no known party with that hint: the hint');
    assert.equal(is('owner = Ali'), false, 'the whole hint');
    assert.equal(is('owner = alice'), false);
    assert.equal(is(`owner = ${ALICE}`, [OTHER_ALICE]), true, 'a full id is itself');
    assert.equal(is(`owner = ${ALICE.slice(0, -1)}`), false, 'a full id must equal exactly');
    assert.equal(is('owner != Bob', [ALICE, BOB]), true);
    assert.equal(is('owner in [Bob, Alice]', [ALICE, BOB]), true);
    assert.equal(is('observers contains Bob', [ALICE, BOB]), true, 'list membership');
    assert.equal(is('owner contains "1220ceff"'), true, 'contains is a substring of the full id');
    assert.equal(matches('owner = Alice', { owner: 'Alice' }, [ALICE]), true, 'text that is the word itself');
    assert.equal(matches('owner = Alice', { owner: 'Alice::notHex' }), false, 'not party-shaped');
    const carol = REAL_PARTY_IDS[1];
    assert.equal(matches(`owner = "${carol.slice(0, carol.lastIndexOf('::'))}"`, { owner: carol }), true, 'hints with spaces and colons, quoted');

    const ambiguous = compileFilter('status = Open and owner = Alice', { parties: [ALICE, OTHER_ALICE, BOB] });
    assert.ok(!ambiguous.ok);
    assert.equal(ambiguous.position, 26);
    assert.match(ambiguous.message, /"Alice" at character 27 names 2 known parties .*full party id/);
    const inList = compileFilter('owner in [Bob, Alice]', { parties: [ALICE, OTHER_ALICE, BOB] });
    assert.ok(!inList.ok && inList.position === 15);
    assert.equal(is('owner = "Alice"', [ALICE, OTHER_ALICE]), true, 'quoted: every party with that hint');
    assert.equal(matches('owner = "Alice"', { owner: OTHER_ALICE }, [ALICE, OTHER_ALICE]), true);
    assert.equal(is('owner > Alice', [ALICE, OTHER_ALICE]), true, 'ordering is text, never ambiguous');
  });

  it('matches enums and variants by constructor, and reads variant fields through them', () => {
    assert.equal(is('status = Open'), true, 'an enum');
    assert.equal(is('unit = Pending'), true, 'a variant by tag');
    assert.equal(is('unit.tag = Pending'), true);
    assert.equal(is('shape = Circle'), true);
    assert.equal(is('shape != Square'), true);
    assert.equal(is('shape.radius > 2'), true, 'a variant field read through it');
    assert.equal(is('shape.value.radius = 2.5'), true);
    assert.equal(is('status in [Closed, Open]'), true);
    assert.equal(is('unit in [Open, Closed]'), false);
    assert.equal(matches('status in [Open]', { status: { tag: 'Open', value: {} } }), true);
  });

  it('treats null as a present None, and a missing path as false for every comparison, != included', () => {
    assert.equal(is('note exists'), false);
    assert.equal(is('note = null'), true);
    assert.equal(is('note != null'), false);
    assert.equal(is('note != x'), true, 'None differs from x');
    assert.equal(is('note = x'), false);
    assert.equal(is('note contains x'), false);
    assert.equal(is('memo exists'), true);
    assert.equal(is('nested.optional exists'), false);
    assert.equal(is('nested.deep.leaf = y'), true);
    for (const f of ['missing exists', 'missing = x', 'missing != x', 'missing > 0', 'missing < 0', 'missing in [x]', 'missing contains x', 'missing = null']) {
      assert.equal(is(f), false, f);
    }
    assert.equal(is('not missing exists'), true);
    assert.equal(is('not missing = x'), true);
    assert.equal(is('memo.deeper = x'), false, 'a path through text');
    assert.equal(is('items[5].qty exists'), false);
  });

  it('reads lists, text maps, generic maps, booleans and odd keys', () => {
    assert.equal(is('items[1].qty = 10'), true);
    assert.equal(is('items[0].sku = a and items[1].sku = b'), true);
    assert.equal(is('observers contains Alice'), true);
    assert.equal(is('observers contains Carol'), false);
    assert.equal(is('items contains 3'), false, 'the items are records');
    assert.equal(matches('ns contains 3', { ns: ['1', '3.000'] }), true, 'membership is typed too');
    assert.equal(is('tags contains red'), true, 'a text map has the key');
    assert.equal(is('tags contains green'), false);
    assert.equal(is('tags.blue = 2'), true);
    assert.equal(is('genmap.k1 = v1'), true, 'a generic map read by key');
    assert.equal(is('genmap.k2.x = 1'), true);
    assert.equal(is('genmap[0][1] = v1'), true);
    assert.equal(is('memo contains "the"'), true);
    assert.equal(is('memo contains The'), false, 'case-sensitive');
    assert.equal(is('memo > M'), true, 'text orders as text');
    assert.equal(is('flag'), true);
    assert.equal(is('not flag'), false);
    assert.equal(is('archived'), false);
    assert.equal(is('not archived'), true);
    assert.equal(is('flag = true and archived = FALSE'), true);
    assert.equal(is('flag != false'), true);
    assert.equal(is('memo'), false, 'a path alone is true only for true');
    assert.equal(is('"odd key" = x'), true);
  });

  it('binds not tighter than and, and and tighter than or', () => {
    const row = { a: 1, b: 0, c: 1 };
    assert.equal(matches('not a = 1 and b = 1', row), false);
    assert.equal(matches('not (a = 1 and b = 1)', row), true);
    assert.equal(matches('a = 1 or b = 1 and c = 0', row), true);
    assert.equal(matches('(a = 1 or b = 1) and c = 0', row), false);
    assert.equal(matches('!a = 2 || b = 0 && c = 1', row), true);
    assert.equal(matches('not not a = 1', row), true);
    assert.equal(matches('b = 1 or not c = 1 or a = 1', row), true);
    assert.equal(matches('b = 1 or not (c = 1 or a = 1)', row), false);
  });

  it('lists the paths a filter reads', () => {
    const c = compileFilter('a = 1 and b.c exists or a > 2 or items[0]["odd key"] = x');
    assert.ok(c.ok);
    assert.deepEqual(c.paths, ['a', 'b.c', 'items[0]["odd key"]']);
    const all = compileFilter('  ');
    assert.ok(all.ok && all.test(undefined) && all.paths.length === 0);
  });

  it('answers a boolean on hostile values, never throwing, never reading the prototype', () => {
    const proto = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"name": "x"}}') as unknown;
    assert.equal(matches('__proto__.polluted = yes', proto), true, 'an own __proto__ key is a field like any other');
    assert.equal(matches('constructor.name = x', proto), true);
    for (const f of ['constructor exists', 'toString exists', '__proto__ exists', 'hasOwnProperty exists', 'constructor.name exists', 'length exists']) {
      assert.equal(matches(f, {}), false, f);
      assert.equal(matches(f, []), false, f);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    let deep: unknown = { leaf: 'bottom' };
    for (let i = 0; i < 100_000; i++) deep = { child: deep };
    assert.equal(matches('child.child.child exists and child.leaf exists', deep), false);
    const cyclic: Record<string, unknown> = { n: '1' };
    cyclic.self = cyclic;
    assert.equal(matches('self.self.self.n = 1', cyclic), true);
    const huge = 'x'.repeat(5_000_000) + 'needle';
    assert.equal(matches('note contains needle and note > a and note != 5', { note: huge }), true);
    assert.equal(matches('note = 5', { note: '9'.repeat(1_000_000) }), false);
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('boom');
        },
      },
    );
    const getter = Object.defineProperty({}, 'amount', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const shapes: unknown[] = [undefined, null, 5, 'text', true, Symbol('s'), () => 1, new Map([['a', 1]]), new Date(0), 5n, [1, 2], Object.create(null)];
    shapes.push(throwing, getter, { amount: Symbol('x') }, { amount: 5n }, { amount: () => 1 }, { amount: [[[[]]]] }, { amount: { tag: 5 } });
    for (const f of ['amount > 1', 'amount = x', 'amount != x', 'amount exists', 'amount contains a', 'amount in [1, a]', 'a', 'not amount.x.y = 1']) {
      const c = compileFilter(f);
      assert.ok(c.ok);
      for (const v of shapes) assert.equal(typeof c.test(v), 'boolean', f);
    }
    assert.doesNotThrow(() => fieldPathsOf([throwing, getter, cyclic, deep, proto, ...shapes]));
    // Callers in plain JavaScript: wrong types are answered, not thrown.
    const notText = compileFilter(undefined as unknown as string, null as unknown as object);
    assert.ok(!notText.ok && notText.position === 0 && notText.message.length > 0);
    assert.ok(compileFilter('a = Alice', null as unknown as object).ok);
    assert.ok(compileFilter('a = Alice', { parties: 'Alice::1220ab' as unknown as string[] }).ok);
    assert.deepEqual(completeFilter(null as unknown as string, 3, []), { from: 0, to: 0, items: [] });
    assert.deepEqual(completeFilter('a ', 2, null as unknown as []).items, []);
    assert.deepEqual(fieldPathsOf(5 as unknown as unknown[]), []);
  });
});
