// The "Ledger Nodes" view: each node's reachability, version, latency, token and features.
// Failures are tree items with a retry action, never modal errors.
import * as vscode from 'vscode';
import { relativeTime } from '../auth/jwtClaims';
import { featureRows } from '../nodes/featureRows';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader, TokenInfo } from '../services/ledgerNodes';
import type { RecentLookup } from '../lookups/recentLookups';
import { shortenPartyId } from '../ids/ledgerIds';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { BrowseTreeItem, BrowseTreeSection } from './browseTree';
import type { PackagesTreeItem, PackagesTreeSection } from './packagesTree';
import { recentItem } from './recentRows';
import { tokenDetail, type DetailRow } from './tokenRows';
import type { NodeFacts } from '../nodes/nodeFacts';
import { factRows, type FactGroup } from '../nodes/factRows';
import { COMMAND } from '../ids/commandIds';

export type NodeTreeElement =
  | { kind: 'node'; name: string }
  | { kind: 'recentRoot'; name: '' }
  | { kind: 'recent'; name: string; entry: RecentLookup }
  | DetailRow
  | { kind: 'features'; name: string }
  /** A collapsible group of learned facts (rights by party, hosted parties, synchronizers). */
  | FactGroup
  /** Active contracts and the ledger end (browseTree.ts). */
  | { kind: 'browse'; name: string; item: BrowseTreeItem }
  | { kind: 'packages'; name: string; item: PackagesTreeItem };

/** How long a check stays fresh when the view becomes visible again. */
const FRESH_MS = 60_000;

