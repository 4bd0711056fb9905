// One lookup panel: a contract, a transaction, or an id on every node, with back and forward. It
// stands on the panel kit (HtmlPanelHost): the page is set once and gets each new view as a content
// message, so what the person did on it stays; the page keeps the navigation (setState), from which
// the serializer (LookupPanels, lookupPanels.ts) brings the panel back after a window reload.
import * as vscode from 'vscode';
import type { NodeSignaturesReader } from '../daml/lf/lfSignatures';
import type { AskedAs } from '../auth/ledgerIdentity';
import { classifyLedgerId, shortId } from '../ids/ledgerIds';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { FlatTreeNode } from '../lookups/exerciseTree';
import { lookupSummary, type LedgerLookup } from '../lookups/ledgerLookups';
import { visibilityMatrix, type NodeAnswer } from '../lookups/visibilityMatrix';
import type { NodeConfig } from '../nodes/nodeSettings';
import { openJsonDocument } from '../providers/jsonDocuments';
import type { IdentityChange, NodeReader } from '../services/ledgerNodes';
import type { LedgerLookupService } from '../services/lookupService';
import { allNodesBody } from './html/allNodesHtml';
import { lookupActions } from './html/panelPage';
import type { SafeHtml } from './html/safeHtml';
import { HtmlPanelHost } from './htmlPanelHost';
import {
  answerBody,
  answerJson,
  cancelledBody,
  eventDetail,
  failureBody,
  identityHtml,
  lookingUpBody,
  lookupContent,
  missingNodeBody,
  notRefreshedNote,
  rowsAnswer,
  sameView,
  shownTree,
  seenAsLabel,
  staleNotices,
} from './lookupContent';
import { contractArgument } from './contractArgument';
import { AnswerTyping } from './answerTyping';
import { lookupMarkdown } from './lookupMarkdown';
import { busyMessage, acceptedBy, LOOKUP_ACTIONS, type LookupMessage } from '../protocol/panelMessages';
import { PanelHistory } from './panelHistory';
import { idKind, packageNameOf, titleOf, type PanelState, type PanelTarget } from './panelTargets';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export const LOOKUP_VIEW_TYPE = 'cantonLens.ledgerPanel';
/** How long an opened row waits for the node's signatures before it is drawn untyped (and again, typed, when they come). */
const DETAIL_WAIT_MS = 400;

/** What a lookup panel needs from the panels it belongs to (LookupPanels). */
export interface LookupPanelsContext {
  readonly extensionUri: vscode.Uri;
  readonly nodes: NodeReader;
  readonly lookups: LedgerLookupService;
  /** Told about every finished lookup, for the recent list: who asked is its user id, if known. */
  readonly onLookedUp: (target: PanelTarget, summary: string, askedByUser: string | undefined) => void;
  show(target: PanelTarget): unknown;
  /** The node's package signatures, to type a contract's values once read (never before the first paint). */
  readonly signatures?: NodeSignaturesReader;
}

export class LookupPanel extends HtmlPanelHost<LookupMessage> {
  private readonly history: PanelHistory;
  private result: LedgerLookup | undefined;
  /** The exercise tree shown (ledger effects), for the details of a row. */
  private tree: FlatTreeNode[] | undefined;
  /** The node's signatures that type the answer shown, read after its first paint. */
  private readonly typing = new AnswerTyping((result, target, packages) => {
    if (!this.isDisposed && this.result === result) this.render(answerBody(result, target, packages), true);
  });
  /** The read rights the last failed lookup lacked, and the node of that URL that may grant them. */
  private failure: { node: string; user: string; parties: string[]; via?: string } | undefined;
  private loading: AbortController | undefined;
  /** A refresh under way while the answer it replaces stays on the page (Cancel leaves that, with a note). */
  private refreshing: AbortController | undefined;
  /** The target whose answer the page shows (none: a lookup under way, an error): what a refresh keeps. */
  private answered: PanelTarget | undefined;
  /** Who asked what the panel shows, per node: an answer is never shown as another identity's. */
  private readonly shownAs = new Map<string, AskedAs>();
  /** The identities this panel met, numbered: the page compares who asked by these numbers only. */
  private readonly identityNumbers = new Map<string, number>();
  /** The body shown, without the identity bar (which is rendered afresh when the identity changes). */
  private content: SafeHtml | undefined;
  /** The HTML the page shows, for tests and "Copy as Markdown". */
  lastBody = '';

