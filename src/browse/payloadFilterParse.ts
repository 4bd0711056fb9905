// The payload filter language's parser: text to a tree, or a message naming what was expected and
// the position where it was not found. Read by hand, character by character, because the same
// characters mean different things in a field path (`items[0].qty`) and in a value (`10.5`,
// `Alice::1220…`, `2026-11-26T10:00:00Z`). Also how the language reads numbers, times, party ids
// and variants, in literals and in the values compared with them. Never throws. No `vscode` import.
import * as l10n from '../l10n/l10n';
import { asDecimal } from '../ledger/damlValues';

export type PathStep = string | number;

/** A field path: `owner`, `items[0].qty`, `"odd key".x`, `m["k"]`. */
export interface FilterPath {
  steps: PathStep[];
  /** The path written the canonical way (pathText). */
  text: string;
  at: number;
  end: number;
}

/** A value as written; its type is decided against each value found (payloadFilter.ts). */
export interface FilterLiteral {
  /** The text, quotes removed and escapes read. */
  text: string;
  quoted: boolean;
  keyword?: 'true' | 'false' | 'null';
  at: number;
  end: number;
}

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | 'contains';

export type FilterAst =
  | { type: 'all' }
  | { type: 'and' | 'or'; operands: FilterAst[] }
  | { type: 'not'; operand: FilterAst }
  | { type: 'compare'; op: CompareOp; path: FilterPath; value: FilterLiteral }
  | { type: 'in'; path: FilterPath; values: FilterLiteral[] }
  | { type: 'exists'; path: FilterPath }
  /** A path alone (`archived`, `not archived`): the value is `true`. */
  | { type: 'isTrue'; path: FilterPath };

export type ParseResult = { ok: true; filter: FilterAst } | { ok: false; message: string; position: number };

export const MAX_FILTER_LENGTH = 10_000;
/** Levels of parentheses and `not`: deeper is refused, not a stack overflow. */
export const MAX_NESTING = 64;

/** A filter error with its 0-based position in the text. */
export class FilterError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

export const KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'in', 'contains', 'exists', 'true', 'false', 'null']);
const OPERATORS: Record<string, CompareOp> = { '=': '=', '==': '=', '!=': '!=', '>': '>', '>=': '>=', '<': '<', '<=': '<=' };
const OPERATOR_CHARS = '=!<>';
const DELIMITERS = '()[],"=!<>&|';
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_']*$/;

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const isIdentStart = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isIdentPart = (c: string | undefined) => isIdentStart(c) || (c !== undefined && ((c >= '0' && c <= '9') || c === "'"));
/** Could be part of a bare value (`Alice::1220ab`, `-0.5`, `2026-11-26T10:00:00+01:00`). */
export const isWordChar = (c: string | undefined): boolean => c !== undefined && c !== '' && !DELIMITERS.includes(c) && !isSpace(c);

/** A path as the filter reads it back: identifiers bare, other keys quoted, indices in brackets. */
export function pathText(steps: readonly PathStep[]): string {
  return steps.reduce<string>((out, s, k) => out + stepText(s, k === 0), '');
}

/** One step of pathText: the first one has no dot before it. */
export function stepText(s: PathStep, first: boolean): string {
  if (typeof s === 'number') return `[${s}]`;
  if (IDENTIFIER.test(s) && (!first || !KEYWORDS.has(s.toLowerCase()))) return first ? s : `.${s}`;
  return first ? JSON.stringify(s) : `[${JSON.stringify(s)}]`;
}

