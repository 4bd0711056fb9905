// The workspace's Daml declarations by module and entity, and how a ledger name finds them: a
// template or interface id (`<package id>:A.B:Entity`, `#<package name>:A.B:Entity`) with the
// event's package name, and a choice. Files are added, replaced and removed one at a time as the
// workspace changes. No `vscode` import.
import { compareVersions, type DamlProject } from './damlProject';
import { scanDamlSource, type DamlDecl, type DamlDeclKind } from './damlSource';

export interface IndexedFile {
  file: string;
  module: string;
  project?: DamlProject;
  decls: DamlDecl[];
}

/** Where a name is defined. */
export interface DamlTarget {
  file: string;
  /** Zero-based line and column of the name, and its length. */
  line: number;
  column: number;
  length: number;
  kind: DamlDeclKind;
  module: string;
  /** The template or interface. */
  entity: string;
  /** The choice, when one was asked for and found in this entity. */
  choice?: string;
  packageName?: string;
  packageVersion?: string;
}

export interface DamlRef {
  /** `<package id>:A.B:Entity`, `#<package name>:A.B:Entity` or `A.B:Entity`. */
  templateId: string;
  choice?: string;
  /** The event's `packageName`, when known. */
  packageName?: string;
}

export interface DamlMatch {
  targets: DamlTarget[];
  /** False when the package named has no such entity and the targets are other packages' ones. */
  exact: boolean;
  /** The choice was asked for but none of the targets declares it (the targets are the entities). */
  choiceMissing: boolean;
  /** What was looked for, for a message: module, entity, package. */
  module: string;
  entity: string;
  packageName?: string;
}

export interface ParsedTemplateId {
  packageId?: string;
  packageName?: string;
  module: string;
  entity: string;
}

/** Splits a template or interface id at its first and last colon. */
export function parseTemplateId(templateId: string): ParsedTemplateId | undefined {
  const first = templateId.indexOf(':');
  const last = templateId.lastIndexOf(':');
  if (first < 0) return undefined;
  if (first === last) return { module: templateId.slice(0, first), entity: templateId.slice(first + 1) };
  const pkg = templateId.slice(0, first);
  const parsed: ParsedTemplateId = { module: templateId.slice(first + 1, last), entity: templateId.slice(last + 1) };
  if (pkg.startsWith('#')) parsed.packageName = pkg.slice(1);
  else if (pkg) parsed.packageId = pkg;
  return parsed;
}

const keyOf = (module: string, entity: string) => `${module}:${entity}`;

export class DamlIndex {
  private readonly files = new Map<string, IndexedFile>();
  /** `module:entity` → the files declaring a template or interface of that name. */
  private readonly byName = new Map<string, Set<string>>();

  get size(): number {
    return this.files.size;
  }

  /** Indexes a file's text (replacing what was indexed for it). `fallbackModule`: when the file has no header. */
  setFile(file: string, text: string, project?: DamlProject, fallbackModule?: string): IndexedFile {
    this.removeFile(file);
    const symbols = scanDamlSource(text);
    const entry: IndexedFile = { file, module: symbols.module ?? fallbackModule ?? 'Main', decls: symbols.decls };
    if (project) entry.project = project;
    this.files.set(file, entry);
    for (const d of entry.decls) {
      if (d.kind === 'choice') continue;
      const key = keyOf(entry.module, d.name);
      let set = this.byName.get(key);
      if (!set) this.byName.set(key, (set = new Set()));
      set.add(file);
    }
    return entry;
  }

  removeFile(file: string): void {
    const old = this.files.get(file);
    if (!old) return;
    this.files.delete(file);
    for (const d of old.decls) {
      if (d.kind === 'choice') continue;
      const key = keyOf(old.module, d.name);
      const set = this.byName.get(key);
      set?.delete(file);
      if (set?.size === 0) this.byName.delete(key);
    }
  }

  clear(): void {
    this.files.clear();
    this.byName.clear();
  }

  file(file: string): IndexedFile | undefined {
    return this.files.get(file);
  }

  allFiles(): IterableIterator<IndexedFile> {
    return this.files.values();
  }

  /** Every template or interface of this module and entity, in any package. */
  definitions(module: string, entity: string): DamlTarget[] {
    const out: DamlTarget[] = [];
    for (const file of this.byName.get(keyOf(module, entity)) ?? []) {
      const f = this.files.get(file)!;
      for (const d of f.decls) {
        if (d.kind !== 'choice' && d.name === entity) out.push(targetOf(f, d, entity));
      }
    }
    return out.sort(byPackage);
  }

  /**
   * Where a ledger name is defined. With a package name (the event's, or `#name:` in the id): that
   * package's definitions, every version of it (upgrades); if it has none, the other packages'
   * ones, marked not exact. A package id says nothing the workspace knows: module and entity decide.
   */
  find(ref: DamlRef): DamlMatch | undefined {
    const parsed = parseTemplateId(ref.templateId);
    if (!parsed || !parsed.module || !parsed.entity) return undefined;
    const packageName = ref.packageName || parsed.packageName;
    const all = this.definitions(parsed.module, parsed.entity);
    let targets = all;
    let exact = true;
    if (packageName) {
      const named = all.filter((t) => t.packageName === packageName);
      if (named.length > 0) targets = named;
      else exact = false;
    }
    let choiceMissing = false;
    if (ref.choice && targets.length > 0) {
      const withChoice = targets.map((t) => this.choiceIn(t, ref.choice!)).filter((t): t is DamlTarget => t !== undefined);
      if (withChoice.length > 0) targets = withChoice;
      else choiceMissing = true;
    }
    const match: DamlMatch = { targets, exact, choiceMissing, module: parsed.module, entity: parsed.entity };
    if (packageName) match.packageName = packageName;
    return match;
  }

  private choiceIn(t: DamlTarget, choice: string): DamlTarget | undefined {
    const f = this.files.get(t.file);
    const d = f?.decls.find((x) => x.kind === 'choice' && x.name === choice && x.parent === t.entity);
    return f && d ? { ...targetOf(f, d, t.entity), choice } : undefined;
  }
}

function targetOf(f: IndexedFile, d: DamlDecl, entity: string): DamlTarget {
  const t: DamlTarget = { file: f.file, line: d.line, column: d.column, length: d.name.length, kind: d.kind, module: f.module, entity };
  if (f.project?.name) t.packageName = f.project.name;
  if (f.project?.version) t.packageVersion = f.project.version;
  return t;
}

/** By package name, newest version first, then by file. */
function byPackage(a: DamlTarget, b: DamlTarget): number {
  const na = a.packageName ?? '\uffff';
  const nb = b.packageName ?? '\uffff';
  if (na !== nb) return na < nb ? -1 : 1;
  const v = compareVersions(b.packageVersion, a.packageVersion);
  if (v !== 0) return v;
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line;
}
