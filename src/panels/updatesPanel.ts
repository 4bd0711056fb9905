// The Follow Updates panel: new updates as they commit, from the ledger end or a chosen offset,
// through /v2/updates held open by the node (docs/browsing.md says why this transport). Pause and
// resume continue from the last offset shown; a restart of the node or a dropped connection is
// retried from there; closing the panel stops it.
//
// The page keeps its context while its tab is hidden (retainContextWhenHidden): Follow Updates goes on
// following, and its rows (up to 20,000, only in the page) are there when the tab comes back. A page
// loaded again anyway (a webview reload) is told the scope and the state, and goes on from there.
import * as vscode from 'vscode';
import { followedUpdateFormat } from '../browse/browseForms';
import { parseStartOffset, RECENT_ROWS, stopOffers, updatesScope, UpdatesTally, type UpdatesTarget } from '../browse/updatesControls';
import type { UpdatesOffer, UpdateRow, UpdatesState } from '../protocol/updateRows';
import { describeStop, followUpdates, UpdatesCursor, updatesListFetch, updatesPageFetch, updatesStreamFetch } from '../browse/updatesFollower';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeReader } from '../services/ledgerNodes';
import { updatesPageHtml } from './html/browseHtml';
import { parseTailFromPage, rowsMessages, type UpdatesFromPage, type UpdatesStateMessage, type UpdatesToPage } from '../protocol/updatesMessages';
import { WebviewHost } from './webviewHost';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';
import { formatCount } from '../l10n/forPeople';

export type { UpdatesTarget };

const VIEW_TYPE = COMMAND.followUpdates;
/** /v2/updates: at most this many per answer, and how long the node waits for new ones. */
const LIST_LIMIT = 200;
const IDLE_MS = 1000;

export type PositionListener = (node: string, offset: number | undefined, live: boolean) => void;

export class UpdatesPanels implements vscode.Disposable {
  private readonly open = new Set<UpdatesPanel>();

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly nodes: NodeReader,
    readonly onPosition: PositionListener = () => undefined,
  ) {}

  show(target: UpdatesTarget): UpdatesPanel {
    const p = new UpdatesPanel(this, target);
    this.open.add(p);
    p.onDidDispose(() => this.open.delete(p));
    return p;
  }

  get panels(): readonly UpdatesPanel[] {
    return [...this.open];
  }

  /** The latest rows the node's open Follow Updates panels showed, newest first (points to ask What Changed from). */
  recentRows(node: string): UpdateRow[] {
    return [...this.open]
      .filter((p) => p.target.node === node)
      .flatMap((p) => p.recent)
      .sort((a, b) => b.offset - a.offset)
      .slice(0, RECENT_ROWS);
  }

  dispose(): void {
    for (const p of [...this.open]) p.dispose();
  }
}

type StateUpdate = Omit<UpdatesStateMessage, 'type' | 'position'>;

export class UpdatesPanel extends WebviewHost<UpdatesToPage, UpdatesFromPage> {
  private following: AbortController | undefined;
  /** Why Follow Updates is not on the websocket channel, when it is not. */
  private transportNote: () => string | undefined = () => undefined;
  /** The parties Follow Updates reads as (empty: any party), learned when it starts. */
  private readAs: readonly string[] | undefined;
  private cursor: UpdatesCursor | undefined;
  private readonly tally = new UpdatesTally();
  /** What the page was told last, for a page loaded again. */
  private scope: string;
  private lastState: UpdatesStateMessage | undefined;
  private started = false;
  /** Each start's number: a start overtaken by a later one (a restart, a new token) stops before it follows. */
  private starts = 0;

