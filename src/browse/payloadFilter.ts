// Payload filters over Daml create arguments as the JSON Ledger API writes them (`amount > 100`,
// `owner = Alice`, `status in [Open, Pending]`, `note exists`, `not archived`), for the Active
// Contracts table and What Changed. Compiled once into closures; each comparison is typed by the
// value it finds:
// - numbers and numeric text (Daml Numeric and Int64 arrive as strings) compare as exact decimals;
//   a number against text that is not numeric is text equality for = and !=, false for ordering;
// - ISO times and dates compare as instants, exactly to the last fraction digit (a date is midnight UTC);
// - parties (`hint::fingerprint`) by their full id: a bare word names the one known party with that
//   hint (several: an error); without a known party (or in quotes) it matches every party with that hint;
// - variants by tag (`status = Open` matches the enum "Open" and {tag: "Open", …}); a variant's
//   fields read through it (`shape.radius`); a name on a generic map ([[k, v], …]) reads key k.
// A missing path makes every comparison false, `!=` included; a path alone (`archived`) is true
// when the value is true; an empty filter keeps everything. No input throws. No `vscode` import.
import * as l10n from '../l10n/l10n';
import { shortenPartyId } from '../ids/ledgerIds';
import { compareDecimals } from '../ledger/damlValues';
import { FilterError, isWordChar, KEYWORDS, parseFilter, scanFilter, stepText, type FilterAst, type FilterLiteral, type PathStep } from './payloadFilterParse';
import { compareTimes, decimalOfNumber, decimalOfText, exactDecimal, hintLength, timeOf, variantTag, type TimeKey } from './payloadFilterParse';

export { parseFilter, pathText, type FilterAst, type ParseResult } from './payloadFilterParse';

export interface CompileOptions {
  /** Full ids of the parties a bare word may name (`Alice` → `Alice::1220…`). */
  parties?: readonly string[];
}

export type CompileResult = { ok: true; test: (argument: unknown) => boolean; paths: string[] } | { ok: false; message: string; position: number };

/** Parses and compiles a filter; `test` never throws and answers false on anything it cannot read. */
export function compileFilter(text: string, options: CompileOptions = {}): CompileResult {
  const parsed = parseFilter(text);
  if (!parsed.ok) return parsed;
  try {
    const paths = new Set<string>();
    const test = build(parsed.filter, partyHints(options?.parties), paths);
    return {
      ok: true,
      test: (argument) => {
        try {
          return test(argument);
        } catch {
          return false;
        }
      },
      paths: [...paths],
    };
  } catch (e) {
    if (e instanceof FilterError) return { ok: false, message: e.message, position: Math.max(0, Math.min(e.position, text.length)) };
    return { ok: false, message: l10n.t('The filter could not be read.'), position: 0 };
  }
}

type Test = (argument: unknown) => boolean;

function build(e: FilterAst, hints: Map<string, string[]> | undefined, paths: Set<string>): Test {
  switch (e.type) {
    case 'all':
      return () => true;
    case 'not': {
      const operand = build(e.operand, hints, paths);
      return (a) => !operand(a);
    }
    case 'and':
    case 'or': {
      const tests = e.operands.map((o) => build(o, hints, paths));
      const all = e.type === 'and';
      if (tests.length === 2) {
        const [x, y] = tests;
        return all ? (a) => x(a) && y(a) : (a) => x(a) || y(a);
      }
      return (a) => {
        for (const t of tests) if (t(a) !== all) return !all;
        return all;
      };
    }
    default:
      break;
  }
  paths.add(e.path.text);
  const get = getter(e.path.steps);
  switch (e.type) {
    case 'exists':
      return (a) => {
        const v = get(a);
        return v !== undefined && v !== null;
      };
    case 'isTrue':
      return (a) => get(a) === true;
    case 'in': {
      const tests = e.values.map((v) => equality(literal(v, hints)));
      // Most lists are plain words: a value spelled exactly like one needs no typed comparison.
      const exact = new Set(e.values.map((v) => v.text));
      return (a) => {
        const v = get(a);
        if (v === undefined) return false;
        if (typeof v === 'string' && exact.has(v)) return true;
        for (const t of tests) if (t(v)) return true;
        return false;
      };
    }
    case 'compare':
      break;
  }
  const op = e.op;
  if (op === '=' || op === '!=' || op === 'contains') {
    const lit = literal(e.value, hints);
    const eq = equality(lit);
    if (op === '=')
      return (a) => {
        const v = get(a);
        return v !== undefined && eq(v);
      };
    if (op === '!=')
      return (a) => {
        const v = get(a);
        return v !== undefined && !eq(v);
      };
    const text = lit.text;
    return (a) => {
      const v = get(a);
      if (typeof v === 'string') return v.includes(text);
      if (Array.isArray(v)) return v.some(eq);
      // A text map's keys.
      return v !== null && typeof v === 'object' && Object.hasOwn(v, text);
    };
  }
  const order = ordering(literal(e.value, undefined));
  const accept = op === '>' ? (o: number) => o > 0 : op === '>=' ? (o: number) => o >= 0 : op === '<' ? (o: number) => o < 0 : (o: number) => o <= 0;
  return (a) => {
    const o = order(get(a));
    return o !== undefined && accept(o);
  };
}

