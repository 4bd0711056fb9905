// The node tree's "Packages" rows: the workspace's Daml projects against the node (not uploaded,
// uploaded but not vetted, vetted, another build of the same name and version), then every package
// the node has, with its version and where it is vetted. Read on first expand, kept per node and
// token identity, read again on Refresh or after an upload.
import * as vscode from 'vscode';
import { readDar } from '../daml/darArchive';
import { parseDamlYaml } from '../daml/damlProject';
import { builtDarPath, nodePackages, projectOnNode, type NodePackage, type ProjectOnNode, type WorkspaceBuild } from '../daml/packageMatch';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { listAllVettedPackages, listPackageIds } from '../ledger/packageRequests';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerNodes } from '../services/ledgerNodes';

export type PackagesTreeItem =
  | { kind: 'packagesRoot' }
  | { kind: 'project'; build: WorkspaceBuild & { darUri?: string; yamlUri: string }; onNode: ProjectOnNode }
  | { kind: 'package'; pkg: NodePackage }
  | { kind: 'message'; text: string; tooltip?: string; icon: string };

interface Loaded {
  identity: string;
  packages?: NodePackage[];
  error?: string;
  projects: (WorkspaceBuild & { darUri?: string; yamlUri: string })[];
}

const short = (id: string) => `${id.slice(0, 8)}…`;

