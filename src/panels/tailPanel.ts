// The Follow Updates panel: new updates as they commit, from the ledger end or a chosen offset,
// through /v2/updates held open by the node (docs/browsing.md says why this transport). Pause and
// resume continue from the last offset shown; a restart of the node or a dropped connection is
// retried from there; closing the panel stops it.
import * as vscode from 'vscode';
import { asSeenBy, tailUpdateFormat, type BrowseFilter } from '../browse/browseForms';
import {
  describeStop,
  followUpdates,
  TailCursor,
  updatesListFetch,
  updatesPageFetch,
  updatesStreamFetch,
  type TailRow,
  type TailState,
  type TransportKind,
} from '../browse/tailFollower';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerNodes } from '../services/ledgerNodes';
import { tailPageHtml } from './html/browseHtml';
import { newNonce } from './randomIds';

export interface TailTarget {
  node: string;
  parties?: string[];
  templates?: string[];
  /** An offset to start after; none: the ledger end. */
  start?: number;
  transport?: TransportKind;
}

type TailMessage =
  { type: 'ready' | 'pause' | 'resume' | 'setToken' | 'startAtEarliest' } | { type: 'restart'; start: string } | { type: 'openUpdate'; id: string };

const VIEW_TYPE = 'cantonLens.followUpdates';
/** /v2/updates: at most this many per answer, and how long the node waits for new ones. */
const LIST_LIMIT = 200;
const IDLE_MS = 1000;
/** Rows each tail remembers for What Changed's points. */
const RECENT_ROWS = 20;

export type PositionListener = (node: string, offset: number | undefined, live: boolean) => void;