/** Parses a filter. Empty text is the filter that keeps everything. */
export function parseFilter(text: string): ParseResult {
  try {
    if (text.length > MAX_FILTER_LENGTH)
      return { ok: false, message: l10n.t('The filter is longer than {0} characters.', MAX_FILTER_LENGTH), position: MAX_FILTER_LENGTH };
    return { ok: true, filter: new Parser(text).parse() };
  } catch (e) {
    if (e instanceof FilterError) return { ok: false, message: e.message, position: Math.max(0, Math.min(e.position, text.length)) };
    return { ok: false, message: l10n.t('The filter could not be read.'), position: 0 };
  }
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly s: string) {}

  parse(): FilterAst {
    this.space();
    if (this.i >= this.s.length) return { type: 'all' };
    const e = this.or();
    this.space();
    if (this.i < this.s.length)
      throw new FilterError(l10n.t('Unexpected {0} at character {1}: expected "and", "or" or the end of the filter.', this.found(), this.i + 1), this.i);
    return e;
  }

  private or(): FilterAst {
    const operands = [this.and()];
    while (this.connective('or', '||')) operands.push(this.and());
    return operands.length === 1 ? operands[0] : { type: 'or', operands };
  }

  private and(): FilterAst {
    const operands = [this.unary()];
    while (this.connective('and', '&&')) operands.push(this.unary());
    return operands.length === 1 ? operands[0] : { type: 'and', operands };
  }

  private connective(word: string, symbol: string): boolean {
    this.space();
    if (this.s.startsWith(symbol, this.i)) this.i += 2;
    else if (this.keywordAt(word)) this.i += word.length;
    else return false;
    return true;
  }

  private unary(): FilterAst {
    this.space();
    const at = this.i;
    const bang = this.s[at] === '!' && this.s[at + 1] !== '=';
    if (bang || this.keywordAt('not')) {
      this.i += bang ? 1 : 3;
      this.enter(at);
      const operand = this.unary();
      this.depth--;
      return { type: 'not', operand };
    }
    if (this.s[at] === '(') {
      this.i++;
      this.enter(at);
      const inner = this.or();
      this.space();
      if (this.s[this.i] !== ')')
        throw new FilterError(l10n.t('Expected ")" at character {0} to close the "(" at character {1}, found {2}.', this.i + 1, at + 1, this.found()), this.i);
      this.i++;
      this.depth--;
      return inner;
    }
    return this.comparison();
  }

  private enter(at: number): void {
    if (++this.depth > MAX_NESTING)
      throw new FilterError(l10n.t('The filter nests more than {0} levels of parentheses and "not", at character {1}.', MAX_NESTING, at + 1), at);
  }

  private comparison(): FilterAst {
    const path = this.path();
    this.space();
    const at = this.i;
    const c = this.s[at];
    if (c !== undefined && OPERATOR_CHARS.includes(c)) {
      let end = at;
      while (end < this.s.length && OPERATOR_CHARS.includes(this.s[end])) end++;
      const symbol = this.s.slice(at, end);
      const op = Object.hasOwn(OPERATORS, symbol) ? OPERATORS[symbol] : undefined;
      if (!op)
        throw new FilterError(l10n.t('Unknown operator "{0}" at character {1}: expected =, !=, <, <=, >, >=, in, contains or exists.', symbol, at + 1), at);
      this.i = end;
      return { type: 'compare', op, path, value: this.value(symbol) };
    }
    if (isIdentStart(c)) {
      const word = this.identifierAt(at);
      const lower = word.toLowerCase();
      if (lower === 'exists' || lower === 'contains' || lower === 'in') {
        this.i += word.length;
        if (lower === 'exists') return { type: 'exists', path };
        return lower === 'in' ? this.list(path, word) : { type: 'compare', op: 'contains', path, value: this.value(word) };
      }
      if (lower === 'and' || lower === 'or') return { type: 'isTrue', path };
    }
    if (at >= this.s.length || c === ')' || this.s.startsWith('&&', at) || this.s.startsWith('||', at)) return { type: 'isTrue', path };
    throw new FilterError(
      l10n.t('Expected an operator (=, !=, <, <=, >, >=, in, contains, exists), "and", "or" or the end at character {0}, found {1}.', at + 1, this.found()),
      at,
    );
  }

  private list(path: FilterPath, word: string): FilterAst {
    this.space();
    const open = this.i;
    if (this.s[open] !== '[') throw new FilterError(l10n.t('Expected "[" after "{0}" at character {1}, found {2}.', word, open + 1, this.found()), open);
    this.i++;
    this.space();
    if (this.s[this.i] === ']')
      throw new FilterError(
        l10n.t('Expected a value at character {0}: the list after "{1}" is empty (give at least one, as in [a, b]).', this.i + 1, word),
        this.i,
      );
    const values: FilterLiteral[] = [];
    for (;;) {
      values.push(this.value(values.length ? ',' : '['));
      this.space();
      const c = this.s[this.i];
      if (c === ']' || c === ',') this.i++;
      if (c === ']') return { type: 'in', path, values };
      if (c === ',') continue;
      throw new FilterError(
        l10n.t('Expected "," or "]" at character {0} in the list opened at character {1}, found {2}.', this.i + 1, open + 1, this.found()),
        this.i,
      );
    }
  }

  private value(after: string): FilterLiteral {
    this.space();
    const at = this.i;
    const c = this.s[at];
    if (c === '"' || c === "'") {
      const text = this.quoted();
      return { text, quoted: true, at, end: this.i };
    }
    if (isWordChar(c)) {
      let end = at;
      while (end < this.s.length && isWordChar(this.s[end])) end++;
      const text = this.s.slice(at, end);
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === 'false' || lower === 'null') {
        this.i = end;
        return { text: lower, quoted: false, keyword: lower, at, end };
      }
      if (KEYWORDS.has(lower))
        throw new FilterError(
          l10n.t('Expected a value after "{0}" at character {1}, found the keyword "{2}" (put text in quotes: "{2}").', after, at + 1, text),
          at,
        );
      this.i = end;
      return { text, quoted: false, at, end };
    }
    throw new FilterError(l10n.t('Expected a value after "{0}" at character {1}, found {2}.', after, at + 1, this.found()), at);
  }

  private path(): FilterPath {
    this.space();
    const at = this.i;
    const steps: PathStep[] = [];
    const c = this.s[at];
    if (c === '"' || c === "'") steps.push(this.quoted());
    else if (isIdentStart(c)) {
      const name = this.identifierAt(at);
      if (KEYWORDS.has(name.toLowerCase()))
        throw new FilterError(
          l10n.t('Expected a field name at character {0}, found the keyword "{1}" (put a field of that name in quotes: "{1}").', at + 1, name),
          at,
        );
      steps.push(name);
      this.i += name.length;
    } else throw new FilterError(l10n.t('Expected a field name at character {0}, found {1}.', at + 1, this.found()), at);
    for (;;) {
      const d = this.s[this.i];
      if (d === '.') {
        this.i++;
        const e = this.s[this.i];
        if (e === '"' || e === "'") steps.push(this.quoted());
        else if (isIdentStart(e)) {
          const name = this.identifierAt(this.i);
          steps.push(name);
          this.i += name.length;
        } else throw new FilterError(l10n.t('Expected a field name after "." at character {0}, found {1}.', this.i + 1, this.found()), this.i);
      } else if (d === '[') {
        const open = this.i++;
        this.space();
        const e = this.s[this.i];
        if (e >= '0' && e <= '9') {
          const from = this.i;
          while (this.s[this.i] >= '0' && this.s[this.i] <= '9') this.i++;
          steps.push(Number(this.s.slice(from, this.i)));
        } else if (e === '"' || e === "'") steps.push(this.quoted());
        else
          throw new FilterError(
            l10n.t('Expected an index (0, 1, …) or a quoted key inside "[ ]" at character {0}, found {1}.', this.i + 1, this.found()),
            this.i,
          );
        this.space();
        if (this.s[this.i] !== ']')
          throw new FilterError(
            l10n.t('Expected "]" at character {0} to close the "[" at character {1}, found {2}.', this.i + 1, open + 1, this.found()),
            this.i,
          );
        this.i++;
      } else break;
    }
    return { steps, text: pathText(steps), at, end: this.i };
  }

  /** A quoted text at the cursor, `"…"` or `'…'`, with JSON's escapes. */
  private quoted(): string {
    const q = this.s[this.i];
    const at = this.i++;
    let out = '';
    for (let c = this.s[this.i]; c !== q; c = this.s[this.i]) {
      const e = this.s[this.i + 1];
      if (c === undefined || (c === '\\' && e === undefined))
        throw new FilterError(l10n.t('The quoted text that starts at character {0} has no closing {1}.', at + 1, q), at);
      const hex = e === 'u' ? this.s.slice(this.i + 2, this.i + 6) : '';
      if (c !== '\\') out += c;
      else if (e !== 'u') out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e === 'b' ? '\b' : e === 'f' ? '\f' : e;
      else if (/^[0-9a-fA-F]{4}$/.test(hex)) out += String.fromCharCode(parseInt(hex, 16));
      else throw new FilterError(l10n.t('Expected four hex digits after "\\u" at character {0}.', this.i + 1), this.i);
      this.i += c !== '\\' ? 1 : e === 'u' ? 6 : 2;
    }
    this.i++;
    return out;
  }

  private identifierAt(at: number): string {
    let end = at;
    while (isIdentPart(this.s[end])) end++;
    return this.s.slice(at, end);
  }

  private keywordAt(word: string): boolean {
    return this.s.slice(this.i, this.i + word.length).toLowerCase() === word && !isIdentPart(this.s[this.i + word.length]);
  }

  private space(): void {
    while (isSpace(this.s[this.i])) this.i++;
  }

  /** What stands at the position, for a message: a word or symbol in quotes, or "the end". */
  private found(at = this.i): string {
    if (at >= this.s.length) return l10n.t('the end');
    const c = this.s[at];
    let end = at + 1;
    const same = isWordChar(c) ? isWordChar : '&|'.includes(c) || OPERATOR_CHARS.includes(c) ? (d: string) => '&|=!<>'.includes(d) : undefined;
    if (same) while (end < this.s.length && end - at < 24 && same(this.s[end])) end++;
    return JSON.stringify(this.s.slice(at, end) + (end - at >= 24 ? '…' : ''));
  }
}

