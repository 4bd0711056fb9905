// The Active Contracts panel: a node's active contracts for the configured (or given) parties,
// optionally one template or interface, read page by page into a virtual table. The host keeps no
// rows: they go to the page as they arrive, in compact batches (src/protocol/acsRows.ts), and a
// changed token reads everything again.
//
// The page keeps its context while its tab is hidden (retainContextWhenHidden): its rows are the
// only copy (100,000 of them are tens of megabytes, too much for the page's saved state and more
// than the extension host should hold to send again), and reading them again on every return to the
// tab would take seconds and could show another ledger end. What the person set on the page
// (search, sort, the place scrolled to) is in the page's state as well, so a page that is loaded
// again anyway (a webview reload) reads the table again with them.
import * as vscode from 'vscode';
import { acsScope, acsTitle, AcsTally, type AcsTarget, type PayloadFilter } from '../browse/acsReading';
import { readActiveContracts } from '../browse/acsPaging';
import { AcsBatchEncoder } from '../browse/acsBatchEncoder';
import { browseEventFormat, hasPagedEndpoints, type BrowseFilter } from '../browse/browseForms';
import { interfaceRows, viewColumnsFromLf, viewColumnsFromValues } from '../browse/interfaceRows';
import type { PackageSignature } from '../daml/lf/lfSignatures';
import type { LedgerClient } from '../ledger/ledgerClient';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeReader } from '../services/ledgerNodes';
import { parseAcsFromPage, type AcsFromPage, type AcsToPage } from '../protocol/acsMessages';
import { acsPageHtml } from './html/browseHtml';
import type { PageButton } from '../protocol/messageChecks';
import type { CompiledFilter } from './payloadFilterPick';
import { WebviewHost } from './webviewHost';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export type { AcsTarget };

const VIEW_TYPE = 'cantonLens.activeContracts';
/** Rows messages sent and not yet taken by VS Code, at most. */
const PAGES_IN_FLIGHT = 2;

export class AcsPanels implements vscode.Disposable {
  private readonly open = new Set<AcsPanel>();

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly nodes: NodeReader,
    /** The payload filter's input (its code loads with the first use). */
    readonly pickPayloadFilter: (current: string, sample: readonly unknown[], parties: readonly string[]) => Promise<CompiledFilter | undefined>,
    /** The node's Daml-LF signatures: an interface table names its columns by the view type. */
    readonly signatures?: (client: LedgerClient) => Promise<{ packages: PackageSignature[] }>,
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
    const p = new AcsPanel(this, target);
    this.open.add(p);
    p.onDidDispose(() => this.open.delete(p));
    return p;
  }

  get panels(): readonly AcsPanel[] {
    return [...this.open];
  }

  dispose(): void {
    for (const p of [...this.open]) p.dispose();
  }
}

export class AcsPanel extends WebviewHost<AcsToPage, AcsFromPage> {
  private loading: AbortController | undefined;
  private identity: string | undefined;
  private payloadFilter: PayloadFilter | undefined;
  private readonly tally = new AcsTally();
  /** The page said ready once already: a second time, it was loaded again and has no rows. */
  private loaded = false;

  constructor(
    private readonly manager: AcsPanels,
    readonly target: AcsTarget,
  ) {
    super({
      viewType: VIEW_TYPE,
      title: acsTitle(target),
      extensionUri: manager.extensionUri,
      column: vscode.ViewColumn.Active,
      enableFindWidget: true,
      retainContextWhenHidden: true,
      parse: parseAcsFromPage,
      shell: ({ nonce, cspSource, media }) =>
        acsPageHtml({
          nonce,
          cspSource,
          scriptUris: [media('acs.js')],
          styleUris: [media('panel.css'), media('browse.css')],
          title: acsTitle(target),
          nodeName: target.node,
          // Who reads is known once the token's rights are (load): the page is told then.
          scope: acsScope(target, undefined, undefined),
        }),
    });
    // Rows read under one token are not shown under another: read again.
    this.track(manager.nodes.onDidChange(() => void this.checkIdentity()));
    this.webviewPanel.onDidDispose(() => this.loading?.abort());
    void this.identityKey().then((k) => (this.identity = k));
    void this.load();
  }

  /** For tests: contracts sent to the page (the first ids, the templates), the offset, the last notice or error. */
  get shown(): AcsTally['shown'] {
    return this.tally.shown;
  }

  private filter(parties: readonly string[]): BrowseFilter {
    return {
      parties,
      templates: this.target.templateId ? [this.target.templateId] : undefined,
      interfaces: this.target.interfaceId ? [this.target.interfaceId] : undefined,
    };
  }

  protected override onReady(): void {
    if (this.loaded) void this.load();
    this.loaded = true;
  }