  constructor(
    private readonly manager: UpdatesPanels,
    readonly target: UpdatesTarget,
  ) {
    const title = vscode.l10n.t('Updates on {0}', target.node);
    super({
      viewType: VIEW_TYPE,
      title,
      extensionUri: manager.extensionUri,
      column: vscode.ViewColumn.Active,
      enableFindWidget: true,
      retainContextWhenHidden: true,
      parse: parseTailFromPage,
      shell: ({ nonce, cspSource, media }) =>
        updatesPageHtml({
          nonce,
          cspSource,
          scriptUris: [media('updates.js')],
          styleUris: [media('panel.css'), media('browse.css')],
          title,
          nodeName: target.node,
          // Who reads is known once the token's rights are (start): the page is told then.
          scope: updatesScope(target, undefined),
          start: target.start === undefined ? '' : String(target.start),
        }),
    });
    this.scope = updatesScope(target, undefined);
    // Rows read as one token are not shown to the next (the page is kept while hidden): cleared,
    // and Follow Updates follows on from where it was as the new token's parties.
    this.track(
      manager.nodes.onDidChangeIdentity((e) => {
        if (e.node !== target.node || this.isDisposed || !this.started) return;
        this.following?.abort();
        this.tally.forget();
        this.post({ type: 'reset', position: this.cursor?.position ?? 0 });
        this.state({ state: 'stopped', message: vscode.l10n.t('The token of {0} changed: the rows read as the one before are cleared.', target.node) });
        void this.start(this.cursor?.position);
      }),
    );
    this.webviewPanel.onDidDispose(() => {
      this.following?.abort();
      this.manager.onPosition(this.target.node, this.cursor?.position, false);
    });
  }

  /** For tests: rows sent (with the sum of their offsets: no gap and no duplicate), the start, the position, the state, reconnections, offers. */
  get shown(): UpdatesTally['shown'] {
    return this.tally.shown;
  }

  /** The last rows shown, oldest first. */
  get recent(): readonly UpdateRow[] {
    return this.tally.recent;
  }

  protected override onReady(): void {
    if (!this.started) {
      this.started = true;
      void this.start(this.target.start);
      return;
    }
    // Loaded again: its rows are gone; it follows on from here.
    this.post({ type: 'scope', text: this.scope });
    if (this.cursor) this.post({ type: 'reset', position: this.cursor.position });
    if (this.lastState) this.post({ ...this.lastState, position: this.cursor?.position });
  }

  private showScope(parties: readonly string[] | undefined): void {
    this.scope = updatesScope(this.target, parties);
    this.post({ type: 'scope', text: this.scope });
  }

  private state(s: StateUpdate): void {
    this.shown.state = s.state;
    this.shown.message = s.message ?? '';
    this.shown.offers = s.offers ?? [];
    this.lastState = { type: 'state', ...s };
    this.post({ ...this.lastState, position: this.cursor?.position });
  }

  /** Clears the table and follows from `start` (the ledger end when undefined). */
  async start(start: number | undefined): Promise<void> {
    this.following?.abort();
    const generation = ++this.starts;
    const node = this.manager.nodes.find(this.target.node);
    if (!node) {
      this.state({ state: 'stopped', message: vscode.l10n.t('The node "{0}" is no longer configured.', this.target.node) });
      return;
    }
    try {
      const readAs = await this.manager.nodes.facts.readAs(node, this.target.parties);
      this.showScope(readAs.parties);
      if (readAs.refusal) {
        this.state({ state: 'stopped', message: readAs.refusal, offers: [{ action: 'setToken', label: vscode.l10n.t('Set Token') }] });
        return;
      }
      if (generation !== this.starts) return;
      this.readAs = readAs.parties;
    } catch (e) {
      this.state({
        state: 'stopped',
        message: vscode.l10n.t("Could not read the token's rights: {0}", isLedgerApiError(e) ? e.explanation : (e as Error).message),
        offers: [{ action: 'restart', label: vscode.l10n.t('Try Again') }],
      });
      return;
    }
    let begin = start;
    if (begin === undefined) {
      try {
        begin = (await this.manager.nodes.client(node).getLedgerEnd()).offset ?? 0;
      } catch (e) {
        const setToken = isLedgerApiError(e) && (e.kind === 'unauthenticated' || e.kind === 'permissionDenied');
        const offers: UpdatesOffer[] = [{ action: 'restart', label: vscode.l10n.t('Try Again') }];
        if (setToken) offers.push({ action: 'setToken', label: vscode.l10n.t('Set Token') });
        this.state({
          state: 'stopped',
          message: vscode.l10n.t('Could not read the ledger end: {0}', isLedgerApiError(e) ? e.explanation : (e as Error).message),
          offers,
        });
        return;
      }
    }
    if (generation !== this.starts) return;
    this.cursor = new UpdatesCursor(begin);
    this.tally.started(begin);
    this.post({ type: 'reset', position: begin });
    this.follow();
  }

