// The Active Contracts panel: a node's active contracts for the configured (or given) parties,
// optionally one template or interface, read page by page into a virtual table. The host keeps no
// rows: they go to the page as they arrive, and a changed token reads everything again.
import * as vscode from 'vscode';
import { asSeenBy, browseEventFormat, hasPagedEndpoints, type BrowseFilter } from '../browse/browseForms';
import { readActiveContracts } from '../browse/acsPaging';
import { acsRow } from '../browse/acsRows';
import { passesFilter } from '../browse/changeView';
import { splitTemplateId } from '../browse/acsGrouping';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerNodes } from '../services/ledgerNodes';
import { acsPageHtml } from './html/browseHtml';
import type { CompiledFilter } from './payloadFilterPick';
import { newNonce } from './randomIds';

export interface AcsTarget {
  node: string;
  /** Read as these parties; none: as lookups read (the configured parties, else the token's rights). */
  parties?: string[];
  templateId?: string;
  interfaceId?: string;
  /** The set as it was at this offset (default: the ledger end). */
  activeAtOffset?: number;
}

type AcsMessage =
  | { type: 'ready' | 'refresh' | 'cancel' | 'retry' | 'setToken' | 'selectNode' | 'filterPayload' | 'showInactive' | 'showAllInRange' }
  | { type: 'openContract'; id: string }
  | { type: 'openDaml'; templateId: string; packageName?: string };

const VIEW_TYPE = 'cantonLens.activeContracts';

export class AcsPanels implements vscode.Disposable {
  private readonly open = new Set<AcsPanel>();

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly nodes: LedgerNodes,
    /** The payload filter's input (its code loads with the first use). */
    readonly pickPayloadFilter: (current: string, sample: readonly unknown[], parties: readonly string[]) => Promise<CompiledFilter | undefined>,
  ) {}

  /** Reveals the table of `target`, or opens one; `reload` reads an open one again (Run Again). */
  show(target: AcsTarget, reload = false): AcsPanel {
    for (const p of this.open) {
      if (JSON.stringify(p.target) === JSON.stringify(target)) {
        p.reveal();
        if (reload) void p.load();
        return p;
      }
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      titleOf(target),
      { viewColumn: vscode.ViewColumn.Active },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media')],
        enableFindWidget: true,
      },
    );
    const p = new AcsPanel(panel, this, target);
    this.open.add(p);
    panel.onDidDispose(() => this.open.delete(p));
    return p;
  }

  get panels(): readonly AcsPanel[] {
    return [...this.open];
  }

  dispose(): void {
    for (const p of [...this.open]) p.dispose();
  }
}

