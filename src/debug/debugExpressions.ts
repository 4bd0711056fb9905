// The debugger's expressions (watch, debug console, breakpoint conditions, logpoints): JSON paths
// over the current node's scopes, literals, comparisons and `&&`, `||`, `!`. Parsed, never run as
// code. Numbers and numeric strings (Daml decimals arrive as strings) compare as decimals, ISO
// times as times. Every error names its position. No `vscode` import.

import { asDecimal, compareDecimals } from '../ledger/damlValues';
import { formatCount } from '../l10n/forPeople';

export { compareDecimals };

export type Expr =
  | { type: 'literal'; value: unknown }
  | { type: 'path'; root: string; steps: (string | number)[]; at: number }
  | { type: 'list'; items: Expr[] }
  | { type: 'not'; operand: Expr }
  | { type: 'logical'; op: '&&' | '||'; left: Expr; right: Expr }
  | { type: 'compare'; op: CompareOp; left: Expr; right: Expr }
  | { type: 'exists'; operand: Expr };

export type CompareOp = '==' | '!=' | '>' | '>=' | '<' | '<=' | 'in' | 'contains';

export class ExpressionError extends Error {
  constructor(
    message: string,
    /** Zero-based character position in the expression. */
    readonly position: number,
  ) {
    super(message);
  }
}

type Token = { kind: 'num' | 'str' | 'ident' | 'op' | 'end'; text: string; value?: unknown; at: number };

const OPS = ['==', '!=', '>=', '<=', '&&', '||', '>', '<', '!', '(', ')', '[', ']', '.', ','];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (c === '"' || c === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new ExpressionError(`The string opened at ${at + 1} is not closed.`, at);
        const d = src[i];
        if (d === c) break;
        if (d === '\\' && i + 1 < src.length) {
          const e = src[i + 1];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          i += 2;
          continue;
        }
        s += d;
        i++;
      }
      i++;
      out.push({ kind: 'str', text: src.slice(at, i), value: s, at });
      continue;
    }
    // Plain decimals only: an exponent would not compare as a Daml decimal.
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num && (c !== '-' || /\d/.test(src[i + 1] ?? ''))) {
      i += num[0].length;
      out.push({ kind: 'num', text: num[0], value: num[0], at });
      continue;
    }
    const ident = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i));
    if (ident) {
      i += ident[0].length;
      out.push({ kind: 'ident', text: ident[0], at });
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(`Unexpected "${c}" at ${at + 1}.`, at);
    i += op.length;
    out.push({ kind: 'op', text: op, at });
  }
  out.push({ kind: 'end', text: '', at: src.length });
  return out;
}

