// The debugger's expressions, its walk over the exercise tree, and its breakpoint parts, as plain
// functions: decimals compared exactly, times as times, errors with positions (fuzzed: no input
// throws anything else), steps in execution order both ways, hit counts.
import * as assert from 'node:assert/strict';
import { compareDecimals, evaluate, ExpressionError, interpolate, MISSING, parseExpression, showValue, type Roots } from '../../../src/debug/debugExpressions';
import { DebugProgram } from '../../../src/debug/debugProgram';
import { declAt, parseHitCondition } from '../../../src/debug/debugBreakpoints';
import { pathText, preview, VariableStore } from '../../../src/debug/debugScopes';
import type { JsTransaction, LedgerEvent } from '../../../src/ledger/apiTypes';
import { DamlIndex } from '../../../src/daml/damlIndex';
import { HOSTILE_STRINGS } from '../../../fake-ledger/src/demoLedgerData';

const scope: Record<string, unknown> = {
  argument: { amount: '100.0000000000', owner: 'Alice::1220ab', status: 'Open', nested: { list: [1, '2.50', { deep: true }] }, 'odd key': 'x' },
  result: { transferId: '00abc' },
  transaction: { offset: 42, effectiveAt: '2026-11-02T10:00:00.000000Z' },
};
const roots: Roots = (name) => (name in scope ? scope[name] : MISSING);
const run = (src: string) => evaluate(parseExpression(src), roots);

