// What a Daml-LF package says about its types, without its expressions: modules; records,
// variants and enums with their fields and type parameters; templates with their argument, key,
// choices and the interfaces they implement; interfaces with their view and choices. A type
// constructor's package is always an id (a package's references to itself are resolved). Pure.
import type { LedgerClient } from '../../ledger/ledgerClient';
import * as l10n from '../../l10n/l10n';

/** What of a node's packages could not be read: each package left out with why, or why none could be listed. */
export interface UnreadPackages {
  missing?: { packageId: string; reason: string }[];
  refused?: string;
}

/** A node's package signatures (the Daml-LF decoder is a bundle of its own: it brings protobuf-ts). */
export type NodeSignaturesReader = (client: LedgerClient) => Promise<{ packages: PackageSignature[] } & UnreadPackages>;

/** One line saying which of the node's packages completion could not use and why; undefined when it could use them all. */
export function unreadSummary(node: string, u: UnreadPackages): string | undefined {
  if (u.refused) return l10n.t("{0} would not list its packages ({1}); completion uses the workspace's Daml.", node, u.refused);
  const missing = u.missing ?? [];
  if (missing.length === 0) return undefined;
  const [first] = missing;
  return missing.length === 1
    ? l10n.t("Package {0} of {1} could not be read ({2}); completion uses the workspace's Daml for it.", first.packageId.slice(0, 12), node, first.reason)
    : l10n.t(
        "{0} packages of {1} could not be read; completion uses the workspace's Daml for them. The first, {2}: {3}",
        missing.length,
        node,
        first.packageId.slice(0, 12),
        first.reason,
      );
}

/** Daml-LF's builtin types that can appear in a serializable type (and the few that cannot). */
export type LfBuiltin =
  | 'Unit'
  | 'Bool'
  | 'Int64'
  | 'Date'
  | 'Timestamp'
  | 'Numeric'
  | 'Party'
  | 'Text'
  | 'ContractId'
  | 'Optional'
  | 'List'
  | 'GenMap'
  | 'TextMap'
  | 'BigNumeric'
  | 'Any'
  | 'AnyException'
  | 'TypeRep'
  | 'Arrow'
  | 'Update'
  | 'RoundingMode'
  | 'FailureCategory';

export interface LfTypeRef {
  packageId: string;
  module: string;
  /** The dotted name in its module (`Holding`, or `Outer.Inner` for nested names). */
  name: string;
}

export type LfType =
  | { kind: 'var'; name: string; args: LfType[] }
  | { kind: 'con'; ref: LfTypeRef; args: LfType[] }
  | { kind: 'syn'; ref: LfTypeRef; args: LfType[] }
  | { kind: 'builtin'; builtin: LfBuiltin; args: LfType[] }
  | { kind: 'nat'; value: number }
  | { kind: 'struct'; fields: LfField[] }
  | { kind: 'forall'; vars: string[]; body: LfType };

export interface LfField {
  name: string;
  type: LfType;
}

export type LfDataType =
  | { kind: 'record'; name: string; params: string[]; serializable: boolean; fields: LfField[] }
  /** Each constructor with the one type it carries. */
  | { kind: 'variant'; name: string; params: string[]; serializable: boolean; constructors: LfField[] }
  | { kind: 'enum'; name: string; params: string[]; serializable: boolean; values: string[] }
  | { kind: 'interface'; name: string; params: string[]; serializable: boolean };

export interface LfChoice {
  name: string;
  consuming: boolean;
  argType: LfType;
  returnType: LfType;
}

export interface LfTemplate {
  /** Also the name of the record that is its argument. */
  name: string;
  keyType?: LfType;
  choices: LfChoice[];
  implements: LfTypeRef[];
}

export interface LfInterface {
  name: string;
  viewType: LfType;
  choices: LfChoice[];
  requires: LfTypeRef[];
}

export interface LfModule {
  name: string;
  dataTypes: LfDataType[];
  templates: LfTemplate[];
  interfaces: LfInterface[];
}

export interface PackageSignature {
  packageId: string;
  /** The package's name and version (metadata every LF 2 package carries). */
  name: string;
  version: string;
  /** `2.1`, `2.2`, `2.dev`; empty when read from the definitions service, which does not say. */
  lfVersion: string;
  modules: LfModule[];
}

/** `pkg:Module:Entity`, the form of a template id on the JSON API. */
export const qualified = (r: LfTypeRef) => `${r.packageId}:${r.module}:${r.name}`;

const SIMPLE = (t: LfType) => t.kind === 'nat' || ((t.kind === 'con' || t.kind === 'builtin' || t.kind === 'var' || t.kind === 'syn') && t.args.length === 0);

/** A type as Daml source writes it: `ContractId Holding`, `Numeric 10`, `[Party]`, `Optional (ContractId Iou)`. */
export function showType(t: LfType): string {
  const arg = (a: LfType) => (SIMPLE(a) || (a.kind === 'builtin' && a.builtin === 'List') ? showType(a) : `(${showType(a)})`);
  const applied = (head: string, args: LfType[]) => [head, ...args.map(arg)].join(' ');
  switch (t.kind) {
    case 'nat':
      return String(t.value);
    case 'var':
      return applied(t.name, t.args);
    case 'con':
    case 'syn':
      return applied(t.ref.name, t.args);
    case 'struct':
      return `<${t.fields.map((f) => `${f.name}: ${showType(f.type)}`).join(', ')}>`;
    case 'forall':
      return `forall ${t.vars.join(' ')}. ${showType(t.body)}`;
    case 'builtin':
      if (t.builtin === 'List' && t.args.length === 1) return `[${showType(t.args[0])}]`;
      if (t.builtin === 'Unit' && t.args.length === 0) return '()';
      if (t.builtin === 'GenMap') return applied('Map', t.args);
      if (t.builtin === 'Arrow' && t.args.length === 2) return `${arg(t.args[0])} -> ${showType(t.args[1])}`;
      return applied(t.builtin, t.args);
  }
}

/** Every template of a package with its module. */
export const templatesOf = (p: PackageSignature) => p.modules.flatMap((m) => m.templates.map((t) => ({ module: m.name, template: t })));

/** Every interface of a package with its module. */
export const interfacesOf = (p: PackageSignature) => p.modules.flatMap((m) => m.interfaces.map((i) => ({ module: m.name, iface: i })));

/** A data type of the package by module and name. */
export function dataType(p: PackageSignature, module: string, name: string): LfDataType | undefined {
  return p.modules.find((m) => m.name === module)?.dataTypes.find((d) => d.name === name);
}
