// The Active Contracts rows as the panel sends them: one read's pages encoded as batches of columns
// (the format is in acsRows.ts), the read's dictionary kept here. Runs in the extension host (its
// hex ids go through Buffer); the page only reads batches. No `vscode` import.
import type { CreatedEvent } from '../ledger/apiTypes';
import { argumentFields, MAX_ARGUMENT_TEXT, MAX_REFS, refOf, type AcsBatch } from '../protocol/acsRows';

const FINGERPRINT = '::1220';
const HEX_ID = /^(?:[0-9a-f]{2})+$/;

function json(argument: unknown): string {
  try {
    return JSON.stringify(argument) ?? '';
  } catch {
    return '';
  }
}

/** The quote that opens the hint before `at` (1 to 255 characters, no quote or backslash), not before `from`; else -1. */
function literalStart(text: string, at: number, from: number): number {
  for (let i = at - 1; i >= from && i >= at - 256; i--) {
    const c = text.charCodeAt(i);
    if (c === 92) return -1;
    if (c === 34) return i < at - 1 ? i : -1;
  }
  return -1;
}

const cut = (text: string) => (text.length > MAX_ARGUMENT_TEXT ? text.slice(0, MAX_ARGUMENT_TEXT) : text);

/** Lower-case hex digits from `from` to `to`. */
function isHex(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

const partyList = (list: unknown): string[] => (Array.isArray(list) ? list.map(String) : []);

/** Encodes one read's pages: its dictionary lives as long as the read (a new read, a new encoder). */
export class AcsBatchEncoder {
  private readonly dictionary = new Map<string, number>();
  private fresh: string[] = [];

  encode(events: readonly CreatedEvent[]): AcsBatch {
    this.fresh = [];
    const n = events.length;
    const batch: AcsBatch = {
      words: this.fresh,
      ids: new Array<string>(n),
      hexIds: events.every((e) => typeof e.contractId === 'string' && HEX_ID.test(e.contractId)),
      createdAt: new Array<string>(n),
      templates: new Array<number>(n),
      packages: new Array<number>(n),
      signatories: new Array<number>(n),
      observers: new Array<number>(n),
      shapes: new Array<number>(n),
      args: new Array<string>(n),
      keyRows: [],
      keys: [],
      fieldRows: [],
      fields: [],
    };
    for (let i = 0; i < n; i++) {
      const e = events[i];
      const signatories = partyList(e.signatories);
      batch.ids[i] = batch.hexIds ? Buffer.from(e.contractId, 'hex').toString('base64').replace(/=+$/, '') : String(e.contractId);
      batch.createdAt[i] = String(e.createdAt ?? '');
      batch.templates[i] = this.word(String(e.templateId));
      batch.packages[i] = this.word(String(e.packageName ?? ''));
      batch.signatories[i] = this.word(signatories.join('\n'));
      batch.observers[i] = this.word(partyList(e.observers).join('\n'));
      const argument = e.createArgument;
      const record = typeof argument === 'object' && argument !== null && !Array.isArray(argument);
      const values = record ? this.parties(json(Object.values(argument))) : '';
      if (record && values.length <= MAX_ARGUMENT_TEXT) {
        batch.shapes[i] = this.word(JSON.stringify(Object.keys(argument)));
        batch.args[i] = values;
      } else {
        // Not a record, or cut: the whole JSON, so a search still sees the field names.
        const text = this.parties(json(argument));
        batch.shapes[i] = this.word('');
        batch.args[i] = cut(text);
        if (text.length > MAX_ARGUMENT_TEXT) {
          batch.fieldRows.push(i);
          batch.fields.push(argumentFields(argument, signatories));
        }
      }
      if (e.contractKey !== null && e.contractKey !== undefined) {
        batch.keyRows.push(i);
        batch.keys.push(cut(this.parties(json(e.contractKey))));
      }
    }
    return batch;
  }

  /** Party ids in a JSON text as words: each string literal `"hint::1220…"` (a scan, not a regex: it runs on every row). */
  private parties(text: string): string {
    let out = '';
    let done = 0;
    for (let at = text.indexOf(FINGERPRINT); at >= 0; at = text.indexOf(FINGERPRINT, at + FINGERPRINT.length)) {
      const open = literalStart(text, at, done);
      const close = at + FINGERPRINT.length + 64;
      if (open < 0 || text.charCodeAt(close) !== 34 || !isHex(text, at + FINGERPRINT.length, close)) continue;
      const word = this.word(text.slice(open + 1, close));
      if (word >= MAX_REFS) continue;
      out += text.slice(done, open) + refOf(word);
      done = close + 1;
    }
    return done === 0 ? text : out + text.slice(done);
  }

  private word(s: string): number {
    let i = this.dictionary.get(s);
    if (i === undefined) {
      i = this.dictionary.size;
      this.dictionary.set(s, i);
      this.fresh.push(s);
    }
    return i;
  }
}