  constructor(
    private readonly manager: LookupPanelsContext,
    state: PanelState,
    where: { column?: vscode.ViewColumn; restored?: vscode.WebviewPanel },
  ) {
    const history = new PanelHistory(state);
    const first = history.current;
    super(
      {
        viewType: LOOKUP_VIEW_TYPE,
        accepts: acceptedBy<LookupMessage>(LOOKUP_ACTIONS, 'lookup'),
        title: titleOf(first),
        extensionUri: manager.extensionUri,
        nodeName: first.node,
        actions: lookupActions({ canGoBack: history.canGoBack, canGoForward: history.canGoForward, hasResult: false }),
        column: where.column,
        restored: where.restored,
        enableFindWidget: true,
      },
      lookingUpBody(first, first.node),
    );
    this.history = history;
    this.track({ dispose: () => this.loading?.abort() });
    void this.load();
  }

  /** The answer shown, if any (for Copy as cURL). */
  get lookupResult(): LedgerLookup | undefined {
    return this.result;
  }

  /** The read rights the last failed lookup lacked, and the node that may grant them (for tests). */
  get missingRight(): { node: string; user: string; parties: string[]; via?: string } | undefined {
    return this.failure;
  }

  /** Copies the shown answer's request as cURL (the toolbar's button); returns what was copied. */
  copyAsCurl(): Thenable<string | undefined> {
    if (!this.result) return Promise.resolve(undefined);
    return vscode.commands.executeCommand<string | undefined>(COMMAND.copyAsCurl, { lookup: this.result, node: this.current.node });
  }

  /** Opens the answer's JSON as a read-only document (closing it never asks to save). */
  async openJson(): Promise<vscode.TextEditor | undefined> {
    if (!this.result) return undefined;
    return openJsonDocument(`${this.current.kind === 'contract' ? 'contract' : 'update'} ${shortId(this.current.id)}`, answerJson(this.result));
  }

  get current(): PanelTarget {
    return this.history.current;
  }

  get canGoBack(): boolean {
    return this.history.canGoBack;
  }

  get canGoForward(): boolean {
    return this.history.canGoForward;
  }

  back(): void {
    if (this.history.back()) void this.load();
  }

  forward(): void {
    if (this.history.forward()) void this.load();
  }

  /** Asks again as the node's current identity (the banner's button). */
  askAgain(): Promise<void> {
    return this.load(true);
  }

  /** Cancels the lookup under way; a refresh's leaves the answer shown, with a note that it was not refreshed. */
  cancel(): void {
    // Nothing under way (the answer came as the button was pressed): nothing to cancel.
    if (!this.loading) return;
    this.loading.abort();
    if (!this.refreshing) return this.render(cancelledBody(this.current));
    this.refreshing = undefined;
    this.showBusy(busyMessage(false, notRefreshedNote()));
  }

  /** Opened again (a command, Recent Lookups): asks again when what it shows was asked as someone else. */
  reopen(target: PanelTarget): void {
    const recorded = target.recordedAs !== undefined && target.recordedAs !== this.current.recordedAs;
    if (recorded) this.history.replaceCurrent(target);
    if (recorded || this.staleNotices().length > 0) void this.load();
  }

  /** The node's identity changed: if this panel shows an answer of the old one, say so now. */
  identityChanged(e: IdentityChange): void {
    if (this.content && this.shownAs.has(e.node)) this.render(this.content, this.answered !== undefined);
  }

  navigate(target: PanelTarget): void {
    this.history.navigate(target);
    void this.load();
  }

  /**
   * Looks the current target up and renders it; `refresh` bypasses the cache for what can change.
   * A refresh of the answer shown keeps it on the page, busy, until the new answer (or an error)
   * replaces it: what the person opened and where they were stay put. Anything else shows the lookup under way.
   */
  async load(refresh = false): Promise<void> {
    if (this.isDisposed) return;
    this.loading?.abort();
    const ac = new AbortController();
    this.loading = ac;
    const target = this.current;
    this.panel.title = titleOf(target);
    const node = this.manager.nodes.find(target.node);
    // In place only as the same identity: a refresh as another shows the lookup page, not the old answer.
    const inPlace = refresh && node !== undefined && this.answered !== undefined && sameView(this.answered, target) && this.staleNotices().length === 0;
    this.refreshing = inPlace ? ac : undefined;
    // Who asks: shown at once beside a lookup under way, but only with the answer that replaces a kept one.
    const asked = inPlace ? new Map<string, AskedAs>() : this.shownAs;
    if (!inPlace) this.settle(ac, new Map());
    if (!node) return this.render(missingNodeBody(target));
    if (inPlace) this.showBusy(busyMessage(true));
    else this.render(lookingUpBody(target, node.name));
    try {
      if (target.kind === 'everywhere') {
        const answers = await this.lookUpEverywhere(target, refresh, ac.signal, asked);
        if (ac.signal.aborted) return;
        this.settle(ac, asked);
        this.render(allNodesBody(idKind(target.id), target.id, answers), true);
        return;
      }
      const asking = (a: AskedAs) => {
        if (this.loading === ac) asked.set(node.name, a);
      };
      const options = { refresh, signal: ac.signal, asking, asParty: target.asParty };
      const result =
        target.kind === 'contract'
          ? await this.manager.lookups.contract(node, target.id, options)
          : await this.manager.lookups.transaction(node, target.id, { ...options, shape: target.shape });
      if (ac.signal.aborted) return;
      this.settle(ac, asked);
      this.result = result;
      this.failure = undefined;
      // The answer says who asked it: a token switched in flight leaves it the old identity's.
      this.shownAs.set(node.name, result.askedAs);
      this.tree = shownTree(result, target);
      this.render(answerBody(result, target), true);
      const read = this.manager.signatures;
      this.typing.shown(result, target, read && (async () => (await read(this.manager.nodes.client(node))).packages));
      this.manager.onLookedUp(target, lookupSummary(result), result.askedAs.identity.user);
    } catch (e) {
      // Cancelled, replaced by another load, or a kept answer's refresh cancelled (the page was told).
      if (ac.signal.aborted && (this.loading !== ac || inPlace)) return;
      this.settle(ac, asked);
      this.failure = isLedgerApiError(e) ? e.missingRight && { ...e.missingRight, node: node.name, via: this.grantVia(node) } : undefined;
      this.render(failureBody(target, node.name, e, this.failure?.via));
    } finally {
      if (this.loading === ac) this.loading = undefined;
      if (this.refreshing === ac) this.refreshing = undefined;
    }
  }

