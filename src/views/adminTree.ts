// The Administration view: the active node's users, parties and identity providers, for a token that
// may administer (ParticipantAdmin, or IdentityProviderAdmin within its provider); otherwise one row
// saying which right is needed. Only reads: pages are read when a section is expanded or "More…" is
// clicked, kept until Refresh, a new token, another active node or a change made from the view's
// commands. Rows and their text are src/auth/adminRows.ts; tooltips escape every ledger string.
import * as vscode from 'vscode';
import {
  adminAccess,
  asText,
  idpDetails,
  partyDetails,
  partyLine,
  partyMatches,
  readAdminIdp,
  readAdminParty,
  readAdminUser,
  userDetails,
  userLine,
  userMatches,
  type AdminAccess,
  type AdminSection,
  type AdminIdp,
  type AdminParty,
  type AdminUser,
  type AdminElement,
} from '../auth/adminRows';

export type { AdminElement } from '../auth/adminRows';
import { parseRights, type UserRights } from '../auth/userRights';
import { listIdentityProviders, listUsers } from '../ledger/adminRequests';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { CallOptions } from '../ledger/ledgerClient';
import { codeSpan, escapeMarkdown } from '../lookups/hoverMarkdown';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';

interface Paged<T> {
  items: T[];
  next?: string;
  error?: string;
}

interface NodeState {
  node: string;
  access?: Promise<AdminAccess>;
  users?: Paged<AdminUser>;
  parties?: Paged<AdminParty>;
  idps?: Paged<AdminIdp>;
  rights: Map<string, Promise<UserRights | string>>;
}

const PAGE_SIZE = 100;
const why = (e: unknown) => (isLedgerApiError(e) ? e.explanation : ((e as Error)?.message ?? String(e)));

