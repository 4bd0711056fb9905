// The JSON layer's transcoding of a record's field values by their Daml type (the transcode
// library's JsonCodec, then the Ledger API's ValueValidator), for the field types the demo model
// has: how each wrong JSON value is refused, as Canton's code leads. After the missing and
// unexpected fields, in the record's field order. No `vscode` import.
import { internalError, invalidArgument, type ErrorReply } from './cantonErrorBodies';
import type { FieldType, Fields } from './commandModel';
import type { FakeVersion } from './ledgerQueries';
import { atScale, DECIMAL_SCALE, numericString, numericText, precision, validatedNumeric } from './numericValues';

export { javaDoubleText } from './numericValues';

const INT64 = /^[+-]?\d+$/;
/** How ujson prints a value in an exception's message (`$v`): its JSON. */
const printed = (v: unknown) => JSON.stringify(v).slice(0, 200);

/** The codec's refusal (`codec`), or the Ledger API validator's of what the codec let through (`validator`). */
function valueProblem(type: FieldType, v: unknown, version: FakeVersion, stage: 'codec' | 'validator'): ErrorReply | undefined {
  if (type === '[Party]' || type === '[Text]') {
    // `v.arr` of something not an array: ujson's InvalidData, which no case of the JSON layer's handler takes.
    if (!Array.isArray(v)) return internalError();
    for (const x of v) {
      const bad = valueProblem(type === '[Party]' ? 'Party' : 'Text', x, version, stage);
      if (bad) return bad;
    }
    return undefined;
  }
  if (stage === 'validator') {
    // The codec passes a numeric's text on (a JSON number's as Java prints the Double); ValueValidator reads it.
    const text = type === 'Decimal' ? numericText(v) : undefined;
    return text !== undefined && !validatedNumeric(text) ? invalidArgument(`Could not read Numeric string "${text.slice(0, 100)}"`) : undefined;
  }
  switch (type) {
    case 'Party':
    case 'Text':
      // `v.str` of a number, boolean, object or array: ujson's InvalidData, a 500.
      return typeof v === 'string' ? undefined : internalError();
    case 'Int':
      if (typeof v === 'string') {
        // `value.toLong`: a NumberFormatException is an IllegalArgumentException, the JSON layer's INVALID_ARGUMENT.
        const n = INT64.test(v) ? BigInt(v) : undefined;
        return n !== undefined && n >= -(2n ** 63n) && n < 2n ** 63n ? undefined : invalidArgument(`For input string: "${v.slice(0, 100)}"`);
      }
      // 3.4 reads a JSON number too (`longValue`) and names anything else; 3.5 on reads only a string.
      if (version === '3.4') return typeof v === 'number' ? undefined : invalidArgument(`${printed(v)} is not a valid Int64 value`);
      return internalError();
    case 'Decimal':
      return typeof v === 'number' || typeof v === 'string' ? undefined : invalidArgument(`${printed(v)} is not a valid numeric value`);
  }
  return undefined;
}

/**
 * The first field whose value its type refuses, as the JSON layer answers it: the codec transcodes
 * the whole record first, the validator reads the result after; undefined when all are well typed.
 */
export function fieldTypeProblem(fields: Fields, value: unknown, version: FakeVersion): ErrorReply | undefined {
  const record = (value ?? {}) as Record<string, unknown>;
  for (const stage of ['codec', 'validator'] as const)
    for (const [name, type] of Object.entries(fields)) {
      const v = record[name];
      if (v === undefined || v === null) continue;
      const bad = valueProblem(type, v, version, stage);
      if (bad) return bad;
    }
  return undefined;
}

/**
 * The engine's preprocessing of a numeric for its type `Numeric scale` (ValueTranslator:
 * `Numeric.fromBigDecimal`): more decimals than the scale, or more than 38 digits at that scale,
 * is a type mismatch; its message, or undefined when it fits.
 */
export function numericScaleMismatch(v: unknown, scale = DECIMAL_SCALE): string | undefined {
  const text = numericText(v);
  const n = text === undefined ? undefined : validatedNumeric(text);
  if (!n) return undefined;
  if (n.scale > scale) return `Cannot represent ${numericString(n)} as (Numeric ${scale}) without loss of precision`;
  const scaled = { unscaled: n.unscaled * 10n ** BigInt(scale - n.scale), scale };
  return precision(scaled.unscaled) > 38 ? `Out-of-bounds (Numeric ${scale}) ${numericString(scaled)}` : undefined;
}

/** The first `Decimal` field of a record the engine's preprocessing refuses (its message), in the fields' order. */
export function recordScaleMismatch(fields: Fields, value: unknown): string | undefined {
  const record = (value ?? {}) as Record<string, unknown>;
  for (const [name, type] of Object.entries(fields)) {
    const bad = type === 'Decimal' ? numericScaleMismatch(record[name]) : undefined;
    if (bad) return bad;
  }
  return undefined;
}

/**
 * A record as the node gives it back in its events: the engine holds a `Decimal` at its scale
 * (`Numeric 10`) and the JSON codec writes it plainly with every decimal ("999.99" comes back
 * "999.9900000000"); an Int64 is written as text (3.4's JSON number, its fraction dropped by
 * `longValue`). Only after the checks above passed; fields of other types as they came.
 */
export function storedRecord<T>(fields: Fields, value: T): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, type] of Object.entries(fields)) {
    const v = out[name];
    if (type === 'Int' && typeof v === 'number') out[name] = javaLong(v).toString();
    else if (type === 'Int' && typeof v === 'string' && INT64.test(v)) out[name] = BigInt(v).toString();
    else if (type === 'Decimal') {
      const n = atScale(v);
      if (n !== undefined) out[name] = numericString({ unscaled: n, scale: DECIMAL_SCALE });
    }
  }
  return out as T;
}

/** 3.4's `longValue` of a JSON number: Scala's Double to Long, the fraction dropped, clamped to 64 bits, NaN as 0. */
function javaLong(v: number): bigint {
  if (Number.isNaN(v)) return 0n;
  const max = 2n ** 63n - 1n;
  if (v >= 2 ** 63) return max;
  if (v <= -(2 ** 63)) return -max - 1n;
  return BigInt(Math.trunc(v));
}
