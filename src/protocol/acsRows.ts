// Active contracts as they travel to the table page: in batches of columns, the strings that repeat
// on every row (template ids, package names, lists of parties, the field names of arguments and the
// parties inside them) sent once each as words of the read's dictionary and then named by number.
// 100,000 rows are tens of megabytes however they go, and each message is serialized and copied
// several times on its way, so every byte and every object saved counts: in a typical argument, half
// of the text is party ids and a quarter its field names. The page reads a row's argument back only
// when the row is painted or searched (acsBatchEncoder.ts writes batches, acsTable.ts reads them).
// No `vscode` import.

/** The first fields of the create argument shown as columns. */
export const FIELD_COLUMNS = 3;
/** The argument's text (searched, and its fields read from it) is cut here. */
export const MAX_ARGUMENT_TEXT = 1500;
const MAX_TEXT = 120;

/** One batch of rows: every column holds one entry per row, in the order the node sent them. */
export interface AcsBatch {
  /** New words of the read's dictionary, numbered on from those of the batches before. */
  words: string[];
  /** Contract ids; when `hexIds`, every one is hex and sent as the base64 of its bytes (two thirds the length). */
  ids: string[];
  hexIds: boolean;
  createdAt: string[];
  /** Word numbers: the template id, the package name, the signatories and observers (joined by a newline). */
  templates: number[];
  packages: number[];
  signatories: number[];
  observers: number[];
  /**
   * Word numbers of the create argument's field names (a JSON list; '' when it is not a record, or
   * was cut): `args` then holds its values as a JSON list, else the whole argument's JSON.
   */
  shapes: number[];
  /** The argument's JSON, party ids as words (argumentValue reads it back), cut at MAX_ARGUMENT_TEXT. */
  args: string[];
  /** The rows (their position in the batch) that have a contract key, and the key's JSON as `args` has it (cut at MAX_ARGUMENT_TEXT). */
  keyRows: number[];
  keys: string[];
  /** The rows whose argument text was cut (the page cannot read their fields), and their fields. */
  fieldRows: number[];
  fields: [string, string][][];
}

/** A value as short text: strings as they are, records and lists as compact JSON, cut. */
export function valueText(v: unknown): string {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (v === null || v === undefined) s = '';
  else if (typeof v === 'object') s = JSON.stringify(v) ?? '';
  else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') s = v.toString();
  else s = typeof v;
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s;
}

/** The first fields of a create argument, as [name, text]; a signatory's own field is already a column. */
export function argumentFields(argument: unknown, signatories: readonly string[]): [string, string][] {
  const fields: [string, string][] = [];
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) return fields;
  for (const [k, v] of Object.entries(argument as Record<string, unknown>)) {
    if (fields.length >= FIELD_COLUMNS) break;
    if (typeof v === 'string' && signatories.includes(v)) continue;
    fields.push([k, valueText(v)]);
  }
  return fields;
}

/**
 * In a table read by interface, the key a row's argument holds its failed view's status under (the
 * row's argument is its view there): not a Daml field name (those have no spaces), so no view's own
 * field can be mistaken for it.
 */
export const VIEW_FAILED = 'view failed';

/** A row of a table read by interface: its view's fields under the columns, or its failure in the first. */
export function viewCells(view: unknown, columns: readonly string[]): { text: string; failed: boolean }[] {
  const shown = columns.slice(0, FIELD_COLUMNS);
  const record = typeof view === 'object' && view !== null && !Array.isArray(view) ? (view as Record<string, unknown>) : undefined;
  if (!record || Object.hasOwn(record, VIEW_FAILED))
    return shown.map((_, i) => ({ text: i === 0 ? valueText(record?.[VIEW_FAILED] ?? '') : '', failed: i === 0 }));
  return shown.map((name) => ({ text: Object.hasOwn(record, name) ? valueText(record[name]) : '', failed: false }));
}

// A party id inside an argument's JSON (a string `hint::1220…` of 64 hex digits) is sent as WORD
// and three digits naming it in the dictionary (acsBatchEncoder.ts). JSON text never holds a raw
// control character, so the mark cannot be mistaken for data.
const WORD = '\u0001';
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Words a text can name (three digits). */
export const MAX_REFS = 64 ** 3;
export const refOf = (word: number): string => WORD + DIGITS[word >> 12] + DIGITS[(word >> 6) & 63] + DIGITS[word & 63];
const wordOf = (ref: string) => (DIGITS.indexOf(ref[0]) << 12) | (DIGITS.indexOf(ref[1]) << 6) | DIGITS.indexOf(ref[2]);

/** A text as the batch has it, its party ids put back from the read's `words`. */
export function withParties(sent: string, words: readonly string[]): string {
  let at = sent.indexOf(WORD);
  if (at < 0) return sent;
  let out = '';
  let done = 0;
  for (; at >= 0; at = sent.indexOf(WORD, done)) {
    out += sent.slice(done, at) + JSON.stringify(words[wordOf(sent.slice(at + 1, at + 4))] ?? '');
    done = at + 4;
  }
  return out + sent.slice(done);
}

/** A contract key as the table shows it, from the batch's text. */
export function keyText(sent: string, words: readonly string[]): string {
  const text = withParties(sent, words);
  try {
    return valueText(JSON.parse(text));
  } catch {
    return valueText(text);
  }
}

/** The create argument of a row as the node sent it (undefined: cut, not JSON any more). */
export function argumentValue(shape: readonly string[] | undefined, sent: string, words: readonly string[]): unknown {
  try {
    const value: unknown = JSON.parse(withParties(sent, words));
    if (!shape) return value;
    const values = Array.isArray(value) ? value : [];
    // Object.fromEntries makes own properties only, whatever the names.
    return Object.fromEntries(shape.map((name, i) => [name, values[i]]));
  } catch {
    return undefined;
  }
}

export { base64ToHex } from './hexIds';
