// The answers of Canton's optional Daml definitions service (`/v2/definitions/…`, off by default:
// `http-ledger-api.daml-definitions-service-enabled`; JsDamlDefinitionsService.scala, the same on
// 3.4, 3.5 and 3.6), as circe's derived codecs write them (damldefinitionsservice/Schema.scala and
// daml-lf's TypeSig.scala): a sealed type is `{"Constructor": {fields}}`, a case object
// `{"Int64": {}}`, an absent Option `null`, a type constructor `pkg:Module:Name`. None of it is in
// the node's OpenAPI document. Mapped onto the decoder's signature types. Pure.
import type { LfDataType, LfField, LfModule, LfType, LfTypeRef, PackageSignature } from './lfSignatures';

/** TypeSig.SerializableType. */
export type DefType =
  | { Enum: { tycon: string } }
  | { Int64: Record<string, never> }
  | { Numeric: { scale: number } }
  | { Text: Record<string, never> }
  | { Timestamp: Record<string, never> }
  | { Date: Record<string, never> }
  | { Party: Record<string, never> }
  | { Bool: Record<string, never> }
  | { Unit: Record<string, never> }
  | { Record: { tyCon: string; params: DefType[] } }
  | { Variant: { tyCon: string; params: DefType[] } }
  /** `typeId` null when the contract id's type is not a template or interface (a type variable). */
  | { ContractId: { typeId: { Template: { tycon: string } } | { Interface: { tycon: string } } | null } }
  | { List: { typ: DefType } }
  | { Optional: { typ: DefType } }
  /** Also a TextMap: DamlDefinitionsBuilders writes it as a GenMap with Text keys. */
  | { GenMap: { k: DefType; v: DefType } }
  | { Var: { name: string } };

export interface DefRecordSig {
  params: string[];
  /** In declaration order (a VectorMap). */
  fields: Record<string, DefType>;
}
export interface DefVariantSig {
  params: string[];
  constructor: Record<string, DefType>;
}
export interface DefEnumSig {
  constructor: string[];
}
export interface DefChoiceSig {
  consuming: boolean;
  argType: DefType;
  returnType: DefType;
}

/** `GET /v2/definitions/packages/{package-id}`: 200 with this, or `null` for a package the node does not have. */
export interface DefTypeSig {
  enumDefs: Record<string, DefEnumSig>;
  variantDefs: Record<string, DefVariantSig>;
  /** Only serializable data types: records (templates' and choices' arguments among them), variants, enums. */
  recordDefs: Record<string, DefRecordSig>;
  templateDefs: Record<string, { key: DefType | null; choices: Record<string, DefChoiceSig>; implements: string[] }>;
  interfaceDefs: Record<string, { choices: Record<string, DefChoiceSig>; viewType: DefType }>;
}

/** `GET /v2/definitions/templates`: every template id of the node's packages. */
export interface DefAllTemplates {
  templates: string[];
}

/** `GET /v2/definitions/templates/{template-id}`: 200 with this, or `null`. */
export interface DefTemplateDefinition {
  arguments: DefRecordSig;
  key: DefType | null;
  choices: Record<string, { consuming: boolean; arguments: DefRecordSig; returnType: DefType }>;
  implements: Record<string, { choices: Record<string, { consuming: boolean; arguments: DefRecordSig; returnType: DefType }>; viewType: DefRecordSig }>;
  definitions: Record<string, { RecordSig: DefRecordSig } | { VariantSig: DefVariantSig } | { EnumSig: DefEnumSig }>;
}

function refOf(id: string): LfTypeRef {
  const [packageId, module, name] = id.split(':');
  if (name === undefined) throw new Error(`not a type constructor id: ${id}`);
  return { packageId, module, name };
}

const builtin = (
  b: 'Unit' | 'Bool' | 'Int64' | 'Date' | 'Timestamp' | 'Party' | 'Text' | 'Numeric' | 'ContractId' | 'Optional' | 'List' | 'GenMap',
  args: LfType[] = [],
): LfType => ({
  kind: 'builtin',
  builtin: b,
  args,
});