export class AdminTreeProvider implements vscode.TreeDataProvider<AdminElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AdminElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private state: NodeState | undefined;
  private filterText = '';
  private lastActive: string | undefined;
  private view: vscode.TreeView<AdminElement> | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly nodes: NodeReader) {
    this.lastActive = nodes.active()?.name;
    this.subscriptions = [
      nodes.onDidChange(() => {
        if (nodes.active()?.name !== this.lastActive) this.refresh();
      }),
      nodes.onDidChangeIdentity(() => this.refresh()),
      nodes.onDidRequestRefresh(() => this.refresh()),
    ];
  }

  attach(view: vscode.TreeView<AdminElement>): void {
    this.view = view;
    this.describe();
  }

  get filter(): string {
    return this.filterText;
  }

  /** Rows are filtered by this text (ids, parties, identity providers, annotations); empty shows all. */
  setFilter(text: string): void {
    this.filterText = text.trim();
    void vscode.commands.executeCommand('setContext', 'cantonLens.admin.filtered', this.filterText !== '');
    this.describe();
    this.changed.fire(undefined);
  }

  /** Forgets what was read: the next expand reads again. */
  refresh(): void {
    this.lastActive = this.nodes.active()?.name;
    this.state = undefined;
    this.describe();
    this.changed.fire(undefined);
  }

  private describe(): void {
    if (!this.view) return;
    const node = this.nodes.active()?.name;
    this.view.description = [node, this.filterText ? vscode.l10n.t('filter: {0}', asText(this.filterText)) : ''].filter(Boolean).join(' · ');
  }

  private stateFor(node: NodeConfig): NodeState {
    if (!this.state || this.state.node !== node.name) this.state = { node: node.name, rights: new Map() };
    return this.state;
  }

  private async opts(node: NodeConfig): Promise<CallOptions> {
    return { auth: { token: (await this.nodes.credentials(node)).token } };
  }

  /** May the active node's token administer? Asked once per state. */
  access(node: NodeConfig): Promise<AdminAccess> {
    const s = this.stateFor(node);
    s.access ??= this.nodes.credentials(node).then(
      (c) => this.nodes.facts.accessFor(node, c).then(adminAccess),
      (e: unknown) => ({ may: false as const, why: why(e) }),
    );
    return s.access;
  }

  async getChildren(e?: AdminElement): Promise<AdminElement[]> {
    const node = this.nodes.active();
    if (!node) return [{ kind: 'adminMessage', text: vscode.l10n.t('No active ledger node.') }];
    if (!e) {
      const access = await this.access(node);
      if (!access.may) return [{ kind: 'adminMessage', text: vscode.l10n.t('Needs ParticipantAdmin or IdentityProviderAdmin'), detail: access.why }];
      return (['users', 'parties', 'idps'] as const).map((section) => ({ kind: 'adminSection', node: node.name, section }));
    }
    if (e.kind === 'adminSection') return this.sectionRows(node, e.section);
    if (e.kind === 'adminUser') {
      const rights = await this.rightsOf(node, e.user.id);
      const details = userDetails(e.user, typeof rights === 'string' ? undefined : rights);
      if (typeof rights === 'string') details.splice(3, 0, { kind: 'none', label: vscode.l10n.t('Rights'), value: rights });
      return details.map((detail) => ({ kind: 'adminDetail', node: node.name, detail, userId: e.user.id }));
    }
    if (e.kind === 'adminParty') return partyDetails(e.party).map((detail) => ({ kind: 'adminDetail', node: node.name, detail }));
    if (e.kind === 'adminIdp') return idpDetails(e.idp).map((detail) => ({ kind: 'adminDetail', node: node.name, detail }));
    return [];
  }

  private rightsOf(node: NodeConfig, userId: string): Promise<UserRights | string> {
    const s = this.stateFor(node);
    let r = s.rights.get(userId);
    if (!r) {
      r = this.opts(node).then((opts) => this.nodes.client(node).listUserRights(userId, opts).then(parseRights, why));
      s.rights.set(userId, r);
    }
    return r;
  }

  private async sectionRows(node: NodeConfig, section: AdminSection): Promise<AdminElement[]> {
    const s = this.stateFor(node);
    if (section === 'idps') {
      if ((await this.access(node)).may !== 'participantAdmin')
        return [
          {
            kind: 'adminMessage',
            text: vscode.l10n.t('Needs ParticipantAdmin'),
            detail: vscode.l10n.t('Only a ParticipantAdmin may list the identity providers.'),
          },
        ];
      if (!s.idps) {
        try {
          const res = await listIdentityProviders(this.nodes.client(node), await this.opts(node));
          s.idps = { items: (res.identityProviderConfigs ?? []).map(readAdminIdp).filter((i): i is AdminIdp => i !== undefined) };
        } catch (e) {
          s.idps = { items: [], error: why(e) };
        }
      }
      return this.pagedRows(node, section, s.idps, (idp) => ({ kind: 'adminIdp', node: node.name, idp }));
    }
    if (!s[section]) await this.loadPage(node, section);
    if (section === 'users')
      return this.pagedRows(node, section, s.users!, (user) => (userMatches(user, this.filterText) ? { kind: 'adminUser', node: node.name, user } : undefined));
    return this.pagedRows(node, section, s.parties!, (party) =>
      partyMatches(party, this.filterText) ? { kind: 'adminParty', node: node.name, party } : undefined,
    );
  }

  private pagedRows<T>(node: NodeConfig, section: AdminSection, paged: Paged<T>, row: (t: T) => AdminElement | undefined): AdminElement[] {
    const rows = paged.items.map(row).filter((r): r is AdminElement => r !== undefined);
    if (paged.error) rows.push({ kind: 'adminMessage', text: vscode.l10n.t('Could not read them'), detail: paged.error });
    else if (rows.length === 0) rows.push({ kind: 'adminMessage', text: this.filterText ? vscode.l10n.t('None matches the filter') : vscode.l10n.t('None') });
    if (paged.next && section !== 'idps') rows.push({ kind: 'adminMore', node: node.name, section });
    return rows;
  }

  /** Reads the next page of users or parties (the first when none was read). */
  async loadPage(node: NodeConfig, section: 'users' | 'parties'): Promise<void> {
    const s = this.stateFor(node);
    const current = s[section] as Paged<AdminUser | AdminParty> | undefined;
    if (current && !current.next) return;
    const client = this.nodes.client(node);
    try {
      const opts = await this.opts(node);
      if (section === 'users') {
        const page = await listUsers(client, { pageSize: PAGE_SIZE, pageToken: s.users?.next }, opts);
        const items = (page.users ?? []).map(readAdminUser).filter((u): u is AdminUser => u !== undefined);
        s.users = { items: [...(s.users?.items ?? []), ...items], next: page.nextPageToken || undefined };
      } else {
        const page = await client.listParties({ pageSize: PAGE_SIZE, pageToken: s.parties?.next }, opts);
        const items = (page.partyDetails ?? []).map(readAdminParty).filter((p): p is AdminParty => p !== undefined);
        s.parties = { items: [...(s.parties?.items ?? []), ...items], next: page.nextPageToken || undefined };
      }
    } catch (e) {
      s[section] = { items: current?.items ?? [], error: why(e) } as never;
    }
    if (current) this.changed.fire({ kind: 'adminSection', node: node.name, section });
  }

  /** Reads the next page and shows it (the "More…" row's command). */
  async more(section: 'users' | 'parties'): Promise<void> {
    const node = this.nodes.active();
    if (!node) return;
    await this.loadPage(node, section);
    this.changed.fire(undefined);
  }

  getTreeItem(e: AdminElement): vscode.TreeItem {
    const None = vscode.TreeItemCollapsibleState.None;
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (e.kind) {
      case 'adminMessage': {
        const item = new vscode.TreeItem(e.text, None);
        item.iconPath = new vscode.ThemeIcon('info');
        if (e.detail) {
          item.description = e.detail;
          item.tooltip = e.detail;
        }
        item.contextValue = 'cantonLens.admin.message';
        return item;
      }
      case 'adminSection': {
        const titles: Record<AdminSection, string> = {
          users: vscode.l10n.t('Users'),
          parties: vscode.l10n.t('Parties'),
          idps: vscode.l10n.t('Identity providers'),
        };
        const item = new vscode.TreeItem(titles[e.section], Collapsed);
        item.id = `${e.node}\n${e.section}\n${this.filterText}`;
        item.iconPath = new vscode.ThemeIcon(e.section === 'users' ? 'person' : e.section === 'parties' ? 'organization' : 'key');
        item.contextValue = `cantonLens.admin.${e.section}`;
        return item;
      }
      case 'adminUser': {
        const { label, description } = userLine(e.user);
        const item = new vscode.TreeItem(label, Collapsed);
        item.id = `${e.node}\nuser\n${e.user.id}\n${e.user.resourceVersion}`;
        item.description = description;
        item.iconPath = new vscode.ThemeIcon(e.user.isDeactivated ? 'circle-slash' : 'person');
        item.tooltip = tooltip(vscode.l10n.t('User'), e.user.id, [
          [vscode.l10n.t('Primary party'), e.user.primaryParty ?? '—'],
          [vscode.l10n.t('Identity provider'), e.user.identityProviderId || vscode.l10n.t('the default identity provider')],
          ...Object.entries(e.user.annotations),
        ]);
        item.contextValue = e.user.isDeactivated ? 'cantonLens.admin.user.deactivated' : 'cantonLens.admin.user.active';
        return item;
      }
      case 'adminParty': {
        const { label, description } = partyLine(e.party);
        const item = new vscode.TreeItem(label, Collapsed);
        item.id = `${e.node}\nparty\n${e.party.party}\n${e.party.resourceVersion}`;
        item.description = description;
        item.iconPath = new vscode.ThemeIcon(e.party.isLocal ? 'organization' : 'globe');
        item.tooltip = tooltip(vscode.l10n.t('Party'), e.party.party, Object.entries(e.party.annotations));
        item.contextValue = 'cantonLens.admin.party';
        return item;
      }
      case 'adminIdp': {
        const item = new vscode.TreeItem(asText(e.idp.id), Collapsed);
        item.description = e.idp.isDeactivated ? vscode.l10n.t('deactivated') : asText(e.idp.issuer);
        item.iconPath = new vscode.ThemeIcon('key');
        item.tooltip = tooltip(vscode.l10n.t('Identity provider'), e.idp.id, [
          [vscode.l10n.t('Issuer'), e.idp.issuer],
          [vscode.l10n.t('JWKS URL'), e.idp.jwksUrl],
        ]);
        item.contextValue = 'cantonLens.admin.idp';
        return item;
      }
      case 'adminDetail': {
        const item = new vscode.TreeItem(e.detail.label, None);
        item.description = e.detail.value;
        item.tooltip = `${e.detail.label}: ${e.detail.value}${e.detail.party ? `\n${asText(e.detail.party)}` : ''}`;
        item.contextValue = `cantonLens.admin.detail.${e.detail.kind}`;
        return item;
      }
      case 'adminMore': {
        const item = new vscode.TreeItem(vscode.l10n.t('More…'), None);
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: COMMAND.adminLoadMore, title: vscode.l10n.t('More…'), arguments: [e.section] };
        return item;
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}

/** A tooltip whose every ledger string is escaped: the title's id in a code span, each line's value escaped. */
function tooltip(title: string, id: string, lines: [string, string][]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(
    [`**${escapeMarkdown(title)}** ${codeSpan(id)}`, '', ...lines.map(([k, v]) => `- ${escapeMarkdown(asText(k))}: ${escapeMarkdown(asText(v))}`)].join('\n'),
  );
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