/** A token as completion reads it; `closed` is false for a quoted text still open. */
export type ScanToken = { kind: 'word' | 'text' | 'symbol'; text: string; at: number; end: number; closed: boolean };

/** The tokens of `text` up to `limit`, whatever it holds (for completion, which reads unfinished filters). */
export function scanFilter(text: string, limit = text.length): ScanToken[] {
  const out: ScanToken[] = [];
  const end = Math.max(0, Math.min(limit, text.length));
  let i = 0;
  while (i < end) {
    const c = text[i];
    const at = i;
    if (isSpace(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < end && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      const closed = i < end;
      i = Math.min(end, closed ? i + 1 : i);
      out.push({ kind: 'text', text: text.slice(at, i), at, end: i, closed });
    } else if (isWordChar(c)) {
      while (i < end && isWordChar(text[i])) i++;
      out.push({ kind: 'word', text: text.slice(at, i), at, end: i, closed: true });
    } else {
      const two = text.slice(i, i + 2);
      i += i + 2 <= end && ['==', '!=', '>=', '<=', '&&', '||'].includes(two) ? 2 : 1;
      out.push({ kind: 'symbol', text: text.slice(at, i), at, end: i, closed: true });
    }
  }
  return out;
}

// Values as the filter types them, read by hand: these run for every row.

/** The constructor of a variant (`{tag, value}`), or undefined. */
export function variantTag(v: object): string | undefined {
  const tag = Object.hasOwn(v, 'tag') ? (v as { tag: unknown }).tag : undefined;
  return typeof tag === 'string' ? tag : undefined;
}

/** Where the hint of `hint::fingerprint` ends (the fingerprint lower-case hex), or -1. */
export function hintLength(v: string): number {
  const k = v.lastIndexOf('::');
  if (k <= 0 || k + 2 >= v.length) return -1;
  for (let j = k + 2; j < v.length; j++) {
    const c = v.charCodeAt(j);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return -1;
  }
  return k;
}

/** Numeric text as a decimal; the first character rules most text out before the regex. */
export function decimalOfText(v: string): string | undefined {
  const c = v.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 32 || c === 9 || c === 10 || c === 13)) return undefined;
  return asDecimal(v);
}

