// Recognises Canton ledger ids in any text. Formats: docs/ledger-api.md#ids (Value.scala,
// CantonContractIdVersion.scala, Tags.scala, Identifier.scala).
import * as l10n from '../l10n/l10n';

export type LedgerIdKind = 'contract' | 'update' | 'party';

export interface LedgerIdMatch {
  kind: LedgerIdKind;
  /** The id exactly as it stands in the text. */
  text: string;
  /** Offsets into the scanned text: [start, end). */
  start: number;
  end: number;
}

export type TokenClassification = { kind: LedgerIdKind; format: string } | { kind: 'none'; reason: string };

const HEX64 = '[0-9a-f]{64}';
const CANTON_V1_CONTRACT = `00${HEX64}ca1[0-2]1220${HEX64}`;
const UPDATE_ID = `1220${HEX64}`;

const cantonV1Contract = new RegExp(`^${CANTON_V1_CONTRACT}$`);
const genericV1Contract = /^00[0-9a-f]{64}(?:[0-9a-f]{2}){0,94}$/;
const genericV2Contract = /^01[0-9a-f]{24}(?:[0-9a-f]{2}){0,33}$/;
const updateId = new RegExp(`^${UPDATE_ID}$`);
const partyId = /^[A-Za-z0-9_\- ]+(?::[A-Za-z0-9_\- ]+)*::1220[0-9a-f]{64}$/;

// In free text only the exact Canton shapes count, bounded by characters that cannot continue an
// id, so a long hash or a hex blob is never taken for an id. Every Canton id holds an anchor that
// a plain regex finds fast: "1220" + 64 hex (update ids, the suffix of V1 contract ids, the
// fingerprint of party ids) or a whole V2 contract id; the rest is checked around each anchor.
// V2 contract ids (not what Canton 3.4-3.6 issue by default) cost a second alternative on every
// byte, so bulk scans of whole files leave them out; the cursor and hovers look for them.
const anchors = /1220[0-9a-f]{64}/g;
const anchorsWithV2 = /1220[0-9a-f]{64}|01[0-9a-f]{90}/g;

export interface FindOptions {
  /** Also find V2 contract ids (`01…`, 92 hex). */
  v2ContractIds?: boolean;
}
// Character classes by code (this runs for every anchor of a 10 MB log).
const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** Could continue an id backwards: letters, digits, "_" and "-". NaN (before the text) is not. */
const isIdChar = (c: number) => isAlnum(c) || c === 95 || c === 45;
const isHintChar = isIdChar;
/** Could continue an id forwards: letters, digits and "_". */
const continuesId = (c: number) => isAlnum(c) || c === 95;
const COLON = 58;

/** Every contract, update and party id in `text`, in order. Stops after `limit` matches. */
export function findLedgerIds(text: string, limit = Number.POSITIVE_INFINITY, options: FindOptions = {}): LedgerIdMatches {
  count = 0;
  const anchorRe = options.v2ContractIds ? anchorsWithV2 : anchors;
  anchorRe.lastIndex = 0;
  // Without V2 every anchor is 68 characters: test() finds it without building a match array.
  while (count < limit) {
    let at: number;
    let end: number;
    if (options.v2ContractIds) {
      const m = anchorRe.exec(text);
      if (m === null) break;
      at = m.index;
      end = at + m[0].length;
    } else {
      if (!anchorRe.test(text)) break;
      end = anchorRe.lastIndex;
      at = end - 68;
    }
    const idEnd = continuesId(text.charCodeAt(end)) ? -1 : idAround(text, at, end);
    // Not an id here: an id may still start inside this stretch (overlapping anchors).
    anchorRe.lastIndex = idEnd < 0 ? at + 1 : idEnd;
  }
  const found = new LedgerIdMatches(text, spans.slice(0, 2 * count), kinds.slice(0, count));
  // A scan of a huge text does not keep its scratch space.
  if (spans.length > 1 << 20) [spans, kinds] = [new Int32Array(2048), new Uint8Array(1024)];
  return found;
}

/** Lower-case hex digit, by code. */
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102);

/** `00` + 64 hex + `ca1[0-2]` in text[head, at): the part of a V1 contract id before its suffix. */
function isV1ContractHead(text: string, head: number, at: number): boolean {
  // "ca1x" right before the anchor first: most anchors are update ids. Read by code, not by a
  // regex: a regex call costs more than the 70 characters it reads.
  if (text.charCodeAt(at - 4) !== 99 || text.charCodeAt(at - 3) !== 97 || text.charCodeAt(at - 2) !== 49) return false;
  const x = text.charCodeAt(at - 1);
  if (x < 48 || x > 50 || text.charCodeAt(head) !== 48 || text.charCodeAt(head + 1) !== 48) return false;
  for (let i = head + 2; i < at - 4; i++) if (!isHex(text.charCodeAt(i))) return false;
  return true;
}

