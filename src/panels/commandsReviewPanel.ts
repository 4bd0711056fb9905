// The review of a `*.commands.json` (on HtmlPanelHost): checked, reviewed against the token user's
// rights, then submitted with submit-and-wait-for-transaction, one POST per click and never by
// itself again. A commit opens the transaction panel on its exercise tree; a refusal is explained
// down to the Daml choice; a timeout or a dropped connection is "unknown", and Find Outcome looks
// the command id up in the completions.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkCommandsRequest, describeDeduplication, type CheckedCommands } from '../execute/commandsRequest';
import type { DamlIndex } from '../daml/damlIndex';
import { argumentTypeIssues } from './argumentTypeReaders';
import { commandArgumentIssues, issueLines } from '../daml/lf/lfValueCheck';
import { sourceArgumentFields, sourceArgumentIssues } from '../execute/sourceArgumentTypes';
import type { NodeSignaturesReader } from '../daml/lf/lfSignatures';
import { commandLines, commandsChecks, submitAgainFirst } from '../execute/commandsReview';
import { disclosedUses } from '../execute/contractActions';
import { jsonValueSpans, spanOf } from '../execute/jsonPathRanges';
import { followStep, type FollowStep } from '../execute/reviewFollow';
import type { JsCommands } from '../ledger/apiTypes';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import type { RecentLookupStore } from '../services/recentLookupStore';
import { damlFileText } from '../services/damlWorkspace';
import { commandsReviewBody, type CommandsOutcome, type CommandsView } from './html/commandsReviewHtml';
import { loadingBody } from './html/panelPage';
import { requestProblemsBody, type RequestProblem } from './html/requestProblemsHtml';
import type { LookupPanels } from './lookupPanels';
import { acceptedBy, COMMANDS_REVIEW_ACTIONS, type CommandsReviewMessage } from '../protocol/panelMessages';
import { requestDiagnostics } from './requestDiagnostics';
import { newSubmissionId } from './randomIds';
import { confirmUnlessLoopback, type ConfirmCommands, type Refusal } from './commandsConfirm';
import { HtmlPanelHost } from './htmlPanelHost';
import { CommandsSubmission } from './commandsSubmission';
import { followRequestFile } from './requestFileFollow';
import { explainMissingContract, pickInPlaceOfMissing, type PickContract } from './missingContractPick';

export { confirmUnlessLoopback, type ConfirmCommands, type Refusal } from './commandsConfirm';

