// Writes Daml-LF 2 packages from a short description: what the fake node's packages say about
// their types (records, variants, enums, templates with keys and choices, interfaces with views),
// with no expressions. Field numbers are those of digital-asset/canton's
// community/daml-lf/archive/src/main/protobuf/com/digitalasset/daml/lf/archive/daml_lf.proto
// (Archive, ArchivePayload) and daml_lf2.proto (Package and below). Strings, dotted names and the
// types that recur are interned, as the Daml compiler does. The fake's own writer, with
// protobuf-ts: it shares nothing with the product's reader.
import { createHash } from 'node:crypto';
import { BinaryWriter, WireType, type IBinaryWriter } from '@protobuf-ts/runtime';

/** BuiltinType of daml_lf2.proto (TEXTMAP as in LF 2.1 and 2.2). */
const BUILTIN = {
  Unit: 0,
  Bool: 1,
  Int64: 2,
  Date: 3,
  Timestamp: 4,
  Numeric: 5,
  Party: 6,
  Text: 7,
  ContractId: 8,
  Optional: 9,
  List: 10,
  GenMap: 11,
  TextMap: 1001,
} as const;

export type LfT =
  | { builtin: keyof typeof BUILTIN; args?: LfT[] }
  /** A type constructor: `Module:Name` of this package, or `<package id>:Module:Name`. */
  | { con: string; args?: LfT[] }
  | { tyvar: string }
  | { nat: number };

export const T = {
  unit: { builtin: 'Unit' } as LfT,
  bool: { builtin: 'Bool' } as LfT,
  int: { builtin: 'Int64' } as LfT,
  date: { builtin: 'Date' } as LfT,
  time: { builtin: 'Timestamp' } as LfT,
  party: { builtin: 'Party' } as LfT,
  text: { builtin: 'Text' } as LfT,
  numeric: (n: number): LfT => ({ builtin: 'Numeric', args: [{ nat: n }] }),
  cid: (t: LfT): LfT => ({ builtin: 'ContractId', args: [t] }),
  optional: (t: LfT): LfT => ({ builtin: 'Optional', args: [t] }),
  list: (t: LfT): LfT => ({ builtin: 'List', args: [t] }),
  textMap: (t: LfT): LfT => ({ builtin: 'TextMap', args: [t] }),
  genMap: (k: LfT, v: LfT): LfT => ({ builtin: 'GenMap', args: [k, v] }),
  con: (name: string, ...args: LfT[]): LfT => ({ con: name, args }),
  v: (name: string): LfT => ({ tyvar: name }),
};

export type Fields = [name: string, type: LfT][];

export interface ChoiceDesc {
  name: string;
  consuming?: boolean;
  /** The argument record's fields (a record named as the choice); none for a choice without arguments. */
  fields?: Fields;
  returns: LfT;
}

export interface ModuleDesc {
  name: string;
  records?: { name: string; params?: string[]; fields: Fields }[];
  variants?: { name: string; params?: string[]; constructors: Fields }[];
  enums?: { name: string; values: string[] }[];
  /** Each also defines its argument record (its fields). */
  templates?: { name: string; fields: Fields; key?: LfT; choices?: ChoiceDesc[]; implements?: string[] }[];
  interfaces?: { name: string; view: LfT; choices?: ChoiceDesc[] }[];
}

export interface PackageDesc {
  name: string;
  version: string;
  modules: ModuleDesc[];
}

type W = IBinaryWriter;

/** The interning tables, filled while the package is written. */
class Interner {
  readonly strings: string[] = [];
  readonly dnames: number[][] = [];
  readonly types: Uint8Array[] = [];
  private readonly stringIx = new Map<string, number>();
  private readonly dnameIx = new Map<string, number>();
  private readonly typeIx = new Map<string, number>();

