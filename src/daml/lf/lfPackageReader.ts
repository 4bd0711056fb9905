// Reads one Daml-LF 2 package's messages (daml_lf2.proto: Module and below) with its interning
// tables; lfDecode.ts checks the archive around it. Field numbers are in each reader's comment.
import { BinaryReader, WireType } from '@protobuf-ts/runtime';
import * as l10n from '../../l10n/l10n';
import type { LfBuiltin, LfChoice, LfDataType, LfField, LfInterface, LfModule, LfTemplate, LfType, LfTypeRef } from './lfSignatures';

export class LfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LfError';
  }
}

type Handler = (r: BinaryReader, wire: WireType) => void;

// One decoder for every reader: BinaryReader makes a TextDecoder of its own when given none, which
// for the many small messages of a package cost most of the decode.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads one message, calling the handler of each field it has; fields without one are skipped. */
export function readMessage(bytes: Uint8Array, handlers: Record<number, Handler>): void {
  const r = new BinaryReader(bytes, UTF8);
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    const h = handlers[field];
    if (h) h(r, wire);
    else r.skip(wire);
  }
}

/** A repeated int32 field, packed (proto3's default) or not. */
export function int32s(r: BinaryReader, wire: WireType, into: number[]): void {
  if (wire !== WireType.LengthDelimited) {
    into.push(r.int32());
    return;
  }
  const inner = new BinaryReader(r.bytes(), UTF8);
  while (inner.pos < inner.len) into.push(inner.int32());
}

