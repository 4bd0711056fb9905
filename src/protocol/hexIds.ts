// Hex ids (contract ids) carried to a page as the unpadded base64 of their bytes (two thirds of the
// characters, for tables of many thousand rows), read back here. The host encodes them with
// Buffer (acsBatchEncoder.ts, eventRowsData.ts). No `vscode` import.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The value of each base64 character by code (0 for any other, as a stray one has always read). */
const VALUE = new Uint8Array(128);
for (let i = 0; i < BASE64.length; i++) VALUE[BASE64.charCodeAt(i)] = i;
const HEX_PAIRS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const value = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c < 128 ? VALUE[c] : 0;
};

/** Hex ids as the encoder sent them (the base64 of their bytes, unpadded) back to hex. */
export function base64ToHex(text: string): string {
  let out = '';
  const whole = text.length - (text.length % 4);
  let i = 0;
  // Table lookups, not string searches: a table decodes an id for every row it paints.
  for (; i < whole; i += 4) {
    const bits = (value(text, i) << 18) | (value(text, i + 1) << 12) | (value(text, i + 2) << 6) | value(text, i + 3);
    out += HEX_PAIRS[bits >> 16] + HEX_PAIRS[(bits >> 8) & 255] + HEX_PAIRS[bits & 255];
  }
  const rest = text.length - whole;
  if (rest >= 2) {
    const bits = (value(text, i) << 18) | (value(text, i + 1) << 12) | (rest === 3 ? value(text, i + 2) << 6 : 0);
    out += HEX_PAIRS[bits >> 16] + (rest === 3 ? HEX_PAIRS[(bits >> 8) & 255] : '');
  } else if (rest === 1) {
    out += HEX_PAIRS[value(text, i) << 2];
  }
  return out;
}
