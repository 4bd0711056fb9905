// Reads one Daml-LF 2 package (daml_lf2.proto: Package and below); lfDecode.ts checks the archive
// around it. Field numbers are in each reader's comment. Each message is read in place (lfWire.ts),
// expressions (Module.values) are stepped over by their length, and interned types are decoded
// when first used.
import * as l10n from '../../l10n/l10n';
import type { LfChoice, LfDataType, LfField, LfInterface, LfModule, LfTemplate, LfType, LfTypeRef } from './lfSignatures';
import { BUILTINS, LD, LfError, LfWire, NO_ARGS, UNIT, VARINT, wrongWire } from './lfWire';

export { LfError, readMessage } from './lfWire';

export interface PackageContents {
  name: string;
  version: string;
  modules: LfModule[];
}

/**
 * One package's interning tables and the readers that use them, over one BinaryReader. Each
 * message reader starts with the reader at the message's first byte and is given its end. proto3
 * leaves a field at its default out, so an interned index not written is 0, not absent: each reader
 * resolves after reading.
 */
export class PackageReader extends LfWire {
  // Where each interned type is ([start, end) pairs), and what it decoded to.
  private readonly typeAt: number[] = [];
  private readonly types: (LfType | undefined)[] = [];
  private readonly imports: string[] = [];
  private readonly sharedFields = new Map<number, LfField>();

  constructor(
    private readonly packageId: string,
    bytes: Uint8Array,
  ) {
    super(bytes);
  }

