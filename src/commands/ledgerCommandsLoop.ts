// The inner loop's heavy part, in its own bundle (dist/ledgerCommandsLoop.js), loaded on the first use of
// one of its commands: write a commands request (a skeleton, or an exercise of a Daml choice on a
// contract picked from the node), review and submit it, follow the completions.
import { contractPickText } from '../browse/contractPickText';
import * as vscode from 'vscode';
import { commandsPathFor, commandsRequestTemplate, exerciseRequest } from '../execute/commandsRequest';
import { fieldsAt, skeletonOf } from '../daml/damlFields';
import { activeContractsOf } from '../browse/templateContracts';
import type { CreatedEvent } from '../ledger/apiTypes';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import { CommandsReviews, type CommandsReviewPanel } from '../panels/commandsReviewPanel';
import { CompletionsPanel } from '../panels/completionsPanel';
import type { LookupPanels } from '../panels/lookupPanels';
import { newSubmissionId } from '../panels/randomIds';
import type { NodeReader } from '../services/ledgerNodes';
import type { NodeSignaturesReader } from '../daml/lf/lfSignatures';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { DamlIndex } from '../daml/damlIndex';
import { ContractCommands } from './contractCommands';

export interface LedgerCommandsLoopDeps {
  extensionUri: vscode.Uri;
  nodes: NodeReader;
  panels: LookupPanels;
  recent: RecentLookupStore;
  /** The node's package signatures, for the review's check of the arguments. */
  signatures?: NodeSignaturesReader;
  /** The workspace's Daml index, for a contract's choices declared in its source. */
  daml?: { readonly workspace: { ready(): Promise<DamlIndex | undefined> } };
}

/** What the Exercise on the Ledger… lens knows of a choice. */
export interface ChoiceTarget {
  /** The Daml file and the zero-based line of the choice. */
  file: string;
  line: number;
  module: string;
  template: string;
  choice: string;
  /** The project's package name (daml.yaml): the request names the template by it. */
  packageName?: string;
}

export class LedgerCommandsLoop implements vscode.Disposable {
  readonly reviews: CommandsReviews;
  readonly completions = new Set<CompletionsPanel>();
  /** Picks a contract among the node's active ones of a template; tests replace it. */
  pickContract: (contracts: CreatedEvent[], template: string) => Thenable<CreatedEvent | undefined> = (contracts, template) =>
    vscode.window
      .showQuickPick(
        contracts.map((c) => ({ ...contractPickText(c), contract: c })),
        { placeHolder: vscode.l10n.t('Exercise on which {0} contract?', template), matchOnDescription: true, matchOnDetail: true },
      )
      .then((p) => p?.contract);

  /** A contract panel's Exercise… and Add as Disclosed Contract. */
  readonly contracts: ContractCommands;

  constructor(private readonly deps: LedgerCommandsLoopDeps) {
    const damlIndex = deps.daml ? () => deps.daml!.workspace.ready() : undefined;
    this.reviews = new CommandsReviews(deps.extensionUri, deps.nodes, () => deps.panels, deps.recent, deps.signatures, damlIndex);
    this.contracts = new ContractCommands({
      nodes: deps.nodes,
      signatures: deps.signatures,
      damlIndex,
      actingParty: (node) => this.actingParty(node),
    });
  }

  /** A party the token may act as: the first of the parties it reads as (from the rights, else the settings). */
  private async actingParty(node: NodeConfig): Promise<string> {
    const parties = (await this.deps.nodes.facts.readAs(node)).parties;
    return parties[0] ?? '<party id: name::1220…>';
  }

  async newRequest(node: NodeConfig | undefined, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const chosen =
      target ??
      (await vscode.window.showSaveDialog({
        title: vscode.l10n.t('New Commands Request'),
        defaultUri: folder ? vscode.Uri.joinPath(folder, 'create.commands.json') : undefined,
        filters: { JSON: ['json'] },
        saveLabel: vscode.l10n.t('Create'),
      }));
    if (!chosen) return undefined;
    const uri = chosen.with({ path: commandsPathFor(chosen.path) });
    const party = node ? await this.actingParty(node) : undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(commandsRequestTemplate(newSubmissionId(), party), 'utf8'));
    await vscode.window.showTextDocument(uri);
    return uri;
  }

  /** Writes a request that exercises the choice on a contract of its template picked from the node, and opens it. */
  async exercise(node: NodeConfig, t: ChoiceTarget, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    // The editor's text (the lens's line is the editor's), saved or not.
    const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(t.file))).getText();
    const party = await this.actingParty(node);
    const templateId = `#${t.packageName ?? '<package name>'}:${t.module}:${t.template}`;
    const contracts = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Reading the active {0} contracts on {1}…', t.template, node.name),
        cancellable: true,
      },
      (_p, cancel) => {
        const ac = new AbortController();
        cancel.onCancellationRequested(() => ac.abort());
        return this.activeOf(node, templateId, ac.signal);
      },
    );
    let contractId = '<contract id>';
    if (contracts.events.length > 0) {
      const picked = await this.pickContract(contracts.events, t.template);
      if (!picked) return undefined;
      contractId = picked.contractId;
    } else
      void vscode.window.showInformationMessage(
        contracts.problem ?? vscode.l10n.t('No active {0} contract on {1} that the token reads: fill in the contract id.', t.template, node.name),
      );
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(t.file))?.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = target ?? (folder ? vscode.Uri.joinPath(folder, 'commands', `${t.template}_${t.choice}.commands.json`) : undefined);
    if (!uri) return undefined;
    const request = exerciseRequest({
      commandId: newSubmissionId(),
      party,
      templateId,
      choice: t.choice,
      contractId,
      choiceArgument: skeletonOf(fieldsAt(text, t.line), party),
    });
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
    await vscode.workspace.fs.writeFile(uri, Buffer.from(request, 'utf8'));
    await vscode.window.showTextDocument(uri);
    return uri;
  }

  /** The active contracts of a template the token's parties see (at most 200), or why none could be read. */
  private async activeOf(node: NodeConfig, templateId: string, signal: AbortSignal): Promise<{ events: CreatedEvent[]; problem?: string }> {
    try {
      const parties = (await this.deps.nodes.facts.readAs(node, undefined, signal)).parties;
      const events = await activeContractsOf(this.deps.nodes.client(node), parties, templateId, signal);
      return { events };
    } catch (e) {
      return {
        events: [],
        problem: vscode.l10n.t(
          'Could not read the active contracts ({0}): fill in the contract id.',
          isLedgerApiError(e) ? e.explanation : (e as Error).message,
        ),
      };
    }
  }

  submit(uri: vscode.Uri, node: NodeConfig): Promise<CommandsReviewPanel | undefined> {
    return this.reviews.review(uri, node);
  }

  async follow(node: NodeConfig, beginExclusive?: number): Promise<CompletionsPanel> {
    const existing = [...this.completions].find((p) => p.node.name === node.name && !p.isDisposed);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = new CompletionsPanel(this.deps.extensionUri, this.deps.nodes, this.deps.panels, node, this.reviews.onRefusal, [...this.reviews.refused]);
    this.completions.add(panel);
    panel.onDidDispose(() => this.completions.delete(panel));
    await panel.start(beginExclusive);
    return panel;
  }

  dispose(): void {
    for (const p of this.completions) p.dispose();
    this.reviews.dispose();
  }
}

export function createLedgerCommandsLoop(deps: LedgerCommandsLoopDeps): LedgerCommandsLoop {
  return new LedgerCommandsLoop(deps);
}