const KINDS: readonly LedgerIdKind[] = ['contract', 'update', 'party'];
const CONTRACT = 0;
const UPDATE = 1;
const PARTY = 2;

// A scan writes its matches here (start and end, and kind), then copies them out at their number:
// one scan of a large log allocates its arrays once, and no object per id.
let spans = new Int32Array(2048);
let kinds = new Uint8Array(1024);
let count = 0;

function add(kind: number, start: number, end: number): number {
  if (count === kinds.length) {
    const moreSpans = new Int32Array(spans.length * 2);
    moreSpans.set(spans);
    const moreKinds = new Uint8Array(kinds.length * 2);
    moreKinds.set(kinds);
    [spans, kinds] = [moreSpans, moreKinds];
  }
  spans[2 * count] = start;
  spans[2 * count + 1] = end;
  kinds[count++] = kind;
  return end;
}

/**
 * The ids one scan found, in order. A scan of a large log finds tens of thousands: they are kept
 * as offsets and kinds, and a match object (with its id cut out of the text) is made only for a
 * match that is read.
 */
export class LedgerIdMatches implements Iterable<LedgerIdMatch> {
  readonly length: number;

  constructor(
    private readonly source: string,
    /** Start and end of each match, in turn. */
    private readonly spans: Int32Array,
    private readonly kinds: Uint8Array,
  ) {
    this.length = kinds.length;
  }

  kindAt(i: number): LedgerIdKind {
    return KINDS[this.kinds[i]];
  }
  startAt(i: number): number {
    return this.spans[2 * i];
  }
  endAt(i: number): number {
    return this.spans[2 * i + 1];
  }

  /** The i-th match (negative: from the end), or undefined past the ends. */
  at(i: number): LedgerIdMatch | undefined {
    const k = i < 0 ? this.length + i : i;
    if (k < 0 || k >= this.length) return undefined;
    const start = this.spans[2 * k];
    const end = this.spans[2 * k + 1];
    return { kind: KINDS[this.kinds[k]], text: this.source.slice(start, end), start, end };
  }

  map<T>(fn: (m: LedgerIdMatch, i: number) => T): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.length; i++) out.push(fn(this.at(i)!, i));
    return out;
  }

  *[Symbol.iterator](): Iterator<LedgerIdMatch> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }
}

/** Adds the id the anchor text[at, end) belongs to, if it is one; returns its end, or -1. */
function idAround(text: string, at: number, end: number): number {
  const before = text.charCodeAt(at - 1);
  if (end - at === 92) return isIdChar(before) ? -1 : add(CONTRACT, at, end);
  const head = at - 70;
  // "ca1x" right before the anchor: the suffix of a V1 contract id, checked in full only then.
  if (head >= 0 && isV1ContractHead(text, head, at) && !isIdChar(text.charCodeAt(head - 1))) return add(CONTRACT, head, end);
  if (before === COLON && text.charCodeAt(at - 2) === COLON) {
    let start = at - 2;
    while (isHintChar(text.charCodeAt(start - 1))) start--;
    return start < at - 2 ? add(PARTY, start, end) : -1;
  }
  if (isIdChar(before) || saysFingerprintOrHash(text, at)) return -1;
  return add(UPDATE, at, end);
}

// A key fingerprint or a hash is "1220" + 64 hex too (a SHA-256 multihash, as an update id is).
// Where the text says what it is, it is not an update id: a JSON key such as "signedBy",
// "fingerprint", "namespace" or "…Hash", or the word before it.
const FINGERPRINT_KEY = /"(?:signedBy|signed_by|fingerprint|[A-Za-z_]*[Ff]ingerprint|namespace|keyId|key_id|[A-Za-z_]*[Hh]ash)"\s*:\s*"$/;
const FINGERPRINT_WORD = /\b(?:fingerprint|signed[ _-]?by|namespace|hash)\b[\s:=]*["'`]?$/i;

/** The endings of the words before a fingerprint or hash, lower case: what the regexes can match. */
const SAYING_ENDS = ['print', 'by', 'namespace', 'hash', 'id'];

/** Whether text[..last] ends with `word` (lower-case letters), in any case, without copying the text. */
function endsAt(text: string, last: number, word: string): boolean {
  if (last + 1 < word.length) return false;
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(last - k) | 32) !== word.charCodeAt(word.length - 1 - k)) return false;
  return true;
}

function saysFingerprintOrHash(text: string, at: number): boolean {
  // Most anchors are update ids after an ordinary word: the text right before is tested for the
  // ending of a word the regexes name first, and only then read by them (the scan's hot path).
  let i = at - 1;
  while (i >= 0 && i > at - 48) {
    const c = text.charCodeAt(i);
    // Quotes, spaces, ":" and "=" between the word and the id.
    if (c === 34 || c === 39 || c === 96 || c === 58 || c === 61 || (c >= 9 && c <= 13) || c === 32) i--;
    else break;
  }
  let says = false;
  for (const end of SAYING_ENDS) says ||= endsAt(text, i, end);
  if (!says) return false;
  const before = text.slice(Math.max(0, at - 48), at);
  return FINGERPRINT_KEY.test(before) || FINGERPRINT_WORD.test(before);
}