  /** Package (modules = 1, interned_strings = 2, interned_dotted_names = 3, metadata = 4, interned_types = 5, package_imports = 9). */
  read(): PackageContents {
    const r = this.r;
    const end = r.len;
    const moduleAt: number[] = [];
    let metadataAt: number[] | undefined;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          this.content(tag, end, moduleAt);
          break;
        case 2:
          this.content(tag, end, this.stringAt);
          break;
        case 3:
          this.content(tag, end, this.dnameAt);
          break;
        case 4:
          metadataAt = [];
          this.content(tag, end, metadataAt);
          break;
        case 5:
          this.content(tag, end, this.typeAt);
          break;
        case 9:
          // PackageImports (imported_packages = 1).
          for (const e = this.open(tag, end); r.pos < e;) {
            const t = r.uint32();
            if (t >>> 3 === 1) this.imports.push(this.string(t, e));
            else this.skip(t, e);
          }
          break;
        default:
          this.skip(tag, end);
      }
    }
    if (!metadataAt) throw new LfError(l10n.t('The package has no name and version, which every Daml-LF 2 package has.'));
    // PackageMetadata (name_interned_str = 1, version_interned_str = 2).
    let nameIx = 0;
    let versionIx = 0;
    r.pos = metadataAt[0];
    for (const e = metadataAt[1]; r.pos < e;) {
      const t = r.uint32();
      if (t === 0x08) nameIx = r.int32();
      else if (t === 0x10) versionIx = r.int32();
      else this.skip(t, e);
    }
    const modules: LfModule[] = [];
    for (let i = 0; i < moduleAt.length; i += 2) {
      r.pos = moduleAt[i];
      modules.push(this.module(moduleAt[i + 1]));
    }
    return { name: this.str(nameIx), version: this.str(versionIx), modules };
  }

  private interned(i: number): LfType {
    const known = this.types[i];
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
    this.types[i] = t;
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
    return { packageId, module: this.dname(moduleIx) };
  }

  /** TypeConId (module = 1, name_interned_dname = 2). */
  private typeRef(end: number): LfTypeRef {
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
    return { packageId: mod.packageId, module: mod.module, name: this.dname(nameIx) };
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
      if (field === 2) (args ??= []).push(this.type(this.open(tag, end)));
      else if ((field === 1 || field === 3) && (tag & 7) === VARINT) head.ix = r.int32();
      else if ((field === 1 || field === 3) && (tag & 7) === LD) head.ref = this.typeRef(this.open(tag, end));
      else this.skip(tag, end);
    }
    return args ?? NO_ARGS;
  }

  private defaultRef(): LfTypeRef {
    return this.typeRef(this.r.pos);
  }

  /** Type (var = 1, con = 2, builtin = 3, forall = 4, struct = 5, nat = 6, syn = 7, interned = 8, tapp = 9). */
  private type(end: number): LfType {
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
          t = { kind: 'var', name: this.str(head.ix), args };
          break;
        }
        case 2:
        case 7: {
          const head: { ix: number; ref?: LfTypeRef } = { ix: 0 };
          const args = this.applied(this.open(tag, end), head);
          t = { kind: tag >>> 3 === 2 ? 'con' : 'syn', ref: head.ref ?? this.defaultRef(), args };
          break;
        }
        case 3: {
          const head = { ix: 0 };
          const args = this.applied(this.open(tag, end), head);
          const builtin = BUILTINS[head.ix];
          if (!builtin) throw new LfError(l10n.t('The package uses builtin type {0}, which this reader does not know.', head.ix));
          t = { kind: 'builtin', builtin, args };
          break;
        }
        case 4: {
          const vars: string[] = [];
          let body: LfType = UNIT;
          for (const e = this.open(tag, end); r.pos < e;) {
            const f = r.uint32();
            if (f >>> 3 === 1) vars.push(this.binder(this.open(f, e)));
            else if (f >>> 3 === 2) body = this.type(this.open(f, e));
            else this.skip(f, e);
          }
          t = { kind: 'forall', vars, body };
          break;
        }
        case 5: {
          const fields: LfField[] = [];
          for (const e = this.open(tag, end); r.pos < e;) {
            const f = r.uint32();
            if (f >>> 3 === 1) fields.push(this.field(this.open(f, e)));
            else this.skip(f, e);
          }
          t = { kind: 'struct', fields };
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
          t = { ...lhs, args: [...lhs.args, rhs] };
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
  private binder(end: number): string {
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
  private field(end: number): LfField {
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
    if (typeIx < 0) return { name: this.str(nameIx), type };
    const key = nameIx * 0x1000000 + typeIx;
    let f = this.sharedFields.get(key);
    if (!f) {
      f = { name: this.str(nameIx), type };
      this.sharedFields.set(key, f);
    }
    return f;
  }

  /** DefDataType.Fields / .Constructors (fields = 1). */
  private fields(end: number): LfField[] {
    const r = this.r;
    const out: LfField[] = [];
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag >>> 3 === 1) out.push(this.field(this.open(tag, end)));
      else this.skip(tag, end);
    }
    return out;
  }

  /** DefDataType (name = 2, params = 3, serializable = 4, record = 5, variant = 6, enum = 7, interface = 8). */
  private dataType(end: number): LfDataType {
    const r = this.r;
    let nameIx = 0;
    const params: string[] = [];
    let serializable = false;
    // A record without fields may be written as an empty `record`, which proto3 still sends.
    let kind: LfDataType['kind'] = 'record';
    let fields: LfField[] = [];
    let values: string[] = [];
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 2:
          nameIx = this.int(tag);
          break;
        case 3:
          params.push(this.binder(this.open(tag, end)));
          break;
        case 4:
          serializable = this.int(tag) !== 0;
          break;
        case 5:
        case 6:
          kind = tag >>> 3 === 5 ? 'record' : 'variant';
          fields = this.fields(this.open(tag, end));
          break;
        case 7: {
          // EnumConstructors (constructors_interned_str = 2, packed or not).
          kind = 'enum';
          values = [];
          for (const e = this.open(tag, end); r.pos < e;) {
            const t = r.uint32();
            if (t === 0x10) values.push(this.str(r.int32()));
            else if (t === 0x12) for (const p = this.open(t, e); r.pos < p;) values.push(this.str(r.int32()));
            else this.skip(t, e);
          }
          break;
        }
        case 8:
          this.skipBody(tag, end);
          kind = 'interface';
          break;
        default:
          this.skip(tag, end);
      }
    }
    const name = this.dname(nameIx);
    switch (kind) {
      case 'record':
        return { kind, name, params, serializable, fields };
      case 'variant':
        return { kind, name, params, serializable, constructors: fields };
      case 'enum':
        return { kind, name, params, serializable, values };
      default:
        return { kind, name, params, serializable };
    }
  }

  /** TemplateChoice (name = 2, consuming = 3, arg_binder = 6, ret_type = 8). */
  private choice(end: number): LfChoice {
    const r = this.r;
    let nameIx = 0;
    let consuming = false;
    let argType = UNIT;
    let returnType = UNIT;
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 2:
          nameIx = this.int(tag);
          break;
        case 3:
          consuming = this.int(tag) !== 0;
          break;
        case 6:
          argType = this.field(this.open(tag, end)).type;
          break;
        case 8:
          returnType = this.type(this.open(tag, end));
          break;
        default:
          this.skip(tag, end);
      }
    }
    return { name: this.str(nameIx), consuming, argType, returnType };
  }

  /** DefTemplate (tycon = 1, choices = 6, key = 9 (type = 1), implements = 10 (interface = 1)). */
  private template(end: number): LfTemplate {
    const r = this.r;
    let nameIx = 0;
    let keyType: LfType | undefined;
    const choices: LfChoice[] = [];
    const implemented: LfTypeRef[] = [];
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          nameIx = this.int(tag);
          break;
        case 6:
          choices.push(this.choice(this.open(tag, end)));
          break;
        case 9:
          for (const e = this.open(tag, end); r.pos < e;) {
            const t = r.uint32();
            if (t >>> 3 === 1) keyType = this.type(this.open(t, e));
            else this.skip(t, e);
          }
          break;
        case 10:
          for (const e = this.open(tag, end); r.pos < e;) {
            const t = r.uint32();
            if (t >>> 3 === 1) implemented.push(this.typeRef(this.open(t, e)));
            else this.skip(t, e);
          }
          break;
        default:
          this.skip(tag, end);
      }
    }
    const t: LfTemplate = { name: this.dname(nameIx), choices, implements: implemented };
    if (keyType) t.keyType = keyType;
    return t;
  }

  /** DefInterface (tycon = 2, choices = 5, view = 6, requires = 7). */
  private iface(end: number): LfInterface {
    const r = this.r;
    let nameIx = 0;
    let viewType = UNIT;
    const choices: LfChoice[] = [];
    const requires: LfTypeRef[] = [];
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 2:
          nameIx = this.int(tag);
          break;
        case 5:
          choices.push(this.choice(this.open(tag, end)));
          break;
        case 6:
          viewType = this.type(this.open(tag, end));
          break;
        case 7:
          requires.push(this.typeRef(this.open(tag, end)));
          break;
        default:
          this.skip(tag, end);
      }
    }
    return { name: this.dname(nameIx), viewType, choices, requires };
  }

  /** Module (name = 1, data_types = 4, templates = 6, interfaces = 8; values = 5 are stepped over). */
  private module(end: number): LfModule {
    const r = this.r;
    let nameIx = 0;
    const m: LfModule = { name: '', dataTypes: [], templates: [], interfaces: [] };
    while (r.pos < end) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          nameIx = this.int(tag);
          break;
        case 4:
          m.dataTypes.push(this.dataType(this.open(tag, end)));
          break;
        case 6:
          m.templates.push(this.template(this.open(tag, end)));
          break;
        case 8:
          m.interfaces.push(this.iface(this.open(tag, end)));
          break;
        default:
          this.skip(tag, end);
      }
    }
    m.name = this.dname(nameIx);
    return m;
  }
}