export function decimalOfNumber(v: number): string | undefined {
  return asDecimal(v) ?? (Number.isFinite(v) ? exactDecimal(String(v)) : undefined);
}

/** A number as written (`10.5`, `-3`, `1.5e-3`) as a plain decimal, exponent applied exactly. */
export function exactDecimal(s: string): string | undefined {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,4}))?$/.exec(s);
  if (!m) return undefined;
  if (!m[4]) return s;
  const exp = Number(m[4]);
  if (Math.abs(exp) > 1000) return undefined;
  const digits = m[2] + (m[3] ?? '');
  const point = m[2].length + exp;
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return m[1] + body;
}

/** An instant: whole seconds since the epoch, and the fraction's digits without trailing zeros. */
export type TimeKey = { seconds: number; fraction: string };

function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let k = at; k < at + n; k++) {
    const c = s.charCodeAt(k) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    v = v * 10 + c;
  }
  return v;
}

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/** An ISO date (`2026-11-26`) or time (`2026-11-26T10:00:00.123456Z`, `+01:00`, no zone = UTC); by hand, no Date rounding. */
export function timeOf(s: string): TimeKey | undefined {
  const n = s.length;
  if (n < 10 || n > 64 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return undefined;
  const y = digits(s, 0, 4);
  const mo = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const monthDays = mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > monthDays) return undefined;
  let seconds = daysFromCivil(y, mo, d) * 86400;
  if (n === 10) return { seconds, fraction: '' };
  const sep = s[10];
  if ((sep !== 'T' && sep !== 't' && sep !== ' ') || n < 16 || s[13] !== ':') return undefined;
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  if (h < 0 || h > 23 || mi < 0 || mi > 59) return undefined;
  seconds += h * 3600 + mi * 60;
  let i = 16;
  let fraction = '';
  if (s[i] === ':') {
    const sec = digits(s, i + 1, 2);
    if (sec < 0 || sec > 60) return undefined;
    seconds += sec;
    i += 3;
    if (s[i] === '.') {
      const from = ++i;
      while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
      if (i === from) return undefined;
      let last = i;
      while (last > from && s[last - 1] === '0') last--;
      fraction = s.slice(from, last);
    }
  }
  const z = s[i];
  if (i === n || ((z === 'Z' || z === 'z') && i + 1 === n)) return { seconds, fraction };
  if (z !== '+' && z !== '-') return undefined;
  const oh = digits(s, i + 1, 2);
  const j = s[i + 3] === ':' ? i + 4 : i + 3;
  const om = digits(s, j, 2);
  if (oh < 0 || oh > 23 || om < 0 || om > 59 || j + 2 !== n) return undefined;
  return { seconds: seconds - (z === '+' ? 1 : -1) * (oh * 3600 + om * 60), fraction };
}

export function compareTimes(a: TimeKey, b: TimeKey): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  const len = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(len, '0');
  const fb = b.fraction.padEnd(len, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