/** The id that covers `offset` in `text`, if any (for a cursor or a hover). */
export function ledgerIdAt(text: string, offset: number): LedgerIdMatch | undefined {
  // Ids are at most a few hundred characters: look only at a window around the offset.
  const windowStart = Math.max(0, offset - 512);
  const windowText = text.slice(windowStart, offset + 512);
  for (const m of findLedgerIds(windowText, Number.POSITIVE_INFINITY, { v2ContractIds: true })) {
    const start = m.start + windowStart;
    const end = m.end + windowStart;
    if (start <= offset && offset <= end) return { kind: m.kind, text: m.text, start, end };
  }
  return undefined;
}

/** Classifies one token (for example a selection or an input box value) and says why a near-miss is not an id. */
/** Exactly a Canton party id (`hint::1220…`), as a value is checked before it is sent. */
export function isPartyId(s: string): boolean {
  return partyId.test(s);
}

export function classifyLedgerId(raw: string): TokenClassification {
  const token = raw.trim().replace(/^["'`]|["'`]$/g, '');
  if (token === '') return { kind: 'none', reason: l10n.t('The text is empty.') };
  if (cantonV1Contract.test(token)) return { kind: 'contract', format: l10n.t('Canton contract id (V1)') };
  if (genericV2Contract.test(token)) return { kind: 'contract', format: l10n.t('contract id (V2)') };
  if (genericV1Contract.test(token) && token.length > 66) return { kind: 'contract', format: l10n.t('contract id (V1, non-Canton suffix)') };
  if (updateId.test(token)) return { kind: 'update', format: l10n.t('update id') };
  if (partyId.test(token)) return { kind: 'party', format: l10n.t('party id') };
  return { kind: 'none', reason: nearMissReason(token) };
}

function nearMissReason(token: string): string {
  if (token.includes('::')) {
    const fingerprint = token.slice(token.lastIndexOf('::') + 2);
    const hint = token.slice(0, token.lastIndexOf('::'));
    if (!/^[A-Za-z0-9_\- :]+$/.test(hint))
      return l10n.t('The party hint "{0}" has characters a party id cannot hold (letters, digits, "-", "_", " " and ":" only).', preview(hint));
    if (hint.includes('::')) return l10n.t('A party hint cannot contain "::".');
    return l10n.t('Not a party id: {0}', hexProblem(fingerprint, l10n.t('fingerprint'), 68, '1220'));
  }
  if (/[A-F]/.test(token) && /^[0-9a-fA-F]+$/.test(token)) {
    return l10n.t('Ledger ids are lower-case hex; this one has upper-case letters.');
  }
  const stray = /[^0-9a-f]/.exec(token);
  if (stray) {
    return l10n.t('Unexpected character "{0}" at position {1}: contract and update ids are lower-case hex only.', stray[0], stray.index + 1);
  }
  if (token.startsWith('1220')) return l10n.t('Wrong length: {0} characters; an update id has 68 (1220 + 64 hex).', token.length);
  if (token.startsWith('00')) {
    if (token.length === 66)
      return l10n.t('This is a contract id without its suffix (a relative id from a prepared transaction); the ledger knows it only with its Canton suffix.');
    return l10n.t('Wrong length: {0} characters; a Canton contract id has 138 (00 + 64 hex + ca1x + 1220 + 64 hex).', token.length);
  }
  if (token.startsWith('01')) return l10n.t('Wrong length: {0} characters; a V2 contract id has 26 to 92.', token.length);
  return l10n.t('Not a ledger id: contract ids start with 00 or 01, update ids with 1220, party ids look like name::1220….');
}

function hexProblem(value: string, what: string, length: number, prefix: string): string {
  if (/[A-F]/.test(value)) return l10n.t('the {0} has upper-case hex; it must be lower case.', what);
  const stray = /[^0-9a-f]/.exec(value);
  if (stray) return l10n.t('the {0} has an unexpected character "{1}".', what, stray[0]);
  if (!value.startsWith(prefix)) return l10n.t('the {0} must start with {1}.', what, prefix);
  return l10n.t('the {0} has {1} characters instead of {2}.', what, value.length, length);
}

function preview(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** `Alice::1220ab…` for labels; show the full id on hover and copy. */
export function shortenPartyId(party: string): string {
  const i = party.lastIndexOf('::');
  return i < 0 || party.length - i < 10 ? party : `${party.slice(0, i)}::${party.slice(i + 2, i + 8)}…`;
}

/** `00f33dddaf…42ba63` for titles and labels; show the full id on hover and copy. */
export function shortId(id: string): string {
  return id.length > 20 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;
}
