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
const NUMERIC_TEXT = /^([+-]?)(\d{1,38})(?:\.(\d{0,37}))?$/;

/**
 * Java's `Double.toString` (JDK 19 on: JavaScript's shortest digits), the text Canton's codec hands
 * on for a JSON number: plain from 10^-3 up to 10^7, else in exponent form (1.0E7).
 */
export function javaDoubleText(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  if (!Number.isFinite(v)) return String(v);
  const [mantissa, exponent] = Math.abs(v).toExponential().split('e');
  const e = Number(exponent);
  const digits = mantissa.replace('.', '');
  const sign = v < 0 ? '-' : '';
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7)
    return e >= 0 ? `${sign}${digits.slice(0, e + 1).padEnd(e + 1, '0')}.${digits.slice(e + 1) || '0'}` : `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${e}`;
}

/** A numeric text as daml-lf reads it (ValueValidator): its digits and decimals, trailing zeros dropped; undefined when refused. */
function numericDigits(text: string): { whole: string; decimals: string } | undefined {
  const m = NUMERIC_TEXT.exec(text);
  if (!m) return undefined;
  const whole = m[2].replace(/^0+(?=\d)/, '');
  const decimals = (m[3] ?? '').replace(/0+$/, '');
  // At most 38 digits in all (`Numeric.fromUnscaledBigDecimal`).
  const significant = `${whole}${decimals}`.replace(/^0+/, '');
  return significant.length <= 38 ? { whole, decimals } : undefined;
}

/**
 * The engine's fit of a numeric to `Numeric scale` (ValueTranslator, `Numeric.fromBigDecimal`):
 * more decimals than the scale, or more than 38 digits at that scale, is COMMAND_PREPROCESSING_FAILED.
 */
function scaleProblem(text: string, n: { whole: string; decimals: string }, scale: number): string | undefined {
  if (n.decimals.length > scale)
    return l10n.t('a Numeric {0} has at most {0} decimals; Canton refuses {1} (COMMAND_PREPROCESSING_FAILED "without loss of precision")', scale, quoted(text));
  const whole = n.whole.replace(/^0+/, '');
  if (whole.length > 38 - scale)
    return l10n.t(
      'a Numeric {0} has at most {1} digits before the point; Canton refuses {2} (COMMAND_PREPROCESSING_FAILED "Out-of-bounds")',
      scale,
      38 - scale,
      quoted(text),
    );
  return undefined;
}

const quoted = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
const internal = () => l10n.t("Canton's JSON layer answers it with an internal error (500) that does not name the field");

export type ScalarType = 'Text' | 'Party' | 'Int64' | 'Numeric';

/**
 * What Canton does not take as a `type` in `v`; undefined when it reads it (or cannot be judged
 * without the version). `scale`: a Numeric's (10 for a Decimal), when the type says it.
 */
export function scalarValueProblem(type: ScalarType, v: unknown, version: string | undefined, scale?: number): string | undefined {
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
        if (line === '3.4') {
          if (!Number.isInteger(v))
            return l10n.t('an Int64 is a whole number: Canton 3.4 reads {0} as {1}; write it as text, like "{1}"', String(v), String(Math.trunc(v)));
          // `longValue` of a number beyond 64 bits is the nearest end of the range, without a word.
          if (Math.abs(v) >= 2 ** 63)
            return l10n.t('an Int64 is within 64 bits: Canton 3.4 reads {0} as {1}', String(v), v > 0 ? '9223372036854775807' : '-9223372036854775808');
          return undefined;
        }
        if (line === '3.5+')
          return l10n.t('an Int64 is written as text on Canton {0}, like "{1}": for a JSON number {2}', version ?? '3.5', example, internal());
        return undefined;
      }
      if (line === '3.4') return l10n.t('an Int64 is written as text, like "10", not {0}: Canton 3.4 refuses it (INVALID_ARGUMENT)', jsonKind(v));
      return l10n.t('an Int64 is written as text, like "10", not {0}: {1}', jsonKind(v), internal());
    case 'Numeric': {
      if (typeof v === 'string') {
        const n = numericDigits(v);
        if (!n) return l10n.t('a Numeric is written like "10.5"; Canton refuses {0} (INVALID_ARGUMENT "Could not read Numeric string")', quoted(v));
        return scale === undefined ? undefined : scaleProblem(v, n, scale);
      }
      if (typeof v === 'number') {
        // The codec passes on the number's Java text (Double.toString), which is in exponent form
        // (1.0E7) from 10^7 on and under 10^-3: not a numeric string to the validator.
        const text = javaDoubleText(v);
        const n = numericDigits(text);
        if (!n)
          return l10n.t(
            'Canton reads the JSON number {0} in exponent form (like 1.0E7) and refuses it as a Numeric (INVALID_ARGUMENT): write it as text, like "{1}"',
            String(v),
            plain(v),
          );
        return scale === undefined ? undefined : scaleProblem(text, n, scale);
      }
      return l10n.t('a Numeric is written as text, like "10.5", or a JSON number, not {0}: Canton refuses it (INVALID_ARGUMENT)', jsonKind(v));
    }
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
