// A Daml package in the workspace, as its `daml.yaml` describes it: the package name the ledger
// reports as `packageName`, its version, and the source folder of its modules. Only the top-level
// keys are read (no YAML library in the activation bundle). No `vscode` import.

export interface DamlProject {
  /** The folder of the daml.yaml, with forward slashes and no trailing slash. */
  root: string;
  /** `name:`; undefined when the file has none. */
  name?: string;
  version?: string;
  /** `source:` resolved against the root (default `daml`); a folder, or one `.daml` file. */
  source: string;
}

const unquote = (v: string) => {
  const t = v.trim();
  const q = /^(['"])(.*)\1$/.exec(t);
  return q ? q[2] : t.replace(/\s+#.*$/, '').trim();
};

export function normalizePath(p: string): string {
  const s = p.replace(/\\/g, '/').replace(/\/+$/, '');
  const parts: string[] = [];
  for (const part of s.split('/')) {
    if (part === '.' || (part === '' && parts.length > 0)) continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..' && parts[parts.length - 1] !== '') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/** Reads `name`, `version` and `source` of a daml.yaml at `<root>/daml.yaml`. */
export function parseDamlYaml(text: string, root: string): DamlProject {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^(name|version|source)\s*:\s*(.*)$/.exec(line);
    if (m && !(m[1] in fields)) fields[m[1]] = unquote(m[2]);
  }
  const dir = normalizePath(root);
  const source = fields.source || 'daml';
  const project: DamlProject = { root: dir, source: normalizePath(source.startsWith('/') ? source : `${dir}/${source}`) };
  if (fields.name) project.name = fields.name;
  if (fields.version) project.version = fields.version;
  return project;
}

/** The project whose source holds `file` (the deepest one when several do); undefined: none. */
export function projectFor(file: string, projects: readonly DamlProject[]): DamlProject | undefined {
  const f = normalizePath(file);
  let best: DamlProject | undefined;
  for (const p of projects) {
    if (f === p.source || f.startsWith(`${p.source}/`)) {
      if (!best || p.source.length > best.source.length) best = p;
    }
  }
  return best;
}

/** Versions compared part by part as numbers where they are numbers: `1.10.0` after `1.9.0`. */
export function compareVersions(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const nx = Number(x);
    const ny = Number(y);
    const c = x !== '' && y !== '' && !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return 0;
}
