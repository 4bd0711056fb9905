// The "Ledger Nodes" view: each node's reachability, version, latency, token and features.
// Failures are tree items with a retry action, never modal errors.
import * as vscode from 'vscode';
import { relativeTime } from '../auth/jwtClaims';
import { featureRows } from '../nodes/featureRows';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerNodes, TokenInfo } from '../services/ledgerNodes';
import type { RecentLookup } from '../lookups/recentLookups';
import { shortenPartyId } from '../ids/ledgerIds';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { BrowseTreeItem, BrowseTreeSection } from './browseTree';
import type { PackagesTreeItem, PackagesTreeSection } from './packagesTree';
import { recentItem } from './recentRows';
import { tokenDetail, type DetailRow } from './tokenRows';
import type { NodeFacts } from '../nodes/nodeFacts';
import { effectiveParties, rightsLines, type LearnedAccess } from '../auth/userRights';

export type NodeTreeElement =
  | { kind: 'node'; name: string }
  | { kind: 'recentRoot'; name: '' }
  | { kind: 'recent'; name: string; entry: RecentLookup }
  | DetailRow
  | { kind: 'features'; name: string }
  /** A collapsible group of learned facts (rights by party, hosted parties, synchronizers). */
  | {
      kind: 'group';
      name: string;
      label: string;
      value: string;
      icon: string;
      tooltip: string;
      rows: { label: string; value: string; tooltip?: string; icon?: string }[];
    }
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
    private readonly nodes: LedgerNodes,
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
      return [...this.nodeChildren(node, token), ...(await this.factRows(node, token))];
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
        command: { command: 'cantonLens.refresh', title: vscode.l10n.t('Retry'), arguments: [name] },
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
  private async factRows(node: NodeConfig, token: TokenInfo): Promise<NodeTreeElement[]> {
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
    const { snapshot: s, access } = learned;
    const out: NodeTreeElement[] = [...userRows(name, access)];
    if (!node.parties?.length) {
      const e = effectiveParties(node.parties, access);
      const value = e.refusal
        ? vscode.l10n.t('none: no read right')
        : e.parties.length
          ? vscode.l10n.t("{0} (from the token's rights)", e.parties.map(shortenPartyId).join(', '))
          : e.source === 'rights'
            ? vscode.l10n.t('any party ({0})', e.rightOf['*'] ?? '')
            : vscode.l10n.t('any party (rights not known)');
      const tooltip =
        e.refusal ??
        e.note ??
        (e.parties.length
          ? vscode.l10n.t("Lookups read as (from the token's rights):\n{0}", e.parties.map((p) => `${p} (${e.rightOf[p] ?? ''})`).join('\n'))
          : vscode.l10n.t("Lookups use filtersForAnyParty, which the token's CanReadAsAnyParty allows."));
      out.push({ kind: 'detail', name, label: vscode.l10n.t('Parties'), value, icon: e.refusal ? 'circle-slash' : 'person', tooltip });
    }
    if (s.participantId.ok)
      out.push({
        kind: 'detail',
        name,
        label: vscode.l10n.t('Participant'),
        value: shortenPartyId(s.participantId.value),
        icon: 'server',
        tooltip: s.participantId.value,
      });
    if (s.parties.ok) {
      const shown = s.parties.value.slice(0, 500);
      const rows = shown.map((p) => ({ label: shortenPartyId(p), value: '', tooltip: p, icon: 'person' }));
      if (s.parties.value.length > shown.length)
        rows.push({
          label: vscode.l10n.t('… {0} more', (s.parties.value.length - shown.length).toLocaleString('en-US')),
          value: '',
          tooltip: vscode.l10n.t('Only the first 500 are listed.'),
          icon: 'ellipsis',
        });
      out.push({
        kind: 'group',
        name,
        label: vscode.l10n.t('Hosted parties'),
        value: s.parties.value.length.toLocaleString('en-US'),
        icon: 'organization',
        tooltip: vscode.l10n.t('The parties this participant hosts (GET /v2/parties, every page).'),
        rows,
      });
    } else {
      out.push(factProblem(name, vscode.l10n.t('Hosted parties'), s.parties, 'organization'));
    }
    if (s.ledgerEnd.ok)
      out.push({
        kind: 'detail',
        name,
        label: vscode.l10n.t('Ledger end'),
        value: s.ledgerEnd.value.toLocaleString('en-US'),
        icon: 'milestone',
        tooltip: vscode.l10n.t('The offset of the last update (GET /v2/state/ledger-end), when the node was expanded or refreshed.'),
      });
    else out.push(factProblem(name, vscode.l10n.t('Ledger end'), s.ledgerEnd, 'milestone'));
    if (s.prunedUpTo.ok)
      out.push({
        kind: 'detail',
        name,
        label: vscode.l10n.t('Pruned up to'),
        value: s.prunedUpTo.value > 0 ? s.prunedUpTo.value.toLocaleString('en-US') : vscode.l10n.t('nothing pruned'),
        icon: 'archive',
        tooltip: vscode.l10n.t(
          'Updates at or below this offset, and contracts archived by then, are gone from this node (GET /v2/state/latest-pruned-offsets).',
        ),
      });
    else out.push(factProblem(name, vscode.l10n.t('Pruned up to'), s.prunedUpTo, 'archive'));
    if (s.synchronizers.ok) {
      out.push({
        kind: 'group',
        name,
        label: vscode.l10n.t('Synchronizers'),
        value: s.synchronizers.value.map((x) => x.alias).join(', '),
        icon: 'globe',
        tooltip: vscode.l10n.t('The synchronizers this participant is connected to (GET /v2/state/connected-synchronizers).'),
        rows: s.synchronizers.value.map((x) => ({
          label: x.alias,
          value: shortenPartyId(x.id),
          tooltip: `${x.id}${x.permission && x.permission !== 'PARTICIPANT_PERMISSION_UNSPECIFIED' ? `\n${x.permission}` : ''}`,
          icon: 'globe',
        })),
      });
    } else out.push(factProblem(name, vscode.l10n.t('Synchronizers'), s.synchronizers, 'globe'));
    return out;
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** The token's user and its rights, grouped by party. */
function userRows(name: string, access: LearnedAccess): NodeTreeElement[] {
  if (access.state === 'refused')
    return [
      { kind: 'detail', name, label: vscode.l10n.t('User'), value: vscode.l10n.t('refused ({0})', access.status), icon: 'error', tooltip: access.reason },
    ];
  if (access.state === 'unknown') {
    return [
      {
        kind: 'detail',
        name,
        label: vscode.l10n.t('User'),
        value: access.user ? `${access.user.id} · ${vscode.l10n.t('rights not known')}` : vscode.l10n.t('not known'),
        icon: 'question',
        tooltip: vscode.l10n.t("The token's rights could not be read: {0}. Lookups use the configured parties, or ask for any party.", access.reason),
      },
    ];
  }
  const u = access.user;
  const user: NodeTreeElement = {
    kind: 'detail',
    name,
    label: vscode.l10n.t('User'),
    value: `${u.id}${u.isDeactivated ? vscode.l10n.t(' (deactivated)') : ''}${u.primaryParty ? ` · ${shortenPartyId(u.primaryParty)}` : ''}`,
    icon: u.isDeactivated ? 'error' : 'account',
    tooltip: vscode.l10n.t("The token's user (GET /v2/authenticated-user): {0}\nPrimary party: {1}", u.id, u.primaryParty ?? vscode.l10n.t('none')),
  };
  const lines = rightsLines(access.rights);
  const over = access.maxRightsPerUser !== undefined ? vscode.l10n.t(" (more than the node's maxRightsPerUser, {0})", access.maxRightsPerUser) : '';
  const rights: NodeTreeElement = {
    kind: 'group',
    name,
    label: vscode.l10n.t('Rights'),
    value: lines.length === 0 ? vscode.l10n.t('none') : `${access.rights.total.toLocaleString('en-US')}${over}`,
    icon: 'shield',
    tooltip: vscode.l10n.t("The user's rights (GET /v2/users/{user-id}/rights), grouped by party."),
    rows: lines.map((l) => ({
      label: l.label,
      value: l.value,
      tooltip: l.party ? `${l.party}: ${l.value}` : `${l.label}: ${l.value}`,
      icon: l.party ? 'person' : 'shield',
    })),
  };
  return [user, rights];
}

function factProblem(name: string, label: string, f: { ok: false; needs?: string; reason: string }, icon: string): NodeTreeElement {
  return f.needs
    ? {
        kind: 'detail',
        name,
        label,
        value: vscode.l10n.t('needs {0}', f.needs),
        icon: 'lock',
        tooltip: vscode.l10n.t("The token's user may not ask this: it needs the {0} right.", f.needs),
      }
    : { kind: 'detail', name, label, value: vscode.l10n.t('not known'), icon, tooltip: f.reason };
}

/** Feature rows by kind: supported or not, a duration, a number. */
function featureIcon(value: string): string {
  if (value === 'supported') return 'check';
  if (value === 'not supported') return 'circle-slash';
  if (/\d\s*(ms|s|min)$/.test(value)) return 'watch';
  return 'symbol-number';
}