export class AcsPanel {
  private readonly disposables: vscode.Disposable[] = [];
  private loading: AbortController | undefined;
  private ready!: () => void;
  private readonly isReady = new Promise<void>((r) => (this.ready = r));
  private identity: string | undefined;
  /** Rows are kept only when their create argument passes it (applied as pages arrive). */
  private payloadFilter: { text: string; test: (argument: unknown) => boolean } | undefined;
  /** Create arguments of the first rows read: the payload filter's completion offers their fields. */
  private sample: unknown[] = [];
  /** For tests: contracts sent to the page (the first ids, the templates), the offset, the last notice or error. */
  readonly shown = {
    contracts: 0,
    firstIds: [] as string[],
    templates: new Set<string>(),
    activeAtOffset: undefined as number | undefined,
    notice: '',
    error: '',
    done: false,
    pages: 0,
    /** The parties the last read asked as (empty: any party). */
    parties: undefined as readonly string[] | undefined,
    /** Contracts read and left out by the payload filter. */
    filteredOut: 0,
  };

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly manager: AcsPanels,
    readonly target: AcsTarget,
  ) {
    panel.iconPath = vscode.Uri.joinPath(manager.extensionUri, 'media', 'icon.png');
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)),
      // Rows read under one token are not shown under another: read again.
      manager.nodes.onDidChange(() => void this.checkIdentity()),
    );
    panel.onDidDispose(() => this.dispose());
    this.render();
    void this.identityKey().then((k) => (this.identity = k));
    void this.load();
  }

  reveal(): void {
    this.panel.reveal();
  }

  get webviewPanel(): vscode.WebviewPanel {
    return this.panel;
  }

  dispose(): void {
    this.loading?.abort();
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.panel.dispose();
  }

  private filter(parties: readonly string[]): BrowseFilter {
    return {
      parties,
      templates: this.target.templateId ? [this.target.templateId] : undefined,
      interfaces: this.target.interfaceId ? [this.target.interfaceId] : undefined,
    };
  }

  private render(): void {
    const webview = this.panel.webview;
    const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.manager.extensionUri, 'media', f)).toString();
    webview.html = acsPageHtml({
      nonce: newNonce(),
      cspSource: webview.cspSource,
      scriptUris: [media('virtualTable.js'), media('acs.js')],
      styleUris: [media('panel.css'), media('browse.css')],
      title: titleOf(this.target),
      nodeName: this.target.node,
      // Who reads is known once the token's rights are (load): the page is told then.
      scope: this.scope(undefined),
    });
  }

  private scope(parties: readonly string[] | undefined): string {
    const what = this.target.templateId
      ? vscode.l10n.t('template {0}', this.target.templateId)
      : this.target.interfaceId
        ? vscode.l10n.t('interface {0}', this.target.interfaceId)
        : vscode.l10n.t('every template');
    const filter = this.payloadFilter ? vscode.l10n.t(', payload filter: {0}', this.payloadFilter.text) : '';
    const at = this.target.activeAtOffset !== undefined ? vscode.l10n.t(', as it was at offset {0}', this.target.activeAtOffset.toLocaleString('en-US')) : '';
    return `${what}, ${asSeenBy(parties)}${at}${filter}`;
  }

  private post(message: unknown): void {
    // A read that ends after the panel closed has no page to tell: not an error (the webview
    // getter itself throws once the panel is disposed).
    try {
      this.panel.webview.postMessage(message).then(undefined, () => undefined);
    } catch {
      // disposed
    }
  }

  /** Reads every page and sends its rows; a new load cancels the one before. */
  async load(): Promise<void> {
    this.loading?.abort();
    const ac = new AbortController();
    this.loading = ac;
    await this.isReady;
    if (ac.signal.aborted) return;
    Object.assign(this.shown, {
      contracts: 0,
      firstIds: [],
      templates: new Set<string>(),
      activeAtOffset: undefined,
      notice: '',
      error: '',
      done: false,
      pages: 0,
      filteredOut: 0,
    });
    this.sample = [];
    this.post({ type: 'reset' });
    const node = this.manager.nodes.find(this.target.node);
    if (!node) {
      this.fail(vscode.l10n.t('The node "{0}" is no longer configured.', this.target.node), [
        { action: 'selectNode', label: vscode.l10n.t('Select Active Node') },
      ]);
      return;
    }
    const status = this.manager.nodes.status(node);
    const version =
      status.state === 'reachable'
        ? status.version
        : status.state === 'checking' && status.previous?.state === 'reachable'
          ? status.previous.version
          : undefined;
    try {
      const readAs = await this.manager.nodes.facts.readAs(node, this.target.parties, ac.signal);
      if (ac.signal.aborted) return;
      this.shown.parties = readAs.parties;
      this.post({ type: 'scope', text: this.scope(readAs.parties) });
      if (readAs.refusal) {
        this.fail(readAs.refusal, [{ action: 'setToken', label: vscode.l10n.t('Set Token') }]);
        return;
      }
      for await (const page of readActiveContracts(this.manager.nodes.client(node), {
        eventFormat: browseEventFormat(this.filter(readAs.parties)),
        paged: hasPagedEndpoints(version),
        websocket: true,
        pageSize: 1000,
        signal: ac.signal,
        ...(this.target.activeAtOffset !== undefined ? { activeAtOffset: this.target.activeAtOffset } : {}),
      })) {
        if (ac.signal.aborted) return;
        if (page.restarted) {
          Object.assign(this.shown, { contracts: 0, firstIds: [], templates: new Set<string>(), filteredOut: 0 });
          this.sample = [];
        }
        if (this.sample.length < 200) this.sample.push(...page.events.slice(0, 200 - this.sample.length).map((e) => e.createArgument));
        const events = this.payloadFilter ? page.events.filter((e) => passesFilter(this.payloadFilter!.test, e.createArgument)) : page.events;
        this.shown.filteredOut += page.events.length - events.length;
        this.shown.contracts += events.length;
        for (const e of events) {
          if (this.shown.firstIds.length < 20) this.shown.firstIds.push(e.contractId);
          if (this.shown.templates.size < 100) this.shown.templates.add(String(e.templateId));
        }
        this.shown.activeAtOffset = page.activeAtOffset;
        this.shown.pages++;
        this.post({ type: 'rows', rows: events.map(acsRow), activeAtOffset: page.activeAtOffset, restarted: page.restarted });
        if (page.notice) {
          this.shown.notice = page.notice;
          this.post({ type: 'notice', text: page.notice });
        }
      }
      this.shown.done = true;
      this.post({ type: 'done' });
    } catch (e) {
      if (ac.signal.aborted) {
        if (this.loading === ac) this.post({ type: 'done', cancelled: true });
        return;
      }
      const explanation = isLedgerApiError(e) ? e.explanation : (e as Error).message;
      const actions = [{ action: 'retry', label: vscode.l10n.t('Retry') }];
      if (isLedgerApiError(e) && (e.kind === 'unauthenticated' || e.kind === 'permissionDenied'))
        actions.push({ action: 'setToken', label: vscode.l10n.t('Set Token') });
      this.fail(vscode.l10n.t('Could not read the active contracts: {0}', explanation), actions);
    } finally {
      if (this.loading === ac) this.loading = undefined;
    }
  }

  /** Keeps only the rows whose create argument passes (none: every row), reading the table again. */
  filterBy(filter: { text: string; test: (argument: unknown) => boolean } | undefined): Promise<void> {
    this.payloadFilter = filter;
    return this.load();
  }

  private fail(text: string, actions: { action: string; label: string }[]): void {
    this.shown.error = text;
    this.post({ type: 'error', text, actions });
  }

  private async identityKey(): Promise<string> {
    const node = this.manager.nodes.find(this.target.node);
    if (!node) return '';
    // Who asks: the token's identity (its subject or digest), stable while the token is the same.
    // (The token's description is not: its time left changes on every call.)
    return JSON.stringify([node.url, node.parties, (await this.manager.nodes.currentIdentity(node))?.key ?? '']);
  }

  private async checkIdentity(): Promise<void> {
    const key = await this.identityKey();
    if (this.identity !== undefined && key !== this.identity) {
      this.identity = key;
      void this.load();
    }
    this.identity = key;
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m = raw as AcsMessage;
    if (typeof m !== 'object' || m === null || typeof m.type !== 'string') return;
    switch (m.type) {
      case 'ready':
        this.ready();
        return;
      case 'refresh':
      case 'retry':
        return void this.load();
      case 'cancel':
        this.loading?.abort();
        this.post({ type: 'done', cancelled: true });
        return;
      case 'openContract':
        if (typeof m.id === 'string' && /^[0-9a-f]{4,}$/.test(m.id)) await vscode.commands.executeCommand('cantonLens.showContract', m.id, this.target.node);
        return;
      case 'openDaml':
        // A template name: its Daml definition; the command checks the id.
        if (typeof m.templateId === 'string')
          await vscode.commands.executeCommand(
            'cantonLens.openDamlDefinition',
            m.templateId,
            undefined,
            typeof m.packageName === 'string' ? m.packageName : undefined,
          );
        return;
      case 'setToken':
        return void vscode.commands.executeCommand('cantonLens.setToken', this.target.node);
      case 'filterPayload': {
        const picked = await this.manager
          .pickPayloadFilter(this.payloadFilter?.text ?? '', this.sample, this.shown.parties ?? [])
          .catch((e: Error) => void vscode.window.showErrorMessage(vscode.l10n.t('The payload filter could not open: {0}', e.message)));
        if (!picked) return;
        if (!picked.ok) return void vscode.window.showErrorMessage(picked.message);
        return void this.filterBy(picked.text ? { text: picked.text, test: picked.test } : undefined);
      }
      case 'showInactive':
      case 'showAllInRange':
        // The contracts no longer active, or every change, in a range: What Changed on this table's scope.
        return void vscode.commands.executeCommand('cantonLens.whatChanged', undefined, undefined, this.target.node, {
          templates: this.target.templateId ? [this.target.templateId] : undefined,
          interfaces: this.target.interfaceId ? [this.target.interfaceId] : undefined,
          parties: this.target.parties,
          ledgerEffects: true,
          kind: m.type === 'showInactive' ? 'inactive' : undefined,
        });
      case 'selectNode':
        return void vscode.commands.executeCommand('cantonLens.selectNode');
      default:
        return;
    }
  }
}

function titleOf(t: AcsTarget): string {
  const what = t.templateId ? splitTemplateId(t.templateId).entity : t.interfaceId ? splitTemplateId(t.interfaceId).entity : '';
  const title = what ? vscode.l10n.t('Active {0} on {1}', what, t.node) : vscode.l10n.t('Active Contracts on {0}', t.node);
  return t.activeAtOffset !== undefined ? vscode.l10n.t('{0} at offset {1}', title, t.activeAtOffset.toLocaleString('en-US')) : title;
}
