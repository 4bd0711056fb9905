// Daml values as the JSON API writes them: Decimal and Numeric arrive as strings, and compare
// exactly, not as floats or text. No `vscode` import.

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/** Compares two decimals exactly (no float rounding): -1, 0, 1. */
export function compareDecimals(a: string, b: string): number {
  const norm = (s: string) => {
    const neg = s.startsWith('-');
    const [int, frac = ''] = s.replace(/^[+-]/, '').split('.');
    return { neg, int: int.replace(/^0+(?=\d)/, ''), frac: frac.replace(/0+$/, '') };
  };
  const x = norm(a);
  const y = norm(b);
  const zero = (n: typeof x) => /^0*$/.test(n.int) && n.frac === '';
  if (zero(x)) x.neg = false;
  if (zero(y)) y.neg = false;
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  const sign = x.neg ? -1 : 1;
  if (x.int.length !== y.int.length) return (x.int.length < y.int.length ? -1 : 1) * sign;
  if (x.int !== y.int) return (x.int < y.int ? -1 : 1) * sign;
  const len = Math.max(x.frac.length, y.frac.length);
  const fx = x.frac.padEnd(len, '0');
  const fy = y.frac.padEnd(len, '0');
  return fx === fy ? 0 : (fx < fy ? -1 : 1) * sign;
}

/** A number or numeric text as a plain decimal string; undefined for anything else (exponents too). */
export function asDecimal(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v).includes('e') ? undefined : String(v);
  if (typeof v === 'string' && DECIMAL.test(v.trim())) return v.trim();
  return undefined;
}
