// The checks the protocol modules share: a message crosses between the extension and a page, and
// whatever arrives is checked for the fields its type needs before it is used.

export type Fields = Record<string, unknown>;

export const isRecord = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isString = (v: unknown): v is string => typeof v === 'string';
export const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
export const optional = <T>(v: unknown, check: (x: unknown) => x is T): v is T | undefined => v === undefined || check(v);
export const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
export const isIndices = (v: unknown): v is number[] => Array.isArray(v) && v.every(isIndex);
/** A string of at most `max` characters. */
export const isText =
  (max: number) =>
  (v: unknown): v is string =>
    typeof v === 'string' && v.length <= max;

/** A button the page draws from the extension's message (its label as text). */
export interface PageButton {
  action: string;
  label: string;
}
export const isButton = (v: unknown): v is PageButton => isRecord(v) && isString(v.action) && isString(v.label);