export class PackagesTreeSection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly loaded = new Map<string, Loaded>();
  private readonly reading = new Map<string, Promise<Loaded>>();
  /** Bumped when a node's packages are forgotten: a read begun before is not kept. */
  private readonly generation = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly nodes: LedgerNodes) {
    this.subscriptions = [nodes.onDidChangeIdentity((e) => this.forget(e.node)), nodes.onDidRequestRefresh((name) => this.forget(name))];
  }

  nodeRows(): PackagesTreeItem[] {
    return [{ kind: 'packagesRoot' }];
  }

  /** Read again (after an upload, or a Refresh). */
  forget(node: string): void {
    this.generation.set(node, (this.generation.get(node) ?? 0) + 1);
    for (const key of [...this.reading.keys()]) if (key.startsWith(`${node}\n`)) this.reading.delete(key);
    if (this.loaded.delete(node)) this.changed.fire();
  }

  /** The node's packages and the workspace's builds matched to them, read once per identity. */
  async load(node: NodeConfig): Promise<Loaded> {
    const identity = (await this.nodes.currentIdentity(node))?.key ?? 'unknown';
    const known = this.loaded.get(node.name);
    if (known && known.identity === identity) return known;
    // The tree and a daml.yaml lens asking at once share one read.
    const key = `${node.name}\n${identity}`;
    const pending = this.reading.get(key);
    if (pending) return pending;
    const reading: Promise<Loaded> = this.read(node, identity).finally(() => {
      if (this.reading.get(key) === reading) this.reading.delete(key);
    });
    this.reading.set(key, reading);
    return reading;
  }

  private async read(node: NodeConfig, identity: string): Promise<Loaded> {
    const generationAt = this.generation.get(node.name) ?? 0;
    const client = this.nodes.client(node);
    const loaded: Loaded = { identity, projects: await workspaceBuilds() };
    try {
      const [ids, vetted] = await Promise.all([listPackageIds(client), listAllVettedPackages(client)]);
      loaded.packages = nodePackages(ids.packageIds ?? [], vetted);
    } catch (e) {
      loaded.error = isLedgerApiError(e) ? e.explanation : String(e);
    }
    // Not kept when the node was forgotten (Refresh, an upload) while it was read.
    if ((this.generation.get(node.name) ?? 0) === generationAt) this.loaded.set(node.name, loaded);
    return loaded;
  }

  async children(node: NodeConfig, e: PackagesTreeItem): Promise<PackagesTreeItem[]> {
    if (e.kind !== 'packagesRoot') return [];
    const loaded = await this.load(node);
    if (loaded.error) return [{ kind: 'message', icon: 'error', text: vscode.l10n.t('Could not read the packages'), tooltip: loaded.error }];
    const packages = loaded.packages ?? [];
    const projects = loaded.projects.map((build): PackagesTreeItem => ({ kind: 'project', build, onNode: projectOnNode(build, packages) }));
    return [...projects, ...packages.map((pkg): PackagesTreeItem => ({ kind: 'package', pkg }))];
  }

  treeItem(node: string, e: PackagesTreeItem): vscode.TreeItem {
    switch (e.kind) {
      case 'packagesRoot': {
        const item = new vscode.TreeItem(vscode.l10n.t('Packages'), vscode.TreeItemCollapsibleState.Collapsed);
        item.iconPath = new vscode.ThemeIcon('package');
        item.contextValue = 'cantonLens.packages';
        item.tooltip = vscode.l10n.t(
          'The packages on "{0}" and where they are vetted, and the workspace\'s Daml projects against them. Read when expanded.',
          node,
        );
        return item;
      }
      case 'project':
        return projectItem(node, e.build, e.onNode);
      case 'package': {
        const p = e.pkg;
        const item = new vscode.TreeItem(p.name ? `${p.name} ${p.version ?? ''}`.trim() : short(p.packageId), vscode.TreeItemCollapsibleState.None);
        const syncs = [...new Set(p.vetting.map((v) => v.synchronizerId.split('::')[0]))];
        item.description = syncs.length ? vscode.l10n.t('vetted on {0}', syncs.join(', ')) : vscode.l10n.t('not vetted');
        item.iconPath = new vscode.ThemeIcon(syncs.length ? 'package' : 'circle-slash');
        const md = new vscode.MarkdownString();
        md.appendText(`${p.name ?? vscode.l10n.t('(name not known: vetted nowhere)')} ${p.version ?? ''}\n\n`);
        md.appendCodeblock(p.packageId, 'text');
        for (const v of p.vetting)
          md.appendText(`${vscode.l10n.t('Vetted on {0} from {1} until {2}', v.synchronizerId, v.validFrom ?? '-', v.validUntil ?? '-')}\n\n`);
        item.tooltip = md;
        item.contextValue = 'cantonLens.package';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(e.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon(e.icon);
        item.tooltip = e.tooltip;
        return item;
      }
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

function projectItem(node: string, build: WorkspaceBuild & { darUri?: string; yamlUri: string }, onNode: ProjectOnNode): vscode.TreeItem {
  const item = new vscode.TreeItem(`${build.name} ${build.version}`, vscode.TreeItemCollapsibleState.None);
  const upload: vscode.Command | undefined = build.darUri
    ? { command: 'cantonLens.uploadDar', title: vscode.l10n.t('Upload DAR'), arguments: [vscode.Uri.parse(build.darUri), node] }
    : undefined;
  switch (onNode.state) {
    case 'notUploaded':
      item.description = build.darUri ? vscode.l10n.t('workspace · not uploaded (click to upload)') : vscode.l10n.t('workspace · not built, not on the node');
      item.iconPath = new vscode.ThemeIcon('cloud-upload');
      item.command = upload;
      break;
    case 'uploadedNotVetted':
      item.description = vscode.l10n.t('workspace · uploaded, not vetted');
      item.iconPath = new vscode.ThemeIcon('warning');
      break;
    case 'vetted':
      item.description = vscode.l10n.t('workspace · vetted on {0}', onNode.synchronizers.map((s) => s.split('::')[0]).join(', '));
      item.iconPath = new vscode.ThemeIcon('pass');
      break;
    case 'otherBuild':
      item.description = vscode.l10n.t('workspace · another build on the node ({0})', onNode.packageIds.map(short).join(', '));
      item.iconPath = new vscode.ThemeIcon('error');
      break;
    case 'onNodeNotBuilt':
      item.description = vscode.l10n.t('workspace · not built here; the node has {0}', onNode.packageIds.map(short).join(', '));
      item.iconPath = new vscode.ThemeIcon('question');
      break;
  }
  item.tooltip =
    onNode.state === 'otherBuild'
      ? vscode.l10n.t(
          'The node has {0} {1} with another package id than the DAR built here ({2}): it runs code that is not what you see. A new build needs a new version to be vetted.',
          build.name,
          build.version,
          build.packageId ?? '',
        )
      : vscode.l10n.t(
          '{0} {1} from {2}; built package: {3}',
          build.name,
          build.version,
          vscode.Uri.parse(build.yamlUri).fsPath,
          build.packageId ?? vscode.l10n.t('not built'),
        );
  item.contextValue = `cantonLens.project.${onNode.state}`;
  return item;
}

/** The workspace's daml.yaml projects with the package id of their built DAR, where built. */
async function workspaceBuilds(): Promise<(WorkspaceBuild & { darUri?: string; yamlUri: string })[]> {
  const yamls = await vscode.workspace.findFiles('**/daml.yaml', '**/{node_modules,.daml}/**', 200);
  const out: (WorkspaceBuild & { darUri?: string; yamlUri: string })[] = [];
  for (const y of yamls) {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(y));
    } catch {
      continue;
    }
    const { name, version } = parseDamlYaml(text, vscode.Uri.joinPath(y, '..').path);
    if (!name || !version) continue;
    const build: WorkspaceBuild & { darUri?: string; yamlUri: string } = { name, version, yamlUri: y.toString() };
    const darUri = vscode.Uri.joinPath(y, '..', builtDarPath(build));
    try {
      build.packageId = readDar(Buffer.from(await vscode.workspace.fs.readFile(darUri))).packageId;
      build.darUri = darUri.toString();
    } catch {
      // Not built (or not a DAR): compared by name and version only.
    }
    out.push(build);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
