// One webview panel per looked-up id: a contract, a transaction, or an id on every node. Back
// and forward within a panel; state is saved in the webview so panels come back after a reload.
import * as vscode from 'vscode';
import { askedAsLine, identityChangeNotice, identityName, type AskedAs } from '../auth/ledgerIdentity';
import { classifyLedgerId, shortId } from '../ids/ledgerIds';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { lookupSummary, type LedgerLookup } from '../lookups/ledgerLookups';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerLookupService } from '../services/lookupService';
import type { IdentityChange, LedgerNodes } from '../services/ledgerNodes';
import { allNodesBody } from './html/allNodesHtml';
import { visibilityMatrix, type NodeAnswer } from '../lookups/visibilityMatrix';
import { contractBody } from './html/contractHtml';
import { identityBar } from './html/identityHtml';
import { errorDetailsHtml } from './html/errorDetailsHtml';
import { parsePageMessage } from './panelMessages';
import { updateValue } from '../lookups/ledgerLookups';
import { exerciseTree, treeEvent, type FlatTreeNode } from '../lookups/exerciseTree';
import { eventDetailHtml } from './html/eventDetailHtml';
import { errorBody, foundKindOf, loadingBody, lookupActions, renderPanelPage } from './html/panelPage';
import { html, type SafeHtml } from './html/safeHtml';
import { transactionBody } from './html/transactionHtml';
import { lookupMarkdown } from './lookupMarkdown';
import { newNonce } from './randomIds';
import { idKind, packageNameOf, sameTarget, titleOf, validState, type PanelState, type PanelTarget } from './panelTargets';
import { openJsonDocument } from '../providers/jsonDocuments';

export type { PanelState, PanelTarget } from './panelTargets';

const VIEW_TYPE = 'cantonLens.ledgerPanel';

export class LedgerPanels implements vscode.Disposable {
  private readonly open = new Set<LedgerPanel>();
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly nodes: LedgerNodes,
    readonly lookups: LedgerLookupService,
    /** Told about every finished lookup, for the recent list: who asked is its user id, if known. */
    readonly onLookedUp: (target: PanelTarget, summary: string, askedAs: string | undefined) => void = () => undefined,
  ) {
    // Open panels say at once when the node's identity is no longer the one they were asked as.
    this.subscription = nodes.onDidChangeIdentity((e) => {
      for (const p of this.open) p.identityChanged(e);
    });
  }

  /** Reveals the panel showing `target` (asking again if it was asked as someone else), or opens one. */
  show(target: PanelTarget): LedgerPanel {
    for (const p of this.open) {
      if (sameTarget(p.current, target)) {
        p.reveal();
        p.reopen(target);
        return p;
      }
    }
    // One column for panels, as REST Client reuses its response pane: the column a panel is in already.
    const column = [...this.open].map((p) => p.webviewPanel.viewColumn).find((c) => c !== undefined) ?? vscode.ViewColumn.Beside;
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, titleOf(target), { viewColumn: column, preserveFocus: false }, this.webviewOptions());
    return this.adopt(panel, { history: [target], index: 0 });
  }

  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => {
        const s = validState(state);
        if (!s) {
          panel.dispose();
          return Promise.resolve();
        }
        panel.webview.options = this.webviewOptions();
        this.adopt(panel, s);
        return Promise.resolve();
      },
    });
  }

  /** The panels open now (for tests). */
  get panels(): readonly LedgerPanel[] {
    return [...this.open];
  }

  dispose(): void {
    this.subscription.dispose();
    for (const p of [...this.open]) p.dispose();
  }

  webviewOptions(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media')], enableFindWidget: true };
  }

  private adopt(panel: vscode.WebviewPanel, state: PanelState): LedgerPanel {
    const p = new LedgerPanel(panel, this, state);
    this.open.add(p);
    panel.onDidDispose(() => this.open.delete(p));
    return p;
  }
}