/** Parses an expression; throws ExpressionError with a position. Never throws anything else. */
export function parseExpression(src: string): Expr {
  if (src.length > 10_000) throw new ExpressionError('The expression is longer than 10,000 characters.', 10_000);
  const tokens = tokenize(src);
  let k = 0;
  let depth = 0;
  const peek = () => tokens[k];
  const take = () => tokens[k++];
  const expectOp = (op: string) => {
    const t = take();
    if (t.kind !== 'op' || t.text !== op)
      throw new ExpressionError(`Expected "${op}" at ${t.at + 1}${t.kind === 'end' ? ' (the end)' : `, found "${t.text}"`}.`, t.at);
  };
  const nested = <T>(f: () => T): T => {
    if (++depth > 100) throw new ExpressionError('The expression nests more than 100 levels deep.', peek().at);
    try {
      return f();
    } finally {
      depth--;
    }
  };
  const or = (): Expr =>
    nested(() => {
      let left = and();
      while (peek().kind === 'op' && peek().text === '||') {
        take();
        left = { type: 'logical', op: '||', left, right: and() };
      }
      return left;
    });
  const and = (): Expr => {
    let left = not();
    while (peek().kind === 'op' && peek().text === '&&') {
      take();
      left = { type: 'logical', op: '&&', left, right: not() };
    }
    return left;
  };
  const not = (): Expr =>
    nested(() => {
      if (peek().kind === 'op' && peek().text === '!') {
        take();
        return { type: 'not', operand: not() };
      }
      return compare();
    });
  const compare = (): Expr => {
    const left = primary();
    const t = peek();
    if (t.kind === 'ident' && t.text === 'exists') {
      take();
      return { type: 'exists', operand: left };
    }
    const op =
      t.kind === 'op' && ['==', '!=', '>', '>=', '<', '<='].includes(t.text)
        ? t.text
        : t.kind === 'ident' && (t.text === 'in' || t.text === 'contains')
          ? t.text
          : undefined;
    if (!op) return left;
    take();
    return { type: 'compare', op: op as CompareOp, left, right: primary() };
  };
  const primary = (): Expr => {
    const t = take();
    if (t.kind === 'num' || t.kind === 'str') return { type: 'literal', value: t.value };
    if (t.kind === 'op' && t.text === '(') {
      const e = or();
      expectOp(')');
      return e;
    }
    if (t.kind === 'op' && t.text === '[') {
      const items: Expr[] = [];
      if (!(peek().kind === 'op' && peek().text === ']')) {
        items.push(or());
        while (peek().kind === 'op' && peek().text === ',') {
          take();
          items.push(or());
        }
      }
      expectOp(']');
      return { type: 'list', items };
    }
    if (t.kind === 'ident') {
      if (t.text === 'true' || t.text === 'false') return { type: 'literal', value: t.text === 'true' };
      if (t.text === 'null') return { type: 'literal', value: null };
      const steps: (string | number)[] = [];
      for (;;) {
        const n = peek();
        if (n.kind === 'op' && n.text === '.') {
          take();
          const name = take();
          if (name.kind !== 'ident') throw new ExpressionError(`Expected a field name after "." at ${name.at + 1}.`, name.at);
          steps.push(name.text);
        } else if (n.kind === 'op' && n.text === '[') {
          take();
          const key = take();
          if (key.kind === 'num' && /^\d+$/.test(key.text)) steps.push(Number(key.text));
          else if (key.kind === 'str') steps.push(String(key.value));
          else throw new ExpressionError(`Expected an index or a quoted field name at ${key.at + 1}.`, key.at);
          expectOp(']');
        } else break;
      }
      return { type: 'path', root: t.text, steps, at: t.at };
    }
    throw new ExpressionError(t.kind === 'end' ? `The expression ends early, at ${t.at + 1}.` : `Unexpected "${t.text}" at ${t.at + 1}.`, t.at);
  };
  const e = or();
  const rest = peek();
  if (rest.kind !== 'end') throw new ExpressionError(`Unexpected "${rest.text}" at ${rest.at + 1}: expected the end or an operator.`, rest.at);
  return e;
}

/** The root names an expression reads (to fetch only what it needs, such as the contract). */
export function rootsOf(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.type) {
    case 'path':
      out.add(e.root);
      break;
    case 'list':
      e.items.forEach((i) => rootsOf(i, out));
      break;
    case 'not':
    case 'exists':
      rootsOf(e.operand, out);
      break;
    case 'logical':
    case 'compare':
      rootsOf(e.left, out);
      rootsOf(e.right, out);
      break;
  }
  return out;
}

/** A missing field or root: `exists` is false, comparisons with it are false. */
export const MISSING: unique symbol = Symbol('missing');
export type Value = unknown;

/** Reads a root name; MISSING when there is none. */
export type Roots = (name: string) => Value;

export function evaluate(e: Expr, roots: Roots): Value {
  switch (e.type) {
    case 'literal':
      return e.value;
    case 'list':
      return e.items.map((i) => evaluate(i, roots));
    case 'path': {
      let v = roots(e.root);
      for (const s of e.steps) {
        if (v === MISSING || v === null || typeof v !== 'object') return MISSING;
        const next = (v as Record<string | number, unknown>)[s];
        v = Object.prototype.hasOwnProperty.call(v, s) ? next : MISSING;
      }
      return v;
    }
    case 'not':
      return !truthy(evaluate(e.operand, roots));
    case 'exists': {
      const v = evaluate(e.operand, roots);
      return v !== MISSING && v !== null && v !== undefined;
    }
    case 'logical': {
      const l = truthy(evaluate(e.left, roots));
      if (e.op === '&&') return l && truthy(evaluate(e.right, roots));
      return l || truthy(evaluate(e.right, roots));
    }
    case 'compare':
      return compareValues(e.op, evaluate(e.left, roots), evaluate(e.right, roots));
  }
}

