// The wire under the Daml-LF package reader (lfPackageReader.ts): one protobuf-ts BinaryReader
// over a whole package, each message read in place between its start and its end (nothing is
// copied), and the package's interned strings and dotted names, decoded when first used; the
// builtin types' numbers.
import { BinaryReader, WireType } from '@protobuf-ts/runtime';
import * as l10n from '../../l10n/l10n';
import type { LfBuiltin, LfType } from './lfSignatures';

export class LfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LfError';
  }
}

type Handler = (r: BinaryReader, wire: WireType) => void;

// One decoder for every reader: BinaryReader makes a TextDecoder of its own when given none.
export const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads one small message, calling the handler of each field it has; fields without one are skipped. */
export function readMessage(bytes: Uint8Array, handlers: Record<number, Handler>): void {
  const r = new BinaryReader(bytes, UTF8);
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    const h = handlers[field];
    if (h) h(r, wire);
    else r.skip(wire);
  }
}

/** BuiltinType of daml_lf2.proto. */
export const BUILTINS: Record<number, LfBuiltin> = {
  0: 'Unit',
  1: 'Bool',
  2: 'Int64',
  3: 'Date',
  4: 'Timestamp',
  5: 'Numeric',
  6: 'Party',
  7: 'Text',
  8: 'ContractId',
  9: 'Optional',
  10: 'List',
  11: 'GenMap',
  13: 'Any',
  14: 'AnyException',
  15: 'TypeRep',
  16: 'Arrow',
  17: 'Update',
  18: 'FailureCategory',
  19: 'TextMap',
  1001: 'TextMap',
  1002: 'BigNumeric',
  1003: 'RoundingMode',
};

// Shared, so frozen: most types take no arguments.
export const NO_ARGS = Object.freeze([]) as unknown as LfType[];
export const UNIT: LfType = Object.freeze({ kind: 'builtin', builtin: 'Unit', args: NO_ARGS });

/** Wire types (a tag's low 3 bits), as numbers: a tag is read as one. */
export const VARINT = 0;
export const LD = 2;
const BIT64 = 1;
const BIT32 = 5;

export const truncated = () => new RangeError('premature EOF');
export const wrongWire = () => new LfError(l10n.t('The package holds a field of the wrong wire type.'));

/** A package's bytes with the reader over them, and where its interned strings and names are. */
export class LfWire {
  protected readonly r: BinaryReader;
  // Where each interned string and dotted name is ([start, end) pairs), and what it decoded to.
  protected readonly stringAt: number[] = [];
  private strings: (string | undefined)[] = [];
  protected readonly dnameAt: number[] = [];
  private dnames: (string | undefined)[] = [];

  constructor(protected readonly bytes: Uint8Array) {
    this.r = new BinaryReader(bytes, UTF8);
  }

  /**
   * Once the tables' places are known: their caches as full arrays, which are filled in any order
   * (an array written far past its end first turns into a slow dictionary).
   */
  protected sizeTables(): void {
    this.strings = new Array<string | undefined>(this.stringAt.length / 2).fill(undefined);
    this.dnames = new Array<string | undefined>(this.dnameAt.length / 2).fill(undefined);
  }

  /** At a length-delimited field's length: steps into it and returns where it ends, within `end`. */
  protected open(tag: number, end: number): number {
    if ((tag & 7) !== LD) throw wrongWire();
    const len = this.r.uint32();
    const e = this.r.pos + len;
    if (e > end) throw truncated();
    return e;
  }

  /** Notes where a length-delimited field's body starts and ends, and steps over it. */
  protected content(tag: number, end: number, into: number[]): void {
    const e = this.open(tag, end);
    // One value a push: a push of two is not inlined and took a fifth of a large package's check.
    into.push(this.r.pos);
    into.push(e);
    this.r.pos = e;
  }

  /** As `open`, then steps over the body; returns its end. */
  protected skipBody(tag: number, end: number): number {
    const e = this.open(tag, end);
    this.r.pos = e;
    return e;
  }

  /** Steps over one field of any wire type without reading it. */
  protected skip(tag: number, end: number): void {
    const r = this.r;
    switch (tag & 7) {
      case VARINT:
        r.uint32();
        break;
      case BIT64:
        r.pos += 8;
        break;
      case BIT32:
        r.pos += 4;
        break;
      case LD: {
        const len = r.uint32();
        r.pos += len;
        break;
      }
      default:
        throw wrongWire();
    }
    if (r.pos > end) throw truncated();
  }

  protected string(tag: number, end: number): string {
    const e = this.open(tag, end);
    const s = UTF8.decode(this.bytes.subarray(this.r.pos, e));
    this.r.pos = e;
    return s;
  }

  /** A varint field as an int32 (an interned index, an enum's number). */
  protected int(tag: number): number {
    if ((tag & 7) !== VARINT) throw wrongWire();
    return this.r.int32();
  }

  str(i: number): string {
    const known = this.strings[i];
    if (known !== undefined) return known;
    const start = this.stringAt[2 * i];
    if (start === undefined) throw new LfError(l10n.t('The package refers to interned string {0}, which it does not have.', i));
    const s = UTF8.decode(this.bytes.subarray(start, this.stringAt[2 * i + 1]));
    this.strings[i] = s;
    return s;
  }

  /** InternedDottedName (segments_interned_str = 1, packed or not). */
  dname(i: number): string {
    const known = this.dnames[i];
    if (known !== undefined) return known;
    const start = this.dnameAt[2 * i];
    if (start === undefined) throw new LfError(l10n.t('The package refers to interned name {0}, which it does not have.', i));
    const r = this.r;
    const back = r.pos;
    const segments: string[] = [];
    r.pos = start;
    const end = this.dnameAt[2 * i + 1];
    while (r.pos < end) {
      const t = r.uint32();
      if (t === 0x08) segments.push(this.str(r.int32()));
      else if (t === 0x0a) for (const e = this.open(t, end); r.pos < e;) segments.push(this.str(r.int32()));
      else this.skip(t, end);
    }
    r.pos = back;
    const name = segments.join('.');
    this.dnames[i] = name;
    return name;
  }
}