/** Reads a path; undefined when it is missing. */
function getter(steps: readonly PathStep[]): (root: unknown) => unknown {
  if (steps.length === 1) {
    const s = steps[0];
    return (root) => (root !== null && typeof root === 'object' ? child(root, s) : undefined);
  }
  return (root) => {
    let v = root;
    for (const s of steps) {
      if (v === null || typeof v !== 'object') return undefined;
      v = child(v, s);
    }
    return v;
  };
}

function child(v: object, s: PathStep): unknown {
  if (Array.isArray(v)) {
    if (typeof s === 'number') return s < v.length ? (v[s] as unknown) : undefined;
    for (const pair of v as unknown[]) if (Array.isArray(pair) && pair.length === 2 && pair[0] === s) return pair[1] as unknown;
    return undefined;
  }
  const key = String(s);
  const record = v as Record<string, unknown>;
  if (Object.hasOwn(record, key)) return record[key];
  if (Object.hasOwn(record, 'tag') && Object.hasOwn(record, 'value')) {
    const inner = record.value;
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && Object.hasOwn(inner, key)) return (inner as Record<string, unknown>)[key];
  }
  return undefined;
}

/** A literal with what it can be compared as, decided once. */
interface Literal {
  text: string;
  keyword?: 'true' | 'false' | 'null';
  decimal?: string;
  time?: TimeKey;
  /** The full id of the one known party this word names. */
  party?: string;
  /** Matches a party-shaped value whose hint is the text. */
  byHint: boolean;
}

function partyHints(parties: readonly string[] | undefined): Map<string, string[]> | undefined {
  if (!Array.isArray(parties)) return undefined;
  const hints = new Map<string, string[]>();
  for (const p of parties as unknown[]) {
    if (typeof p !== 'string') continue;
    const k = hintLength(p);
    if (k < 0) continue;
    const hint = p.slice(0, k);
    const ids = hints.get(hint) ?? [];
    if (!ids.includes(p)) ids.push(p);
    hints.set(hint, ids);
  }
  return hints;
}

function literal(l: FilterLiteral, hints: Map<string, string[]> | undefined): Literal {
  const out: Literal = { text: l.text, keyword: l.keyword, byHint: false };
  if (l.keyword) return out;
  out.decimal = exactDecimal(l.text.trim());
  if (out.decimal === undefined) out.time = timeOf(l.text.trim());
  if (out.decimal !== undefined || out.time !== undefined || l.text.includes('::')) return out;
  const ids = l.quoted ? undefined : hints?.get(l.text);
  if (ids && ids.length > 1)
    throw new FilterError(
      l10n.t(
        '"{0}" at character {1} names {2} known parties ({3}): write the full party id, or put the word in quotes to match them all.',
        l.text,
        l.at + 1,
        ids.length,
        ids.slice(0, 3).map(shortenPartyId).join(', '),
      ),
      l.at,
    );
  if (ids) out.party = ids[0];
  else out.byHint = true;
  return out;
}

function equality(lit: Literal): (v: unknown) => boolean {
  const { text, decimal, time, party, byHint, keyword } = lit;
  const lower = text.toLowerCase();
  return (v) => {
    if (typeof v === 'string') {
      if (v === text) return true;
      if (decimal !== undefined) {
        const d = decimalOfText(v);
        return d !== undefined && compareDecimals(d, decimal) === 0;
      }
      if (time !== undefined) {
        const t = timeOf(v);
        return t !== undefined && compareTimes(t, time) === 0;
      }
      if (party !== undefined) return v === party;
      return byHint && v.length > text.length + 2 && v.startsWith(text) && hintLength(v) === text.length;
    }
    if (typeof v === 'number') {
      if (decimal === undefined) return String(v) === text;
      const d = decimalOfNumber(v);
      return d !== undefined && compareDecimals(d, decimal) === 0;
    }
    if (typeof v === 'boolean') return lower === String(v);
    if (v === null) return keyword === 'null';
    if (typeof v === 'object' && !Array.isArray(v)) return variantTag(v) === text;
    return false;
  };
}

