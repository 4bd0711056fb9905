// The workspace's Daml index: built on first need from the source folders the
// `daml.yaml` files name (else every `.daml` file), bounded, kept up to date as files change, and
// cancelled when nobody waits for it any more. The scanning and matching are in src/daml/.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { DamlIndex } from '../daml/damlIndex';
import { normalizePath, parseDamlYaml, projectFor, type DamlProject } from '../daml/damlProject';
import { moduleFromPath } from '../daml/damlSource';
import type { ExtensionLog } from './extensionLog';

/** A Daml file's text (its URI as the index names it): its editor's, else from disk; undefined when unreadable. */
export function damlFileText(file: string): string | undefined {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file);
  if (open) return open.getText();
  try {
    return fs.readFileSync(vscode.Uri.parse(file).fsPath, 'utf8');
  } catch {
    return undefined;
  }
}

export interface DamlWorkspaceLimits {
  /** At most this many `.daml` files are indexed. */
  maxFiles: number;
  /** Larger files are skipped (generated code, not models). */
  maxFileBytes: number;
}

const DEFAULT_LIMITS: DamlWorkspaceLimits = { maxFiles: 20_000, maxFileBytes: 2 * 1024 * 1024 };
const EXCLUDE = '{**/node_modules/**,**/.daml/**,**/.git/**}';
const READ_CONCURRENCY = 16;

export interface DamlIndexStats {
  files: number;
  projects: number;
  skippedLarge: number;
  /** More files than maxFiles: the rest were not indexed. */
  truncated: boolean;
  ms: number;
  /** What was searched, for messages: the source folders, or the whole workspace. */
  scope: string;
}

export class DamlWorkspace implements vscode.Disposable {
  readonly index = new DamlIndex();
  private projects: DamlProject[] = [];
  private stale = true;
  private build: { promise: Promise<void>; cts: vscode.CancellationTokenSource; waiters: number } | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private watching = false;
  private readonly pendingEdits = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** The index changed (a file, a project, a rebuild). */
  readonly onDidChange = this.changed.event;
  stats: DamlIndexStats = { files: 0, projects: 0, skippedLarge: 0, truncated: false, ms: 0, scope: '' };
  /** How many times the index was built (for tests). */
  builds = 0;

  constructor(
    private readonly log?: ExtensionLog,
    private readonly limits: DamlWorkspaceLimits = DEFAULT_LIMITS,
  ) {}

  /**
   * The index, built first if needed. When every caller waiting for a build has cancelled, the
   * build stops (and starts again at the next need). Resolves undefined when cancelled.
   */
  async ready(token?: vscode.CancellationToken): Promise<DamlIndex | undefined> {
    if (!this.stale && !this.build) return this.index;
    if (!this.build) this.startBuild();
    const b = this.build!;
    b.waiters++;
    let gaveUp = false;
    const sub = token?.onCancellationRequested(() => {
      gaveUp = true;
      if (--b.waiters === 0 && this.build === b) {
        b.cts.cancel();
      }
    });
    try {
      await b.promise;
    } finally {
      sub?.dispose();
      if (!gaveUp) b.waiters--;
    }
    return gaveUp || b.cts.token.isCancellationRequested ? undefined : this.index;
  }

  /** The daml.yaml project whose source folder holds a file (after `ready`). */
  projectOf(uri: vscode.Uri): DamlProject | undefined {
    return projectFor(uri.path, this.projects);
  }

  /** Forget everything: the next need builds again (daml.yaml or the folders changed). */
  invalidate(): void {
    this.build?.cts.cancel();
    this.build = undefined;
    this.stale = true;
    this.changed.fire();
  }