describe('debugger expressions', () => {
  it('reads JSON paths over the scopes', () => {
    assert.equal(run('argument.amount'), '100.0000000000');
    assert.equal(run('argument.nested.list[2].deep'), true);
    assert.equal(run('argument["odd key"]'), 'x');
    assert.equal(run('result.transferId'), '00abc');
    assert.equal(run('argument.missing'), MISSING);
    assert.equal(run('nothing.at.all'), MISSING);
    assert.equal(showValue(run('argument.missing')), '(no such field)');
  });

  it('compares decimals exactly, as Daml numbers, not as text or floats', () => {
    assert.equal(run('argument.amount > 99.9999999999'), true);
    assert.equal(run('argument.amount == 100'), true);
    assert.equal(run('argument.amount > 1000'), false, 'not a string comparison ("100…" > "1000")');
    assert.equal(compareDecimals('0.30000000000000000001', '0.3'), 1, 'no float rounding');
    assert.equal(compareDecimals('-0.0', '0'), 0);
    assert.equal(compareDecimals('-2', '-10'), 1);
    assert.equal(run('argument.nested.list[1] >= 2.5'), true);
  });

  it('compares times as times, and text, lists and membership', () => {
    assert.equal(run('transaction.effectiveAt > "2026-11-02T09:59:59Z"'), true);
    assert.equal(run('transaction.effectiveAt < "2026-11-02T10:00:00.001Z"'), true);
    assert.equal(run('"2026-11-02T10:00:00.000500Z" > "2026-11-02T10:00:00Z"'), true, 'below the millisecond');
    assert.equal(run('"2026-11-02T10:00:00Z" == "2026-11-02T10:00:00.000Z"'), true, 'the same instant written two ways');
    assert.equal(run('"2026-11-02T11:00:00+01:00" == "2026-11-02T10:00:00Z"'), true, 'across zones');
    assert.throws(() => parseExpression('argument.amount > 1e3'), ExpressionError, 'no exponents: they would not compare as decimals');
    assert.equal(run('argument.status in ["Open", "Pending"]'), true);
    assert.equal(run('argument.owner contains "Alice"'), true);
    assert.equal(run('argument.nested.list contains 1'), true);
    assert.equal(run('argument.owner exists && !(argument.missing exists)'), true);
    assert.equal(run('argument.missing == null'), false, 'a missing field equals nothing');
    assert.equal(run('argument.missing != 1'), false);
    assert.equal(run('argument.amount > 1 || argument.missing'), true);
  });

  it('gives every invalid expression a message with its position', () => {
    const cases: [string, number][] = [
      ['argument.(', 9],
      ['argument.amount >', 17],
      ['"open', 0],
      ['argument[x]', 9],
      ['a @ b', 2],
      ['(a', 2],
      ['a b', 2],
    ];
    for (const [src, at] of cases) {
      assert.throws(
        () => parseExpression(src),
        (e: unknown) => e instanceof ExpressionError && e.position === at && e.message.includes(String(at + 1)),
        src,
      );
    }
  });

  it('never throws anything but a positioned error, whatever the input (fuzz)', () => {
    const alphabet = [
      'a',
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
      '==',
      '!',
      '&&',
      '||',
      ' ',
      'in',
      'exists',
      'contains',
      ',',
      '>',
      '<',
      '=',
      '\u0000',
      '\u202e',
      '{',
      '}',
      ...HOSTILE_STRINGS,
    ];
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 5_000; i++) {
      let src = '';
      for (let j = rand(12); j >= 0; j--) src += alphabet[rand(alphabet.length)];
      try {
        evaluate(parseExpression(src), roots);
      } catch (e) {
        assert.ok(e instanceof ExpressionError, `${JSON.stringify(src)} threw ${String(e)}`);
        assert.ok(e.position >= 0 && e.position <= src.length, `${JSON.stringify(src)} at ${e.position}`);
        assert.ok(e.message.length > 0);
      }
    }
    assert.throws(() => parseExpression('('.repeat(500) + 'a' + ')'.repeat(500)), ExpressionError, 'deep nesting is refused, not a stack overflow');
  });

  it('writes logpoint messages with their values, braces and errors kept readable', () => {
    assert.equal(interpolate('amount {argument.amount} to {argument.owner} {{literal}}', roots), 'amount 100.0000000000 to Alice::1220ab {literal}');
    assert.match(interpolate('bad {argument.(}', roots), /^bad \{argument\.\(: Expected a field name/);
  });
});

const ex = (nodeId: number, last: number, choice = 'C'): LedgerEvent =>
  ({
    ExercisedEvent: { nodeId, lastDescendantNodeId: last, choice, contractId: `c${nodeId}`, templateId: 'p:M:T', choiceArgument: {}, exerciseResult: nodeId },
  }) as unknown as LedgerEvent;
const cr = (nodeId: number): LedgerEvent =>
  ({ CreatedEvent: { nodeId, contractId: `c${nodeId}`, templateId: 'p:M:T', createArgument: {} } }) as unknown as LedgerEvent;
const tx = (offset: number, events: LedgerEvent[]) => ({
  kind: 'transaction' as const,
  value: { offset, updateId: `u${offset}`, events } as unknown as JsTransaction,
});

describe('debugger walk over the exercise tree', () => {
  // 0 ⊃ {1 ⊃ {2}, 3 (leaf)}, then a second update with one create.
  const program = new DebugProgram();
  program.append(tx(1, [ex(0, 3), ex(1, 2), cr(2), ex(3, 3)]));
  program.append(tx(2, [cr(0)]));
  const label = (p: { update: number; stop: number } | undefined) => {
    if (!p) return 'end';
    const s = program.stopAt(p);
    return `${p.update}:${s.phase === 'exit' ? '/' : ''}${s.node}`;
  };

  it('enters every node and leaves every exercise with children, in execution order', () => {
    const all = [...program.walk(undefined)].map(label);
    assert.deepEqual(all, ['0:0', '0:1', '0:2', '0:/1', '0:3', '0:/0', '1:0']);
    assert.deepEqual([...program.walk({ update: 1, stop: 0 }, true)].map(label), ['0:/0', '0:3', '0:/1', '0:2', '0:1', '0:0']);
  });

  it('steps over an exercise to its exit, out to the enclosing exit, and into the next update at the top', () => {
    assert.equal(label(program.step({ update: 0, stop: 1 }, 'over')), '0:/1');
    assert.equal(label(program.step({ update: 0, stop: 2 }, 'out')), '0:/1');
    assert.equal(label(program.step({ update: 0, stop: 4 }, 'out')), '0:/0', 'a leaf steps out to its parent’s exit');
    assert.equal(label(program.step({ update: 0, stop: 5 }, 'out')), '1:0');
    assert.equal(label(program.step({ update: 1, stop: 0 }, 'in')), 'end');
    assert.deepEqual(program.frames({ update: 0, stop: 2 }), [2, 1, 0]);
  });
});

describe('debugger breakpoints and variables', () => {
  it('reads hit counts, and refuses what it does not understand', () => {
    const at = (text: string) => {
      const f = parseHitCondition(text);
      assert.equal(typeof f, 'function', text);
      return [1, 2, 3, 4, 5, 6].filter((n) => (f as (c: number) => boolean)(n));
    };
    assert.deepEqual(at('3'), [3]);
    assert.deepEqual(at('>= 5'), [5, 6]);
    assert.deepEqual(at('%2'), [2, 4, 6]);
    assert.deepEqual(at('<3'), [1, 2]);
    assert.match(parseHitCondition('often') as string, /not understood/);
  });

  it('binds a line to the declaration above it: a choice, else its template', () => {
    const index = new DamlIndex();
    const text = 'module M where\n\ntemplate T\n  with\n    p : Party\n  where\n    signatory p\n    choice C : ()\n      controller p\n      do pure ()\n';
    index.setFile('/w/M.daml', text);
    assert.equal(declAt(index, '/w/M.daml', 0), undefined);
    assert.deepEqual([declAt(index, '/w/M.daml', 6)?.entity, declAt(index, '/w/M.daml', 6)?.choice], ['T', undefined]);
    assert.deepEqual([declAt(index, '/w/M.daml', 9)?.line, declAt(index, '/w/M.daml', 9)?.choice], [7, 'C']);
  });

  it('shows values as text, with paths that read them again and lists in chunks', () => {
    assert.equal(pathText('argument', ['a', 0, 'odd key', 'q"uote']), 'argument.a[0]["odd key"]["q\\"uote"]');
    assert.equal(preview(HOSTILE_STRINGS[0]), JSON.stringify(HOSTILE_STRINGS[0]).slice(0, 120) + (JSON.stringify(HOSTILE_STRINGS[0]).length > 120 ? '…' : ''));
    const store = new VariableStore();
    const ref = store.add({ list: Array.from({ length: 1000 }, (_, i) => i) }, 'argument');
    const [list] = store.children(ref);
    assert.equal(list.indexedVariables, 1000);
    const chunk = store.children(list.variablesReference, 500, 3);
    assert.deepEqual(
      chunk.map((v) => [v.name, v.evaluateName]),
      [
        ['500', 'argument.list[500]'],
        ['501', 'argument.list[501]'],
        ['502', 'argument.list[502]'],
      ],
    );
  });
});