function ordering(lit: Literal): (v: unknown) => number | undefined {
  const { text, decimal, time, keyword } = lit;
  return (v) => {
    if (typeof v === 'number') {
      const d = decimalOfNumber(v);
      return d === undefined || decimal === undefined ? undefined : compareDecimals(d, decimal);
    }
    if (typeof v !== 'string' || keyword !== undefined) return undefined;
    if (decimal !== undefined) {
      const d = decimalOfText(v);
      return d === undefined ? undefined : compareDecimals(d, decimal);
    }
    if (time !== undefined) {
      const t = timeOf(v);
      return t === undefined ? undefined : compareTimes(t, time);
    }
    if (decimalOfText(v) !== undefined) return undefined;
    return v < text ? -1 : v > text ? 1 : 0;
  };
}

export type FieldKind = 'number' | 'text' | 'party' | 'time' | 'bool' | 'list' | 'record' | 'variant' | 'optional';

export interface FieldInfo {
  /** The path as a filter writes it (`items[0].qty`). */
  path: string;
  kind: FieldKind;
  /** A few values seen (party ids, enum words, variant tags), for completion. */
  values?: string[];
}

const MAX_SAMPLES = 1_000;
const MAX_DEPTH = 8;
const MAX_KEYS = 200;
const MAX_VALUES = 20;
const STRINGY = new Set<FieldKind>(['number', 'text', 'party', 'time']);

function kindOf(v: unknown): FieldKind | undefined {
  if (v === null) return 'optional';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return decimalOfText(v) !== undefined ? 'number' : timeOf(v) !== undefined ? 'time' : hintLength(v) > 0 ? 'party' : 'text';
  if (Array.isArray(v)) return 'list';
  if (typeof v !== 'object') return undefined;
  const keys = Object.keys(v);
  return variantTag(v) !== undefined && keys.length <= 2 && keys.every((k) => k === 'tag' || k === 'value') ? 'variant' : 'record';
}

/** The paths seen in a sample of create arguments, in the order first seen, with a kind each. */
export function fieldPathsOf(values: Iterable<unknown>, limit = 500): FieldInfo[] {
  const found = new Map<string, { kind: FieldKind; values: Set<string>; many: boolean }>();
  const note = (path: string, v: unknown, kind: FieldKind) => {
    let f = found.get(path);
    if (!f) {
      if (found.size >= limit) return false;
      found.set(path, (f = { kind, values: new Set(), many: false }));
    } else if (f.kind !== kind) {
      f.kind = f.kind === 'optional' ? kind : kind === 'optional' ? f.kind : STRINGY.has(f.kind) && STRINGY.has(kind) ? 'text' : f.kind;
    }
    if (f.many) return true;
    // Words worth offering as values: parties, enum constructors, variant tags.
    const offer = (s: unknown, k: FieldKind | undefined) => {
      if (typeof s !== 'string' || s.length > 80 || (k !== 'text' && k !== 'party') || f.values.has(s)) return;
      if (f.values.size < MAX_VALUES) f.values.add(s);
      else f.many = true;
    };
    if (kind === 'text' || kind === 'party') offer(v, kind);
    else if (kind === 'variant') offer(variantTag(v as object), 'text');
    else if (kind === 'list') for (const item of (v as unknown[]).slice(0, MAX_VALUES)) if (typeof item === 'string') offer(item, kindOf(item));
    return true;
  };
  const walk = (v: object, parent: string, depth: number) => {
    let keys = 0;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      if (++keys > MAX_KEYS) break;
      const child = (v as Record<string, unknown>)[key];
      const kind = kindOf(child);
      if (!kind) continue;
      const path = parent + stepText(key, parent === '');
      if (!note(path, child, kind) || depth + 1 >= MAX_DEPTH) continue;
      if (kind === 'record' || kind === 'variant') walk(child as object, path, depth + 1);
      else if (kind === 'list' && (child as unknown[]).length > 0 && kindOf((child as unknown[])[0]) === 'record')
        walk((child as object[])[0], `${path}[0]`, depth + 1);
    }
  };
  try {
    let samples = 0;
    for (const v of values) {
      if (++samples > MAX_SAMPLES) break;
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) walk(v, '', 0);
    }
  } catch {
    // A hostile value (a throwing getter): keep what was seen.
  }
  return [...found].map(([path, f]) => {
    // Free text has too many values to offer; enum words and parties do not.
    const offer = f.values.size > 0 && !(f.many && f.kind === 'text');
    return offer ? { path, kind: f.kind, values: [...f.values] } : { path, kind: f.kind };
  });
}