  dispose(): void {
    this.build?.cts.cancel();
    for (const t of this.pendingEdits.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }

  private startBuild(): void {
    const cts = new vscode.CancellationTokenSource();
    const b = { cts, waiters: 0, promise: Promise.resolve() };
    b.promise = this.rebuild(cts.token).then(
      () => {
        if (this.build === b) {
          this.build = undefined;
          if (!cts.token.isCancellationRequested) {
            this.stale = false;
            this.changed.fire();
          }
        }
      },
      (e: unknown) => {
        if (this.build === b) this.build = undefined;
        this.log?.info(`Daml index: the build failed: ${(e as Error).message}`);
      },
    );
    this.build = b;
  }

  private async rebuild(token: vscode.CancellationToken): Promise<void> {
    const started = performance.now();
    this.watch();
    const yamls = await vscode.workspace.findFiles('**/daml.yaml', EXCLUDE, 1000, token);
    if (token.isCancellationRequested) return;
    const projects: DamlProject[] = [];
    const uriOf = new Map<string, vscode.Uri>();
    for (const y of yamls) {
      try {
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(y));
        const dir = vscode.Uri.joinPath(y, '..');
        const p = parseDamlYaml(text, dir.path);
        projects.push(p);
        uriOf.set(p.source, dir.with({ path: p.source }));
      } catch {
        // Unreadable: as if it were not there.
      }
    }
    if (token.isCancellationRequested) return;
    let files: vscode.Uri[] = [];
    const max = this.limits.maxFiles;
    if (projects.length > 0) {
      const seen = new Set<string>();
      for (const p of projects) {
        const source = uriOf.get(p.source)!;
        const found = p.source.endsWith('.daml')
          ? [source]
          : await vscode.workspace.findFiles(new vscode.RelativePattern(source, '**/*.daml'), EXCLUDE, max + 1, token);
        for (const f of found)
          if (!seen.has(f.toString())) {
            seen.add(f.toString());
            files.push(f);
          }
        if (token.isCancellationRequested) return;
      }
    } else {
      files = await vscode.workspace.findFiles('**/*.daml', EXCLUDE, max + 1, token);
    }
    if (token.isCancellationRequested) return;
    const truncated = files.length > max;
    if (truncated) files = files.slice(0, max);
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    let skippedLarge = 0;
    const texts: [vscode.Uri, string][] = [];
    let next = 0;
    const worker = async () => {
      while (next < files.length && !token.isCancellationRequested) {
        const uri = files[next++];
        const doc = open.get(uri.toString());
        if (doc) {
          texts.push([uri, doc.getText()]);
          continue;
        }
        try {
          const bytes = await vscode.workspace.fs.readFile(uri);
          if (bytes.byteLength > this.limits.maxFileBytes) {
            skippedLarge++;
            continue;
          }
          texts.push([uri, new TextDecoder().decode(bytes)]);
        } catch {
          // Deleted meanwhile.
        }
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
    if (token.isCancellationRequested) return;
    this.index.clear();
    this.projects = projects;
    for (const [uri, text] of texts) this.indexText(uri, text);
    this.builds++;
    const scope =
      projects.length > 0
        ? vscode.l10n.t('the source folders of {0}', projects.map((p) => vscode.workspace.asRelativePath(uriOf.get(p.source)!)).join(', '))
        : vscode.l10n.t('every .daml file of the workspace (no daml.yaml)');
    this.stats = { files: this.index.size, projects: projects.length, skippedLarge, truncated, ms: performance.now() - started, scope };
    this.log?.info(
      `Daml index: ${this.index.size} files of ${projects.length} daml.yaml projects in ${Math.round(this.stats.ms)} ms${truncated ? ` (only the first ${max})` : ''}${skippedLarge ? `, ${skippedLarge} files over ${this.limits.maxFileBytes} bytes skipped` : ''}`,
    );
  }

  /** Whether a file belongs in the index: in a project's source folder, or anywhere without daml.yaml. */
  private inScope(uri: vscode.Uri): boolean {
    if (!uri.path.endsWith('.daml') || /\/(?:node_modules|\.daml|\.git)\//.test(uri.path)) return false;
    return this.projects.length === 0 || projectFor(uri.path, this.projects) !== undefined;
  }

  private indexText(uri: vscode.Uri, text: string): void {
    const path = normalizePath(uri.path);
    const project = projectFor(path, this.projects);
    const folder = project ? project.source : vscode.workspace.getWorkspaceFolder(uri)?.uri.path;
    const relative =
      folder && path.startsWith(`${normalizePath(folder)}/`) ? path.slice(normalizePath(folder).length + 1) : path.slice(path.lastIndexOf('/') + 1);
    this.index.setFile(uri.toString(), text, project, moduleFromPath(relative));
  }

  /** Watches files once the index exists: .daml files are indexed again, daml.yaml rebuilds it. */
  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const daml = vscode.workspace.createFileSystemWatcher('**/*.daml');
    const yaml = vscode.workspace.createFileSystemWatcher('**/daml.yaml');
    const reindex = async (uri: vscode.Uri) => {
      if (this.stale || !this.inScope(uri)) return;
      if (this.index.size >= this.limits.maxFiles && !this.index.file(uri.toString())) return;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      try {
        const text = doc ? doc.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
        if (text.length > this.limits.maxFileBytes) return;
        this.indexText(uri, text);
        this.changed.fire();
      } catch {
        this.index.removeFile(uri.toString());
      }
    };
    this.disposables.push(
      daml,
      yaml,
      daml.onDidCreate(reindex),
      daml.onDidChange(reindex),
      daml.onDidDelete((uri) => {
        this.index.removeFile(uri.toString());
        this.changed.fire();
      }),
      yaml.onDidCreate(() => this.invalidate()),
      yaml.onDidChange(() => this.invalidate()),
      yaml.onDidDelete(() => this.invalidate()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
      // Unsaved edits count too, a moment after typing stops.
      vscode.workspace.onDidChangeTextDocument((e) => {
        const uri = e.document.uri;
        if (!uri.path.endsWith('.daml') || e.contentChanges.length === 0) return;
        const key = uri.toString();
        clearTimeout(this.pendingEdits.get(key));
        this.pendingEdits.set(
          key,
          setTimeout(() => {
            this.pendingEdits.delete(key);
            void reindex(uri);
          }, 300),
        );
      }),
    );
  }
}