  str(s: string): number {
    let i = this.stringIx.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.stringIx.set(s, i);
    }
    return i;
  }

  dname(d: string): number {
    let i = this.dnameIx.get(d);
    if (i === undefined) {
      const segments = d.split('.').map((s) => this.str(s));
      i = this.dnames.push(segments) - 1;
      this.dnameIx.set(d, i);
    }
    return i;
  }

  /** A type as an index into interned_types: the types it uses are interned first, as the table requires. */
  type(t: LfT): number {
    const key = JSON.stringify(t);
    let i = this.typeIx.get(key);
    if (i === undefined) {
      const bytes = this.typeBody(t);
      i = this.types.push(bytes) - 1;
      this.typeIx.set(key, i);
    }
    return i;
  }

  /** Type (var = 1, con = 2, builtin = 3, nat = 6); args are Type { interned = 8 }. */
  private typeBody(t: LfT): Uint8Array {
    const w = new BinaryWriter();
    if ('nat' in t) return w.tag(6, WireType.Varint).sint64(t.nat).finish();
    if ('tyvar' in t) {
      w.tag(1, WireType.LengthDelimited).fork().tag(3, WireType.Varint).int32(this.str(t.tyvar)).join();
      return w.finish();
    }
    if ('builtin' in t) {
      const argIx = (t.args ?? []).map((a) => this.type(a));
      w.tag(3, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int32(BUILTIN[t.builtin]);
      for (const ix of argIx) w.tag(2, WireType.LengthDelimited).fork().tag(8, WireType.Varint).int32(ix).join();
      return w.join().finish();
    }
    const argIx = (t.args ?? []).map((a) => this.type(a));
    w.tag(2, WireType.LengthDelimited).fork();
    this.tycon(w.tag(1, WireType.LengthDelimited), t.con);
    for (const ix of argIx) w.tag(2, WireType.LengthDelimited).fork().tag(8, WireType.Varint).int32(ix).join();
    return w.join().finish();
  }

  /** TypeConId (module = 1 { package_id = 1 { self = 1 | imported str = 3 }, name dname = 2 }, name dname = 2), as one message. */
  tycon(w: W, ref: string): W {
    const parts = ref.split(':');
    const [pkg, module, name] = parts.length === 3 ? parts : [undefined, parts[0], parts[1]];
    w.fork().tag(1, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).fork();
    if (pkg === undefined) w.tag(1, WireType.LengthDelimited).fork().join();
    else w.tag(3, WireType.Varint).int32(this.str(pkg));
    w.join().tag(2, WireType.Varint).int32(this.dname(module)).join();
    return w.tag(2, WireType.Varint).int32(this.dname(name)).join();
  }
}

/** Writes `Type { interned = i }` as field `field`. */
const typeField = (w: W, field: number, i: number) => w.tag(field, WireType.LengthDelimited).fork().tag(8, WireType.Varint).int32(i).join();

/** FieldWithType (field_interned_str = 3, type = 2). */
const fieldWithType = (w: W, field: number, n: Interner, [name, t]: [string, LfT]) =>
  typeField(w.tag(field, WireType.LengthDelimited).fork().tag(3, WireType.Varint).int32(n.str(name)), 2, n.type(t)).join();

/** DefDataType (name = 2, params = 3, serializable = 4, record = 5 | variant = 6 | enum = 7 | interface = 8). */
function dataType(w: W, n: Interner, name: string, params: string[], body: (x: W) => void): void {
  w.tag(4, WireType.LengthDelimited).fork().tag(2, WireType.Varint).int32(n.dname(name));
  // TypeVarWithKind (var = 3, kind = 2 { star = 1 }).
  for (const p of params)
    w.tag(3, WireType.LengthDelimited)
      .fork()
      .tag(3, WireType.Varint)
      .int32(n.str(p))
      .tag(2, WireType.LengthDelimited)
      .fork()
      .tag(1, WireType.LengthDelimited)
      .fork()
      .join()
      .join()
      .join();
  w.tag(4, WireType.Varint).bool(true);
  body(w);
  w.join();
}

const record = (n: Interner, fields: Fields) => (x: W) => {
  x.tag(5, WireType.LengthDelimited).fork();
  for (const f of fields) fieldWithType(x, 1, n, f);
  x.join();
};

/** TemplateChoice (name = 2, consuming = 3, arg_binder = 6 { var = 3, type = 2 }, ret_type = 8, self_binder = 10). */
function choice(w: W, field: number, n: Interner, module: string, c: ChoiceDesc): void {
  w.tag(field, WireType.LengthDelimited).fork().tag(2, WireType.Varint).int32(n.str(c.name));
  if (c.consuming !== false) w.tag(3, WireType.Varint).bool(true);
  w.tag(6, WireType.LengthDelimited).fork().tag(3, WireType.Varint).int32(n.str('arg'));
  typeField(w, 2, n.type(T.con(`${module}:${c.name}`))).join();
  typeField(w, 8, n.type(c.returns));
  w.tag(10, WireType.Varint).int32(n.str('self')).join();
}

/** Every template has `Archive`, as the compiler gives it (here with its argument record in the template's module). */
export const ARCHIVE: ChoiceDesc = { name: 'Archive', returns: T.unit };

