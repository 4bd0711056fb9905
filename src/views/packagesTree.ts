// The node tree's "Packages" rows: the workspace's Daml projects against the node (not uploaded,
// uploaded but not vetted, vetted, another build of the same name and version), then every package
// the node has, with its version and where it is vetted. Read on first expand, kept per node and
// token identity, read again on Refresh or after an upload. The read and the rows' items are
// packagesTreeParts.ts.
import * as vscode from 'vscode';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { packagesRowItem, packagesRows, readPackages, type PackagesRead, type PackagesTreeItem } from './packagesTreeParts';

export type { PackagesTreeItem } from './packagesTreeParts';

interface Loaded extends PackagesRead {
  identity: string;
}

export class PackagesTreeSection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly loaded = new Map<string, Loaded>();
  private readonly reading = new Map<string, Promise<Loaded>>();
  /** Bumped when a node's packages are forgotten: a read begun before is not kept. */
  private readonly generation = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly nodes: NodeReader) {
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
    const loaded: Loaded = { identity, ...(await readPackages(this.nodes.client(node))) };
    // Not kept when the node was forgotten (Refresh, an upload) while it was read.
    if ((this.generation.get(node.name) ?? 0) === generationAt) this.loaded.set(node.name, loaded);
    return loaded;
  }

  async children(node: NodeConfig, e: PackagesTreeItem): Promise<PackagesTreeItem[]> {
    if (e.kind !== 'packagesRoot') return [];
    return packagesRows(await this.load(node));
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
      case 'message': {
        const item = new vscode.TreeItem(e.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon(e.icon);
        item.tooltip = e.tooltip;
        return item;
      }
      default:
        return packagesRowItem(node, e);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
