// The node tree's browsing rows: "Active Contracts" grouped by package name → module →
// template with counts (read on first expand, for the node's parties), and the node's ledger end,
// live while a Follow Updates panel is open; "By Interface" lists the interfaces of the node's
// packages with how many active contracts implement each. Counts are kept per node and token
// identity, and dropped when either changes. The counts themselves are activeContractCounts.ts and
// interfaceCounts.ts.
import * as vscode from 'vscode';
import type { PackageGroup } from '../browse/acsGrouping';
import { countActiveContracts } from '../browse/activeContractCounts';
import { InterfaceCounts, type SignaturesReader } from './interfaceTree';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';
import { formatCount } from '../l10n/forPeople';

export type BrowseTreeItem =
  | { kind: 'acsRoot' }
  | { kind: 'interfacesRoot' }
  | { kind: 'package'; group: PackageGroup }
  | { kind: 'module'; packageName: string; module: string; count: number; templates: PackageGroup['modules'][number]['templates'] }
  | { kind: 'message'; text: string; tooltip?: string; icon: string; command?: vscode.Command; templateId?: string; packageName?: string };

type Counting =
  /** read: the contracts counted so far. */
  | { identity: string; state: 'loading'; read: number; abort: AbortController }
  /** incomplete: the node stopped the read at its limit, so every count is a lower bound. */
  | { identity: string; state: 'done'; groups: PackageGroup[]; total: number; activeAt: number; notice?: string; incomplete: boolean }
  | { identity: string; state: 'error'; error: string };

/** More than this many templates in one module are listed as a message, not as items. */
const MAX_TEMPLATE_ITEMS = 500;

