// The node tree's Packages rows: the read (the node's packages and where they are vetted, the
// workspace's daml.yaml projects and the package ids of their built DARs) and the rows of projects
// and packages. packagesTree.ts keeps what was read.
import * as vscode from 'vscode';
import { readDar } from '../daml/darArchive';
import { parseDamlYaml } from '../daml/damlProject';
import { builtDarPath, nodePackages, otherVetters, projectOnNode, type NodePackage, type ProjectOnNode, type WorkspaceBuild } from '../daml/packageMatch';
import type { VettedPackages } from '../ledger/apiTypes';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import { parseLedgerVersion } from '../ledger/ledgerVersion';
import { hasVettingList, listAllVettedPackages, listPackageIds, ownVettingRequest } from '../ledger/packageRequests';
import { COMMAND } from '../ids/commandIds';

export type WorkspaceProject = WorkspaceBuild & { darUri?: string; yamlUri: string };

export type PackagesTreeItem =
  | { kind: 'packagesRoot' }
  /** `onNode` unset: the node's packages could not be read; `vettingUnknown`: their vetting could not. */
  | { kind: 'project'; build: WorkspaceProject; onNode?: ProjectOnNode; vettingUnknown?: boolean }
  | { kind: 'package'; pkg: NodePackage; vettingUnknown?: boolean }
  | { kind: 'message'; text: string; tooltip?: string; icon: string };

/** What one read found: the node's packages (or why not), where they are vetted (or why not known), and the workspace's projects. */
export interface PackagesRead {
  packages?: NodePackage[];
  error?: string;
  /** The packages were read, their vetting not: why. */
  vettingError?: string;
  projects: WorkspaceProject[];
}

const short = (id: string) => `${id.slice(0, 8)}…`;
/** Other participants' vetting is read this many pages at most: enough to tell it exists, not a whole network's topology. */
const OTHERS_PAGES = 3;
const explain = (e: unknown) => (isLedgerApiError(e) ? e.explanation : String(e));

/** This participant's vetting (asked for by its id), then the others' (best effort), from the list this node's version has. */
async function readVetting(client: LedgerClient): Promise<{ participantId: string; vetted: VettedPackages[] }> {
  const [version, participant] = await Promise.all([client.getVersion(), client.getParticipantId()]);
  const route = { legacy: !hasVettingList(parseLedgerVersion(version.version)) };
  const participantId = participant.participantId;
  const own = await listAllVettedPackages(client, ownVettingRequest(participantId), {}, 1_000, route);
  const all = await listAllVettedPackages(client, {}, {}, OTHERS_PAGES, route).catch(() => []);
  return { participantId, vetted: [...own, ...all.filter((v) => v.participantId !== participantId)] };
}

export async function readPackages(client: LedgerClient): Promise<PackagesRead> {
  const read: PackagesRead = { projects: await workspaceBuilds() };
  const [ids, vetting] = await Promise.allSettled([listPackageIds(client), readVetting(client)]);
  if (ids.status === 'rejected') {
    read.error = explain(ids.reason);
    return read;
  }
  if (vetting.status === 'rejected') read.vettingError = explain(vetting.reason);
  const v = vetting.status === 'fulfilled' ? vetting.value : undefined;
  read.packages = nodePackages(ids.value.packageIds ?? [], v?.vetted ?? [], v?.participantId);
  return read;
}