export class LedgerPanel {
  private history: PanelTarget[];
  private index: number;
  private result: LedgerLookup | undefined;
  /** The exercise tree shown (ledger effects), for the details of a row. */
  private tree: FlatTreeNode[] | undefined;
  private loading: AbortController | undefined;
  /** Who asked what the panel shows, per node: an answer is never shown as another identity's. */
  private readonly shownAs = new Map<string, AskedAs>();
  /** The body shown, without the identity bar (which is rendered afresh when the identity changes). */
  private content: SafeHtml | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  /** The text the page shows, for tests and "Copy as Markdown". */
  lastBody = '';

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly manager: LedgerPanels,
    state: PanelState,
  ) {
    this.history = state.history;
    this.index = state.index;
    panel.iconPath = vscode.Uri.joinPath(manager.extensionUri, 'media', 'icon.png');
    this.disposables.push(panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    panel.onDidDispose(() => this.dispose());
    void this.load();
  }

  /** The answer shown, if any (for Copy as cURL). */
  get lookupResult(): LedgerLookup | undefined {
    return this.result;
  }

  /** Copies the shown answer's request as cURL (the toolbar's button); returns what was copied. */
  copyAsCurl(): Thenable<string | undefined> {
    if (!this.result) return Promise.resolve(undefined);
    return vscode.commands.executeCommand<string | undefined>('cantonLens.copyAsCurl', { lookup: this.result, node: this.current.node });
  }

  /** Opens the answer's JSON as a read-only document (closing it never asks to save). */
  async openJson(): Promise<vscode.TextEditor | undefined> {
    if (!this.result) return undefined;
    const raw =
      this.result.kind === 'contract'
        ? this.result.found
          ? this.result.response
          : { request: this.result.request, error: this.result.error.cantonError }
        : this.result.found
          ? updateValue(this.result)
          : { error: this.result.error.cantonError };
    return openJsonDocument(`${this.current.kind === 'contract' ? 'contract' : 'update'} ${shortId(this.current.id)}`, raw);
  }

  get current(): PanelTarget {
    return this.history[this.index];
  }

  get webviewPanel(): vscode.WebviewPanel {
    return this.panel;
  }

  reveal(): void {
    this.panel.reveal();
  }

  get canGoBack(): boolean {
    return this.index > 0;
  }

  get canGoForward(): boolean {
    return this.index < this.history.length - 1;
  }

  back(): void {
    if (!this.canGoBack) return;
    this.index--;
    void this.load();
  }

  forward(): void {
    if (!this.canGoForward) return;
    this.index++;
    void this.load();
  }

  /** Asks again as the node's current identity (the banner's button). */
  askAgain(): Promise<void> {
    return this.load(true);
  }

  /** Opened again (a command, Recent Lookups): asks again when what it shows was asked as someone else. */
  reopen(target: PanelTarget): void {
    const recorded = target.recordedAs !== undefined && target.recordedAs !== this.current.recordedAs;
    if (recorded) this.history[this.index] = target;
    if (recorded || this.staleNotices().length > 0) void this.load();
  }

  /** The node's identity changed: if this panel shows an answer of the old one, say so now. */
  identityChanged(e: IdentityChange): void {
    if (this.content && this.shownAs.has(e.node)) this.render(this.content);
  }

  navigate(target: PanelTarget): void {
    this.history = [...this.history.slice(0, this.index + 1), target].slice(-50);
    this.index = this.history.length - 1;
    void this.load();
  }

  dispose(): void {
    this.disposed = true;
    this.loading?.abort();
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.panel.dispose();
  }

  /** Looks the current target up and renders it; `refresh` bypasses the cache for what can change. */
  async load(refresh = false): Promise<void> {
    if (this.disposed) return;
    this.loading?.abort();
    const ac = new AbortController();
    this.loading = ac;
    const target = this.current;
    this.result = undefined;
    this.shownAs.clear();
    this.panel.title = titleOf(target);
    const node = this.manager.nodes.find(target.node);
    if (!node) {
      this.render(
        errorBody(target.id, vscode.l10n.t('The node "{0}" is no longer configured.', target.node), [
          { action: 'selectNode', label: vscode.l10n.t('Select Active Node') },
        ]),
      );
      return;
    }
    this.render(loadingBody(`${target.kind === 'update' ? 'update' : 'contract'} ${shortId(target.id)}`, node.name));
    try {
      if (target.kind === 'everywhere') {
        const answers = await this.lookUpEverywhere(target, refresh, ac.signal);
        if (ac.signal.aborted) return;
        this.render(allNodesBody(idKind(target.id), target.id, answers));
        return;
      }
      const asking = (a: AskedAs) => {
        if (this.loading === ac) this.shownAs.set(node.name, a);
      };
      const result =
        target.kind === 'contract'
          ? await this.manager.lookups.contract(node, target.id, { refresh, signal: ac.signal, asking, asParty: target.asParty })
          : await this.manager.lookups.transaction(node, target.id, { refresh, signal: ac.signal, asking, shape: target.shape, asParty: target.asParty });
      if (ac.signal.aborted) return;
      this.result = result;
      // The answer says who asked it: a token switched in flight leaves it the old identity's.
      this.shownAs.set(node.name, result.askedAs);
      this.tree =
        result.kind === 'transaction' && result.found && result.update === 'transaction' && target.shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS'
          ? exerciseTree(result.transaction.events)
          : undefined;
      this.render(result.kind === 'contract' ? contractBody(result) : transactionBody(result, target.shape, target.highlight));
      this.manager.onLookedUp(target, lookupSummary(result), result.askedAs.identity.user);
    } catch (e) {
      if (ac.signal.aborted && this.loading !== ac) return;
      const cancelled = isLedgerApiError(e) && e.kind === 'cancelled';
      const explanation = isLedgerApiError(e) ? e.explanation : (e as Error).message;
      const actions = [{ action: 'retry', label: vscode.l10n.t('Retry') }];
      if (isLedgerApiError(e) && (e.kind === 'unauthenticated' || e.kind === 'permissionDenied'))
        actions.push({ action: 'setToken', label: vscode.l10n.t('Set Token') });
      actions.push({ action: 'selectNode', label: vscode.l10n.t('Use Another Node') });
      this.render(
        errorBody(
          vscode.l10n.t('{0} on {1}', shortId(target.id), node.name),
          cancelled ? vscode.l10n.t('The lookup was cancelled.') : explanation,
          actions,
          isLedgerApiError(e) && !cancelled ? errorDetailsHtml(e) : undefined,
        ),
      );
    } finally {
      if (this.loading === ac) this.loading = undefined;
    }
  }

  /** The visibility matrix of the id (lookups/visibilityMatrix.ts); who each node asked as is remembered for the banner. */
  private async lookUpEverywhere(target: PanelTarget, refresh: boolean, signal: AbortSignal): Promise<NodeAnswer[]> {
    const kind = idKind(target.id);
    const { answers, asked } = await visibilityMatrix(
      this.manager.nodes.all(),
      (n, opts) =>
        kind === 'contract'
          ? this.manager.lookups.contract(n as NodeConfig, target.id, opts)
          : this.manager.lookups.transaction(n as NodeConfig, target.id, opts),
      { refresh, signal },
    );
    if (!signal.aborted) for (const [name, a] of asked) this.shownAs.set(name, a);
    return answers;
  }

  /** What changed since the shown answers were asked: one notice per node whose identity differs now. */
  private staleNotices(): { text: string; button: string }[] {
    const notices: { text: string; button: string }[] = [];
    for (const [name, asked] of this.shownAs) {
      const node = this.manager.nodes.find(name);
      const identity = node && this.manager.nodes.knownIdentity(node);
      const notice = node && identity && identityChangeNotice(name, asked, { identity, parties: this.manager.lookups.currentParties(node, identity).parties });
      if (notice) notices.push(notice);
    }
    return notices;
  }

  /** The identity line, the stale-identity banner, and a reopened recent lookup's note. */
  private identityHtml(): SafeHtml {
    if (this.shownAs.size === 0) return html``;
    const lines = this.current.kind === 'everywhere' ? [] : [...this.shownAs.values()].map(askedAsLine);
    const recorded = this.current.recordedAs;
    const now = this.shownAs.get(this.current.node);
    const note =
      recorded !== undefined && now && recorded !== (now.identity.user ?? '')
        ? vscode.l10n.t(
            'Recent Lookups had this as asked by {0}; it was asked again as {1}.',
            recorded || vscode.l10n.t('an unnamed token'),
            identityName(now.identity),
          )
        : undefined;
    return identityBar({ lines, notices: this.staleNotices(), note });
  }

  private render(body: SafeHtml): void {
    // A lookup that ends after the panel closed has no page to show (the webview throws once disposed).
    if (this.disposed) return;
    this.content = body;
    const webview = this.panel.webview;
    const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.manager.extensionUri, 'media', f)).toString();
    const state: PanelState = { history: this.history, index: this.index };
    const shown = html`${this.identityHtml()}${body}`;
    this.lastBody = shown.text;
    webview.html = renderPanelPage({
      nonce: newNonce(),
      cspSource: webview.cspSource,
      scriptUri: media('panel.js'),
      styleUri: media('panel.css'),
      title: titleOf(this.current),
      nodeName: this.current.node,
      actions: lookupActions({
        canGoBack: this.canGoBack,
        canGoForward: this.canGoForward,
        hasResult: this.result !== undefined,
        found: foundKindOf(this.result),
      }),
      body: html`${shown}<div hidden id="panel-state" data-state="${JSON.stringify(state)}"></div>`,
    });
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m = parsePageMessage(raw);
    if (!m) return;
    switch (m.type) {
      case 'openId': {
        if (typeof m.id !== 'string') return;
        const kind = classifyLedgerId(m.id).kind;
        if (kind !== 'contract' && kind !== 'update') return;
        const node = typeof m.node === 'string' && this.manager.nodes.find(m.node) ? m.node : this.current.node;
        if (this.current.kind === 'everywhere') this.manager.show({ kind, id: m.id, node, ...(m.asParty ? { asParty: m.asParty } : {}) });
        else this.navigate({ kind, id: m.id, node });
        return;
      }
      case 'copy':
        if (typeof m.text === 'string') await vscode.env.clipboard.writeText(m.text);
        return;
      case 'openDaml':
        return void this.openDaml(m.templateId, m.choice, m.packageName);
      case 'setShape':
        return void this.setShape(m.shape);
      case 'setTokenFor':
        if (this.manager.nodes.find(m.node)) void vscode.commands.executeCommand('cantonLens.setToken', m.node);
        return;
      case 'eventDetail':
        this.showEventDetail(m.source, m.index);
        return;
      case 'openOffset':
        return this.openOffset(m.offset, m.nodeId, m.shape);
      case 'back':
        return this.back();
      case 'forward':
        return this.forward();
      case 'refresh':
      case 'retry':
        return void this.load(true);
      case 'askAgain':
        return void this.askAgain();
      case 'cancel':
        this.loading?.abort();
        this.render(errorBody(shortId(this.current.id), vscode.l10n.t('The lookup was cancelled.'), [{ action: 'retry', label: vscode.l10n.t('Retry') }]));
        return;
      case 'copyId':
        await vscode.env.clipboard.writeText(this.current.id);
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the id'), 2000);
        return;
      case 'copyMarkdown':
        if (!this.result) return;
        await vscode.env.clipboard.writeText(lookupMarkdown(this.result, this.current.node, this.nodeVersion()));
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied as Markdown'), 2000);
        return;
      case 'copyCurl':
        return void this.copyAsCurl();
      case 'copyArgument':
        if (this.result?.kind === 'contract' && this.result.found) {
          await vscode.env.clipboard.writeText(JSON.stringify(this.result.response.created?.createdEvent.createArgument, null, 2));
        }
        return;
      case 'openJson':
        return void this.openJson();
      case 'allNodes':
        this.manager.show({ kind: 'everywhere', id: this.current.id, node: this.current.node });
        return;
      case 'debug':
        return void vscode.commands.executeCommand('cantonLens.debugTransaction', this.current.id, this.current.node);
      case 'compare':
        return void vscode.commands.executeCommand('cantonLens.compareContracts', this.current.id, undefined, this.current.node);
      case 'setToken':
        return void vscode.commands.executeCommand('cantonLens.setToken', this.current.node);
      case 'selectNode':
        return void vscode.commands.executeCommand('cantonLens.selectNode');
      default:
        return;
    }
  }

  /** A template, interface or choice name: its definition in the workspace's Daml source. */
  openDaml(templateId: unknown, choice: unknown, packageName: unknown): Thenable<unknown> | undefined {
    if (typeof templateId !== 'string' || !templateId.includes(':')) return undefined;
    const pkg = typeof packageName === 'string' && packageName ? packageName : packageNameOf(this.result, templateId);
    return vscode.commands.executeCommand('cantonLens.openDamlDefinition', templateId, typeof choice === 'string' ? choice : undefined, pkg);
  }

  /** Shows the transaction as what changed or what happened; the choice stays with the panel. */
  setShape(shape: unknown): Promise<void> {
    if (shape !== 'TRANSACTION_SHAPE_ACS_DELTA' && shape !== 'TRANSACTION_SHAPE_LEDGER_EFFECTS') return Promise.resolve();
    if (this.current.kind !== 'update' || (this.current.shape ?? 'TRANSACTION_SHAPE_ACS_DELTA') === shape) return Promise.resolve();
    this.history[this.index] = { ...this.current, shape, highlight: undefined };
    return this.load();
  }

  /** A row opened in the page: the whole event, built now (not with the page), sent to the page and returned. */
  showEventDetail(source: unknown, index: unknown): string | undefined {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return undefined;
    const l = this.result;
    if (!l || l.kind !== 'transaction' || !l.found || l.update !== 'transaction') return undefined;
    let detail: SafeHtml | undefined;
    if (source === 'tree' && this.tree?.[index]) detail = eventDetailHtml(this.tree[index].node, this.tree, index);
    else if (source === 'events' && l.transaction.events[index]) detail = eventDetailHtml(treeEvent(l.transaction.events[index]));
    if (!detail) return undefined;
    if (!this.disposed) void this.panel.webview.postMessage({ type: 'eventDetail', source, index, html: detail.toString() });
    return detail.toString();
  }

  /** A lineage link: the update at an offset on this panel's node, with the event brought into view. */
  async openOffset(offset: unknown, nodeId: unknown, shape: unknown): Promise<void> {
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset <= 0) return;
    const node = this.manager.nodes.find(this.current.node);
    if (!node) return;
    const from = this.current;
    try {
      const updateId = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Finding the update at offset {0}…', offset), cancellable: true },
        (_p, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          return this.manager.lookups.updateIdAt(node, offset, ac.signal);
        },
      );
      // The panel closed or moved on while the update was found: nothing to show it in.
      if (this.disposed || this.current !== from) return;
      if (!updateId) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('The node has no update at offset {0} visible to these parties (it may have been pruned).', offset),
        );
        return;
      }
      this.navigate({
        kind: 'update',
        id: updateId,
        node: node.name,
        shape: shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS' ? shape : undefined,
        highlight: typeof nodeId === 'number' ? nodeId : undefined,
      });
    } catch (e) {
      if (isLedgerApiError(e) && e.kind === 'cancelled') return;
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Could not find the update at offset {0}: {1}', offset, isLedgerApiError(e) ? e.explanation : (e as Error).message),
      );
    }
  }

  private nodeVersion(): string | undefined {
    const node = this.manager.nodes.find(this.current.node);
    const s = node ? this.manager.nodes.status(node) : undefined;
    return s?.state === 'reachable' ? s.version : undefined;
  }
}