/** A SerializableType as the decoder's type. A contract id whose type is not said keeps a type variable `t`. */
export function defType(t: DefType): LfType {
  const [[k, v]] = Object.entries(t) as [[string, Record<string, unknown>]];
  switch (k) {
    case 'Enum':
      return { kind: 'con', ref: refOf(v.tycon as string), args: [] };
    case 'Record':
    case 'Variant':
      return { kind: 'con', ref: refOf(v.tyCon as string), args: (v.params as DefType[]).map(defType) };
    case 'Numeric':
      return builtin('Numeric', [{ kind: 'nat', value: v.scale as number }]);
    case 'ContractId': {
      const id = v.typeId ? (Object.values(v.typeId as Record<string, { tycon: string }>)[0]?.tycon ?? '') : '';
      return builtin('ContractId', [id ? { kind: 'con', ref: refOf(id), args: [] } : { kind: 'var', name: 't', args: [] }]);
    }
    case 'List':
    case 'Optional':
      return builtin(k, [defType(v.typ as DefType)]);
    case 'GenMap':
      return builtin('GenMap', [defType(v.k as DefType), defType(v.v as DefType)]);
    case 'Var':
      return { kind: 'var', name: v.name as string, args: [] };
    case 'Int64':
    case 'Text':
    case 'Timestamp':
    case 'Date':
    case 'Party':
    case 'Bool':
    case 'Unit':
      return builtin(k);
  }
  throw new Error(`unknown serializable type ${k}`);
}

const fields = (fs: Record<string, DefType>): LfField[] => Object.entries(fs).map(([name, type]) => ({ name, type: defType(type) }));
const choices = (cs: Record<string, DefChoiceSig>) =>
  Object.entries(cs).map(([name, c]) => ({ name, consuming: c.consuming, argType: defType(c.argType), returnType: defType(c.returnType) }));

/**
 * A package's TypeSig as the decoder's signature. What the service does not say: the package's
 * name and version (the caller gives them), its LF version (left empty), data types that are not
 * serializable, the interfaces an interface requires, a TextMap (it answers a GenMap with Text keys).
 */
export function signatureFromDefinitions(packageId: string, name: string, version: string, sig: DefTypeSig): PackageSignature {
  const modules = new Map<string, LfModule>();
  const moduleOf = (id: string) => {
    const { module } = refOf(id);
    let m = modules.get(module);
    if (!m) modules.set(module, (m = { name: module, dataTypes: [], templates: [], interfaces: [] }));
    return m;
  };
  const data = (id: string, d: LfDataType) => moduleOf(id).dataTypes.push(d);
  for (const [id, r] of Object.entries(sig.recordDefs))
    data(id, { kind: 'record', name: refOf(id).name, params: r.params, serializable: true, fields: fields(r.fields) });
  for (const [id, v] of Object.entries(sig.variantDefs))
    data(id, { kind: 'variant', name: refOf(id).name, params: v.params, serializable: true, constructors: fields(v.constructor) });
  for (const [id, e] of Object.entries(sig.enumDefs)) data(id, { kind: 'enum', name: refOf(id).name, params: [], serializable: true, values: e.constructor });
  for (const [id, t] of Object.entries(sig.templateDefs)) {
    const tpl = { name: refOf(id).name, choices: choices(t.choices), implements: t.implements.map(refOf) };
    moduleOf(id).templates.push(t.key ? { ...tpl, keyType: defType(t.key) } : tpl);
  }
  for (const [id, i] of Object.entries(sig.interfaceDefs))
    moduleOf(id).interfaces.push({ name: refOf(id).name, viewType: defType(i.viewType), choices: choices(i.choices), requires: [] });
  return { packageId, name, version, lfVersion: '', modules: [...modules.values()] };
}
