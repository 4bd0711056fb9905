// How Canton's JSON layer reads a create or choice argument's value of a Daml builtin type, per
// version: the transcode library's JsonCodec (`text`, `party`, `int64`, `numeric`, `list`,
// `record`, `bool`), then the Ledger API's ValueValidator (a numeric's text). What it refuses with a
// 400 that names the value, and what fails inside ujson and comes back as a 500
// LEDGER_API_INTERNAL_ERROR that names nothing (docs/fake-node.md cites the lines). Pure.
import * as l10n from '../l10n/l10n';

/** Up to 3.4 an Int64 may be a JSON number; from 3.5 on only text. Undefined: the version is not known. */
export type CodecLine = '3.4' | '3.5+';

export function codecLineOf(version: string | undefined): CodecLine | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (!m) return undefined;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (major === 3 && minor === 4) return '3.4';
  return major > 3 || (major === 3 && minor >= 5) ? '3.5+' : undefined;
}

/** What a JSON value is, in words. */
export function jsonKind(v: unknown): string {
  if (v === null) return l10n.t('null');
  if (Array.isArray(v)) return l10n.t('a list');
  switch (typeof v) {
    case 'string':
      return l10n.t('text');
    case 'number':
      return l10n.t('the number {0}', String(v));
    case 'boolean':
      return l10n.t('{0} (a boolean)', String(v));
    default:
      return l10n.t('an object');
  }
}

/** Java's `Long.parseLong` (the codec's `toLong`): an optional sign and digits, within 64 bits. */
function isInt64Text(s: string): boolean {
  if (!/^[+-]?\d+$/.test(s)) return false;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

/** ValueValidator's `validNumericPattern`: at most 38 digits before the point and 37 after. */
const NUMERIC_TEXT = /^[+-]?\d{1,38}(\.\d{0,37})?$/;

const quoted = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
const internal = () => l10n.t("Canton's JSON layer answers it with an internal error (500) that does not name the field");

export type ScalarType = 'Text' | 'Party' | 'Int64' | 'Numeric';

/** What Canton does not take as a `type` in `v`; undefined when it reads it (or cannot be judged without the version). */
export function scalarValueProblem(type: ScalarType, v: unknown, version: string | undefined): string | undefined {
  const line = codecLineOf(version);
  switch (type) {
    case 'Text':
      // `v.str` of anything but a JSON string: ujson's InvalidData, which the JSON layer's handler does not take.
      return typeof v === 'string' ? undefined : l10n.t('a Text is written as a JSON string, not {0}: {1}', jsonKind(v), internal());
    case 'Party':
      return typeof v === 'string' ? undefined : l10n.t('a Party is written as a JSON string (its party id), not {0}: {1}', jsonKind(v), internal());
    case 'Int64':
      if (typeof v === 'string')
        return isInt64Text(v)
          ? undefined
          : l10n.t('an Int64 is a whole number written as text, like "10"; Canton refuses {0} (INVALID_ARGUMENT "For input string")', quoted(v));
      if (typeof v === 'number') {
        const example = Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? String(v) : '10';
        // 3.4 takes `longValue` of the number: it drops a fraction without a word.
        if (line === '3.4')
          return Number.isInteger(v)
            ? undefined
            : l10n.t('an Int64 is a whole number: Canton 3.4 reads {0} as {1}; write it as text, like "{1}"', String(v), String(Math.trunc(v)));
        if (line === '3.5+')
          return l10n.t('an Int64 is written as text on Canton {0}, like "{1}": for a JSON number {2}', version ?? '3.5', example, internal());
        return undefined;
      }
      if (line === '3.4') return l10n.t('an Int64 is written as text, like "10", not {0}: Canton 3.4 refuses it (INVALID_ARGUMENT)', jsonKind(v));
      return l10n.t('an Int64 is written as text, like "10", not {0}: {1}', jsonKind(v), internal());
    case 'Numeric':
      if (typeof v === 'string')
        return NUMERIC_TEXT.test(v)
          ? undefined
          : l10n.t('a Numeric is written like "10.5"; Canton refuses {0} (INVALID_ARGUMENT "Could not read Numeric string")', quoted(v));
      if (typeof v === 'number')
        // The codec passes on the number's Java text (Double.toString), which is in exponent form
        // (1.0E7) from 10^7 on and under 10^-3: not a numeric string to the validator.
        return v !== 0 && (Math.abs(v) >= 1e7 || Math.abs(v) < 1e-3)
          ? l10n.t(
              'Canton reads the JSON number {0} in exponent form (like 1.0E7) and refuses it as a Numeric (INVALID_ARGUMENT): write it as text, like "{1}"',
              String(v),
              plain(v),
            )
          : undefined;
      return l10n.t('a Numeric is written as text, like "10.5", or a JSON number, not {0}: Canton refuses it (INVALID_ARGUMENT)', jsonKind(v));
  }
}

/** A number as decimal text without an exponent. */
function plain(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return `${BigInt(v)}.0`;
  const fixed = v.toFixed(20).replace(/0+$/, '');
  return /\.$/.test(fixed) ? `${fixed}0` : fixed;
}

/** A Bool's value that is no JSON boolean (`v.bool`): a 500. */
export const boolProblem = (v: unknown) => l10n.t('a Bool is written as true or false, not {0}: {1}', jsonKind(v), internal());

/** A list's value that is no JSON array (`v.arr`): a 500. */
export const listProblem = (v: unknown) => l10n.t('a list is written as a JSON array, not {0}: {1}', jsonKind(v), internal());

/** A record's value that is no JSON object (`v.obj`): a 500. */
export const recordProblem = (name: string, v: unknown) =>
  l10n.t('a {0} record is written as a JSON object of its fields, not {1}: {2}', name, jsonKind(v), internal());
