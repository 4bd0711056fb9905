// What completes in a *.commands.json from Daml-LF signatures (the node's packages, a DAR's): template
// and interface ids by package name (`#name:Module:Entity`) and by package id, a template's or an
// interface's choices, the fields of a create or choice argument with their types, and a JSON
// skeleton of any argument in the JSON API's forms: records expanded, a variant as its first
// constructor (the others named in the notes), an enum as its first value (the others named),
// `Optional` as null, numbers, dates and times as the strings the JSON API writes. Pure.
import { showType, type LfChoice, type LfDataType, type LfInterface, type LfTemplate, type LfType, type PackageSignature } from './lfSignatures';

export interface LfCandidate {
  label: string;
  detail: string;
  kind: 'template' | 'interface' | 'choice';
}

/** Versions compared as dotted numbers (`1.10.0` after `1.9.0`). */
function newer(a: string, b: string): boolean {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  return false;
}

/** Of each package name, the highest version: what a `#name` id resolves to when nothing else picks. */
function latestByName(sigs: readonly PackageSignature[]): Map<string, PackageSignature> {
  const out = new Map<string, PackageSignature>();
  for (const s of sigs) {
    const known = out.get(s.name);
    if (!known || newer(s.version, known.version)) out.set(s.name, s);
  }
  return out;
}

/** By code unit: localeCompare over thousands of ids took most of a completion, and VS Code orders the list again itself. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const candidatesOf = new WeakMap<readonly PackageSignature[], LfCandidate[]>();

// A package's candidates by its name and by its id, sorted: a signature is kept for the session
// (its id never changes meaning), so a node's list read again finds its packages' candidates made.
const packageCandidates = new WeakMap<PackageSignature, { byName: LfCandidate[]; byId: LfCandidate[] }>();

function candidatesOfPackage(s: PackageSignature): { byName: LfCandidate[]; byId: LfCandidate[] } {
  const known = packageCandidates.get(s);
  if (known) return known;
  const details = { template: `${s.name} ${s.version} · template`, interface: `${s.name} ${s.version} · interface` };
  const entities: { label: string; kind: 'template' | 'interface' }[] = [];
  for (const m of s.modules) {
    for (const t of m.templates) entities.push({ label: `${m.name}:${t.name}`, kind: 'template' });
    for (const i of m.interfaces) entities.push({ label: `${m.name}:${i.name}`, kind: 'interface' });
  }
  entities.sort((a, b) => cmp(a.label, b.label));
  const made = {
    byName: entities.map((e) => ({ label: `#${s.name}:${e.label}`, detail: details[e.kind], kind: e.kind })),
    byId: entities.map((e) => ({ label: `${s.packageId}:${e.label}`, detail: details[e.kind], kind: e.kind })),
  };
  packageCandidates.set(s, made);
  return made;
}

/**
 * Every template and interface, by package name and by package id. Library packages (daml-prim,
 * daml-stdlib) have none worth listing. Kept per list of signatures: a node's list is reused
 * between keystrokes.
 */
export function lfTemplateCandidates(sigs: readonly PackageSignature[]): LfCandidate[] {
  const known = candidatesOf.get(sigs);
  if (known) return known;
  const list: LfCandidate[] = [];
  const seen = new Set<string>();
  const latest = latestByName(sigs);
  // Packages in order of `name:` and of id, so the labels come out sorted without comparing them all.
  const byKey = (key: (s: PackageSignature) => string) => [...sigs].map((s) => ({ s, k: key(s) })).sort((a, b) => cmp(a.k, b.k));
  for (const { s } of byKey((x) => `${x.name}:`)) if (latest.get(s.name) === s) for (const c of candidatesOfPackage(s).byName) list.push(c);
  for (const { s } of byKey((x) => x.packageId)) {
    if (seen.has(s.packageId)) continue;
    seen.add(s.packageId);
    for (const c of candidatesOfPackage(s).byId) list.push(c);
  }
  candidatesOf.set(sigs, list);
  return list;
}

interface Resolved {
  sig: PackageSignature;
  module: string;
  template?: LfTemplate;
  iface?: LfInterface;
}

/** The template or interface a template id names (`#name:M:E` resolves to the name's highest version). */
export function resolveEntity(sigs: readonly PackageSignature[], templateId: string): Resolved | undefined {
  const parts = templateId.split(':');
  if (parts.length !== 3) return undefined;
  const [pkg, module, entity] = parts;
  const sig = pkg.startsWith('#') ? latestByName(sigs).get(pkg.slice(1)) : sigs.find((s) => s.packageId === pkg);
  const m = sig?.modules.find((x) => x.name === module);
  if (!sig || !m) return undefined;
  const template = m.templates.find((t) => t.name === entity);
  const iface = m.interfaces.find((i) => i.name === entity);
  return template || iface ? { sig, module, template, iface } : undefined;
}

function choicesOf(r: Resolved): LfChoice[] {
  return r.template?.choices ?? r.iface?.choices ?? [];
}

/** The data type a type constructor names, with its arguments; undefined for others or one the signatures lack. */
export const lookup = (sigs: readonly PackageSignature[], t: LfType): { dt: LfDataType; args: LfType[] } | undefined => {
  if (t.kind !== 'con') return undefined;
  const dt = sigs
    .find((s) => s.packageId === t.ref.packageId)
    ?.modules.find((m) => m.name === t.ref.module)
    ?.dataTypes.find((d) => d.name === t.ref.name);
  return dt ? { dt, args: t.args } : undefined;
};