  /** Another configured node at the same URL (an administrator's token for the same participant), if any. */
  private grantVia(node: NodeConfig): string | undefined {
    const url = node.url.replace(/\/+$/, '');
    return this.manager.nodes.all().find((n) => n.name !== node.name && n.url.replace(/\/+$/, '') === url)?.name;
  }

  /**
   * Grants the read rights the failed lookup lacked, through the other node of that URL (Grant
   * Right shows what it sends and asks first off this machine), then asks again as the user.
   */
  async grantMissingRight(): Promise<void> {
    const f = this.failure;
    if (!f?.via) return;
    for (const party of f.parties) {
      const outcome = await vscode.commands.executeCommand<{ done: boolean } | undefined>(COMMAND.grantRight, {
        node: f.via,
        userId: f.user,
        party,
        right: 'CanReadAs',
      });
      if (!outcome?.done) return;
    }
    // The user's rights changed: what was learned of them goes, and the lookup asks again.
    this.manager.nodes.facts.forget(f.node);
    await this.load(true);
  }

  /** Lets go of the answer shown, and ends load `ac`'s refresh: `asked` is who asks for what comes next. */
  private settle(ac: AbortController, asked: ReadonlyMap<string, AskedAs>): void {
    if (this.refreshing === ac) this.refreshing = undefined;
    this.result = undefined;
    this.tree = undefined;
    if (asked === this.shownAs) return;
    this.shownAs.clear();
    for (const [name, a] of asked) this.shownAs.set(name, a);
  }

  /** The visibility matrix of the id (lookups/visibilityMatrix.ts); who each node asked as goes into `asked`, for the banner. */
  private async lookUpEverywhere(target: PanelTarget, refresh: boolean, signal: AbortSignal, asked: Map<string, AskedAs>): Promise<NodeAnswer[]> {
    const kind = idKind(target.id);
    const matrix = await visibilityMatrix(
      this.manager.nodes.all(),
      (n, opts) =>
        kind === 'contract'
          ? this.manager.lookups.contract(n as NodeConfig, target.id, opts)
          : this.manager.lookups.transaction(n as NodeConfig, target.id, opts),
      { refresh, signal },
    );
    if (!signal.aborted) for (const [name, a] of matrix.asked) asked.set(name, a);
    return matrix.answers;
  }

  /** What changed since the shown answers were asked: one notice per node whose identity differs now. */
  private staleNotices() {
    return staleNotices(this.shownAs, (name) => {
      const node = this.manager.nodes.find(name);
      const identity = node && this.manager.nodes.knownIdentity(node);
      return node && identity ? { identity, parties: this.manager.lookups.currentParties(node, identity).parties } : undefined;
    });
  }

  /** Sends the page its new content, `answer` or not (a lookup that ends after the panel closed sends nothing). */
  private render(body: SafeHtml, answer = false): void {
    if (this.isDisposed) return;
    this.content = body;
    this.answered = answer ? this.current : undefined;
    const message = lookupContent({
      identity: identityHtml(this.current, this.shownAs, this.staleNotices()),
      body,
      history: this.history,
      result: this.result,
      seenAs: seenAsLabel(this.shownAs, this.identityNumbers),
    });
    this.lastBody = message.html;
    this.showContent(message);
    // New content ends the page's busy state: a refresh still under way (the banner changed) keeps it.
    if (this.refreshing) this.showBusy(busyMessage(true));
  }

