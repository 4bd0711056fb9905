// What Changed: a range's contract changes read page by page (src/browse/changesReader.ts) and shown
// as they arrive, on the one webview kit. Kinds, templates and a payload filter narrow the rows; the
// read is cancellable, and what was read as one identity is dropped when the node's token changes.
import * as vscode from 'vscode';
import { CHANGE_KIND_FILTERS, ChangeView, type ChangeKindFilter, type ChangeViewOptions } from '../browse/changeView';
import { readChanges, type ChangesClient, type ChangesReadOptions } from '../browse/changesReader';
import { ChangeSet, type ChangesMethod } from '../browse/ledgerChanges';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { asSeenBy } from '../browse/browseForms';
import { formatCount } from '../l10n/forPeople';
import { changesBody } from './html/changesHtml';
import { html } from './html/safeHtml';
import type { LookupPanels } from './lookupPanels';
import { acceptedBy, CHANGES_ACTIONS, type ChangesMessage } from '../protocol/panelMessages';
import type { CompiledFilter } from './payloadFilterPick';
import { HtmlPanelHost } from './htmlPanelHost';
import { COMMAND } from '../ids/commandIds';

export interface ChangesRequest extends Omit<ChangesReadOptions, 'signal' | 'method'> {
  nodeName: string;
  /** The rows shown first: one kind, or those no longer active. */
  kind?: ChangeKindFilter;
  fromLabel?: string;
  toLabel?: string;
  asSeenBy: string;
  method?: ChangesMethod;
}

export interface ChangesPanelDeps {
  client: ChangesClient;
  panels: LookupPanels;
  /** Asks for a payload filter (the rows' field paths offered); undefined: left as it is. */
  pickFilter: (current: string, sample: readonly unknown[], parties: readonly string[]) => Promise<CompiledFilter | undefined>;
  /** Who reads now (the node's token may have changed since the panel opened), or why no one may. */
  readAs: () => Promise<{ parties: readonly string[]; refusal?: string }>;
  /** Says the node's token changed: what this panel read belongs to the one before. */
  onIdentityChange: vscode.Event<{ node: string }>;
}

const PAGE_ROWS = 500;
const RENDER_EVERY_MS = 250;

export class ChangesPanel extends HtmlPanelHost<ChangesMessage> {
  changes = new ChangeSet();
  private view: ChangeView;
  private viewOptions: ChangeViewOptions = { limit: PAGE_ROWS };
  private reading: AbortController | undefined;
  private state: { reason?: string; notice?: string; progress?: string; error?: string; complete?: boolean; method?: ChangesMethod } = {};
  private lastRender = 0;
  /** Read in ledger-effects shape: archives name their choice. */
  private ledgerEffects: boolean;
  private renderTimer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves when the current read ends (tests, the API). */
  done: Promise<void> = Promise.resolve();

  constructor(
    extensionUri: vscode.Uri,
    private readonly deps: ChangesPanelDeps,
    readonly request: ChangesRequest,
  ) {
    super(
      {
        viewType: COMMAND.whatChanged,
        accepts: acceptedBy<ChangesMessage>(CHANGES_ACTIONS, 'changes'),
        title: vscode.l10n.t('What Changed {0}–{1}', formatCount(request.from), formatCount(request.to)),
        extensionUri,
        nodeName: request.nodeName,
        actions: [
          { action: 'refresh', label: vscode.l10n.t('Read Again') },
          { action: 'cancel', label: vscode.l10n.t('Cancel') },
        ],
      },
      html`<p role="status">${vscode.l10n.t('Reading what changed on {0}…', request.nodeName)}</p>`,
    );
    this.ledgerEffects = request.ledgerEffects === true;
    if (request.kind) this.viewOptions = { ...this.viewOptions, kind: request.kind };
    this.view = new ChangeView(this.changes, this.viewOptions);
    const identity = deps.onIdentityChange((e) => {
      if (e.node !== request.nodeName) return;
      this.reading?.abort();
      this.changes = new ChangeSet();
      this.view = new ChangeView(this.changes, this.viewOptions);
      this.state = {
        error: vscode.l10n.t(
          'The token of {0} changed: what was read here belonged to the one before, and is cleared. Read Again to read as the new one.',
          request.nodeName,
        ),
      };
      this.render();
    });
    this.onDidDispose(() => {
      identity.dispose();
      this.reading?.abort();
      clearTimeout(this.renderTimer);
    });
  }

  /** The view's current rows and counts (tests, the API). */
  get shown() {
    return { counts: this.changes.counts, ...this.view.current(), ...this.state };
  }

  /** Reads the range (again), showing rows as pages arrive. */
  load(method = this.request.method): Promise<void> {
    this.reading?.abort();
    const ac = new AbortController();
    this.reading = ac;
    this.changes = new ChangeSet();
    this.view = new ChangeView(this.changes, this.viewOptions);
    this.state = { progress: vscode.l10n.t('Starting…') };
    this.render();
    this.done = Promise.resolve(
      vscode.window.withProgress({ location: { viewId: 'cantonLens.nodes' }, title: vscode.l10n.t('Reading what changed…') }, () => this.read(ac, method)),
    );
    return this.done;
  }