export type CompletionField = { path: string; kind: string; values?: readonly string[] };
export type CompletionItem = { label: string; insert: string; detail?: string };
export type FilterCompletion = { from: number; to: number; items: CompletionItem[] };

type Expect = 'path' | 'afterPath' | 'value' | 'inOpen' | 'listValue' | 'listNext' | 'afterValue' | 'bad';

function kindLabels(): Record<string, string> {
  return {
    number: l10n.t('number'),
    text: l10n.t('text'),
    party: l10n.t('party'),
    time: l10n.t('time'),
    bool: l10n.t('true or false'),
    list: l10n.t('list'),
    record: l10n.t('record'),
    variant: l10n.t('variant'),
    optional: l10n.t('optional (null here)'),
  };
}

// Each operator with the kinds of field it suits (a field of unknown kind gets them all).
function operatorItems(kind: string | undefined): CompletionItem[] {
  const all = [
    { label: '=', insert: '= ', detail: l10n.t('equals'), kinds: 'number time text party variant bool optional' },
    { label: '!=', insert: '!= ', detail: l10n.t('does not equal'), kinds: 'number time text party variant bool optional' },
    { label: '>', insert: '> ', detail: l10n.t('greater than'), kinds: 'number time optional' },
    { label: '>=', insert: '>= ', detail: l10n.t('greater than or equal to'), kinds: 'number time' },
    { label: '<', insert: '< ', detail: l10n.t('less than'), kinds: 'number time optional' },
    { label: '<=', insert: '<= ', detail: l10n.t('less than or equal to'), kinds: 'number time' },
    { label: 'in', insert: 'in [', detail: l10n.t('one of a list of values'), kinds: 'number text party variant' },
    { label: 'contains', insert: 'contains ', detail: l10n.t('has this text, list item or map key'), kinds: 'text list record optional' },
    { label: 'exists', insert: 'exists ', detail: l10n.t('is present and not null'), kinds: 'number time text party variant bool list record optional' },
    { label: 'and', insert: 'and ', detail: l10n.t('both must hold'), kinds: 'bool' },
    { label: 'or', insert: 'or ', detail: l10n.t('either may hold'), kinds: 'bool' },
  ];
  const known = all.some((i) => kind !== undefined && i.kinds.split(' ').includes(kind));
  return all.filter((i) => !known || i.kinds.split(' ').includes(kind ?? '')).map(({ label, insert, detail }) => ({ label, insert, detail }));
}

/** A value as the filter can hold it: bare when it reads back as the same word, else quoted. */
function valueInsert(v: string): string {
  const bare = v !== '' && v[0] !== "'" && [...v].every((c) => isWordChar(c)) && !KEYWORDS.has(v.toLowerCase());
  return bare ? v : JSON.stringify(v);
}