export class CommandsReviews implements vscode.Disposable {
  private readonly open = new Map<string, CommandsReviewPanel>();
  readonly diagnostics = vscode.languages.createDiagnosticCollection('Canton Lens commands');
  private readonly refusals = new vscode.EventEmitter<Refusal>();
  readonly onRefusal = this.refusals.event;
  confirm: ConfirmCommands = confirmUnlessLoopback;
  /** How long Find Outcome looks (tests shorten it). */
  outcomeSearchMs = 30_000;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly nodes: NodeReader,
    /** The lookup panels, asked for when an update is opened. */
    private readonly lookupPanels: () => LookupPanels,
    readonly recent: RecentLookupStore,
    /** The node's package signatures (its Daml-LF), for the arguments' check; none: not checked. */
    private readonly signatures?: NodeSignaturesReader,
    /** The workspace's Daml index: the types of templates the node's packages do not describe. */
    private readonly damlIndex?: () => Promise<DamlIndex | undefined>,
  ) {}

  /**
   * What the node's Daml-LF types say is wrong with the commands' arguments (`lf`), and the
   * workspace's Daml source for the templates those lack (`source`), as the node's version reads
   * them; undefined: not checked.
   */
  async argumentProblems(node: NodeConfig, request: JsCommands, version?: string): Promise<{ lf?: string[]; source?: string[] }> {
    const readers = {
      signatures: this.signatures,
      damlSource: this.damlIndex && { index: this.damlIndex, fileText: damlFileText },
      checks: () => ({ commandArgumentIssues, sourceArgumentFields, sourceArgumentIssues }),
    };
    const { lf, source } = await argumentTypeIssues(readers, this.nodes.client(node), request.commands ?? [], version);
    return { lf: issueLines(lf), source: issueLines(source) };
  }

  get lookups(): LookupPanels {
    return this.lookupPanels();
  }

  async review(uri: vscode.Uri, node: NodeConfig): Promise<CommandsReviewPanel | undefined> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const request = await this.check(doc, node);
    if (!request) return undefined;
    let panel = this.open.get(uri.toString());
    if (!panel || panel.isDisposed) {
      panel = new CommandsReviewPanel(this, uri, node);
      const created = panel;
      this.open.set(uri.toString(), created);
      created.onDidDispose(() => this.open.get(uri.toString()) === created && this.open.delete(uri.toString()));
    } else panel.reveal();
    // A send or search in flight keeps its review (and its node) until it ends.
    if (!panel.busy) await panel.load(node, request);
    return panel;
  }

  /** The request's problems as diagnostics on their JSON paths; the request when there are none. */
  async check(doc: vscode.TextDocument, node: NodeConfig, text = doc.getText()): Promise<JsCommands | undefined> {
    const checked = await this.checkQuietly(doc, node, text);
    if (checked.problems.length > 0) {
      const first = checked.problems
        .slice(0, 2)
        .map((p) => `${p.path}: ${p.message}`)
        .join(' ');
      const show = vscode.l10n.t('Show Problems');
      void vscode.window
        .showErrorMessage(vscode.l10n.t('{0} has {1} problem(s); nothing was sent. {2}', path.basename(doc.uri.path), checked.problems.length, first), show)
        .then((pick) => pick && vscode.commands.executeCommand('workbench.actions.view.problems'));
    }
    return checked.request;
  }

  /** The same check, its problems only as diagnostics (a review following the file as it is typed). */
  async checkQuietly(doc: vscode.TextDocument, node: NodeConfig, text = doc.getText()): Promise<CheckedCommands> {
    const checked = checkCommandsRequest(text, await this.nodes.tokenUser(node));
    this.diagnostics.set(doc.uri, requestDiagnostics(doc, text, checked.problems));
    return checked;
  }

  /** The latest refusals (for the language-model tool), newest last. */
  readonly refused: Refusal[] = [];

  reportRefusal(r: Refusal): void {
    const seen = { ...r, at: r.at ?? Date.now() };
    this.refused.push(seen);
    if (this.refused.length > 50) this.refused.shift();
    this.refusals.fire(seen);
  }

  dispose(): void {
    for (const p of this.open.values()) p.dispose();
    this.diagnostics.dispose();
    this.refusals.dispose();
  }
}

export class CommandsReviewPanel extends HtmlPanelHost<CommandsReviewMessage> {
  private view: CommandsView | undefined;
  private request: JsCommands | undefined;
  /** The file's problems, shown instead of a review since the file stopped reading as a request. */
  private problems: RequestProblem[] | undefined;
  /** The file's text the review shows (or its problems). */
  private reviewedText: string | undefined;
  /** Reads of the file so far: a read that a later one overtook shows nothing. */
  private loads = 0;
  private submitting = false;
  /** The send and Find Outcome: the use case this review shows. */
  private readonly submission: CommandsSubmission;
  /** POSTs sent from this panel (tests: one click sends once). */
  submissions = 0;

  constructor(
    private readonly owner: CommandsReviews,
    readonly uri: vscode.Uri,
    private node: NodeConfig,
  ) {
    super(
      {
        viewType: 'cantonLens.commandsReview',
        accepts: acceptedBy<CommandsReviewMessage>(COMMANDS_REVIEW_ACTIONS),
        title: vscode.l10n.t('Review {0}', path.basename(uri.path)),
        extensionUri: owner.extensionUri,
        nodeName: node.name,
        actions: [{ action: 'openRequest', label: vscode.l10n.t('Open Request') }],
      },
      loadingBody(path.basename(uri.path), node.name),
    );
    this.submission = new CommandsSubmission(owner, uri);
    this.track(followRequestFile(uri, () => this.followFile()));
  }

  get current(): CommandsView | undefined {
    return this.view;
  }

  /** The file's problems while it does not read as a request. */
  get fileProblems(): readonly RequestProblem[] | undefined {
    return this.problems;
  }

  /** The file changed: the review shows it as it is now (never while a send is in flight). */
  private async followFile(): Promise<FollowStep> {
    const doc = await vscode.workspace.openTextDocument(this.uri);
    const step = followStep(doc.getText(), this.reviewedText, this.submitting);
    if (step === 'reload') await this.reread(doc, false);
    return step;
  }