  protected async onMessage(m: LookupMessage): Promise<void> {
    switch (m.type) {
      case 'openId': {
        const kind = classifyLedgerId(m.id).kind;
        if (kind !== 'contract' && kind !== 'update') return;
        const node = m.node && this.manager.nodes.find(m.node) ? m.node : this.current.node;
        if (this.current.kind === 'everywhere') this.manager.show({ kind, id: m.id, node, ...(m.asParty ? { asParty: m.asParty } : {}) });
        else this.navigate({ kind, id: m.id, node });
        return;
      }
      case 'copy':
        return vscode.env.clipboard.writeText(m.text);
      case 'openDaml':
        return void this.openDaml(m.templateId, m.choice, m.packageName);
      case 'setShape':
        return this.setShape(m.shape);
      case 'setTokenFor':
        if (this.manager.nodes.find(m.node)) void runCommand(COMMAND.setToken, m.node);
        return;
      case 'eventDetail': {
        // A row opened as the signatures are read waits a moment for them rather than drawing twice.
        const shown = this.result;
        await this.typing.settle(shown, DETAIL_WAIT_MS);
        return this.answer(m.requestId, this.result === shown ? this.eventDetail(m.source, m.index) : undefined);
      }
      case 'eventRows':
        // The rows of the answer shown after the page's first rows (the page drops them if it shows another).
        return this.post(rowsAnswer(this.result, this.tree, m));
      case 'openOffset':
        return this.openOffset(m.offset, m.nodeId, m.shape);
      case 'back':
        return this.back();
      case 'forward':
        return this.forward();
      case 'refresh':
      case 'retry':
        return this.load(true);
      case 'askAgain':
        return this.askAgain();
      case 'cancel':
        return this.cancel();
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
        if (this.result?.kind === 'contract' && this.result.found)
          await vscode.env.clipboard.writeText(JSON.stringify(this.result.response.created?.createdEvent.createArgument, null, 2));
        return;
      case 'openJson':
        return void this.openJson();
      case 'allNodes':
        this.manager.show({ kind: 'everywhere', id: this.current.id, node: this.current.node });
        return;
      case 'debug':
        return void runCommand(COMMAND.debugTransaction, this.current.id, this.current.node);
      case 'compare':
        return void runCommand(COMMAND.compareContracts, this.current.id, undefined, this.current.node);
      case 'setToken':
        return void runCommand(COMMAND.setToken, this.current.node);
      case 'selectNode':
        return void runCommand(COMMAND.selectNode);
      case 'grantMissingRight':
        return void this.grantMissingRight();
      case 'exercise':
        return void this.exercise();
      case 'addDisclosed':
        return void this.addDisclosed();
      default:
        return;
    }
  }

  /** Writes a request that exercises one of the contract's choices (Canton: Exercise Contract Choice…). */
  exercise(): Thenable<unknown> | undefined {
    const contract = contractArgument(this.result, this.current.node);
    return contract && runCommand(COMMAND.exerciseContract, contract);
  }

  /** Puts the contract into a request's disclosed contracts (Canton: Add as Disclosed Contract). */
  addDisclosed(): Thenable<unknown> | undefined {
    const contract = contractArgument(this.result, this.current.node);
    return contract && runCommand(COMMAND.addDisclosedContract, contract);
  }

  /** A template, interface or choice name: its definition in the workspace's Daml source. */
  openDaml(templateId: unknown, choice: unknown, packageName: unknown): Thenable<unknown> | undefined {
    if (typeof templateId !== 'string' || !templateId.includes(':')) return undefined;
    const pkg = typeof packageName === 'string' && packageName ? packageName : packageNameOf(this.result, templateId);
    return runCommand(COMMAND.openDamlDefinition, templateId, typeof choice === 'string' ? choice : undefined, pkg);
  }

  /** Shows the transaction as what changed or what happened; the choice stays with the panel. */
  setShape(shape: unknown): Promise<void> {
    if (shape !== 'TRANSACTION_SHAPE_ACS_DELTA' && shape !== 'TRANSACTION_SHAPE_LEDGER_EFFECTS') return Promise.resolve();
    if (this.current.kind !== 'update' || (this.current.shape ?? 'TRANSACTION_SHAPE_ACS_DELTA') === shape) return Promise.resolve();
    this.history.replaceCurrent({ ...this.current, shape, highlight: undefined });
    return this.load();
  }

  /** A row's whole event, built now (not with the page): the HTML the page gets when it opens the row. */
  showEventDetail(source: 'events' | 'tree', index: number): string | undefined {
    return this.eventDetail(source, index)?.text;
  }

  /** A row's whole event, typed once the node's signatures are read for the answer shown. */
  private eventDetail(source: 'events' | 'tree', index: number): SafeHtml | undefined {
    return eventDetail(this.result, this.tree, source, index, this.typing.forRow(this.result));
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
      if (this.isDisposed || this.current !== from) return;
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
