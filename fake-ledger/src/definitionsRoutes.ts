// Canton's optional Daml definitions service (`http-ledger-api.daml-definitions-service-enabled`,
// off by default; JsDamlDefinitionsService.scala, the same on 3.4, 3.5 and 3.6): a package's type
// signature, every template id, one template's definition, as JSON built by circe's derived codecs
// (damldefinitionsservice/Schema.scala, DamlDefinitionsBuilders.scala, daml-lf's TypeSig.scala).
// Computed from the descriptions the fake's packages were written from (lfEncode.ts): a package
// the fake holds no description of answers `null`, as one Canton does not have. Any valid token
// may ask (the endpoints only authenticate). No `vscode` import.
import { internalError, json, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger } from './demoLedgerData';
import type { PackageCatalog } from './generatedLedger';
import { ARCHIVE, describedPackage, type ChoiceDesc, type LfT, type ModuleDesc, type PackageDesc } from './lfEncode';
import { packageState } from './packageRoutes';

type Json = Record<string, unknown>;
type Kind = 'record' | 'variant' | 'enum' | 'interface' | 'template';

export interface DefinitionsOptions {
  /** Serve Canton's Daml definitions service (`daml-definitions-service-enabled`); off by default, as in Canton. */
  definitionsService?: boolean;
}

/** What the routes read of the node: whether the service is on (else its paths are unknown: 404), its packages. */
interface DefinitionsNode {
  definitionsService: boolean;
  readonly ledger: DemoLedger;
  readonly generated: { catalog(): PackageCatalog };
}

/** Canton's code throws on what is not serializable; the endpoint answers it as an internal error. */
class NotSerializable extends Error {}

const PACKAGE_ID = /^[A-Za-z0-9\-_ ]{1,64}$/;
const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

const withChoices = (m: ModuleDesc) => (m.templates ?? []).map((t) => ({ ...t, choices: [ARCHIVE, ...(t.choices ?? [])] }));

/** What a type constructor names, looked up in its package's description. */
function kindOf(id: string): Kind | undefined {
  const [pkg, module, name] = id.split(':');
  const m = describedPackage(pkg)?.modules.find((x) => x.name === module);
  if (!m) return undefined;
  if (m.records?.some((r) => r.name === name)) return 'record';
  if (m.variants?.some((v) => v.name === name)) return 'variant';
  if (m.enums?.some((e) => e.name === name)) return 'enum';
  if (m.interfaces?.some((i) => i.name === name)) return 'interface';
  if (m.templates?.some((t) => t.name === name)) return 'template';
  const choices = [...withChoices(m).flatMap((t) => t.choices), ...(m.interfaces ?? []).flatMap((i) => i.choices ?? [])];
  return choices.some((c) => c.name === name) ? 'record' : undefined;
}

const full = (pkg: string, ref: string) => (ref.split(':').length === 3 ? ref : `${pkg}:${ref}`);
const SIMPLE: Record<string, string> = { Int64: 'Int64', Text: 'Text', Timestamp: 'Timestamp', Party: 'Party', Unit: 'Unit', Bool: 'Bool', Date: 'Date' };

/** TypeSig.SerializableType as circe writes it: `{"Constructor": {fields}}`, a case object as `{"Int64": {}}`. */
function serializable(pkg: string, t: LfT): Json {
  if ('tyvar' in t) return { Var: { name: t.tyvar } };
  if ('nat' in t) throw new NotSerializable();
  const args = t.args ?? [];
  if ('con' in t) {
    const id = full(pkg, t.con);
    const kind = kindOf(id);
    if (kind === 'enum') return { Enum: { tycon: id } };
    if (kind === 'record' || kind === 'template') return { Record: { tyCon: id, params: args.map((a) => serializable(pkg, a)) } };
    if (kind === 'variant') return { Variant: { tyCon: id, params: args.map((a) => serializable(pkg, a)) } };
    throw new NotSerializable();
  }
  if (args.length === 0 && SIMPLE[t.builtin]) return { [SIMPLE[t.builtin]]: {} };
  const [a, b] = args;
  switch (t.builtin) {
    case 'Numeric':
      if (a && 'nat' in a) return { Numeric: { scale: a.nat } };
      break;
    case 'List':
    case 'Optional':
      return { [t.builtin]: { typ: serializable(pkg, a) } };
    case 'ContractId': {
      const id = 'con' in a ? full(pkg, a.con) : undefined;
      const kind = id && kindOf(id);
      const typeId = kind === 'template' ? { Template: { tycon: id } } : kind === 'interface' ? { Interface: { tycon: id } } : null;
      return { ContractId: { typeId } };
    }
    // DamlDefinitionsBuilders writes a TextMap as a GenMap with Text keys.
    case 'TextMap':
      return { GenMap: { k: { Text: {} }, v: serializable(pkg, a) } };
    case 'GenMap':
      return { GenMap: { k: serializable(pkg, a), v: serializable(pkg, b) } };
  }
  throw new NotSerializable();
}