  /** Follows from the cursor: after a pause, from the last offset shown. */
  private follow(): void {
    const node = this.manager.nodes.find(this.target.node);
    const cursor = this.cursor;
    if (!node || !cursor || this.isDisposed) return;
    const ac = new AbortController();
    this.following = ac;
    const client = this.manager.nodes.client(node);
    const format = followedUpdateFormat({ parties: this.readAs ?? [], templates: this.target.templates });
    const list = updatesListFetch(client, format, { limit: LIST_LIMIT, idleMs: IDLE_MS });
    // The websocket channel by default (no request per batch); the HTTP list where it is refused.
    const fetch =
      this.target.transport === 'updatesPage'
        ? updatesPageFetch(client, format, { pageSize: LIST_LIMIT })
        : this.target.transport === 'updates'
          ? list
          : updatesStreamFetch(client, format, { idleMs: IDLE_MS, fallback: list });
    this.transportNote = () =>
      'fallbackReason' in fetch && fetch.fallbackReason ? vscode.l10n.t('{0} Following over HTTP instead.', fetch.fallbackReason) : undefined;
    void followUpdates({
      fetch,
      cursor,
      signal: ac.signal,
      onRows: (rows, position) => {
        const note = this.transportNote();
        if (note && this.shown.message !== note) this.state({ state: 'following', message: note });
        this.tally.rows(rows, position, cursor.duplicates);
        for (const message of rowsMessages(rows, position)) this.post(message);
        this.manager.onPosition(this.target.node, position, true);
      },
      onState: (s) => this.onState(s, ac),
    });
  }

  private onState(s: UpdatesState, ac: AbortController): void {
    if (this.following !== ac) return;
    if (s.state === 'following') return this.state({ state: 'following', message: this.transportNote() });
    if (s.state === 'reconnecting') {
      this.shown.reconnects++;
      return this.state({
        state: 'reconnecting',
        attempt: s.attempt,
        error: s.error,
        message: vscode.l10n.t('The node does not answer; asking again from offset {0}. Nothing is lost meanwhile.', formatCount(this.cursor?.position ?? 0)),
      });
    }
    if (s.reason === 'cancelled') return;
    this.manager.onPosition(this.target.node, this.cursor?.position, false);
    this.state({ state: 'stopped', message: describeStop(s), offers: stopOffers(s), canResume: s.reason === 'error' });
  }

  /** Follows from the node's pruning point (updates after it are kept). */
  private async startAtEarliest(): Promise<void> {
    const node = this.manager.nodes.find(this.target.node);
    if (!node) return;
    try {
      const pruned = await this.manager.nodes.client(node).getLatestPrunedOffsets();
      await this.start(Number(pruned.participantPrunedUpToInclusive ?? 0));
    } catch (e) {
      this.state({
        state: 'stopped',
        message: vscode.l10n.t("Could not read the node's pruning point: {0}", isLedgerApiError(e) ? e.explanation : (e as Error).message),
        offers: [{ action: 'startAtEarliest', label: vscode.l10n.t('Start at the Earliest Offset') }],
      });
    }
  }

  pause(): void {
    this.following?.abort();
    this.following = undefined;
    this.manager.onPosition(this.target.node, this.cursor?.position, false);
    this.state({ state: 'paused' });
  }

  resume(): void {
    if (!this.cursor) return void this.start(this.target.start);
    this.follow();
  }

  protected onMessage(m: UpdatesFromPage): void {
    switch (m.type) {
      case 'pause':
        return this.pause();
      case 'resume':
        return this.resume();
      case 'restart': {
        const typed = parseStartOffset(m.start);
        if ('error' in typed) return this.state({ state: 'stopped', message: typed.error, canResume: this.cursor !== undefined });
        return void this.start(typed.start);
      }
      case 'openUpdate':
        return void runCommand(COMMAND.showTransaction, m.id, this.target.node);
      case 'setToken':
        return void runCommand(COMMAND.setToken, this.target.node);
      case 'startAtEarliest':
        return void this.startAtEarliest();
      case 'ready':
        return;
    }
  }
}