export function truthy(v: Value): boolean {
  return v !== MISSING && v !== null && v !== undefined && v !== false && v !== '' && v !== 0;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** An ISO time as nanoseconds since the epoch (exact below the millisecond), or undefined. */
export function isoNanos(s: string): bigint | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/.exec(s);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return undefined;
  const fraction = (m[2] ?? '').padEnd(9, '0').slice(0, 9);
  return BigInt(ms) * 1_000_000n + BigInt(fraction);
}

function order(a: Value, b: Value): number | undefined {
  const da = asDecimal(a);
  const db = asDecimal(b);
  if (da !== undefined && db !== undefined) return compareDecimals(da, db);
  if (typeof a === 'string' && typeof b === 'string') {
    if (ISO_TIME.test(a) && ISO_TIME.test(b)) {
      const ta = isoNanos(a);
      const tb = isoNanos(b);
      if (ta !== undefined && tb !== undefined) return ta === tb ? 0 : ta < tb ? -1 : 1;
    }
    return a === b ? 0 : a < b ? -1 : 1;
  }
  return undefined;
}

function equal(a: Value, b: Value): boolean {
  if (a === MISSING || b === MISSING) return false;
  const o = order(a, b);
  if (o !== undefined) return o === 0;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

function compareValues(op: CompareOp, a: Value, b: Value): boolean {
  switch (op) {
    case '==':
      return equal(a, b);
    case '!=':
      return a !== MISSING && b !== MISSING && !equal(a, b);
    case 'in':
      return Array.isArray(b) && b.some((x) => equal(a, x));
    case 'contains':
      return Array.isArray(a) ? a.some((x) => equal(x, b)) : typeof a === 'string' && typeof b === 'string' && a.includes(b);
    default: {
      if (a === MISSING || b === MISSING) return false;
      const o = order(a, b);
      if (o === undefined) return false;
      return op === '>' ? o > 0 : op === '>=' ? o >= 0 : op === '<' ? o < 0 : o <= 0;
    }
  }
}

// Matching control characters is the point.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_CONSOLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Control and direction characters of ledger text as escapes: the debug console reads ANSI
 * sequences, and a newline or a bidi override could forge a line of its own.
 */
export function consoleSafe(s: string): string {
  return s.replace(UNSAFE_IN_CONSOLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value as the debug console shows it: strings as they are (control characters escaped), the rest as compact JSON. */
export function showValue(v: Value, max = 2_000): string {
  if (v === MISSING) return '(no such field)';
  const s = typeof v === 'string' ? consoleSafe(v) : v === undefined ? 'undefined' : consoleSafe(JSON.stringify(v));
  return s.length > max ? `${s.slice(0, max)}… (${formatCount(s.length)} characters)` : s;
}

/**
 * A logpoint's message: `{expression}` parts evaluated, `{{` and `}}` kept as braces. An expression
 * that does not parse is written with its error, so the log says what to fix.
 */
export function interpolate(message: string, roots: Roots): string {
  return message.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, expr: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    try {
      return showValue(evaluate(parseExpression(expr ?? ''), roots), 500);
    } catch (e) {
      return `{${expr}: ${(e as Error).message}}`;
    }
  });
}

/** The root names a logpoint message reads. */
export function messageRoots(message: string): Set<string> {
  const out = new Set<string>();
  for (const m of message.matchAll(/\{([^{}]*)\}/g)) {
    try {
      rootsOf(parseExpression(m[1]), out);
    } catch {
      // Reported when the message is written.
    }
  }
  return out;
}