  /** Reads every page and sends its rows; a new load cancels the one before. */
  async load(): Promise<void> {
    this.loading?.abort();
    const ac = new AbortController();
    this.loading = ac;
    this.shown.step = 'waiting for the page';
    await this.whenReady();
    if (ac.signal.aborted || this.isDisposed) return;
    this.tally.start();
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
      this.post({ type: 'scope', text: acsScope(this.target, readAs.parties, this.payloadFilter) });
      if (readAs.refusal) {
        this.fail(readAs.refusal, [{ action: 'setToken', label: vscode.l10n.t('Set Token') }]);
        return;
      }
      // One dictionary per read: the page starts its own again with the reset above.
      const encoder = new AcsBatchEncoder();
      this.shown.step = 'reading contracts';
      const client = this.manager.nodes.client(node);
      const interfaceId = this.target.interfaceId;
      // By interface: the view's fields are the columns, named by the view type where the node's
      // packages say (read beside the rows, not before them), else by the first views that come.
      let columns: string[] | undefined;
      const showColumns = (names: string[]) => {
        columns = this.shown.viewColumns = names;
        this.post({ type: 'columns', names });
      };
      if (interfaceId)
        void this.viewColumns(client, interfaceId).then((names) => {
          if (names && this.loading === ac && !ac.signal.aborted) showColumns(names);
        });
      const inFlight: Promise<void>[] = [];
      for await (const read of readActiveContracts(client, {
        eventFormat: browseEventFormat(this.filter(readAs.parties)),
        paged: hasPagedEndpoints(version),
        websocket: true,
        pageSize: 1000,
        signal: ac.signal,
        ...(this.target.activeAtOffset !== undefined ? { activeAtOffset: this.target.activeAtOffset } : {}),
      })) {
        if (ac.signal.aborted) return;
        let page = read;
        if (interfaceId) {
          page = { ...read, events: interfaceRows(read.events, interfaceId, columns) };
          const named = columns ?? viewColumnsFromValues(page.events);
          if (!columns && named) showColumns(named);
        }
        const events = this.tally.page(page, this.payloadFilter);
        // At most PAGES_IN_FLIGHT pages on their way to the page: the next page is read once an
        // earlier one was taken, so a fast node does not fill the extension host with pages.
        if (inFlight.length >= PAGES_IN_FLIGHT) await inFlight.shift();
        if (ac.signal.aborted) return;
        inFlight.push(
          this.postTaken({ type: 'rows', batch: encoder.encode(events), activeAtOffset: page.activeAtOffset, ...(page.restarted ? { restarted: true } : {}) }),
        );
        if (page.notice) this.post({ type: 'notice', text: page.notice });
      }
      await Promise.all(inFlight);
      if (ac.signal.aborted) return;
      this.shown.done = true;
      this.shown.step = 'done';
      this.post({ type: 'done' });
    } catch (e) {
      if (ac.signal.aborted) {
        if (this.loading === ac) {
          this.shown.step = 'cancelled';
          this.post({ type: 'done', cancelled: true });
        }
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

  /** The fields of the interface's view type, if the node's Daml-LF says (else undefined: the views name them). */
  private async viewColumns(client: LedgerClient, interfaceId: string): Promise<string[] | undefined> {
    try {
      return this.manager.signatures && viewColumnsFromLf((await this.manager.signatures(client)).packages, interfaceId);
    } catch {
      return undefined;
    }
  }

  /** Keeps only the rows whose create argument passes (none: every row), reading the table again. */
  filterBy(filter: PayloadFilter | undefined): Promise<void> {
    this.payloadFilter = filter;
    return this.load();
  }

  private fail(text: string, actions: PageButton[]): void {
    this.shown.error = text;
    this.shown.step = 'failed';
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

  protected async onMessage(m: AcsFromPage): Promise<void> {
    switch (m.type) {
      case 'refresh':
      case 'retry':
        return void this.load();
      case 'cancel':
        this.loading?.abort();
        this.post({ type: 'done', cancelled: true });
        return;
      case 'openContract':
        await runCommand(COMMAND.showContract, m.id, this.target.node);
        return;
      case 'openDaml':
        // A template name: its Daml definition; the command checks the id.
        await runCommand(COMMAND.openDamlDefinition, m.templateId, undefined, m.packageName);
        return;
      case 'setToken':
        return void runCommand(COMMAND.setToken, this.target.node);
      case 'filterPayload':
        return this.pickFilter();
      case 'showInactive':
      case 'showAllInRange':
        // The contracts no longer active, or every change, in a range: What Changed on this table's scope.
        return void runCommand(COMMAND.whatChanged, undefined, undefined, this.target.node, {
          templates: this.target.templateId ? [this.target.templateId] : undefined,
          interfaces: this.target.interfaceId ? [this.target.interfaceId] : undefined,
          parties: this.target.parties,
          ledgerEffects: true,
          kind: m.type === 'showInactive' ? 'inactive' : undefined,
        });
      case 'selectNode':
        return void runCommand(COMMAND.selectNode);
      case 'ready':
        return;
    }
  }

  private async pickFilter(): Promise<void> {
    const picked = await this.manager
      .pickPayloadFilter(this.payloadFilter?.text ?? '', this.tally.sample, this.shown.parties ?? [])
      .catch((e: Error) => void vscode.window.showErrorMessage(vscode.l10n.t('The payload filter could not open: {0}', e.message)));
    if (!picked) return;
    if (!picked.ok) return void vscode.window.showErrorMessage(picked.message);
    return void this.filterBy(picked.text ? { text: picked.text, test: picked.test } : undefined);
  }
}