/** The rows under Packages: the workspace's projects against the node, then the node's packages, with what could not be read. */
export function packagesRows(read: PackagesRead): PackagesTreeItem[] {
  const projects = (onNode: (b: WorkspaceProject) => ProjectOnNode | undefined) =>
    read.projects.map((build): PackagesTreeItem => ({ kind: 'project', build, onNode: onNode(build), vettingUnknown: Boolean(read.vettingError) }));
  if (read.error)
    return [{ kind: 'message', icon: 'error', text: vscode.l10n.t('Could not read the packages'), tooltip: read.error }, ...projects(() => undefined)];
  const packages = read.packages ?? [];
  const why: PackagesTreeItem[] = read.vettingError
    ? [
        {
          kind: 'message',
          icon: 'warning',
          text: vscode.l10n.t('Where packages are vetted is not known: the vetting list could not be read'),
          tooltip: read.vettingError,
        },
      ]
    : [];
  return [
    ...why,
    ...projects((b) => projectOnNode(b, packages)),
    ...packages.map((pkg): PackagesTreeItem => ({ kind: 'package', pkg, vettingUnknown: Boolean(read.vettingError) })),
  ];
}

/** The tree item of a project or a package row. */
export function packagesRowItem(node: string, e: Extract<PackagesTreeItem, { kind: 'project' | 'package' }>): vscode.TreeItem {
  if (e.kind === 'project') return projectItem(node, e.build, e.onNode, e.vettingUnknown);
  const p = e.pkg;
  const item = new vscode.TreeItem(p.name ? `${p.name} ${p.version ?? ''}`.trim() : short(p.packageId), vscode.TreeItemCollapsibleState.None);
  const syncs = [...new Set(p.vetting.map((v) => v.synchronizerId.split('::')[0]))];
  const others = otherVetters(p);
  const here = e.vettingUnknown
    ? vscode.l10n.t('vetting not known')
    : syncs.length
      ? vscode.l10n.t('vetted here on {0}', syncs.join(', '))
      : vscode.l10n.t('not vetted here');
  item.description =
    others === 0
      ? here
      : others === 1
        ? vscode.l10n.t('{0} · also vetted by 1 other participant', here)
        : vscode.l10n.t('{0} · also vetted by {1} other participants', here, others);
  item.iconPath = new vscode.ThemeIcon(e.vettingUnknown ? 'question' : syncs.length ? 'package' : 'circle-slash');
  const md = new vscode.MarkdownString();
  md.appendText(`${p.name ?? vscode.l10n.t('(name not known: vetted nowhere)')} ${p.version ?? ''}\n\n`);
  md.appendCodeblock(p.packageId, 'text');
  for (const v of p.vetting)
    md.appendText(`${vscode.l10n.t('Vetted here on {0} from {1} until {2}', v.synchronizerId, v.validFrom ?? '-', v.validUntil ?? '-')}\n\n`);
  for (const o of p.others ?? []) md.appendText(`${vscode.l10n.t('Vetted by the other participant {0} on {1}', o.participantId, o.synchronizerId)}\n\n`);
  item.tooltip = md;
  item.contextValue = 'cantonLens.package';
  return item;
}

function projectItem(node: string, build: WorkspaceProject, onNode: ProjectOnNode | undefined, vettingUnknown = false): vscode.TreeItem {
  const item = new vscode.TreeItem(`${build.name} ${build.version}`, vscode.TreeItemCollapsibleState.None);
  const upload: vscode.Command | undefined = build.darUri
    ? { command: COMMAND.uploadDar, title: vscode.l10n.t('Upload DAR'), arguments: [vscode.Uri.parse(build.darUri), node] }
    : undefined;
  if (!onNode) {
    item.description = vscode.l10n.t("workspace · the node's packages could not be read");
    item.iconPath = new vscode.ThemeIcon('question');
    item.tooltip = vscode.Uri.parse(build.yamlUri).fsPath;
    item.contextValue = 'cantonLens.project.unknown';
    return item;
  }
  switch (onNode.state) {
    case 'notUploaded':
      item.description = build.darUri ? vscode.l10n.t('workspace · not uploaded (click to upload)') : vscode.l10n.t('workspace · not built, not on the node');
      item.iconPath = new vscode.ThemeIcon('cloud-upload');
      item.command = upload;
      break;
    case 'uploadedNotVetted':
      item.description = vettingUnknown ? vscode.l10n.t('workspace · uploaded, vetting not known') : vscode.l10n.t('workspace · uploaded, not vetted');
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
