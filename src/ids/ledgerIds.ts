// Recognises Canton ledger ids in any text. Formats: NOTES.md section c (Value.scala,
// CantonContractIdVersion.scala, Tags.scala, Identifier.scala).

export type LedgerIdKind = 'contract' | 'update' | 'party';

export interface LedgerIdMatch {
  kind: LedgerIdKind;
  /** The id exactly as it stands in the text. */
  text: string;
  /** Offsets into the scanned text: [start, end). */
  start: number;
  end: number;
}

export type TokenClassification =
  | { kind: LedgerIdKind; format: string }
  | { kind: 'none'; reason: string };

const HEX64 = '[0-9a-f]{64}';
const CANTON_V1_CONTRACT = `00${HEX64}ca1[0-2]1220${HEX64}`;
// Canton V2 contract id: 01 + 12-byte local part + 1-byte version + 32-byte suffix.
const CANTON_V2_CONTRACT = `01[0-9a-f]{24}[0-9a-f]{2}${HEX64}`;
const UPDATE_ID = `1220${HEX64}`;
const PARTY_HINT_IN_TEXT = '[A-Za-z0-9_-]+';

const cantonV1Contract = new RegExp(`^${CANTON_V1_CONTRACT}$`);
const genericV1Contract = /^00[0-9a-f]{64}(?:[0-9a-f]{2}){0,94}$/;
const genericV2Contract = /^01[0-9a-f]{24}(?:[0-9a-f]{2}){0,33}$/;
const updateId = new RegExp(`^${UPDATE_ID}$`);
const partyId = /^[A-Za-z0-9_\- ]+(?::[A-Za-z0-9_\- ]+)*::1220[0-9a-f]{64}$/;

// In free text only the exact Canton shapes count, bounded by characters that cannot continue
// an id, so a long hash or a hex blob is never taken for an id.
const idsInText = new RegExp(
  `(?<![0-9A-Za-z_-])(?:(${PARTY_HINT_IN_TEXT}::${UPDATE_ID})|(${CANTON_V1_CONTRACT}|${CANTON_V2_CONTRACT})|(?<!::)(${UPDATE_ID}))(?![0-9A-Za-z_])`,
  'g',
);

/** Every contract, update and party id in `text`, in order. Stops after `limit` matches. */
export function findLedgerIds(text: string, limit = Number.POSITIVE_INFINITY): LedgerIdMatch[] {
  const found: LedgerIdMatch[] = [];
  idsInText.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (found.length < limit && (m = idsInText.exec(text)) !== null) {
    const kind: LedgerIdKind = m[1] ? 'party' : m[2] ? 'contract' : 'update';
    found.push({ kind, text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return found;
}

/** The id that covers `offset` in `text`, if any (for a cursor or a hover). */
export function ledgerIdAt(text: string, offset: number): LedgerIdMatch | undefined {
  // Ids are at most a few hundred characters: look only at a window around the offset.
  const windowStart = Math.max(0, offset - 512);
  const windowText = text.slice(windowStart, offset + 512);
  for (const m of findLedgerIds(windowText)) {
    const start = m.start + windowStart;
    const end = m.end + windowStart;
    if (start <= offset && offset <= end) return { ...m, start, end };
  }
  return undefined;
}

/** Classifies one token (for example a selection or an input box value) and says why a near-miss is not an id. */
export function classifyLedgerId(raw: string): TokenClassification {
  const token = raw.trim().replace(/^["'`]|["'`]$/g, '');
  if (token === '') return { kind: 'none', reason: 'The text is empty.' };
  if (cantonV1Contract.test(token)) return { kind: 'contract', format: 'Canton contract id (V1)' };
  if (genericV2Contract.test(token)) return { kind: 'contract', format: 'contract id (V2)' };
  if (genericV1Contract.test(token) && token.length > 66) return { kind: 'contract', format: 'contract id (V1, non-Canton suffix)' };
  if (updateId.test(token)) return { kind: 'update', format: 'update id' };
  if (partyId.test(token)) return { kind: 'party', format: 'party id' };
  return { kind: 'none', reason: nearMissReason(token) };
}

function nearMissReason(token: string): string {
  if (token.includes('::')) {
    const fingerprint = token.slice(token.lastIndexOf('::') + 2);
    const hint = token.slice(0, token.lastIndexOf('::'));
    if (!/^[A-Za-z0-9_\- :]+$/.test(hint)) return `The party hint "${preview(hint)}" has characters a party id cannot hold (letters, digits, "-", "_", " " and ":" only).`;
    if (hint.includes('::')) return 'A party hint cannot contain "::".';
    return `Not a party id: ${hexProblem(fingerprint, 'fingerprint', 68, '1220')}`;
  }
  if (/[A-F]/.test(token) && /^[0-9a-fA-F]+$/.test(token)) {
    return 'Ledger ids are lower-case hex; this one has upper-case letters.';
  }
  const stray = /[^0-9a-f]/.exec(token);
  if (stray) {
    return `Unexpected character "${stray[0]}" at position ${stray.index + 1}: contract and update ids are lower-case hex only.`;
  }
  if (token.startsWith('1220')) return `Wrong length: ${token.length} characters; an update id has 68 (1220 + 64 hex).`;
  if (token.startsWith('00')) {
    if (token.length === 66) return 'This is a contract id without its suffix (a relative id from a prepared transaction); the ledger knows it only with its Canton suffix.';
    return `Wrong length: ${token.length} characters; a Canton contract id has 138 (00 + 64 hex + ca1x + 1220 + 64 hex).`;
  }
  if (token.startsWith('01')) return `Wrong length: ${token.length} characters; a V2 contract id has 26 to 92.`;
  return 'Not a ledger id: contract ids start with 00 or 01, update ids with 1220, party ids look like name::1220….';
}

function hexProblem(value: string, what: string, length: number, prefix: string): string {
  if (/[A-F]/.test(value)) return `the ${what} has upper-case hex; it must be lower case.`;
  const stray = /[^0-9a-f]/.exec(value);
  if (stray) return `the ${what} has an unexpected character "${stray[0]}".`;
  if (!value.startsWith(prefix)) return `the ${what} must start with ${prefix}.`;
  return `the ${what} has ${value.length} characters instead of ${length}.`;
}

function preview(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** `Alice::1220ab…` for labels; show the full id on hover and copy. */
export function shortenPartyId(party: string): string {
  const i = party.lastIndexOf('::');
  return i < 0 || party.length - i < 10 ? party : `${party.slice(0, i)}::${party.slice(i + 2, i + 8)}…`;
}