/** What can be typed at `cursor`: field paths, operators suited to the field, values, `and`/`or`. */
export function completeFilter(text: string, cursor: number, fields: readonly CompletionField[]): FilterCompletion {
  const at = typeof text === 'string' ? Math.max(0, Math.min(Number.isFinite(cursor) ? Math.trunc(cursor) : 0, text.length)) : 0;
  try {
    const tokens = scanFilter(text, at);
    const last = tokens[tokens.length - 1];
    const partial = last && last.end === at && (last.kind === 'word' || (last.kind === 'text' && !last.closed)) ? tokens.pop() : undefined;
    let expect: Expect = 'path';
    let path = '';
    let pathAt = 0;
    let depth = 0;
    let prevEnd = -1;
    for (const t of tokens) {
      const word = t.kind === 'word' ? t.text.toLowerCase() : '';
      const adjacent = t.at === prevEnd;
      prevEnd = t.end;
      const connective = word === 'and' || word === 'or' || t.text === '&&' || t.text === '||';
      if (expect === 'path') {
        if (t.text === '(') depth++;
        else if (t.kind === 'symbol' && t.text !== '!') expect = 'bad';
        else if (word !== 'not' && t.text !== '!') {
          expect = 'afterPath';
          path = t.text;
          pathAt = t.at;
        }
      } else if (expect === 'afterPath' && adjacent && (t.text === '[' || t.text === ']' || t.text.startsWith('.') || /[.[]$/.test(path))) path += t.text;
      else if (expect === 'afterPath' && ['=', '==', '!=', '>', '>=', '<', '<='].includes(t.text)) expect = 'value';
      else if (expect === 'afterPath' && (word === 'in' || word === 'contains' || word === 'exists'))
        expect = word === 'in' ? 'inOpen' : word === 'contains' ? 'value' : 'afterValue';
      else if ((expect === 'afterPath' || expect === 'afterValue') && connective) expect = 'path';
      else if ((expect === 'afterPath' || expect === 'afterValue') && t.text === ')' && depth > 0) {
        expect = 'afterValue';
        depth--;
      } else if (expect === 'value' || expect === 'listValue') expect = t.kind === 'symbol' ? 'bad' : expect === 'value' ? 'afterValue' : 'listNext';
      else if (expect === 'inOpen' && t.text === '[') expect = 'listValue';
      else if (expect === 'listNext' && (t.text === ',' || t.text === ']')) expect = t.text === ',' ? 'listValue' : 'afterValue';
      else expect = 'bad';
      if (expect === 'bad') break;
    }
    let from = partial ? partial.at : at;
    let to = at;
    if (partial?.kind === 'word') while (to < text.length && isWordChar(text[to])) to++;
    let prefix = partial ? partial.text : '';
    // `items[0].q`: the word at the cursor goes on with the path before it.
    if (expect === 'afterPath' && partial && partial.at === prevEnd && (prefix.startsWith('.') || /[.[]$/.test(path))) {
      expect = 'path';
      from = pathAt;
      prefix = path + prefix;
    }
    const starts = (label: string) => label.toLowerCase().startsWith(prefix.toLowerCase());
    // Operators and keywords typed right after a word need a space before them.
    const spaced = (items: CompletionItem[]) =>
      items.filter((i) => starts(i.label)).map((i) => (from > 0 && !/[\s(]/.test(text[from - 1]) ? { ...i, insert: ` ${i.insert}` } : i));
    const field = fields.find((f) => f.path === path);
    const labels = kindLabels();
    const label = (kind: string | undefined) => (kind !== undefined && Object.hasOwn(labels, kind) ? labels[kind] : kind);
    let items: CompletionItem[] = [];
    if (expect === 'path') {
      const lower = prefix.toLowerCase();
      const first = fields.filter((f) => f.path.toLowerCase().startsWith(lower));
      const inside = lower ? fields.filter((f) => !f.path.toLowerCase().startsWith(lower) && f.path.toLowerCase().includes(lower)) : [];
      items = [...first, ...inside].slice(0, 200).map((f) => ({ label: f.path, insert: f.path, detail: label(f.kind) }));
      if (prefix && 'not'.startsWith(lower)) items.push({ label: 'not', insert: 'not ', detail: l10n.t('negates what follows') });
    } else if (expect === 'afterPath') items = spaced(operatorItems(field?.kind));
    else if (expect === 'value' || expect === 'listValue') {
      const bare = prefix.replace(/^["']/, '').toLowerCase();
      const values = field?.kind === 'bool' ? ['true', 'false'] : [...(field?.values ?? [])];
      items = values
        .filter((v) => v.toLowerCase().startsWith(bare))
        .map((v) => ({ label: hintLength(v) > 0 ? shortenPartyId(v) : v, insert: valueInsert(v), detail: label(field?.kind ?? 'text') }));
    } else if (expect === 'inOpen') items = [{ label: '[', insert: '[', detail: l10n.t('starts the list of values') }];
    else if (expect === 'listNext')
      items = [
        { label: ',', insert: ', ', detail: l10n.t('another value') },
        { label: ']', insert: ']', detail: l10n.t('ends the list') },
      ];
    else if (expect === 'afterValue')
      items = spaced([
        { label: 'and', insert: 'and ', detail: l10n.t('both must hold') },
        { label: 'or', insert: 'or ', detail: l10n.t('either may hold') },
      ]);
    if ((expect === 'afterPath' || expect === 'afterValue') && depth > 0 && !prefix)
      items.push({ label: ')', insert: ')', detail: l10n.t('closes the parenthesis') });
    return { from, to, items };
  } catch {
    return { from: at, to: at, items: [] };
  }
}
