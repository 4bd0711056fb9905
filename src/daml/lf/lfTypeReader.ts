// Reads the types of a Daml-LF 2 package (daml_lf2.proto: Type, TypeConId, ModuleId,
// FieldWithType) and its interned types, for the package reader (lfPackageReader.ts). While
// checking (`dry`), every message is read and checked and nothing is built: readers answer the
// DRY objects, which are never kept.
import * as l10n from '../../l10n/l10n';
import type { LfField, LfType, LfTypeRef } from './lfSignatures';
import { BUILTINS, LD, LfError, LfWire, NO_ARGS, UNIT, VARINT, wrongWire } from './lfWire';

export const DRY_REF: LfTypeRef = Object.freeze({ packageId: '', module: '', name: '' });
const DRY_TYPE = {
  var: Object.freeze({ kind: 'var', name: '', args: NO_ARGS }),
  con: Object.freeze({ kind: 'con', ref: DRY_REF, args: NO_ARGS }),
  forall: Object.freeze({ kind: 'forall', vars: [], body: UNIT }),
  struct: Object.freeze({ kind: 'struct', fields: [] }),
} as const;
const DRY_FIELD: LfField = Object.freeze({ name: '', type: UNIT });

/**
 * One package's interning tables and the type readers that use them, over one BinaryReader. Each
 * message reader starts with the reader at the message's first byte and is given its end. proto3
 * leaves a field at its default out, so an interned index not written is 0, not absent: each reader
 * resolves after reading.
 */
export class LfTypeReader extends LfWire {
  // Where each interned type is ([start, end) pairs), and what it decoded to.
  protected readonly typeAt: number[] = [];
  private types: (LfType | undefined)[] = [];
  // The interned types checked (as the DRY type of their kind), not built yet.
  private checked: (LfType | undefined)[] = [];
  protected readonly imports: string[] = [];
  // By interned type, then by name: the field object every record with that field shares.
  protected readonly sharedFields: (Map<number, LfField> | undefined)[] = [];
  // While checking: every message is read and checked, nothing is built.
  protected dry = false;

  constructor(
    private readonly packageId: string,
    bytes: Uint8Array,
  ) {
    super(bytes);
  }

  protected override sizeTables(): void {
    super.sizeTables();
    this.types = new Array<LfType | undefined>(this.typeAt.length / 2).fill(undefined);
    this.checked = new Array<LfType | undefined>(this.typeAt.length / 2).fill(undefined);
  }

  protected push<T>(into: T[], x: T): void {
    if (!this.dry) into.push(x);
  }

  private interned(i: number): LfType {
    const known = this.dry ? this.checked[i] : this.types[i];
    if (known) return known;
    const start = this.typeAt[2 * i];
    if (start === undefined || start < 0) throw new LfError(l10n.t('The package refers to interned type {0}, which it does not have.', i));
    // Guards a table that refers to itself: an interned type may only use those before it.
    this.typeAt[2 * i] = -1;
    const r = this.r;
    const back = r.pos;
    r.pos = start;
    const t = this.type(this.typeAt[2 * i + 1]);
    r.pos = back;
    if (this.dry) {
      this.typeAt[2 * i] = start;
      this.checked[i] = t;
    } else this.types[i] = t;
    return t;
  }

  // --- messages: each is read from the reader's position to `end` ----------------------------------

