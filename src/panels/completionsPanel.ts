// Follow Completions (on HtmlPanelHost): the token user's command completions, live, from the
// ledger end or a chosen offset; pause and resume lose and repeat nothing (the feed resumes after
// its last offset); filters by status, command id and party. The commands this editor submitted
// that the node refused at once are shown too (they never become completions).
import * as vscode from 'vscode';
import { CompletionFeed, recentCompletionsStart, type CompletionFilter } from '../execute/completionFeed';
import { followCompletions } from '../execute/completionFollower';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { parseLedgerVersion } from '../ledger/ledgerVersion';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import type { Refusal } from './commandsReviewPanel';
import { completionsBody, type CompletionsView } from './html/completionsHtml';
import type { LookupPanels } from './lookupPanels';
import { acceptedBy, COMPLETIONS_ACTIONS, type CompletionsMessage } from '../protocol/panelMessages';
import { HtmlPanelHost } from './htmlPanelHost';

/** Refusals Canton writes as failed completions as well as in the answer (docs/commands.md). */
const ALSO_COMPLETIONS = new Set(['DUPLICATE_COMMAND', 'PACKAGE_NOT_VETTED_BY_RECIPIENTS', 'NOT_SEQUENCED_TIMEOUT', 'INVALID_DEDUPLICATION_PERIOD']);

/** The page is redrawn at most this often while completions pour in. */
const RENDER_EVERY_MS = 250;

export class CompletionsPanel extends HtmlPanelHost<CompletionsMessage> {
  readonly feed = new CompletionFeed();
  private filter: CompletionFilter = {};
  private paused = false;
  private state = '';
  private parties: string[] = [];
  private user: string | undefined;
  private run: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The user, parties and start offset are read. */
  private started = false;
  private seeded = false;

  constructor(
    extensionUri: vscode.Uri,
    private readonly nodes: NodeReader,
    private readonly lookups: LookupPanels,
    readonly node: NodeConfig,
    onRefusal: vscode.Event<Refusal>,
    /** Refusals this editor saw before the panel opened (shown with the recent past, as the token user's). */
    private readonly earlier: readonly Refusal[] = [],
  ) {
    super(
      {
        viewType: 'cantonLens.completions',
        accepts: acceptedBy<CompletionsMessage>(COMPLETIONS_ACTIONS),
        title: vscode.l10n.t('Completions · {0}', node.name),
        extensionUri,
        nodeName: node.name,
        actions: [],
      },
      completionsBody({ node: node.name, parties: [], state: vscode.l10n.t('Starting…'), paused: false, filter: {}, rows: [], total: 0, lastOffset: 0 }),
    );
    const sub = onRefusal((r) => {
      if (!this.shows(r)) return;
      this.feed.addRefusal(r, r.at);
      this.scheduleRender();
    });
    this.onDidDispose(() => {
      sub.dispose();
      this.stop();
      clearTimeout(this.timer);
    });
  }

  /** A refusal of this node that never becomes a completion (the others the stream shows). */
  private shows(r: Refusal): boolean {
    return r.node === this.node.name && !(r.facts.code !== undefined && ALSO_COMPLETIONS.has(r.facts.code));
  }

  /** From the recent past (undefined: the last offsets before the ledger end, none pruned) or after an offset. */
  async start(beginExclusive?: number): Promise<void> {
    this.started = false;
    try {
      const client = this.nodes.client(this.node);
      this.user = await this.nodes.tokenUser(this.node);
      this.parties = (await this.nodes.facts.readAs(this.node)).parties;
      if (beginExclusive === undefined) {
        const end = (await client.getLedgerEnd()).offset ?? 0;
        const pruned = await client.getLatestPrunedOffsets().then(
          (p) => p.participantPrunedUpToInclusive ?? 0,
          () => 0,
        );
        beginExclusive = recentCompletionsStart(end, pruned);
      }
      this.feed.startAfter = beginExclusive;
      if (!this.seeded) {
        this.seeded = true;
        for (const r of this.earlier) if (this.shows(r) && (r.userId === undefined || r.userId === this.user)) this.feed.addRefusal(r, r.at);
      }
      this.started = true;
    } catch (e) {
      this.paused = true;
      this.state = vscode.l10n.t('Stopped: {0} Resume to try again.', isLedgerApiError(e) ? e.explanation : (e as Error).message);
      this.render();
      return;
    }
    this.resume();
  }

  resume(): void {
    // A start that failed (the node unreachable) is done again first.
    if (!this.started) return void this.start();
    this.stop();
    this.paused = false;
    const ac = new AbortController();
    this.run = ac;
    const status = this.nodes.status(this.node);
    const version = status.state === 'reachable' ? parseLedgerVersion(status.version) : undefined;
    const preferCommandCompletions = !version || version.major > 3 || (version.major === 3 && version.minor >= 5);
    void followCompletions(this.nodes.client(this.node), {
      userId: this.user,
      parties: this.parties,
      beginExclusive: this.feed.lastOffset,
      signal: ac.signal,
      preferCommandCompletions,
      onCompletion: (c) => {
        this.feed.addCompletion(c);
        this.scheduleRender();
      },
      onState: (s) => {
        this.state =
          'channel' in s
            ? vscode.l10n.t('Following {0} live.', s.channel)
            : vscode.l10n.t('The stream broke ({0}); resuming in {1} s after the last offset.', s.broken, Math.round(s.retryInMs / 1000));
        this.scheduleRender();
      },
    }).catch((e: unknown) => {
      this.paused = true;
      this.state = vscode.l10n.t('Stopped: {0} Resume to try again.', isLedgerApiError(e) ? e.explanation : (e as Error).message);
      this.render();
    });
    this.render();
  }

  pause(): void {
    this.stop();
    this.paused = true;
    this.state = vscode.l10n.t('Paused: new completions wait on the node; Resume reads them from the last offset.');
    this.render();
  }

  setFilter(filter: CompletionFilter): void {
    this.filter = filter;
    this.render();
  }

  get view(): CompletionsView {
    return {
      node: this.node.name,
      user: this.user,
      parties: this.parties,
      state: this.state,
      paused: this.paused,
      filter: this.filter,
      rows: this.feed.rows(this.filter),
      total: this.feed.size,
      lastOffset: this.feed.lastOffset,
    };
  }

  private stop(): void {
    this.run?.abort();
    this.run = undefined;
  }

  private scheduleRender(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.render();
    }, RENDER_EVERY_MS);
  }

  private render(): void {
    this.show(completionsBody(this.view));
  }

  protected async onMessage(m: CompletionsMessage): Promise<void> {
    switch (m.type) {
      case 'pause':
        return this.pause();
      case 'resume':
        return this.resume();
      case 'filterAll':
        return this.setFilter({ ...this.filter, status: undefined });
      case 'filterFailed':
        return this.setFilter({ ...this.filter, status: 'failed' });
      case 'filterSucceeded':
        return this.setFilter({ ...this.filter, status: 'succeeded' });
      case 'clearFilter':
        return this.setFilter({ status: this.filter.status });
      case 'filterText': {
        const text = await vscode.window.showInputBox({
          prompt: vscode.l10n.t('Show completions whose command id or acting party contains this text'),
          value: this.filter.commandId ?? this.filter.party ?? '',
        });
        if (text === undefined) return;
        const looksLikeParty = text.includes('::');
        return this.setFilter({ status: this.filter.status, ...(looksLikeParty ? { party: text } : { commandId: text }) });
      }
      default:
        return this.followLink(m, this.lookups, this.node.name, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    }
  }
}
