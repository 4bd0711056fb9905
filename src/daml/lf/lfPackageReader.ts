// Reads one Daml-LF 2 package (daml_lf2.proto: Package and below); lfDecode.ts checks the archive
// around it. Field numbers are in each reader's comment. Each message is read in place (lfWire.ts),
// expressions (Module.values) are stepped over by their length, and interned types are decoded
// when first used. A large package is mostly objects to build: the whole package is read once
// without building them (a damaged package is refused then, never later), and each module's
// definitions are built when first asked for.
import * as l10n from '../../l10n/l10n';
import type { LfChoice, LfDataType, LfField, LfInterface, LfModule, LfTemplate, LfType, LfTypeRef } from './lfSignatures';
import { LfTypeReader } from './lfTypeReader';
import { LfError, UNIT } from './lfWire';

export { LfError, readMessage } from './lfWire';

export interface PackageContents {
  name: string;
  version: string;
  modules: LfModule[];
}

const LAZY = ['dataTypes', 'templates', 'interfaces'] as const;

// What the definition readers answer while checking (never kept).
const DRY_CHOICE: LfChoice = Object.freeze({ name: '', consuming: false, argType: UNIT, returnType: UNIT });
const DRY_DATA: LfDataType = Object.freeze({ kind: 'interface', name: '', params: [], serializable: false });
const DRY_TEMPLATE: LfTemplate = Object.freeze({ name: '', choices: [], implements: [] });
const DRY_INTERFACE: LfInterface = Object.freeze({ name: '', viewType: UNIT, choices: [], requires: [] });

/** The definitions of a package, over its type reader: modules, data types, templates, interfaces. */
export class PackageReader extends LfTypeReader {
  // Modules not built yet: the shared fields are let go once none is left.
  private unbuilt = 0;

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
    this.sizeTables();
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
    this.dry = true;
    for (let i = 0; i < moduleAt.length; i += 2) {
      r.pos = moduleAt[i];
      modules.push(this.lazyModule(this.module(moduleAt[i + 1]).name, moduleAt[i], moduleAt[i + 1]));
    }
    this.dry = false;
    this.unbuilt = modules.length;
    return { name: this.str(nameIx), version: this.str(versionIx), modules };
  }

  /**
   * A module whose definitions are built on first use of any of them: plain enumerable properties
   * once built, so it compares, clones and serializes as a plain object.
   */
  private lazyModule(name: string, start: number, end: number): LfModule {
    const m = { name } as LfModule;
    const build = () => {
      const back = this.r.pos;
      this.r.pos = start;
      const full = this.module(end);
      this.r.pos = back;
      for (const k of LAZY) Object.defineProperty(m, k, { value: full[k], enumerable: true, writable: true, configurable: true });
      if (--this.unbuilt === 0) this.sharedFields.length = 0;
    };
    for (const k of LAZY)
      Object.defineProperty(m, k, {
        enumerable: true,
        configurable: true,
        get: () => {
          build();
          return m[k];
        },
        set: (v: never) => Object.defineProperty(m, k, { value: v, enumerable: true, writable: true, configurable: true }),
      });
    return m;
  }

  /** DefDataType.Fields / .Constructors (fields = 1). */
  private fields(end: number): LfField[] {
    const r = this.r;
    const out: LfField[] = [];
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag >>> 3 === 1) this.push(out, this.field(this.open(tag, end)));
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
    if (this.dry) return DRY_DATA;
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
    const name = this.str(nameIx);
    return this.dry ? DRY_CHOICE : { name, consuming, argType, returnType };
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
          this.push(choices, this.choice(this.open(tag, end)));
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
    const name = this.dname(nameIx);
    if (this.dry) return DRY_TEMPLATE;
    const t: LfTemplate = { name, choices, implements: implemented };
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
          this.push(choices, this.choice(this.open(tag, end)));
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
    const name = this.dname(nameIx);
    return this.dry ? DRY_INTERFACE : { name, viewType, choices, requires };
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
          this.push(m.dataTypes, this.dataType(this.open(tag, end)));
          break;
        case 6:
          this.push(m.templates, this.template(this.open(tag, end)));
          break;
        case 8:
          this.push(m.interfaces, this.iface(this.open(tag, end)));
          break;
        default:
          this.skip(tag, end);
      }
    }
    m.name = this.dname(nameIx);
    return m;
  }
}