  /** ModuleId (package_id = 1: self = 1 or imported_package_id_interned_str = 3 or package_import_id = 4; module_name_interned_dname = 2). */
  private moduleRef(end: number): { packageId: string; module: string } {
    const r = this.r;
    let packageId = this.packageId;
    let moduleIx = 0;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag >>> 3 === 2) moduleIx = this.int(tag);
      else if (tag >>> 3 === 1)
        for (const e = this.open(tag, end); r.pos < e;) {
          const t = r.uint32();
          if (t >>> 3 === 3) packageId = this.str(this.int(t));
          else if (t >>> 3 === 4) {
            const i = this.int(t);
            const id = this.imports[i];
            if (id === undefined) throw new LfError(l10n.t('The package refers to imported package {0}, which it does not list.', i));
            packageId = id;
          } else this.skip(t, e);
        }
      else this.skip(tag, end);
    }
    const module = this.dname(moduleIx);
    return this.dry ? DRY_REF : { packageId, module };
  }

  /** TypeConId (module = 1, name_interned_dname = 2). */
  protected typeRef(end: number): LfTypeRef {
    const r = this.r;
    let mod: { packageId: string; module: string } | undefined;
    let nameIx = 0;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag >>> 3 === 1) mod = this.moduleRef(this.open(tag, end));
      else if (tag >>> 3 === 2) nameIx = this.int(tag);
      else this.skip(tag, end);
    }
    mod ??= this.moduleRef(r.pos);
    const name = this.dname(nameIx);
    return this.dry ? DRY_REF : { packageId: mod.packageId, module: mod.module, name };
  }

  /**
   * Type.Var / Con / Builtin / Syn: a head (field 1 or 3: an index when a varint, a TypeConId when
   * length-delimited) and the arguments (field 2).
   */
  private applied(end: number, head: { ix: number; ref?: LfTypeRef }): LfType[] {
    const r = this.r;
    let args: LfType[] | undefined;
    while (r.pos < end) {
      const tag = r.uint32();
      const field = tag >>> 3;
      if (field === 2) {
        const a = this.type(this.open(tag, end));
        if (!this.dry) (args ??= []).push(a);
      } else if ((field === 1 || field === 3) && (tag & 7) === VARINT) head.ix = r.int32();
      else if ((field === 1 || field === 3) && (tag & 7) === LD) head.ref = this.typeRef(this.open(tag, end));
      else this.skip(tag, end);
    }
    return args ?? NO_ARGS;
  }

  private defaultRef(): LfTypeRef {
    return this.typeRef(this.r.pos);
  }

  /** Type (var = 1, con = 2, builtin = 3, forall = 4, struct = 5, nat = 6, syn = 7, interned = 8, tapp = 9). */
  protected type(end: number): LfType {
    const r = this.r;
    let t: LfType | undefined;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 8:
          t = this.interned(this.int(tag));
          break;
        case 1: {
          const head = { ix: 0 };
          const args = this.applied(this.open(tag, end), head);
          const name = this.str(head.ix);
          t = this.dry ? DRY_TYPE.var : { kind: 'var', name, args };
          break;
        }
        case 2:
        case 7: {
          const head: { ix: number; ref?: LfTypeRef } = { ix: 0 };
          const args = this.applied(this.open(tag, end), head);
          const ref = head.ref ?? this.defaultRef();
          t = this.dry ? DRY_TYPE.con : { kind: tag >>> 3 === 2 ? 'con' : 'syn', ref, args };
          break;
        }
        case 3: {
          const head = { ix: 0 };
          const args = this.applied(this.open(tag, end), head);
          const builtin = BUILTINS[head.ix];
          if (!builtin) throw new LfError(l10n.t('The package uses builtin type {0}, which this reader does not know.', head.ix));
          t = this.dry ? UNIT : { kind: 'builtin', builtin, args };
          break;
        }
        case 4: {
          const vars: string[] = [];
          let body: LfType = UNIT;
          for (const e = this.open(tag, end); r.pos < e;) {
            const f = r.uint32();
            if (f >>> 3 === 1) this.push(vars, this.binder(this.open(f, e)));
            else if (f >>> 3 === 2) body = this.type(this.open(f, e));
            else this.skip(f, e);
          }
          t = this.dry ? DRY_TYPE.forall : { kind: 'forall', vars, body };
          break;
        }
        case 5: {
          const fields: LfField[] = [];
          for (const e = this.open(tag, end); r.pos < e;) {
            const f = r.uint32();
            if (f >>> 3 === 1) this.push(fields, this.field(this.open(f, e)));
            else this.skip(f, e);
          }
          t = this.dry ? DRY_TYPE.struct : { kind: 'struct', fields };
          break;
        }
        case 6:
          if ((tag & 7) !== VARINT) throw wrongWire();
          t = { kind: 'nat', value: r.sint64().toNumber() };
          break;
        case 9: {
          let lhs: LfType | undefined;
          let rhs: LfType | undefined;
          for (const e = this.open(tag, end); r.pos < e;) {
            const f = r.uint32();
            if (f >>> 3 === 1) lhs = this.type(this.open(f, e));
            else if (f >>> 3 === 2) rhs = this.type(this.open(f, e));
            else this.skip(f, e);
          }
          if (!lhs || !rhs || lhs.kind === 'nat' || lhs.kind === 'struct' || lhs.kind === 'forall')
            throw new LfError(l10n.t('The package applies a type that cannot be applied.'));
          t = this.dry ? lhs : { ...lhs, args: [...lhs.args, rhs] };
          break;
        }
        default:
          this.skip(tag, end);
      }
    }
    if (!t) throw new LfError(l10n.t('The package holds a type of a form this reader does not know.'));
    return t;
  }

  /** TypeVarWithKind (var_interned_str = 3; the kind is not needed). */
  protected binder(end: number): string {
    const r = this.r;
    let ix = 0;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag >>> 3 === 3) ix = this.int(tag);
      else this.skip(tag, end);
    }
    return this.str(ix);
  }

  /** FieldWithType / VarWithType (name interned str = 3, type = 2). */
  protected field(end: number): LfField {
    const r = this.r;
    let nameIx = 0;
    let type: LfType = UNIT;
    // The same name with the same interned type recurs across records: one object serves them all.
    let typeIx = -1;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag >>> 3 === 3) nameIx = this.int(tag);
      else if (tag >>> 3 === 2) {
        const e = this.open(tag, end);
        const start = r.pos;
        typeIx = -1;
        if (this.bytes[start] === 0x40) {
          r.pos++;
          typeIx = r.int32();
          if (r.pos !== e) typeIx = -1;
        }
        if (typeIx >= 0) type = this.interned(typeIx);
        else {
          r.pos = start;
          type = this.type(e);
        }
      } else this.skip(tag, end);
    }
    if (this.dry) {
      this.str(nameIx);
      return DRY_FIELD;
    }
    if (typeIx < 0) return { name: this.str(nameIx), type };
    const byName = (this.sharedFields[typeIx] ??= new Map<number, LfField>());
    let f = byName.get(nameIx);
    if (!f) {
      f = { name: this.str(nameIx), type };
      byName.set(nameIx, f);
    }
    return f;
  }
}
