// The heavy parts of the node tree's Packages rows, in the Daml bundle (dist/daml.js): the read (the
// node's packages and where they are vetted, the workspace's daml.yaml projects and the package ids
// of their built DARs) and the rows of projects and packages. packagesTree.ts keeps what was read.
import * as vscode from 'vscode';
import { readDar } from '../daml/darArchive';
import { parseDamlYaml } from '../daml/damlProject';
import { builtDarPath, nodePackages, projectOnNode, type NodePackage, type ProjectOnNode, type WorkspaceBuild } from '../daml/packageMatch';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import { listAllVettedPackages, listPackageIds } from '../ledger/packageRequests';

export type WorkspaceProject = WorkspaceBuild & { darUri?: string; yamlUri: string };

export type PackagesTreeItem =
  | { kind: 'packagesRoot' }
  | { kind: 'project'; build: WorkspaceProject; onNode: ProjectOnNode }
  | { kind: 'package'; pkg: NodePackage }
  | { kind: 'message'; text: string; tooltip?: string; icon: string };

/** What one read found: the node's packages (or why not), and the workspace's projects. */
export interface PackagesRead {
  packages?: NodePackage[];
  error?: string;
  projects: WorkspaceProject[];
}

const short = (id: string) => `${id.slice(0, 8)}…`;

export async function readPackages(client: LedgerClient): Promise<PackagesRead> {
  const read: PackagesRead = { projects: await workspaceBuilds() };
  try {
    const [ids, vetted] = await Promise.all([listPackageIds(client), listAllVettedPackages(client)]);
    read.packages = nodePackages(ids.packageIds ?? [], vetted);
  } catch (e) {
    read.error = isLedgerApiError(e) ? e.explanation : String(e);
  }
  return read;
}

/** The rows under Packages: the workspace's projects against the node, then the node's packages. */
export function packagesRows(read: PackagesRead): PackagesTreeItem[] {
  if (read.error) return [{ kind: 'message', icon: 'error', text: vscode.l10n.t('Could not read the packages'), tooltip: read.error }];
  const packages = read.packages ?? [];
  const projects = read.projects.map((build): PackagesTreeItem => ({ kind: 'project', build, onNode: projectOnNode(build, packages) }));
  return [...projects, ...packages.map((pkg): PackagesTreeItem => ({ kind: 'package', pkg }))];
}

/** The tree item of a project or a package row. */
export function packagesRowItem(node: string, e: Extract<PackagesTreeItem, { kind: 'project' | 'package' }>): vscode.TreeItem {
  if (e.kind === 'project') return projectItem(node, e.build, e.onNode);
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

function projectItem(node: string, build: WorkspaceProject, onNode: ProjectOnNode): vscode.TreeItem {
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
async function workspaceBuilds(): Promise<WorkspaceProject[]> {
  const yamls = await vscode.workspace.findFiles('**/daml.yaml', '**/{node_modules,.daml}/**', 200);
  const out: WorkspaceProject[] = [];
  for (const y of yamls) {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(y));
    } catch {
      continue;
    }
    const { name, version } = parseDamlYaml(text, vscode.Uri.joinPath(y, '..').path);
    if (!name || !version) continue;
    const build: WorkspaceProject = { name, version, yamlUri: y.toString() };
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