const choiceSig = (pkg: string, module: string, c: ChoiceDesc) => ({
  consuming: c.consuming !== false,
  argType: { Record: { tyCon: `${pkg}:${module}:${c.name}`, params: [] } },
  returnType: serializable(pkg, c.returns),
});

const fieldsOf = (pkg: string, fields: [string, LfT][]) => Object.fromEntries(fields.map(([n, t]) => [n, serializable(pkg, t)]));

/** The package's TypeSig (Schema.scala): its serializable data types, templates and interfaces by `pkg:Module:Name`. */
export function typeSig(pkg: string, desc: PackageDesc): Json {
  const sig = { enumDefs: {} as Json, variantDefs: {} as Json, recordDefs: {} as Json, templateDefs: {} as Json, interfaceDefs: {} as Json };
  for (const m of desc.modules) {
    const id = (name: string) => `${pkg}:${m.name}:${name}`;
    const templates = withChoices(m);
    for (const r of m.records ?? []) sig.recordDefs[id(r.name)] = { params: r.params ?? [], fields: fieldsOf(pkg, r.fields) };
    for (const v of m.variants ?? []) sig.variantDefs[id(v.name)] = { params: v.params ?? [], constructor: fieldsOf(pkg, v.constructors) };
    for (const e of m.enums ?? []) sig.enumDefs[id(e.name)] = { constructor: e.values };
    for (const t of templates) sig.recordDefs[id(t.name)] = { params: [], fields: fieldsOf(pkg, t.fields) };
    for (const c of [...templates.flatMap((t) => t.choices), ...(m.interfaces ?? []).flatMap((i) => i.choices ?? [])])
      sig.recordDefs[id(c.name)] = { params: [], fields: fieldsOf(pkg, c.fields ?? []) };
    for (const t of templates)
      sig.templateDefs[id(t.name)] = {
        key: t.key ? serializable(pkg, t.key) : null,
        choices: Object.fromEntries(t.choices.map((c) => [c.name, choiceSig(pkg, m.name, c)])),
        implements: (t.implements ?? []).map((i) => full(pkg, i)),
      };
    for (const i of m.interfaces ?? [])
      sig.interfaceDefs[id(i.name)] = {
        choices: Object.fromEntries((i.choices ?? []).map((c) => [c.name, choiceSig(pkg, m.name, c)])),
        viewType: serializable(pkg, i.view),
      };
  }
  return sig;
}

/** The first type constructor a type names (DamlDefinitionsBuilders.extractFirstLevelTypeCons). */
function firstTypeCon(t: Json): string | undefined {
  const [[k, v]] = Object.entries(t) as [string, Json][];
  if (k === 'Enum') return v.tycon as string;
  if (k === 'Record' || k === 'Variant') return v.tyCon as string;
  if (k === 'ContractId') return v.typeId ? ((Object.values(v.typeId as Json)[0] as Json).tycon as string) : undefined;
  if (k === 'List' || k === 'Optional') return firstTypeCon(v.typ as Json);
  if (k === 'GenMap') return firstTypeCon(v.k as Json) ?? firstTypeCon(v.v as Json);
  return undefined;
}

