// The DARs the workspace's Daml projects built (`daml build` writes `<root>/.daml/dist/<name>-<version>.dar`),
// as Validate DAR / Upload DAR offer them: each with its name, version and project, the build of
// the project's current version first; and the folder the file dialog opens at. No `vscode` import.
import { normalizePath, projectFor, type DamlProject } from './damlProject';

export interface BuiltDar {
  /** The DAR's path, with forward slashes. */
  path: string;
  name: string;
  version: string;
  /** The project whose `.daml/dist` holds it; undefined: a DAR outside every project's. */
  project?: DamlProject;
  /** The build of the project's daml.yaml name and version (what `daml build` last wrote for it). */
  current: boolean;
}

const distOf = (p: DamlProject) => `${p.root}/.daml/dist`;

/** `<name>-<version>.dar` read against the project's name, else split before the last `-<digit>`. */
function nameAndVersion(file: string, project: DamlProject | undefined): { name: string; version: string } {
  const base = file.replace(/\.dar$/i, '');
  if (project?.name && base.startsWith(`${project.name}-`)) return { name: project.name, version: base.slice(project.name.length + 1) };
  const m = /^(.*)-(\d[^-]*)$/.exec(base);
  return m ? { name: m[1], version: m[2] } : { name: base, version: '' };
}

/** The built DARs among `darPaths`, by project: each project's current build first, then newest version first; DARs of no project last. */
export function builtDars(projects: readonly DamlProject[], darPaths: readonly string[]): BuiltDar[] {
  const out: BuiltDar[] = [];
  for (const raw of new Set(darPaths.map(normalizePath))) {
    const dir = raw.slice(0, raw.lastIndexOf('/'));
    const project = projects.find((p) => distOf(p) === dir);
    const { name, version } = nameAndVersion(raw.slice(raw.lastIndexOf('/') + 1), project);
    out.push({ path: raw, name, version, project, current: Boolean(project && project.name === name && project.version === version) });
  }
  const rank = (d: BuiltDar) => (d.current ? 0 : d.project ? 1 : 2);
  return out.sort(
    (a, b) =>
      rank(a) - rank(b) || a.name.localeCompare(b.name) || b.version.localeCompare(a.version, undefined, { numeric: true }) || a.path.localeCompare(b.path),
  );
}

/**
 * Where "Browse…" opens: the `.daml/dist` of the project of the file in the editor, else of the
 * only project, else of the first project with a build, else the first project's root; undefined
 * without projects.
 */
export function browseFolder(projects: readonly DamlProject[], dars: readonly BuiltDar[], activeFile?: string): string | undefined {
  const own = activeFile ? (projectFor(activeFile, projects) ?? projects.find((p) => normalizePath(activeFile).startsWith(`${p.root}/`))) : undefined;
  if (own) return distOf(own);
  if (projects.length === 1) return distOf(projects[0]);
  const built = dars.find((d) => d.project)?.project;
  if (built) return distOf(built);
  return projects[0]?.root;
}
