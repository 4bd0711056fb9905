// The JSON a contract is compared with (Compare with JSON): parsed, or where and why it is not
// JSON, as a line and column a person can go to; and the create argument it stands for. No
// `vscode` import.
import * as l10n from '../l10n/l10n';

export type ParsedJson = { ok: true; value: unknown } | { ok: false; line: number; column: number; offset: number; reason: string };

/** `text` parsed; else the first place it stops being JSON (lines and columns from 1, in UTF-16 units as editors count). */
export function parseJsonText(text: string): ParsedJson {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (e) {
    // The engine's message has no position on every runtime: the scanner finds it.
    const found = syntaxError(body) ?? { offset: body.length, reason: (e as Error).message };
    const offset = found.offset + (body === text ? 0 : 1);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    return { ok: false, line, column: offset - (before.lastIndexOf('\n') + 1) + 1, offset, reason: found.reason };
  }
}

/** What is compared: the value itself, or the create argument of a created event pasted whole (as Open as JSON shows one). */
export function expectedArgument(value: unknown, contractArgument: unknown): unknown {
  const has = (v: unknown, k: string): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, k);
  // A template with a field of that name is compared as it is.
  if (has(contractArgument, 'createArgument') || has(contractArgument, 'createdEvent')) return value;
  if (has(value, 'createdEvent') && has(value.createdEvent, 'createArgument')) return value.createdEvent.createArgument;
  if (has(value, 'createArgument') && has(value, 'contractId')) return value.createArgument;
  return value;
}

type Expecting = 'value' | 'valueOrEnd' | 'key' | 'keyOrEnd' | 'colon' | 'commaOrEnd' | 'done';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first offset at which `text` is not JSON, and what was expected there; undefined if it is.
 * Iterative (a stack of open containers), so deep nesting cannot exhaust the call stack.
 */
export function syntaxError(text: string): { offset: number; reason: string } | undefined {
  const stack: ('array' | 'object')[] = [];
  let state: Expecting = 'value';
  let i = 0;
  const fail = (reason: string) => ({ offset: i, reason });
  const afterValue = (): Expecting => (stack.length > 0 ? 'commaOrEnd' : 'done');
  /** Past a string at i; a reason if it is not one. */
  const string = (): string | undefined => {
    for (i++; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return l10n.t('a control character must be escaped in a string');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return l10n.t('\\u must be followed by 4 hexadecimal digits');
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else return l10n.t('not an escape JSON has');
      }
    }
    return l10n.t('the string is not closed');
  };
  for (;;) {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
    if (state === 'done') return i < text.length ? fail(l10n.t('more text after the value')) : undefined;
    if (i >= text.length) return fail(l10n.t('the text ends before the value does'));
    const c = text[i];
    const top = stack.at(-1);
    if (state === 'colon') {
      if (c !== ':') return fail(l10n.t('expected ":" after the property name'));
      i++;
      state = 'value';
    } else if (state === 'commaOrEnd') {
      const close = top === 'array' ? ']' : '}';
      if (c === ',') {
        i++;
        state = top === 'array' ? 'value' : 'key';
      } else if (c === close) {
        i++;
        stack.pop();
        state = afterValue();
      } else return fail(top === 'array' ? l10n.t('expected "," or "]"') : l10n.t('expected "," or "}"'));
    } else if (state === 'key' || state === 'keyOrEnd') {
      if (state === 'keyOrEnd' && c === '}') {
        i++;
        stack.pop();
        state = afterValue();
      } else if (c === '"') {
        const bad = string();
        if (bad) return fail(bad);
        state = 'colon';
      } else return fail(l10n.t('expected a property name in double quotes'));
    } else if (state === 'valueOrEnd' && c === ']') {
      i++;
      stack.pop();
      state = afterValue();
    } else if (c === '{' || c === '[') {
      i++;
      stack.push(c === '{' ? 'object' : 'array');
      state = c === '{' ? 'keyOrEnd' : 'valueOrEnd';
    } else if (c === '"') {
      const bad = string();
      if (bad) return fail(bad);
      state = afterValue();
    } else {
      NUMBER.lastIndex = i;
      const literal = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      const n = literal ? undefined : NUMBER.exec(text);
      if (!literal && !n) return fail(l10n.t('expected a value (an object, a list, a string in double quotes, a number, true, false or null)'));
      i += literal ? literal.length : n![0].length;
      state = afterValue();
    }
  }
}
