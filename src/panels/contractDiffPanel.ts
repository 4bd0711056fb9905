// Compare Contracts: two contracts of one node read as the token's parties, their facts and create
// arguments compared (src/lookups/contractDiff.ts), on the one webview kit. Refresh reads both again.
import * as vscode from 'vscode';
import { diffContracts } from '../lookups/contractDiff';
import type { ContractLookup } from '../lookups/ledgerLookups';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerLookupService } from '../services/lookupService';
import { contractDiffBody, type CompareProblem } from './html/contractDiffHtml';
import type { LedgerPanels } from './ledgerPanel';
import type { PageMessage } from './panelMessages';
import { WebviewHost } from './webviewHost';
import { html } from './html/safeHtml';

export class ContractDiffPanel extends WebviewHost {
  /** The latest comparison's counts (tests, the API). */
  shown: ReturnType<typeof diffContracts> | undefined;
  private loading: AbortController | undefined;

  constructor(
    extensionUri: vscode.Uri,
    private readonly lookups: LedgerLookupService,
    private readonly panels: LedgerPanels,
    readonly node: NodeConfig,
    readonly leftId: string,
    readonly rightId: string,
  ) {
    super(
      {
        viewType: 'cantonLens.compareContracts',
        title: vscode.l10n.t('Compare {0}… ↔ {1}…', leftId.slice(0, 8), rightId.slice(0, 8)),
        extensionUri,
        nodeName: node.name,
        actions: [{ action: 'refresh', label: vscode.l10n.t('Refresh') }],
      },
      html`<p role="status">${vscode.l10n.t('Reading both contracts from {0}…', node.name)}</p>`,
    );
    this.onDidDispose(() => this.loading?.abort());
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
    this.show(contractDiffBody({ diff: this.shown, problems, leftId: this.leftId, rightId: this.rightId }));
  }

  protected async onMessage(m: PageMessage): Promise<void> {
    if (m.type === 'refresh') return this.load();
    return this.followLink(m, this.panels, this.node.name);
  }
}