const BUILTINS: Record<number, LfBuiltin> = {
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

/**
 * One package's interning tables and the readers that use them. proto3 leaves a field at its
 * default out, so an interned index not written is 0, not absent: each reader resolves after reading.
 */
export class PackageReader {
  private readonly types: (LfType | undefined)[] = [];

  constructor(
    private readonly packageId: string,
    private readonly strings: string[],
    private readonly dnames: number[][],
    private readonly typeBytes: Uint8Array[],
    private readonly imports: string[],
  ) {}

  str(i: number): string {
    const s = this.strings[i];
    if (s === undefined) throw new LfError(l10n.t('The package refers to interned string {0}, which it does not have.', i));
    return s;
  }

  dname(i: number): string {
    const d = this.dnames[i];
    if (d === undefined) throw new LfError(l10n.t('The package refers to interned name {0}, which it does not have.', i));
    return d.map((s) => this.str(s)).join('.');
  }

  /** ModuleId (package_id = 1: self = 1 or imported_package_id_interned_str = 3; module_name_interned_dname = 2). */
  private moduleRef(bytes: Uint8Array): { packageId: string; module: string } {
    let packageId = this.packageId;
    let moduleIx = 0;
    readMessage(bytes, {
      1: (r) =>
        readMessage(r.bytes(), {
          3: (p) => {
            packageId = this.str(p.int32());
          },
          4: (p) => {
            const i = p.int32();
            const id = this.imports[i];
            if (id === undefined) throw new LfError(l10n.t('The package refers to imported package {0}, which it does not list.', i));
            packageId = id;
          },
        }),
      2: (r) => {
        moduleIx = r.int32();
      },
    });
    return { packageId, module: this.dname(moduleIx) };
  }

  /** TypeConId (module = 1, name_interned_dname = 2). */
  typeRef(bytes: Uint8Array): LfTypeRef {
    let module: Uint8Array = new Uint8Array(0);
    let nameIx = 0;
    readMessage(bytes, {
      1: (r) => {
        module = r.bytes();
      },
      2: (r) => {
        nameIx = r.int32();
      },
    });
    return { ...this.moduleRef(module), name: this.dname(nameIx) };
  }

  /** Type (var = 1, con = 2, builtin = 3, forall = 4, struct = 5, nat = 6, syn = 7, interned = 8). */
  type(bytes: Uint8Array): LfType {
    // The compiler interns every type, so most are `Type { interned = i }`: read without a reader.
    if (bytes.length > 1 && bytes.length <= 6 && bytes[0] === 0x40) {
      let v = 0;
      let i = 1;
      for (let shift = 0; i < bytes.length; shift += 7) {
        const b = bytes[i++];
        v += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
      }
      if (i === bytes.length && bytes[i - 1] < 0x80) return this.interned(v);
    }
    let t: LfType | undefined;
    const applied = (b: Uint8Array, head: Handler) => {
      const args: LfType[] = [];
      readMessage(b, { 1: head, 2: (r) => void args.push(this.type(r.bytes())), 3: head });
      return args;
    };
    readMessage(bytes, {
      1: (r) => {
        let nameIx = 0;
        const args = applied(r.bytes(), (v, w) => {
          if (w === WireType.Varint) nameIx = v.int32();
          else v.skip(w);
        });
        t = { kind: 'var', name: this.str(nameIx), args };
      },
      2: (r) => {
        let ref: LfTypeRef | undefined;
        const args = applied(r.bytes(), (v, w) => {
          if (w === WireType.LengthDelimited) ref = this.typeRef(v.bytes());
          else v.skip(w);
        });
        t = { kind: 'con', ref: ref ?? this.typeRef(new Uint8Array(0)), args };
      },
      3: (r) => {
        let code = 0;
        const args = applied(r.bytes(), (v, w) => {
          if (w === WireType.Varint) code = v.int32();
          else v.skip(w);
        });
        const builtin = BUILTINS[code];
        if (!builtin) throw new LfError(l10n.t('The package uses builtin type {0}, which this reader does not know.', code));
        t = { kind: 'builtin', builtin, args };
      },
      4: (r) => {
        const vars: string[] = [];
        let body: LfType | undefined;
        readMessage(r.bytes(), {
          1: (v) => void vars.push(this.binder(v.bytes())),
          2: (v) => {
            body = this.type(v.bytes());
          },
        });
        t = { kind: 'forall', vars, body: body ?? { kind: 'builtin', builtin: 'Unit', args: [] } };
      },
      5: (r) => {
        const fields: LfField[] = [];
        readMessage(r.bytes(), { 1: (v) => void fields.push(this.field(v.bytes())) });
        t = { kind: 'struct', fields };
      },
      6: (r) => {
        t = { kind: 'nat', value: r.sint64().toNumber() };
      },
      7: (r) => {
        let ref: LfTypeRef | undefined;
        const args = applied(r.bytes(), (v, w) => {
          if (w === WireType.LengthDelimited) ref = this.typeRef(v.bytes());
          else v.skip(w);
        });
        t = { kind: 'syn', ref: ref ?? this.typeRef(new Uint8Array(0)), args };
      },
      8: (r) => {
        t = this.interned(r.int32());
      },
      9: (r) => {
        let lhs: LfType | undefined;
        let rhs: LfType | undefined;
        readMessage(r.bytes(), {
          1: (v) => {
            lhs = this.type(v.bytes());
          },
          2: (v) => {
            rhs = this.type(v.bytes());
          },
        });
        if (!lhs || !rhs || lhs.kind === 'nat' || lhs.kind === 'struct' || lhs.kind === 'forall')
          throw new LfError(l10n.t('The package applies a type that cannot be applied.'));
        t = { ...lhs, args: [...lhs.args, rhs] };
      },
    });
    if (!t) throw new LfError(l10n.t('The package holds a type of a form this reader does not know.'));
    return t;
  }

  private interned(i: number): LfType {
    const known = this.types[i];
    if (known) return known;
    const bytes = this.typeBytes[i];
    if (!bytes) throw new LfError(l10n.t('The package refers to interned type {0}, which it does not have.', i));
    // Guards a table that refers to itself: an interned type may only use those before it.
    this.typeBytes[i] = new Uint8Array(0);
    const t = this.type(bytes);
    this.types[i] = t;
    return t;
  }

  /** TypeVarWithKind (var_interned_str = 3; the kind is not needed). */
  private binder(bytes: Uint8Array): string {
    let ix = 0;
    readMessage(bytes, {
      3: (r) => {
        ix = r.int32();
      },
    });
    return this.str(ix);
  }

  /** FieldWithType / VarWithType (name interned str = 3, type = 2). */
  field(bytes: Uint8Array): LfField {
    let nameIx = 0;
    let type: LfType = { kind: 'builtin', builtin: 'Unit', args: [] };
    readMessage(bytes, {
      3: (r) => {
        nameIx = r.int32();
      },
      2: (r) => {
        type = this.type(r.bytes());
      },
    });
    return { name: this.str(nameIx), type };
  }

  /** DefDataType (name = 2, params = 3, serializable = 4, record = 5, variant = 6, enum = 7, interface = 8). */
  dataType(bytes: Uint8Array): LfDataType {
    let nameIx = 0;
    const params: string[] = [];
    let serializable = false;
    let made: ((base: { name: string; params: string[]; serializable: boolean }) => LfDataType) | undefined;
    const fieldsOf = (b: Uint8Array) => {
      const out: LfField[] = [];
      readMessage(b, { 1: (r) => void out.push(this.field(r.bytes())) });
      return out;
    };
    readMessage(bytes, {
      2: (r) => {
        nameIx = r.int32();
      },
      3: (r) => void params.push(this.binder(r.bytes())),
      4: (r) => {
        serializable = r.bool();
      },
      5: (r) => {
        const fields = fieldsOf(r.bytes());
        made = (b) => ({ kind: 'record', ...b, fields });
      },
      6: (r) => {
        const constructors = fieldsOf(r.bytes());
        made = (b) => ({ kind: 'variant', ...b, constructors });
      },
      7: (r) => {
        const ids: number[] = [];
        readMessage(r.bytes(), { 2: (v, w) => int32s(v, w, ids) });
        made = (b) => ({ kind: 'enum', ...b, values: ids.map((i) => this.str(i)) });
      },
      8: (r) => {
        r.skip(WireType.LengthDelimited);
        made = (b) => ({ kind: 'interface', ...b });
      },
    });
    const base = { name: this.dname(nameIx), params, serializable };
    // A record without fields may be written as an empty `record`, which proto3 still sends.
    return made ? made(base) : { kind: 'record', ...base, fields: [] };
  }

  /** TemplateChoice (name = 2, consuming = 3, arg_binder = 6, ret_type = 8). */
  choice(bytes: Uint8Array): LfChoice {
    const c: LfChoice = {
      name: '',
      consuming: false,
      argType: { kind: 'builtin', builtin: 'Unit', args: [] },
      returnType: { kind: 'builtin', builtin: 'Unit', args: [] },
    };
    let nameIx = 0;
    readMessage(bytes, {
      2: (r) => {
        nameIx = r.int32();
      },
      3: (r) => {
        c.consuming = r.bool();
      },
      6: (r) => {
        c.argType = this.field(r.bytes()).type;
      },
      8: (r) => {
        c.returnType = this.type(r.bytes());
      },
    });
    c.name = this.str(nameIx);
    return c;
  }

  /** DefTemplate (tycon = 1, choices = 6, key = 9 (type = 1), implements = 10 (interface = 1)). */
  template(bytes: Uint8Array): LfTemplate {
    const t: LfTemplate = { name: '', choices: [], implements: [] };
    let nameIx = 0;
    readMessage(bytes, {
      1: (r) => {
        nameIx = r.int32();
      },
      6: (r) => void t.choices.push(this.choice(r.bytes())),
      9: (r) =>
        readMessage(r.bytes(), {
          1: (k) => {
            t.keyType = this.type(k.bytes());
          },
        }),
      10: (r) => readMessage(r.bytes(), { 1: (i) => void t.implements.push(this.typeRef(i.bytes())) }),
    });
    t.name = this.dname(nameIx);
    return t;
  }

  /** DefInterface (tycon = 2, choices = 5, view = 6, requires = 7). */
  iface(bytes: Uint8Array): LfInterface {
    const i: LfInterface = { name: '', viewType: { kind: 'builtin', builtin: 'Unit', args: [] }, choices: [], requires: [] };
    let nameIx = 0;
    readMessage(bytes, {
      2: (r) => {
        nameIx = r.int32();
      },
      5: (r) => void i.choices.push(this.choice(r.bytes())),
      6: (r) => {
        i.viewType = this.type(r.bytes());
      },
      7: (r) => void i.requires.push(this.typeRef(r.bytes())),
    });
    i.name = this.dname(nameIx);
    return i;
  }

  /** Module (name = 1, data_types = 4, templates = 6, interfaces = 8; values = 5 are skipped). */
  module(bytes: Uint8Array): LfModule {
    const m: LfModule = { name: '', dataTypes: [], templates: [], interfaces: [] };
    let nameIx = 0;
    readMessage(bytes, {
      1: (r) => {
        nameIx = r.int32();
      },
      4: (r) => void m.dataTypes.push(this.dataType(r.bytes())),
      6: (r) => void m.templates.push(this.template(r.bytes())),
      8: (r) => void m.interfaces.push(this.iface(r.bytes())),
    });
    m.name = this.dname(nameIx);
    return m;
  }
}