export class BrowseTreeSection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly counts = new Map<string, Counting>();
  private readonly ends = new Map<string, { offset: number; live: boolean }>();

  private readonly interfaces: InterfaceCounts | undefined;

  constructor(
    private readonly nodes: NodeReader,
    /** The node's Daml-LF signatures: the interfaces its packages define. */
    signatures?: SignaturesReader,
  ) {
    this.interfaces = signatures && new InterfaceCounts(nodes, signatures, () => this.changed.fire());
  }

  /** The rows under a node: its ledger end when known, and Active Contracts. */
  nodeRows(node: NodeConfig): BrowseTreeItem[] {
    const rows: BrowseTreeItem[] = [];
    const end = this.ends.get(node.name);
    if (end) {
      rows.push({
        kind: 'message',
        icon: end.live ? 'pulse' : 'milestone',
        // Not "Ledger end": the node's facts show that, as read when the node was; this is where Follow Updates is.
        text: end.live
          ? vscode.l10n.t('Follow Updates: at offset {0}', formatCount(end.offset))
          : vscode.l10n.t('Follow Updates: stopped at offset {0}', formatCount(end.offset)),
        tooltip: end.live
          ? vscode.l10n.t('The last offset a Follow Updates panel has read; it moves as updates commit.')
          : vscode.l10n.t('The last offset read; open Follow Updates to see it move.'),
        command: { command: COMMAND.followUpdates, title: vscode.l10n.t('Follow Updates'), arguments: [node.name] },
      });
    }
    rows.push({ kind: 'acsRoot' });
    return rows;
  }

  /** Told by Follow Updates panels where they are. */
  reportLedgerEnd(node: string, offset: number | undefined, live: boolean): void {
    const before = this.ends.get(node);
    if (offset === undefined) return;
    if (before && before.offset === offset && before.live === live) return;
    this.ends.set(node, { offset, live });
    this.changed.fire();
  }

  treeItem(node: string, e: BrowseTreeItem): vscode.TreeItem {
    switch (e.kind) {
      case 'acsRoot': {
        const item = new vscode.TreeItem(vscode.l10n.t('Active Contracts'), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `acs:${node}`;
        item.iconPath = new vscode.ThemeIcon('database');
        item.contextValue = 'cantonLens.acsRoot';
        const c = this.counts.get(node);
        if (c?.state === 'done')
          item.description = c.incomplete
            ? vscode.l10n.t('at least {0} at offset {1} (not all read)', formatCount(c.total), formatCount(c.activeAt))
            : vscode.l10n.t('{0} at offset {1}', formatCount(c.total), formatCount(c.activeAt));
        if (c?.state === 'loading') item.description = vscode.l10n.t('counting… {0}', formatCount(c.read));
        item.tooltip = vscode.l10n.t(
          "The active contracts the node's parties (or any party, with CanReadAsAnyParty) can read, by package, module and template. Refresh recounts.",
        );
        return item;
      }
      case 'interfacesRoot':
        return this.interfaces!.rootItem(node);
      case 'package': {
        const item = new vscode.TreeItem(e.group.packageName, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `acs:${node}:p:${e.group.packageName}`;
        item.description = this.countText(node, e.group.count);
        item.iconPath = new vscode.ThemeIcon('package');
        item.tooltip = new vscode.MarkdownString().appendText(
          vscode.l10n.t('Package {0}: {1} active contracts', e.group.packageName, this.countText(node, e.group.count)),
        );
        return item;
      }
      case 'module': {
        const item = new vscode.TreeItem(e.module || vscode.l10n.t('(no module)'), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `acs:${node}:m:${e.packageName}:${e.module}`;
        item.description = this.countText(node, e.count);
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        return item;
      }
      default: {
        const item = new vscode.TreeItem(e.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon(e.icon);
        if (e.tooltip) item.tooltip = new vscode.MarkdownString().appendText(e.tooltip);
        if (e.command) item.command = e.command;
        // A template row also opens its Daml definition.
        item.contextValue = e.templateId ? 'cantonLens.acsTemplate' : 'cantonLens.value';
        return item;
      }
    }
  }

  async children(node: NodeConfig, e: BrowseTreeItem): Promise<BrowseTreeItem[]> {
    if (e.kind === 'package')
      return e.group.modules.map((m) => ({ kind: 'module', packageName: e.group.packageName, module: m.module, count: m.count, templates: m.templates }));
    if (e.kind === 'module') {
      // Two versions of a package define the same template: the package id tells them apart.
      const twice = new Set(e.templates.filter((t, i) => e.templates.findIndex((u) => u.entity === t.entity) !== i).map((t) => t.entity));
      const label = (t: { entity: string; templateId: string }) =>
        twice.has(t.entity) ? `${t.entity} · ${t.templateId.split(':')[0].slice(0, 8)}…` : t.entity;
      const shown = e.templates.slice(0, MAX_TEMPLATE_ITEMS).map((t): BrowseTreeItem => ({
        kind: 'message',
        icon: 'symbol-class',
        text: `${label(t)}  ${this.countText(node.name, t.count)}`,
        tooltip: t.templateId,
        templateId: t.templateId,
        packageName: e.packageName,
        command: { command: COMMAND.showActiveContracts, title: vscode.l10n.t('Show Active Contracts'), arguments: [node.name, undefined, t.templateId] },
      }));
      if (e.templates.length > MAX_TEMPLATE_ITEMS)
        shown.push({
          kind: 'message',
          icon: 'ellipsis',
          text: vscode.l10n.t('{0} more templates: use Show Active Contracts and search', formatCount(e.templates.length - MAX_TEMPLATE_ITEMS)),
        });
      return shown;
    }
    if (e.kind === 'interfacesRoot') return this.interfaces ? this.interfaces.children(node, await this.identity(node)) : [];
    if (e.kind !== 'acsRoot') return [];
    const identity = await this.identity(node);
    let c = this.counts.get(node.name);
    if (!c || c.identity !== identity) {
      if (c?.state === 'loading') c.abort.abort();
      c = this.count(node, identity);
    }
    const all: BrowseTreeItem = {
      kind: 'message',
      icon: 'table',
      text: vscode.l10n.t('Show All in a Table'),
      command: { command: COMMAND.showActiveContracts, title: vscode.l10n.t('Show Active Contracts'), arguments: [node.name] },
    };
    if (c.state === 'loading')
      return [{ kind: 'message', icon: 'loading~spin', text: vscode.l10n.t('Counting active contracts… {0} so far', formatCount(c.read)) }, all];
    if (c.state === 'error')
      return [
        {
          kind: 'message',
          icon: 'warning',
          text: c.error,
          tooltip: c.error,
          command: { command: COMMAND.refreshActiveContracts, title: vscode.l10n.t('Retry'), arguments: [node.name] },
        },
      ];
    const out: BrowseTreeItem[] = [all];
    if (this.interfaces) out.push({ kind: 'interfacesRoot' });
    if (c.notice) out.push({ kind: 'message', icon: 'info', text: c.notice, tooltip: c.notice });
    out.push(...c.groups.map((group): BrowseTreeItem => ({ kind: 'package', group })));
    if (c.groups.length === 0) out.push({ kind: 'message', icon: 'circle-slash', text: vscode.l10n.t('No active contracts visible to these parties') });
    return out;
  }

  /** A count as read: "5", or "at least 5" when the read stopped before the end. */
  private countText(node: string, n: number): string {
    const c = this.counts.get(node);
    const text = formatCount(n);
    return c?.state === 'done' && c.incomplete ? vscode.l10n.t('at least {0}', text) : text;
  }

  /** Forgets a node's counts (Refresh), so the next expand recounts. */
  refresh(node: string): void {
    const c = this.counts.get(node);
    if (c?.state === 'loading') c.abort.abort();
    this.counts.delete(node);
    this.interfaces?.refresh(node);
    this.changed.fire();
  }

  dispose(): void {
    this.interfaces?.dispose();
    for (const c of this.counts.values()) if (c.state === 'loading') c.abort.abort();
    this.changed.dispose();
  }

  private async identity(node: NodeConfig): Promise<string> {
    // The token's identity, stable while the token is the same (its description's time left is not).
    return JSON.stringify([node.url, node.parties, (await this.nodes.currentIdentity(node))?.key ?? '']);
  }

  private count(node: NodeConfig, identity: string): Counting {
    const abort = new AbortController();
    const c: Counting = { identity, state: 'loading', read: 0, abort };
    this.counts.set(node.name, c);
    void (async () => {
      const status = this.nodes.status(node);
      let lastFire = 0;
      try {
        const readAs = await this.nodes.facts.readAs(node, undefined, abort.signal);
        if (readAs.refusal) throw new Error(readAs.refusal);
        const done = await countActiveContracts(this.nodes.client(node), {
          parties: readAs.parties,
          version: status.state === 'reachable' ? status.version : undefined,
          signal: abort.signal,
          progress: (total) => {
            c.read = total;
            if (Date.now() - lastFire > 500) {
              lastFire = Date.now();
              this.changed.fire();
            }
          },
        });
        if (this.counts.get(node.name) === c) this.counts.set(node.name, { identity, state: 'done', ...done });
      } catch (e) {
        if (abort.signal.aborted) return;
        const error = isLedgerApiError(e) ? e.explanation : (e as Error).message;
        if (this.counts.get(node.name) === c)
          this.counts.set(node.name, { identity, state: 'error', error: vscode.l10n.t('Could not count the active contracts: {0}', error) });
      }
      this.changed.fire();
    })();
    return c;
  }
}
