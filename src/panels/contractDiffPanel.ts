// Compare Contracts: two contracts of one node read as the token's parties, their facts and create
// arguments compared (src/lookups/contractDiff.ts), on the one webview kit; then whether one became
// the other (src/lookups/contractLineage.ts), added when read so it never holds up the diff. Refresh
// reads both again. Compare with JSON: one contract against a JSON value, on the same page.
import * as vscode from 'vscode';
import type { CreatedEvent } from '../ledger/apiTypes';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { diffContracts, diffWithJson, type JsonDiff } from '../lookups/contractDiff';
import { traceLineage, type Lineage, type LineageReader } from '../lookups/contractLineage';
import { expectedArgument } from '../lookups/expectedJson';
import type { ContractLookup } from '../lookups/ledgerLookups';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerLookupService } from '../services/lookupService';
import { contractDiffBody, jsonDiffBody, type CompareProblem, type LineageState } from './html/contractDiffHtml';
import type { LookupPanels } from './lookupPanels';
import { acceptedBy, DIFF_ACTIONS, type DiffMessage } from '../protocol/panelMessages';
import { HtmlPanelHost } from './htmlPanelHost';
import { html } from './html/safeHtml';
import { COMMAND } from '../ids/commandIds';

export class ContractDiffPanel extends HtmlPanelHost<DiffMessage> {
  /** The latest comparison's counts (tests, the API). */
  shown: ReturnType<typeof diffContracts> | undefined;
  /** The latest comparison's lineage: settles once read (undefined when there is none to read, or it failed or was superseded). */
  lineage: Promise<Lineage | undefined> = Promise.resolve(undefined);
  private loading: AbortController | undefined;

  constructor(
    extensionUri: vscode.Uri,
    private readonly lookups: LedgerLookupService,
    private readonly panels: LookupPanels,
    readonly node: NodeConfig,
    readonly leftId: string,
    readonly rightId: string,
    identityChanged?: vscode.Event<{ node: string }>,
  ) {
    super(
      {
        viewType: COMMAND.compareContracts,
        accepts: acceptedBy<DiffMessage>(DIFF_ACTIONS),
        title: vscode.l10n.t('Compare {0}… ↔ {1}…', leftId.slice(0, 8), rightId.slice(0, 8)),
        extensionUri,
        nodeName: node.name,
        actions: [{ action: 'refresh', label: vscode.l10n.t('Refresh') }],
      },
      html`<p role="status">${vscode.l10n.t('Reading both contracts from {0}…', node.name)}</p>`,
    );
    this.onDidDispose(() => this.loading?.abort());
    this.dropOnIdentityChange(identityChanged, node.name, () => {
      this.loading?.abort();
      this.shown = undefined;
    });
  }

  /** Reads both contracts (cancellable) and shows the comparison or why one could not be read. */
  async load(): Promise<void> {
    this.loading?.abort();
    const ac = new AbortController();
    this.loading = ac;
    const read = (id: string) => this.lookups.contract(this.node, id, { signal: ac.signal, refresh: true });
    const [left, right] = await vscode.window.withProgress(
      { location: { viewId: 'cantonLens.nodes' }, title: vscode.l10n.t('Comparing contracts…'), cancellable: false },
      () => Promise.all([read(this.leftId), read(this.rightId)]),
    );
    if (ac.signal.aborted) return;
    const problems: CompareProblem[] = [];
    const created = (side: 'left' | 'right', l: ContractLookup) => {
      if (l.found && l.response.created?.createdEvent) return l.response.created.createdEvent;
      problems.push({
        side,
        id: l.contractId,
        explanation: l.found ? vscode.l10n.t('Its create event is pruned: only its archive is known.') : l.explanation,
      });
      return undefined;
    };
    const a = created('left', left);
    const b = created('right', right);
    this.shown = a && b ? diffContracts(a, b) : undefined;
    const page = (lineage?: LineageState) => contractDiffBody({ diff: this.shown, problems, leftId: this.leftId, rightId: this.rightId, lineage });
    this.show(page(a && b ? { state: 'reading' } : undefined));
    this.lineage = a && b ? this.readLineage(a, b, ac.signal, page) : Promise.resolve(undefined);
  }