  private async read(ac: AbortController, method: ChangesMethod | undefined): Promise<void> {
    let readUpTo: number | undefined;
    try {
      // As the token reads now: after a token change, Read Again reads as the new identity.
      const who = await this.deps.readAs();
      if (ac.signal.aborted) return;
      if (who.refusal) throw new Error(who.refusal);
      this.request.parties = [...who.parties];
      this.request.asSeenBy = asSeenBy(who.parties);
      const { nodeName: _n, fromLabel: _f, toLabel: _t, asSeenBy: _a, kind: _k, ...read } = this.request;
      for await (const p of readChanges(this.deps.client, { ...read, ledgerEffects: this.ledgerEffects, method, signal: ac.signal })) {
        if (ac.signal.aborted) return;
        if (p.phase === 'updates') readUpTo = p.readUpTo;
        if (p.changes !== this.changes) {
          this.changes = p.changes;
          this.view = new ChangeView(this.changes, this.viewOptions);
        }
        this.state = {
          reason: p.reason,
          notice: p.notice ?? this.state.notice,
          progress: p.done ? undefined : this.progressText(p.phase, p.readUpTo),
          complete: p.done,
          method: p.method,
        };
        this.scheduleRender(p.done);
      }
    } catch (e) {
      if (ac.signal.aborted) return;
      const why = isLedgerApiError(e) ? e.explanation : String((e as Error)?.message ?? e);
      // Rows were shown: say they stop short of the range's end.
      const error =
        readUpTo !== undefined
          ? vscode.l10n.t(
              'The read stopped at offset {0} of {1}: the rows are those up to there, not the whole range. {2} Read Again to read the range whole.',
              formatCount(readUpTo),
              formatCount(this.request.to),
              why,
            )
          : why;
      this.state = { ...this.state, progress: undefined, error };
      this.render();
    } finally {
      if (this.reading === ac) this.reading = undefined;
    }
  }

  private progressText(phase: string, readUpTo: number): string {
    const { from, to } = this.request;
    if (phase === 'probing') return vscode.l10n.t('Counting the active contracts at offset {0} to choose how to read…', formatCount(to));
    if (phase === 'endSet') return vscode.l10n.t('Reading the active contracts at offset {0}…', formatCount(to));
    if (phase === 'startSet') return vscode.l10n.t('Reading the active contracts at offset {0}…', formatCount(from));
    const share = to > from ? Math.floor((100 * (readUpTo - from)) / (to - from)) : 100;
    return vscode.l10n.t(
      'Read up to offset {0} of {1} ({2}%): {3} transactions.',
      formatCount(readUpTo),
      formatCount(to),
      share,
      formatCount(this.changes.counts.transactions),
    );
  }

  /** The first rows at once, then at most every RENDER_EVERY_MS; the payload filter in slices between. */
  private scheduleRender(now: boolean): void {
    const due = this.lastRender + RENDER_EVERY_MS - Date.now();
    if (now || this.lastRender === 0 || due <= 0) return this.render();
    if (!this.renderTimer) this.renderTimer = setTimeout(() => this.render(), due);
  }

  private render(): void {
    clearTimeout(this.renderTimer);
    this.renderTimer = undefined;
    if (this.isDisposed) return;
    const more = this.view.evaluate();
    this.lastRender = Date.now();
    this.show(
      changesBody({
        node: this.request.nodeName,
        from: this.request.from,
        to: this.request.to,
        fromLabel: this.request.fromLabel,
        toLabel: this.request.toLabel,
        asSeenBy: this.request.asSeenBy,
        templates: [...(this.request.templates ?? []), ...(this.request.interfaces ?? [])],
        ...this.state,
        counts: this.changes.counts,
        view: this.view.current(),
        kind: this.viewOptions.kind,
        template: this.viewOptions.template,
        filterText: this.viewOptions.filterText,
        limit: this.viewOptions.limit,
        ledgerEffects: this.ledgerEffects,
      }),
    );
    // The rest of the filter's rows in the next task: no task evaluates more than one slice.
    if (more) this.renderTimer = setTimeout(() => this.render(), 0);
  }

  /** Narrows the rows; a new payload filter is evaluated from the first row again. */
  setView(change: Partial<ChangeViewOptions>): void {
    this.viewOptions = { ...this.viewOptions, limit: PAGE_ROWS, ...change };
    this.view = new ChangeView(this.changes, this.viewOptions);
    this.render();
  }

  protected async onMessage(m: ChangesMessage): Promise<void> {
    switch (m.type) {
      case 'refresh':
      case 'retry':
        return this.load();
      case 'readUpdates':
        this.ledgerEffects = false;
        return this.load('updates');
      case 'readActiveSets':
        this.ledgerEffects = false;
        return this.load('activeSets');
      case 'readLedgerEffects':
        this.ledgerEffects = true;
        return this.load('updates');
      case 'cancel':
        if (this.reading) {
          this.reading.abort();
          this.state = {
            ...this.state,
            progress: undefined,
            notice: vscode.l10n.t('Cancelled: the rows read so far are shown. Read Again to read the whole range.'),
          };
          this.render();
        }
        return;
      case 'showMore':
        this.view.setLimit(this.viewOptions.limit + PAGE_ROWS);
        return this.render();
      case 'setView':
        if (m.key === 'kind') return this.setView({ kind: CHANGE_KIND_FILTERS.find((k) => k === m.value) });
        return this.setView({ template: m.value || undefined });
      case 'filterText': {
        const sample = this.changes.ordered.slice(0, 200).map((r) => r.argument);
        const picked = await this.deps.pickFilter(this.viewOptions.filterText ?? '', sample, this.request.parties ?? []);
        if (!picked) return;
        if (!picked.ok) {
          void vscode.window.showErrorMessage(picked.message);
          return;
        }
        return this.setView(picked.text ? { test: picked.test, filterText: picked.text } : { test: undefined, filterText: undefined });
      }
      case 'clearFilter':
        return this.setView({ test: undefined, filterText: undefined });
      default:
        return this.followLink(m, this.deps.panels, this.request.nodeName, 'TRANSACTION_SHAPE_ACS_DELTA');
    }
  }
}