/** One template's definition (DamlDefinitionsBuilders.buildTemplateDefinition) over every described package. */
function templateDefinition(templateId: string, packageIds: string[]): Json | null {
  const global = { enumDefs: {} as Json, variantDefs: {} as Json, recordDefs: {} as Json, templateDefs: {} as Json, interfaceDefs: {} as Json };
  for (const pkg of packageIds) {
    const desc = describedPackage(pkg);
    if (!desc) continue;
    for (const [k, v] of Object.entries(typeSig(pkg, desc))) Object.assign(global[k as keyof typeof global], v);
  }
  const tpl = global.templateDefs[templateId] as { key: Json | null; choices: Record<string, Json>; implements: string[] } | undefined;
  if (!tpl) return null;
  const definitions: Json = {};
  const gather = (queue: string[]) => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (id in definitions) continue;
      const r = global.recordDefs[id] as { fields: Record<string, Json> } | undefined;
      const v = global.variantDefs[id] as { constructor: Record<string, Json> } | undefined;
      const e = global.enumDefs[id];
      if (r) definitions[id] = { RecordSig: r };
      else if (v) definitions[id] = { VariantSig: v };
      else if (e) definitions[id] = { EnumSig: e };
      for (const t of Object.values(r?.fields ?? v?.constructor ?? {})) {
        const next = firstTypeCon(t);
        if (next) queue.push(next);
      }
    }
  };
  const choices = (cs: Record<string, Json>) =>
    Object.fromEntries(
      Object.entries(cs).map(([name, c]) => {
        const arg = ((c.argType as Json).Record as Json).tyCon as string;
        gather([arg]);
        const ret = firstTypeCon(c.returnType as Json);
        if (ret) gather([ret]);
        return [name, { consuming: c.consuming, arguments: global.recordDefs[arg], returnType: c.returnType }];
      }),
    );
  const args = global.recordDefs[templateId] as { fields: Record<string, Json> };
  for (const t of Object.values(args.fields)) {
    const next = firstTypeCon(t);
    if (next) gather([next]);
  }
  const implemented = Object.fromEntries(
    tpl.implements.map((iid) => {
      const i = global.interfaceDefs[iid] as { choices: Record<string, Json>; viewType: Json };
      const view = firstTypeCon(i.viewType) as string;
      gather([view]);
      return [iid, { choices: choices(i.choices), viewType: global.recordDefs[view] }];
    }),
  );
  return { arguments: args, key: tpl.key, choices: choices(tpl.choices), implements: implemented, definitions };
}

interface DefinitionsEndpoint {
  method: 'GET';
  served: () => boolean;
  noBody: true;
  rights: () => undefined;
  handle: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply;
}

/** Canton's handler throws on a malformed id or a type it cannot serialize: the endpoint's 500. */
const guarded = (answer: () => unknown): ErrorReply => {
  try {
    return json(200, answer());
  } catch (e) {
    if (e instanceof NotSerializable || e instanceof RangeError) return internalError();
    throw e;
  }
};

export function definitionsEndpoints(node: () => DefinitionsNode): Record<string, DefinitionsEndpoint> {
  const ctx = {
    enabled: () => node().definitionsService,
    packageIds: () => [...packageState(node().ledger, node().generated.catalog()).packages.keys()],
    // The templates of the node's generated contracts, which the fake holds no description of.
    moreTemplates: () => [...node().generated.catalog().templates.keys()],
  };
  const route = (handle: DefinitionsEndpoint['handle']): DefinitionsEndpoint => ({
    method: 'GET',
    served: ctx.enabled,
    noBody: true,
    rights: () => undefined,
    handle,
  });
  return {
    '/v2/definitions/packages/{package-signature}': route((_u, _b, _q, params) =>
      guarded(() => {
        const id = params['package-signature'] ?? '';
        if (!PACKAGE_ID.test(id)) throw new RangeError(`Invalid package ID: ${id}`);
        const desc = ctx.packageIds().includes(id) ? describedPackage(id) : undefined;
        return desc ? typeSig(id, desc) : null;
      }),
    ),
    '/v2/definitions/templates': route(() =>
      guarded(() => {
        const described = ctx
          .packageIds()
          .flatMap((pkg) => (describedPackage(pkg)?.modules ?? []).flatMap((m) => (m.templates ?? []).map((t) => `${pkg}:${m.name}:${t.name}`)));
        return { templates: [...new Set([...described, ...ctx.moreTemplates()])] };
      }),
    ),
    '/v2/definitions/templates/{template-id}': route((_u, _b, _q, params) =>
      guarded(() => {
        const id = params['template-id'] ?? '';
        const [pkg, module, name, ...rest] = id.split(':');
        if (rest.length > 0 || !PACKAGE_ID.test(pkg) || !NAME.test(module ?? '') || !NAME.test(name ?? '')) throw new RangeError(`Invalid template ID: ${id}`);
        return templateDefinition(id, ctx.packageIds());
      }),
    ),
  };
}