function moduleBytes(n: Interner, m: ModuleDesc): Uint8Array {
  const templates = (m.templates ?? []).map((t) => ({ ...t, choices: [ARCHIVE, ...(t.choices ?? [])] }));
  const w = new BinaryWriter().tag(1, WireType.Varint).int32(n.dname(m.name));
  for (const r of m.records ?? []) dataType(w, n, r.name, r.params ?? [], record(n, r.fields));
  for (const v of m.variants ?? [])
    dataType(w, n, v.name, v.params ?? [], (x) => {
      x.tag(6, WireType.LengthDelimited).fork();
      for (const c of v.constructors) fieldWithType(x, 1, n, c);
      x.join();
    });
  for (const e of m.enums ?? [])
    dataType(w, n, e.name, [], (x) => {
      x.tag(7, WireType.LengthDelimited).fork().tag(2, WireType.LengthDelimited).fork();
      for (const v of e.values) x.int32(n.str(v));
      x.join().join();
    });
  const choices = new Map([...templates.flatMap((t) => t.choices ?? []), ...(m.interfaces ?? []).flatMap((i) => i.choices ?? [])].map((c) => [c.name, c]));
  for (const t of templates) dataType(w, n, t.name, [], record(n, t.fields));
  for (const c of choices.values()) dataType(w, n, c.name, [], record(n, c.fields ?? []));
  for (const i of m.interfaces ?? []) dataType(w, n, i.name, [], (x) => x.tag(8, WireType.LengthDelimited).fork().join());
  // DefTemplate (tycon = 1, param = 2, choices = 6, key = 9 { type = 1 }, implements = 10 { interface = 1 }).
  for (const t of templates) {
    w.tag(6, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int32(n.dname(t.name)).tag(2, WireType.Varint).int32(n.str('this'));
    for (const c of t.choices ?? []) choice(w, 6, n, m.name, c);
    if (t.key) typeField(w.tag(9, WireType.LengthDelimited).fork(), 1, n.type(t.key)).join();
    for (const i of t.implements ?? []) n.tycon(w.tag(10, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited), i).join();
    w.join();
  }
  // DefInterface (tycon = 2, param = 4, choices = 5, view = 6).
  for (const i of m.interfaces ?? []) {
    w.tag(8, WireType.LengthDelimited).fork().tag(2, WireType.Varint).int32(n.dname(i.name)).tag(4, WireType.Varint).int32(n.str('this'));
    for (const c of i.choices ?? []) choice(w, 5, n, m.name, c);
    typeField(w, 6, n.type(i.view)).join();
  }
  return w.finish();
}

/** The ArchivePayload (minor = 3, daml_lf_2 = 4) of a package: its hex SHA-256 is the package id. */
export function lfPayload(p: PackageDesc): Uint8Array {
  const n = new Interner();
  const name = n.str(p.name);
  const version = n.str(p.version);
  const modules = p.modules.map((m) => moduleBytes(n, m));
  const w = new BinaryWriter();
  for (const m of modules) w.tag(1, WireType.LengthDelimited).bytes(m);
  for (const s of n.strings) w.tag(2, WireType.LengthDelimited).string(s);
  for (const d of n.dnames) {
    w.tag(3, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).fork();
    for (const s of d) w.int32(s);
    w.join().join();
  }
  w.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int32(name).tag(2, WireType.Varint).int32(version).join();
  for (const t of n.types) w.tag(5, WireType.LengthDelimited).bytes(t);
  const payload = new BinaryWriter().tag(3, WireType.LengthDelimited).string('1').tag(4, WireType.LengthDelimited).bytes(w.finish()).finish();
  described.set(packageIdOfPayload(payload), p);
  if (described.size > 500) {
    const oldest = [...described.keys()].find((id) => !kept.has(id));
    if (oldest !== undefined) described.delete(oldest);
  }
  return payload;
}

// The descriptions of the packages written here by id (the latest 500, and those kept for the
// process, as the partner app's): what the definitions service (definitionsRoutes.ts) answers
// from, as Canton answers from the packages it decoded.
const described = new Map<string, PackageDesc>();
const kept = new Set<string>();

/** Keeps the description of a package every node of the process serves (never one of the latest 500 forgotten). */
export function keepDescription(packageId: string): void {
  kept.add(packageId);
}

/** The description a package id was written from in this process, if it was. */
export const describedPackage = (packageId: string): PackageDesc | undefined => described.get(packageId);

export const packageIdOfPayload = (payload: Uint8Array) => createHash('sha256').update(payload).digest('hex');

/** The Archive (hash_function = 1, payload = 3, hash = 4) a DALF holds. */
export function lfArchive(payload: Uint8Array): Uint8Array {
  return new BinaryWriter()
    .tag(1, WireType.Varint)
    .int32(0)
    .tag(3, WireType.LengthDelimited)
    .bytes(payload)
    .tag(4, WireType.LengthDelimited)
    .string(packageIdOfPayload(payload))
    .finish();
}