/** The fields of a record type (its type arguments put in), or none. */
export function recordFields(sigs: readonly PackageSignature[], t: LfType): { name: string; type: LfType }[] {
  const found = lookup(sigs, t);
  if (!found || found.dt.kind !== 'record') return [];
  const env = new Map(found.dt.params.map((p, i) => [p, found.args[i]] as [string, LfType]));
  return found.dt.fields.map((f) => ({ name: f.name, type: substitute(f.type, env) }));
}

/** `t` with the type parameters in `env` put in. */
export function substitute(t: LfType, env: Map<string, LfType | undefined>): LfType {
  switch (t.kind) {
    case 'var': {
      const bound = env.get(t.name);
      return bound && t.args.length === 0 ? bound : { ...t, args: t.args.map((a) => substitute(a, env)) };
    }
    case 'con':
    case 'syn':
    case 'builtin':
      return { ...t, args: t.args.map((a) => substitute(a, env)) };
    default:
      return t;
  }
}

/** The choices of a template or interface, with their argument's fields and their result. */
export function lfChoiceCandidates(sigs: readonly PackageSignature[], templateId: string): (LfCandidate & { fields: { name: string; type: string }[] })[] {
  const r = resolveEntity(sigs, templateId);
  if (!r) return [];
  return choicesOf(r).map((c) => {
    const fields = recordFields(sigs, c.argType).map((f) => ({ name: f.name, type: showType(f.type) }));
    const args = fields.map((f) => `${f.name} : ${f.type}`).join(', ') || '()';
    return { label: c.name, detail: `${c.consuming ? '' : 'nonconsuming · '}${args} → ${showType(c.returnType)}`, kind: 'choice', fields };
  });
}

/** The argument type of a create (`choice` undefined) or of a choice. */
export function argumentType(sigs: readonly PackageSignature[], templateId: string, choice: string | undefined): LfType | undefined {
  const r = resolveEntity(sigs, templateId);
  if (!r) return undefined;
  if (choice === undefined)
    return r.template ? { kind: 'con', ref: { packageId: r.sig.packageId, module: r.module, name: r.template.name }, args: [] } : undefined;
  return choicesOf(r).find((c) => c.name === choice)?.argType;
}

/** The fields of a create or choice argument, with their Daml types. */
export function lfArgumentFields(sigs: readonly PackageSignature[], templateId: string, choice: string | undefined): { name: string; type: string }[] {
  const t = argumentType(sigs, templateId, choice);
  return t ? recordFields(sigs, t).map((f) => ({ name: f.name, type: showType(f.type) })) : [];
}

export interface Skeleton {
  value: unknown;
  /** What the skeleton chose among others: `Settlement: Immediate (also Deferred, Netted)`. */
  notes: string[];
}

/** A JSON value of type `t` as the JSON API writes it, with `party` for parties. */
export function lfSkeleton(sigs: readonly PackageSignature[], t: LfType, party: string): Skeleton {
  const notes: string[] = [];
  const build = (x: LfType, depth: number): unknown => {
    if (x.kind === 'builtin') {
      switch (x.builtin) {
        case 'Unit':
          return {};
        case 'Bool':
          return false;
        case 'Int64':
          return '0';
        case 'Numeric':
        case 'BigNumeric':
          return '0.0';
        case 'Text':
          return '';
        case 'Party':
          return party;
        case 'Date':
          return '1970-01-01';
        case 'Timestamp':
          return '1970-01-01T00:00:00Z';
        case 'ContractId':
          return '<contract id>';
        case 'Optional':
          return null;
        case 'List':
        case 'GenMap':
          return [];
        case 'TextMap':
          return {};
        default:
          return null;
      }
    }
    const found = lookup(sigs, x);
    if (!found || depth > 8) return x.kind === 'con' ? {} : null;
    const { dt, args } = found;
    const env = new Map(dt.params.map((p, i) => [p, args[i]] as [string, LfType]));
    if (dt.kind === 'record') return Object.fromEntries(dt.fields.map((f) => [f.name, build(substitute(f.type, env), depth + 1)]));
    if (dt.kind === 'enum') {
      if (dt.values.length > 1) notes.push(`${dt.name}: ${dt.values[0]} (also ${dt.values.slice(1).join(', ')})`);
      return dt.values[0] ?? '';
    }
    if (dt.kind === 'variant') {
      const [first, ...others] = dt.constructors;
      if (!first) return {};
      if (others.length > 0) notes.push(`${dt.name}: ${first.name} (also ${others.map((c) => c.name).join(', ')})`);
      return { tag: first.name, value: build(substitute(first.type, env), depth + 1) };
    }
    return {};
  };
  return { value: build(t, 0), notes };
}

/** The skeleton of a create argument (`choice` undefined) or a choice argument, if the signatures know the template. */
export function lfArgumentSkeleton(sigs: readonly PackageSignature[], templateId: string, choice: string | undefined, party: string): Skeleton | undefined {
  const t = argumentType(sigs, templateId, choice);
  return t ? lfSkeleton(sigs, t, party) : undefined;
}