  /** Reads the file again: its review, or its problems in place of one. `loud` also says them in a message. */
  private async reread(doc: vscode.TextDocument, loud: boolean): Promise<JsCommands | undefined> {
    const text = doc.getText();
    const checked = loud ? { request: await this.owner.check(doc, this.node, text), problems: [] } : await this.owner.checkQuietly(doc, this.node, text);
    if (checked.request) {
      await this.load(this.node, checked.request, text);
      return this.request;
    }
    this.loads++;
    this.reviewedText = text;
    this.view = undefined;
    this.request = undefined;
    this.problems = checked.problems.length > 0 ? checked.problems : (await this.owner.checkQuietly(doc, this.node, text)).problems;
    this.show(
      requestProblemsBody({
        fileName: vscode.workspace.asRelativePath(this.uri),
        node: this.node.name,
        title: vscode.l10n.t('Review commands'),
        problems: this.problems,
      }),
    );
    return undefined;
  }

  /** A send or a search is in flight. */
  get busy(): boolean {
    return this.submitting;
  }

  async load(node: NodeConfig, request: JsCommands, text?: string): Promise<void> {
    const load = ++this.loads;
    this.node = node;
    this.reviewedText = text ?? (await vscode.workspace.openTextDocument(this.uri)).getText();
    const rights = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Reading the rights of the token's user on {0}…", node.name), cancellable: true },
      (_p, cancel) => {
        const ac = new AbortController();
        cancel.onCancellationRequested(() => ac.abort());
        return this.owner.nodes.facts.executeRights(node, ac.signal);
      },
    );
    const tokenUser = await this.owner.nodes.tokenUser(node);
    const argumentProblems = await this.owner.argumentProblems(node, request, this.versionOf(node));
    // A later read of the file (an edit meanwhile) shows instead.
    if (load !== this.loads) return;
    this.request = request;
    this.problems = undefined;
    this.view = {
      fileName: vscode.workspace.asRelativePath(this.uri),
      node: node.name,
      commandId: request.commandId,
      actAs: request.actAs ?? [],
      readAs: request.readAs ?? [],
      userId: request.userId || tokenUser,
      deduplication: describeDeduplication(request.deduplicationPeriod),
      lines: commandLines(request),
      disclosed: disclosedUses(request),
      findings: commandsChecks({
        request,
        tokenUser,
        rights: rights.rights,
        rightsUnknownReason: rights.reason,
        nodeVersion: this.versionOf(node),
        argumentProblems: argumentProblems.lf,
        sourceArgumentProblems: argumentProblems.source,
      }),
      sent: this.submissions,
    };
    this.render();
  }

  private versionOf(node: NodeConfig): string | undefined {
    const status = this.owner.nodes.status(node);
    return status.state === 'reachable' ? status.version : undefined;
  }

  /** Sends once: the review's request, after the checks and (off this machine) a confirmation. */
  async submit(): Promise<CommandsOutcome | undefined> {
    if (this.submitting) return undefined;
    this.submitting = true;
    try {
      // What is sent is the file as it is now: an edit the review has not read yet is read first.
      const doc = await vscode.workspace.openTextDocument(this.uri);
      if (doc.getText() !== this.reviewedText && !(await this.reread(doc, true))) return undefined;
      const view = this.view;
      const request = this.request;
      if (!view || !request || view.outcome) return undefined;
      const blocks = view.findings.filter((f) => f.severity === 'block');
      if (blocks.length > 0) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Not submitted: {0}', blocks.map((f) => f.text).join(' ')));
        return undefined;
      }
      if (!(await this.owner.confirm(this.node, request.commandId))) return undefined;
      return await this.send(request);
    } finally {
      this.submitting = false;
    }
  }

  /** Again, with the same command id (the node deduplicates) or a new one written into the file first. */
  async submitAgain(choice?: 'same' | 'new'): Promise<CommandsOutcome | undefined> {
    if (this.submitting || !this.request) return undefined;
    this.submitting = true;
    try {
      return await this.submitAgainAs(this.request, choice);
    } finally {
      this.submitting = false;
    }
  }

  private async submitAgainAs(previous: JsCommands, choice: 'same' | 'new' | undefined): Promise<CommandsOutcome | undefined> {
    const same = {
      label: vscode.l10n.t('Same Command Id'),
      detail: vscode.l10n.t('A retry: the node deduplicates, so the change commits at most once.'),
      value: 'same' as const,
    };
    const fresh = { label: vscode.l10n.t('New Command Id'), detail: vscode.l10n.t('A new change: it may commit again.'), value: 'new' as const };
    // The outcome decides the first choice: a definite refusal needs a new id, an unknown outcome the same.
    const items = submitAgainFirst(this.view?.outcome) === 'new' ? [fresh, same] : [same, fresh];
    const pick =
      choice ??
      (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Submit command {0} again as…', previous.commandId) }).then((p) => p?.value));
    if (!pick) return undefined;
    {
      const doc = await vscode.workspace.openTextDocument(this.uri);
      let text = doc.getText();
      if (pick === 'new') {
        const span = spanOf(jsonValueSpans(text), '$.commandId');
        if (!span) return undefined;
        text = text.slice(0, span.start) + JSON.stringify(newSubmissionId()) + text.slice(span.end);
      }
      const request = await this.owner.check(doc, this.node, text);
      if (!request) return undefined;
      if (!(await this.owner.confirm(this.node, request.commandId))) return undefined;
      if (text !== doc.getText()) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(this.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
        await vscode.workspace.applyEdit(edit);
        if (!doc.isUntitled) await doc.save();
      }
      await this.load(this.node, request, text);
      const blocks = this.view?.findings.filter((f) => f.severity === 'block') ?? [];
      if (blocks.length > 0) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Not submitted: {0}', blocks.map((f) => f.text).join(' ')));
        return undefined;
      }
      return await this.send(request);
    }
  }

  private async send(request: JsCommands): Promise<CommandsOutcome> {
    const view = this.view!;
    const node = this.node;
    const outcome = await this.submission.send(node, request, () => {
      this.setOutcome({ state: 'sending' });
      this.submissions++;
      view.sent = this.submissions;
    });
    this.setOutcome(outcome);
    if (outcome.state === 'failed') void this.explainMissingContract(outcome, request);
    if (outcome.state === 'committed') void this.showCommitted(node, outcome.updateId);
    return outcome;
  }

  /** CONTRACT_NOT_FOUND: which update archived the contract, and the pick of an active one. */
  private async explainMissingContract(outcome: Extract<CommandsOutcome, { state: 'failed' }>, request: JsCommands): Promise<void> {
    if (await explainMissingContract(this.owner.nodes.client(this.node), outcome, request)) if (this.view?.outcome === outcome) this.render();
  }

  /** Replaces the missing contract's id in the file with an active one of its template; the review then follows the file. */
  async pickActiveContract(pick?: PickContract): Promise<string | undefined> {
    const outcome = this.view?.outcome;
    if (outcome?.state !== 'failed' || !this.request || this.submitting) return undefined;
    const picked = await pickInPlaceOfMissing(this.owner.nodes.client(this.node), this.node.name, this.uri, outcome, this.request, pick);
    if (picked) await this.reread(await vscode.workspace.openTextDocument(this.uri), true);
    return picked;
  }

  /** Looks the command id up in the completions after the last send (a read; until found or the deadline). */
  async findCommandOutcome(): Promise<CommandsOutcome | undefined> {
    const request = this.request;
    if (!request || this.submitting) return undefined;
    this.submitting = true;
    try {
      this.setOutcome({ state: 'searching' });
      const outcome = await this.submission.findOutcome(this.node, request);
      this.setOutcome(outcome);
      if (outcome.state === 'committed' && outcome.updateId) void this.showCommitted(this.node, outcome.updateId);
      return outcome;
    } finally {
      this.submitting = false;
    }
  }

  /** The committed transaction in the transaction panel, on its exercise tree, once this page shows the outcome. */
  private async showCommitted(node: NodeConfig, updateId: string): Promise<void> {
    // If the page never says so (hidden, closed), open it anyway.
    await Promise.race([this.whenReady(), new Promise((r) => setTimeout(r, 3_000))]);
    this.owner.lookups.show({ kind: 'update', id: updateId, node: node.name, shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' });
  }

  private setOutcome(outcome: CommandsOutcome): void {
    if (!this.view) return;
    this.view.outcome = outcome;
    this.render();
  }

  private render(): void {
    if (this.view) this.show(commandsReviewBody(this.view));
  }

  protected async onMessage(m: CommandsReviewMessage): Promise<void> {
    switch (m.type) {
      case 'submit':
        return void (await this.submit());
      case 'submitAgain':
        return void (await this.submitAgain());
      case 'findOutcome':
        return void (await this.findCommandOutcome());
      case 'pickActiveContract':
        return void (await this.pickActiveContract());
      case 'reload': {
        if (this.submitting) return;
        this.owner.nodes.facts.forget(this.node.name);
        await this.reread(await vscode.workspace.openTextDocument(this.uri), true);
        return;
      }
      case 'openRequest':
        return void (await vscode.window.showTextDocument(this.uri, { viewColumn: vscode.ViewColumn.One }));
      default:
        return this.followLink(m, this.owner.lookups, this.node.name);
    }
  }
}