  /** Shown when read; a read cancelled (closed, refreshed) shows nothing. */
  private async readLineage(a: CreatedEvent, b: CreatedEvent, signal: AbortSignal, page: (l: LineageState) => ReturnType<typeof contractDiffBody>) {
    try {
      const lineage = await traceLineage(this.lineageReader(), a, b, signal);
      if (!signal.aborted) this.show(page({ state: 'read', lineage }));
      return signal.aborted ? undefined : lineage;
    } catch (e) {
      if (!signal.aborted && !(isLedgerApiError(e) && e.kind === 'cancelled'))
        this.show(page({ state: 'failed', explanation: isLedgerApiError(e) ? e.explanation : (e as Error).message }));
      return undefined;
    }
  }

  /** Reads through the lookups: the contracts already compared come from the cache. */
  private lineageReader(): LineageReader {
    return {
      archiveOf: async (id, signal) => {
        const l = await this.lookups.contract(this.node, id, { signal });
        if (!l.found) return { state: 'unknown', explanation: l.explanation };
        const archived = l.response.archived?.archivedEvent;
        return archived ? { state: 'archived', offset: archived.offset } : { state: 'active' };
      },
      transactionAt: async (offset, signal) => {
        const updateId = await this.lookups.updateIdAt(this.node, offset, signal);
        if (!updateId) return undefined;
        const t = await this.lookups.transaction(this.node, updateId, { signal, shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' });
        return t.found && t.update === 'transaction' ? t.transaction : undefined;
      },
    };
  }

  protected async onMessage(m: DiffMessage): Promise<void> {
    if (m.type === 'refresh') return this.load();
    // The page's only transaction links are lineage: they open where the exercise is.
    return this.followLink(m, this.panels, this.node.name, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
  }
}

/** What a contract is compared with: a JSON value, and where it came from ("selection in tests/expected.json"). */
export interface ExpectedJson {
  value: unknown;
  source: string;
}

export class JsonDiffPanel extends HtmlPanelHost<DiffMessage> {
  /** The latest comparison (tests, the API); undefined when the contract could not be read. */
  shown: JsonDiff | undefined;
  private loading: AbortController | undefined;

  constructor(
    extensionUri: vscode.Uri,
    private readonly lookups: LedgerLookupService,
    private readonly panels: LookupPanels,
    readonly node: NodeConfig,
    readonly contractId: string,
    readonly expected: ExpectedJson,
    identityChanged?: vscode.Event<{ node: string }>,
  ) {
    super(
      {
        viewType: COMMAND.compareWithJson,
        accepts: acceptedBy<DiffMessage>(DIFF_ACTIONS),
        title: vscode.l10n.t('Compare {0}… ↔ JSON', contractId.slice(0, 8)),
        extensionUri,
        nodeName: node.name,
        actions: [{ action: 'refresh', label: vscode.l10n.t('Refresh') }],
      },
      html`<p role="status">${vscode.l10n.t('Reading the contract from {0}…', node.name)}</p>`,
    );
    this.onDidDispose(() => this.loading?.abort());
    this.dropOnIdentityChange(identityChanged, node.name, () => {
      this.loading?.abort();
      this.shown = undefined;
    });
  }

  /** Reads the contract (cancellable) and shows it against the JSON, or why it could not be read. */
  async load(): Promise<void> {
    this.loading?.abort();
    const ac = new AbortController();
    this.loading = ac;
    const l = await vscode.window.withProgress(
      { location: { viewId: 'cantonLens.nodes' }, title: vscode.l10n.t('Comparing with JSON…'), cancellable: false },
      () => this.lookups.contract(this.node, this.contractId, { signal: ac.signal, refresh: true }),
    );
    if (ac.signal.aborted) return;
    const created = l.found ? l.response.created?.createdEvent : undefined;
    const problem = created ? undefined : l.found ? vscode.l10n.t('Its create event is pruned: only its archive is known.') : l.explanation;
    this.shown = created ? diffWithJson(created, expectedArgument(this.expected.value, created.createArgument)) : undefined;
    this.show(jsonDiffBody({ diff: this.shown, problem, contractId: this.contractId, source: this.expected.source }));
  }

  protected async onMessage(m: DiffMessage): Promise<void> {
    if (m.type === 'refresh') return this.load();
    return this.followLink(m, this.panels, this.node.name);
  }
}