export class TailPanels implements vscode.Disposable {
  private readonly open = new Set<TailPanel>();

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly nodes: LedgerNodes,
    readonly onPosition: PositionListener = () => undefined,
  ) {}

  show(target: TailTarget): TailPanel {
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      vscode.l10n.t('Updates on {0}', target.node),
      { viewColumn: vscode.ViewColumn.Active },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media')],
        enableFindWidget: true,
      },
    );
    const p = new TailPanel(panel, this, target);
    this.open.add(p);
    panel.onDidDispose(() => this.open.delete(p));
    return p;
  }

  get panels(): readonly TailPanel[] {
    return [...this.open];
  }

  /** The latest rows the node's open tails showed, newest first (points to ask What Changed from). */
  recentRows(node: string): TailRow[] {
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

export class TailPanel {
  private readonly disposables: vscode.Disposable[] = [];
  private following: AbortController | undefined;
  /** Why the tail is not on the websocket channel, when it is not. */
  private transportNote: () => string | undefined = () => undefined;
  /** The parties the tail reads as (empty: any party), learned when it starts. */
  private readAs: readonly string[] | undefined;
  private cursor: TailCursor | undefined;
  private ready!: () => void;
  private readonly isReady = new Promise<void>((r) => (this.ready = r));
  /** For tests: rows sent (with the sum of their offsets: no gap and no duplicate), the start, the position, the state, reconnections, offers. */
  /** The last rows shown, oldest first. */
  readonly recent: TailRow[] = [];
  readonly shown = {
    rows: 0,
    offsetSum: 0,
    duplicates: 0,
    start: undefined as number | undefined,
    position: undefined as number | undefined,
    state: 'starting' as string,
    message: '',
    reconnects: 0,
    offers: [] as { action: string; label: string; offset?: number }[],
  };

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly manager: TailPanels,
    readonly target: TailTarget,
  ) {
    panel.iconPath = vscode.Uri.joinPath(manager.extensionUri, 'media', 'icon.png');
    this.disposables.push(panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    panel.onDidDispose(() => this.dispose());
    this.render();
    void this.isReady.then(() => this.start(target.start));
  }

  get webviewPanel(): vscode.WebviewPanel {
    return this.panel;
  }

  dispose(): void {
    this.following?.abort();
    this.manager.onPosition(this.target.node, this.cursor?.position, false);
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.panel.dispose();
  }

  private filter(parties: readonly string[]): BrowseFilter {
    return { parties, templates: this.target.templates };
  }

  private scope(parties: readonly string[] | undefined): string {
    const templates = this.target.templates;
    const what = templates?.length ? vscode.l10n.t('templates {0}', templates.join(', ')) : vscode.l10n.t('every template');
    return `${what}, ${asSeenBy(parties)}`;
  }

  private render(): void {
    const webview = this.panel.webview;
    const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.manager.extensionUri, 'media', f)).toString();
    webview.html = tailPageHtml({
      nonce: newNonce(),
      cspSource: webview.cspSource,
      scriptUris: [media('virtualTable.js'), media('tail.js')],
      styleUris: [media('panel.css'), media('browse.css')],
      title: vscode.l10n.t('Updates on {0}', this.target.node),
      nodeName: this.target.node,
      // Who reads is known once the token's rights are (start): the page is told then.
      scope: this.scope(undefined),
      start: this.target.start === undefined ? '' : String(this.target.start),
    });
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

  private state(s: {
    state: string;
    attempt?: number;
    error?: string;
    message?: string;
    offers?: { action: string; label: string; offset?: number }[];
    canResume?: boolean;
  }): void {
    this.shown.state = s.state;
    this.shown.message = s.message ?? '';
    this.shown.offers = s.offers ?? [];
    this.post({ type: 'state', position: this.cursor?.position, ...s });
  }

  /** Clears the table and follows from `start` (the ledger end when undefined). */
  async start(start: number | undefined): Promise<void> {
    this.following?.abort();
    const node = this.manager.nodes.find(this.target.node);
    if (!node) {
      this.state({ state: 'stopped', message: vscode.l10n.t('The node "{0}" is no longer configured.', this.target.node) });
      return;
    }
    try {
      const readAs = await this.manager.nodes.facts.readAs(node, this.target.parties);
      this.post({ type: 'scope', text: this.scope(readAs.parties) });
      if (readAs.refusal) {
        this.state({ state: 'stopped', message: readAs.refusal, offers: [{ action: 'setToken', label: vscode.l10n.t('Set Token') }] });
        return;
      }
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
        this.state({
          state: 'stopped',
          message: vscode.l10n.t('Could not read the ledger end: {0}', isLedgerApiError(e) ? e.explanation : (e as Error).message),
          offers: [{ action: 'restart', label: vscode.l10n.t('Try Again') }, ...(setToken ? [{ action: 'setToken', label: vscode.l10n.t('Set Token') }] : [])],
        });
        return;
      }
    }
    this.cursor = new TailCursor(begin);
    Object.assign(this.shown, { rows: 0, offsetSum: 0, start: begin, position: begin });
    this.post({ type: 'reset', position: begin });
    this.follow();
  }

  /** Follows from the cursor: after a pause, from the last offset shown. */
  private follow(): void {
    const node = this.manager.nodes.find(this.target.node);
    const cursor = this.cursor;
    if (!node || !cursor) return;
    const ac = new AbortController();
    this.following = ac;
    const client = this.manager.nodes.client(node);
    const format = tailUpdateFormat(this.filter(this.readAs ?? []));
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
        this.shown.rows += rows.length;
        for (const r of rows) this.shown.offsetSum += r.offset;
        this.recent.push(...rows.slice(-RECENT_ROWS));
        if (this.recent.length > RECENT_ROWS) this.recent.splice(0, this.recent.length - RECENT_ROWS);
        this.shown.duplicates = cursor.duplicates;
        this.shown.position = position;
        if (rows.length > 0 || this.shown.position !== undefined) this.post({ type: 'rows', rows, position });
        this.manager.onPosition(this.target.node, position, true);
      },
      onState: (s) => this.onState(s, ac),
    });
  }

  private onState(s: TailState, ac: AbortController): void {
    if (this.following !== ac) return;
    if (s.state === 'following') return this.state({ state: 'following', message: this.transportNote() });
    if (s.state === 'reconnecting') this.shown.reconnects++;
    if (s.state === 'reconnecting')
      return this.state({
        state: 'reconnecting',
        attempt: s.attempt,
        error: s.error,
        message: vscode.l10n.t(
          'The node does not answer; asking again from offset {0}. Nothing is lost meanwhile.',
          (this.cursor?.position ?? 0).toLocaleString('en-US'),
        ),
      });
    if (s.reason === 'cancelled') return;
    this.manager.onPosition(this.target.node, this.cursor?.position, false);
    const offers: { action: string; label: string; offset?: number }[] = [];
    if (s.reason === 'beyondEnd') offers.push({ action: 'startAt', label: vscode.l10n.t('Start at the Ledger End'), offset: undefined });
    // Without the offset in the error, the node's pruning point is asked when the button is pressed.
    if (s.reason === 'pruned')
      offers.push(
        s.earliest !== undefined
          ? { action: 'startAt', label: vscode.l10n.t('Start at the Earliest Offset ({0})', s.earliest.toLocaleString('en-US')), offset: s.earliest }
          : { action: 'startAtEarliest', label: vscode.l10n.t('Start at the Earliest Offset') },
      );
    if (s.reason === 'error') {
      offers.push({ action: 'resume', label: vscode.l10n.t('Try Again') });
      if (s.kind === 'unauthenticated' || s.kind === 'permissionDenied') offers.push({ action: 'setToken', label: vscode.l10n.t('Set Token') });
    }
    this.state({ state: 'stopped', message: describeStop(s), offers, canResume: s.reason === 'error' });
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

  private async onMessage(raw: unknown): Promise<void> {
    const m = raw as TailMessage;
    if (typeof m !== 'object' || m === null || typeof m.type !== 'string') return;
    switch (m.type) {
      case 'ready':
        this.ready();
        return;
      case 'pause':
        return this.pause();
      case 'resume':
        return this.resume();
      case 'restart': {
        const text = typeof m.start === 'string' ? m.start.replace(/[,_\s]/g, '') : '';
        if (text !== '' && !/^\d{1,15}$/.test(text)) {
          this.state({
            state: 'stopped',
            message: vscode.l10n.t('"{0}" is not an offset: enter a whole number, or nothing for the ledger end.', text.slice(0, 40)),
            canResume: this.cursor !== undefined,
          });
          return;
        }
        return void this.start(text === '' ? undefined : Number(text));
      }
      case 'openUpdate':
        if (typeof m.id === 'string' && /^1220[0-9a-f]{64}$/.test(m.id))
          await vscode.commands.executeCommand('cantonLens.showTransaction', m.id, this.target.node);
        return;
      case 'setToken':
        return void vscode.commands.executeCommand('cantonLens.setToken', this.target.node);
      case 'startAtEarliest':
        return void this.startAtEarliest();
      default:
        return;
    }
  }
}
