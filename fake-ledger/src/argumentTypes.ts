// The JSON layer's transcoding of a record's field values by their Daml type (the transcode
// library's JsonCodec, then the Ledger API's ValueValidator), for the field types the demo model
// has: how each wrong JSON value is refused, as Canton's code leads. After the missing and
// unexpected fields, in the record's field order. No `vscode` import.
import { internalError, invalidArgument, type ErrorReply } from './cantonErrorBodies';
import type { FieldType, Fields } from './commandModel';
import type { FakeVersion } from './ledgerQueries';

const INT64 = /^[+-]?\d+$/;
const NUMERIC = /^-?\d+(\.\d+)?$/;
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
  if (stage === 'validator')
    // The codec passes a numeric's text on; ValueValidator.validateValue reads it.
    return type === 'Decimal' && typeof v === 'string' && !NUMERIC.test(v) ? invalidArgument(`Could not read Numeric string "${v.slice(0, 100)}"`) : undefined;
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
