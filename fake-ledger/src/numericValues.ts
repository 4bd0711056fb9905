// A Daml numeric as Canton reads and writes it: ValueValidator's pattern and 38 digits, a JSON
// number as Java's Double.toString writes it, daml-lf's Numeric at a scale and its text. Shared by
// the JSON layer's checks (argumentTypes.ts) and the model's arithmetic (commandModel.ts). No `vscode` import.

/** ValueValidator's `validNumericPattern`: an optional sign, 1 to 38 digits, a point and up to 37 more. */
const NUMERIC = /^([+-]?)(\d{1,38})(?:\.(\d{0,37}))?$/;

/** A Daml `Decimal` is `Numeric 10`. */
export const DECIMAL_SCALE = 10;

/**
 * The text the codec hands on for a numeric (`num.value.toString` of ujson's `Num`, a Double, or
 * the string itself); undefined for what the codec refused.
 */
export function numericText(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? javaDoubleText(v) : undefined;
}

/**
 * Java's `Double.toString` (JDK 19 on: the shortest digits that give the double back, which
 * are JavaScript's too): plain with at least one decimal from 10^-3 up to 10^7, else
 * "computerized scientific notation" (1.0E7, 1.5E-4).
 */
export function javaDoubleText(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  const [mantissa, exponent] = Math.abs(v).toExponential().split('e');
  const e = Number(exponent);
  const digits = mantissa.replace('.', '');
  const sign = v < 0 ? '-' : '';
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7)
    return e >= 0 ? `${sign}${digits.slice(0, e + 1).padEnd(e + 1, '0')}.${digits.slice(e + 1) || '0'}` : `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${e}`;
}

/** A Numeric as daml-lf holds it: its digits without the point, and how many of them are decimals. */
export interface NumericValue {
  unscaled: bigint;
  scale: number;
}

/** Daml-lf's `Numeric.toString`: the plain digits, a bare point after a scale of 0. */
export function numericString({ unscaled, scale }: NumericValue): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const sign = unscaled < 0n ? '-' : '';
  return scale === 0 ? `${sign}${digits}.` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

export const precision = (n: bigint) => (n < 0n ? -n : n).toString().length;

/**
 * ValueValidator.validateNumeric: the pattern, then `Numeric.fromUnscaledBigDecimal` (the least
 * scale that keeps every digit, at most 38 digits in all); undefined for "Could not read Numeric string".
 */
export function validatedNumeric(text: string): NumericValue | undefined {
  const m = NUMERIC.exec(text);
  if (!m) return undefined;
  const decimals = (m[3] ?? '').replace(/0+$/, '');
  const unscaled = BigInt(`${m[1] === '-' ? '-' : ''}${m[2]}${decimals}`);
  return precision(unscaled) <= 38 ? { unscaled, scale: decimals.length } : undefined;
}

/** A numeric value's digits at the scale (`Numeric 10`): undefined for one the checks above refuse or that does not fit. */
export function atScale(v: unknown, scale = DECIMAL_SCALE): bigint | undefined {
  const text = numericText(v);
  const n = text === undefined ? undefined : validatedNumeric(text);
  return n && n.scale <= scale ? n.unscaled * 10n ** BigInt(scale - n.scale) : undefined;
}

/** Digits at `Numeric 10` written as daml-lf writes them, every decimal shown. */
export const decimalAtScale = (unscaled: bigint) => numericString({ unscaled, scale: DECIMAL_SCALE });