export class NodeTreeProvider implements vscode.TreeDataProvider<NodeTreeElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<NodeTreeElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  /** The token state each node showed last (the node row's icon is honest about a missing token). */
  private readonly tokens = new Map<string, TokenInfo>();

  constructor(
    private readonly nodes: NodeReader,
    private readonly recent: RecentLookupStore,
    private readonly browse: BrowseTreeSection,
    private readonly facts: NodeFacts,
    private readonly packages: PackagesTreeSection,
  ) {
    this.subscriptions.push(
      nodes.onDidChange(() => this.changed.fire(undefined)),
      recent.onDidChange(() => this.changed.fire(undefined)),
      browse.onDidChange(() => this.changed.fire(undefined)),
      packages.onDidChange(() => this.changed.fire(undefined)),
    );
  }

  /** Follows the view's visibility: checks stale nodes only while someone looks. */
  attach(view: vscode.TreeView<NodeTreeElement>): void {
    this.subscriptions.push(
      view.onDidChangeVisibility((e) => {
        if (e.visible) this.checkStale();
      }),
    );
  }

  refreshAll(): void {
    for (const n of this.nodes.all()) void this.nodes.check(n);
  }

  getTreeItem(e: NodeTreeElement): vscode.TreeItem {
    if (e.kind === 'node') return this.nodeItem(e.name);
    if (e.kind === 'recentRoot') {
      const item = new vscode.TreeItem(vscode.l10n.t('Recent Lookups'), vscode.TreeItemCollapsibleState.Expanded);
      item.id = 'recent';
      item.iconPath = new vscode.ThemeIcon('history');
      item.contextValue = 'cantonLens.recentRoot';
      item.tooltip = vscode.l10n.t('Contracts and transactions you looked up. Pinned ones stay; Clear removes the others.');
      return item;
    }
    if (e.kind === 'recent') return recentItem(e.entry);
    if (e.kind === 'browse') return this.browse.treeItem(e.name, e.item);
    if (e.kind === 'packages') return this.packages.treeItem(e.name, e.item);
    if (e.kind === 'group') {
      const item = new vscode.TreeItem(e.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.description = e.value;
      item.tooltip = new vscode.MarkdownString().appendText(e.tooltip);
      item.iconPath = new vscode.ThemeIcon(e.icon);
      item.contextValue = 'cantonLens.value';
      return item;
    }
    if (e.kind === 'features') {
      const item = new vscode.TreeItem(vscode.l10n.t('Features'), vscode.TreeItemCollapsibleState.Collapsed);
      item.iconPath = new vscode.ThemeIcon('list-unordered');
      item.tooltip = vscode.l10n.t('The feature descriptor of GET /v2/version.');
      return item;
    }
    const item = new vscode.TreeItem(e.label, vscode.TreeItemCollapsibleState.None);
    item.description = e.value;
    item.tooltip = e.tooltip ? new vscode.MarkdownString().appendText(e.tooltip) : `${e.label}: ${e.value}`;
    item.contextValue = e.contextValue ?? 'cantonLens.value';
    if (e.icon) item.iconPath = new vscode.ThemeIcon(e.icon);
    if (e.command) item.command = e.command;
    return item;
  }

  async getChildren(e?: NodeTreeElement): Promise<NodeTreeElement[]> {
    if (!e) {
      const all = this.nodes.all();
      for (const n of all) if (this.nodes.status(n).state === 'unchecked') void this.nodes.check(n);
      const roots: NodeTreeElement[] = all.map((n) => ({ kind: 'node', name: n.name }));
      // Only beside nodes: with none, the view shows its welcome content.
      if (all.length > 0 && this.recent.all().length > 0) roots.push({ kind: 'recentRoot', name: '' });
      return roots;
    }
    if (e.kind === 'recentRoot') return this.recent.all().map((entry) => ({ kind: 'recent', name: entry.node, entry }));
    const node = this.nodes.find(e.name);
    if (!node) return [];
    if (e.kind === 'features') return this.featureChildren(node);
    if (e.kind === 'group')
      return e.rows.map((r) => ({
        kind: 'detail',
        name: node.name,
        label: r.label,
        value: r.value,
        tooltip: r.tooltip ?? `${r.label}: ${r.value}`,
        icon: r.icon ?? e.icon,
      }));
    if (e.kind === 'browse') return (await this.browse.children(node, e.item)).map((item) => ({ kind: 'browse', name: node.name, item }));
    if (e.kind === 'packages') return (await this.packages.children(node, e.item)).map((item) => ({ kind: 'packages', name: node.name, item }));
    if (e.kind === 'node') {
      const token = await this.nodes.tokenInfo(node);
      const before = this.tokens.get(node.name);
      this.tokens.set(node.name, token);
      if (before?.source !== token.source || (before.source !== 'blocked' && token.source !== 'blocked' && before.state.state !== token.state.state))
        this.changed.fire(e);
      return [...this.nodeChildren(node, token), ...(await this.learnedRows(node, token))];
    }
    return [];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }

  private checkStale(): void {
    const now = Date.now();
    for (const n of this.nodes.all()) {
      const s = this.nodes.status(n);
      if (s.state === 'unchecked' || ((s.state === 'reachable' || s.state === 'unreachable') && now - s.checkedAt > FRESH_MS)) void this.nodes.check(n);
    }
  }

  private nodeItem(name: string): vscode.TreeItem {
    const node = this.nodes.find(name);
    const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Collapsed);
    if (!node) return item;
    const status = this.nodes.status(node);
    const shown = status.state === 'checking' && status.previous ? status.previous : status;
    const active = this.nodes.active()?.name === name;
    item.id = `node:${name}`;
    item.contextValue = active ? 'cantonLens.node.active' : 'cantonLens.node';
    const tip = new vscode.MarkdownString();
    tip.appendMarkdown(`**${escapeMd(name)}**${active ? ' (active)' : ''}\n\n`).appendText(node.url);
    switch (shown.state) {
      case 'reachable': {
        item.description = `${shown.version} · ${Math.round(shown.latencyMs)} ms`;
        const token = this.tokens.get(name);
        const noToken = token?.source === 'blocked' || token?.state.state === 'none' || token?.state.state === 'expired';
        // Reachable is not usable: without a token (or with an expired one) lookups are refused.
        item.iconPath = noToken
          ? new vscode.ThemeIcon('unverified', new vscode.ThemeColor('list.warningForeground'))
          : new vscode.ThemeIcon(active ? 'pass-filled' : 'pass', new vscode.ThemeColor('testing.iconPassed'));
        tip.appendMarkdown('\n\n').appendText(vscode.l10n.t('Canton {0}, answered in {1} ms.', shown.version, Math.round(shown.latencyMs)));
        if (noToken)
          tip
            .appendMarkdown('\n\n')
            .appendText(
              token?.source === 'blocked'
                ? token.reason
                : vscode.l10n.t('Reachable, but no usable token: lookups are refused (401) unless the node runs without authentication. Set Token.'),
            );
        break;
      }
      case 'unreachable':
        item.description = vscode.l10n.t('unreachable: {0}', shown.error.kind);
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
        tip.appendMarkdown('\n\n').appendText(shown.error.explanation);
        break;
      default:
        item.description = vscode.l10n.t('checking…');
        item.iconPath = new vscode.ThemeIcon('loading~spin');
    }
    if (status.state === 'checking' && shown !== status) item.description = vscode.l10n.t('{0} (checking…)', String(item.description));
    item.tooltip = tip;
    return item;
  }

  private nodeChildren(node: NodeConfig, token: TokenInfo): NodeTreeElement[] {
    const status = this.nodes.status(node);
    const name = node.name;
    const out: NodeTreeElement[] = [];
    if (status.state === 'unreachable') {
      out.push({
        kind: 'detail',
        name,
        label: vscode.l10n.t('Unreachable'),
        value: status.error.explanation,
        icon: 'warning',
        contextValue: 'cantonLens.error',
        tooltip: vscode.l10n.t('{0}\n\nChecked {1}. Retry with the refresh action.', status.error.explanation, relativeTime(status.checkedAt - Date.now())),
        command: { command: COMMAND.refresh, title: vscode.l10n.t('Retry'), arguments: [name] },
      });
    }
    out.push({
      kind: 'detail',
      name,
      label: vscode.l10n.t('URL'),
      value: node.url,
      icon: 'link',
      tooltip: vscode.l10n.t('The JSON Ledger API base URL ({0} settings).', node.scope),
    });
    if (status.state === 'reachable') {
      out.push({
        kind: 'detail',
        name,
        label: vscode.l10n.t('Version'),
        value: status.version,
        icon: 'versions',
        tooltip: vscode.l10n.t("The participant's Canton version (GET /v2/version)."),
      });
      out.push({
        kind: 'detail',
        name,
        label: vscode.l10n.t('Latency'),
        value: `${Math.round(status.latencyMs)} ms`,
        icon: 'pulse',
        tooltip: vscode.l10n.t('Round trip of GET /v2/version, checked {0}.', relativeTime(status.checkedAt - Date.now())),
      });
    }
    out.push(tokenDetail(name, token));
    if (node.parties?.length) {
      out.push({
        kind: 'detail',
        name,
        label: vscode.l10n.t('Parties'),
        value: vscode.l10n.t('{0} (from the settings)', node.parties.map(shortenPartyId).join(', ')),
        icon: 'person',
        tooltip: vscode.l10n.t('Lookups read as (cantonLens.nodes parties):\n{0}', node.parties.join('\n')),
      });
    }
    if (node.userId) out.push({ kind: 'detail', name, label: vscode.l10n.t('User'), value: node.userId, icon: 'account' });
    if (status.state === 'reachable') out.push({ kind: 'features', name });
    out.push(...this.browse.nodeRows(node).map((item): NodeTreeElement => ({ kind: 'browse', name, item })));
    if (status.state === 'reachable') out.push(...this.packages.nodeRows().map((item): NodeTreeElement => ({ kind: 'packages', name, item })));
    return out;
  }

  private featureChildren(node: NodeConfig): NodeTreeElement[] {
    const status = this.nodes.status(node);
    const features =
      status.state === 'reachable'
        ? status.features
        : status.state === 'checking' && status.previous?.state === 'reachable'
          ? status.previous.features
          : undefined;
    if (!features) return [];
    return featureRows(features).map((r) => ({
      kind: 'detail',
      name: node.name,
      label: r.label,
      value: r.value,
      tooltip: `${r.label}: ${r.value}\n\n${r.tooltip}`,
      icon: featureIcon(r.value),
    }));
  }

  /**
   * What the node says with the node's own token: the user, its rights by party, the parties
   * lookups read as (and where from), the participant, hosted parties, pruning point and
   * synchronizers. Asked when the node is expanded, remembered until Refresh or a new token.
   */
  private async learnedRows(node: NodeConfig, token: TokenInfo): Promise<NodeTreeElement[]> {
    if (this.nodes.status(node).state !== 'reachable') return [];
    const name = node.name;
    if (token.source === 'blocked' || token.state.state === 'none') {
      return node.parties?.length
        ? []
        : [
            {
              kind: 'detail',
              name,
              label: vscode.l10n.t('Parties'),
              value: vscode.l10n.t("learned from the token's rights once a token is set"),
              icon: 'person',
              tooltip: vscode.l10n.t(
                "With no parties configured, lookups read as the parties the token's user may read as (CanActAs, CanReadAs), or as any party with CanReadAsAnyParty.",
              ),
            },
          ];
    }
    let learned;
    try {
      learned = await this.facts.snapshot(node);
    } catch (e) {
      return [{ kind: 'detail', name, label: vscode.l10n.t('User'), value: vscode.l10n.t('not known: {0}', (e as Error).message), icon: 'question' }];
    }
    return factRows(name, node.parties, learned.snapshot, learned.access);
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** Feature rows by kind: supported or not, a duration, a number. */
function featureIcon(value: string): string {
  if (value === 'supported') return 'check';
  if (value === 'not supported') return 'circle-slash';
  if (/\d\s*(ms|s|min)$/.test(value)) return 'watch';
  return 'symbol-number';
}
