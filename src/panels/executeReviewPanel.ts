// The review panel of an `*.execute.json`: check, decode, confirm, submit once, show the outcome.
// Its own bundle (dist/executeReview.js), with the transaction decoder's loader and the review's
// HTML; ExecuteReviews (executeReviews.ts) creates it.
import * as vscode from 'vscode';
import type { CheckedRequest } from '../execute/executeRequestCheck';
import { jsonValueSpans, spanOf } from '../execute/jsonPathRanges';
import { blocking, preSendChecks } from '../execute/preSendChecks';
import { compareHashingDetails } from '../execute/hashingDetails';
import type * as TxReviewModule from '../execute/preparedTransactionReview';
import { loadBundle } from '../services/lazyBundles';
import type { NodeConfig } from '../nodes/nodeSettings';
import * as path from 'node:path';
import { loadingBody } from './html/panelPage';
import { requestProblemsBody, type RequestProblem } from './html/requestProblemsHtml';
import { reviewBody, type ReviewView, type SubmissionOutcome } from './html/reviewHtml';
import type { Endpoint, ExecuteReviews } from './executeReviews';
import { acceptedBy, EXECUTE_REVIEW_ACTIONS, type ExecuteReviewMessage } from '../protocol/panelMessages';
import { newSubmissionId } from './randomIds';
import { HtmlPanelHost } from './htmlPanelHost';
import { followRequestFile } from './requestFileFollow';
import { sendExecute } from './executeSubmission';
import { followStep, type FollowStep } from '../execute/reviewFollow';
import { COMMAND } from '../ids/commandIds';

export class ExecuteReviewPanel extends HtmlPanelHost<ExecuteReviewMessage> {
  private view: ReviewView | undefined;
  private node: NodeConfig | undefined;
  /** The file's problems, shown instead of a review since the file stopped reading as a request. */
  private problems: RequestProblem[] | undefined;
  /** The file's text the review shows (or its problems). */
  private reviewedText: string | undefined;
  /** Reads of the file so far: a read that a later one overtook shows nothing. */
  private loads = 0;
  private submitting = false;
  /** Requests sent from this panel (for tests: one click submits once). */
  submissions = 0;

  constructor(
    private readonly owner: ExecuteReviews,
    readonly uri: vscode.Uri,
    nodeName: string,
  ) {
    super(
      {
        viewType: 'cantonLens.executeReview',
        accepts: acceptedBy<ExecuteReviewMessage>(EXECUTE_REVIEW_ACTIONS),
        title: vscode.l10n.t('Review {0}', path.basename(uri.path)),
        extensionUri: owner.extensionUri,
        nodeName,
        actions: [{ action: 'openRequest', label: vscode.l10n.t('Open Request') }],
      },
      loadingBody(path.basename(uri.path), nodeName),
    );
    this.track(followRequestFile(uri, () => this.followFile()));
  }

  get current(): ReviewView | undefined {
    return this.view;
  }

  /** The file's problems while it does not read as a request. */
  get fileProblems(): readonly RequestProblem[] | undefined {
    return this.problems;
  }

  async load(node: NodeConfig, checked: CheckedRequest, text?: string): Promise<void> {
    const load = ++this.loads;
    this.node = node;
    this.reviewedText = text ?? (await vscode.workspace.openTextDocument(this.uri)).getText();
    const view = await this.buildView(node, checked);
    // A later read of the file (an edit meanwhile) shows instead.
    if (load !== this.loads) return;
    this.problems = undefined;
    this.view = view;
    this.render();
  }

  /** The file changed: the review shows it as it is now (never while a send is in flight). */
  private async followFile(): Promise<FollowStep> {
    if (!this.node) return 'same';
    const doc = await vscode.workspace.openTextDocument(this.uri);
    const step = followStep(doc.getText(), this.reviewedText, this.submitting);
    if (step === 'reload') await this.reread(this.node, doc, false);
    return step;
  }

  /** Reads the file again: its review, or its problems in place of one. `loud` also says them in a message. */
  private async reread(node: NodeConfig, doc: vscode.TextDocument, loud: boolean): Promise<boolean> {
    const text = doc.getText();
    const checked = loud ? await this.owner.check(doc, node, text) : await this.owner.checkQuietly(doc, node, text);
    if (checked.request) {
      await this.load(node, checked, text);
      return true;
    }
    this.loads++;
    this.reviewedText = text;
    this.view = undefined;
    this.problems = checked.problems;
    this.show(
      requestProblemsBody({ fileName: vscode.workspace.asRelativePath(this.uri), node: node.name, title: vscode.l10n.t('Review'), problems: checked.problems }),
    );
    return false;
  }

  /** The review of a checked request against a node: decoded, its hash recomputed, the pre-send checks run. */
  private async buildView(node: NodeConfig, checked: CheckedRequest): Promise<ReviewView> {
    const request = checked.request!;
    const tokenUser = await this.owner.nodes.tokenUser(node);
    const view: ReviewView = {
      fileName: vscode.workspace.asRelativePath(this.uri),
      node: node.name,
      party: checked.party ?? '',
      request,
      claimedHash: checked.claimedHash,
      tokenUser,
      findings: [],
    };
    try {
      const { reviewPreparedTransaction } = loadBundle<typeof TxReviewModule>(vscode.Uri.joinPath(this.owner.extensionUri, 'dist').fsPath, 'txReview');
      view.review = await reviewPreparedTransaction(request.preparedTransaction, request.hashingSchemeVersion);
    } catch (e) {
      view.decodeError = vscode.l10n.t('It is not a PreparedTransaction protobuf ({0}).', (e as Error).message);
    }
    const r = view.review;
    view.unsigned = checked.unsigned;
    const details = this.owner.hashingDetailsFor(node, checked.claimedHash);
    if (r && details !== undefined) view.hashing = compareHashingDetails(r, checked.claimedHash, details);
    // One or two requests (the user, its rights) the first time: shown, and they can be cancelled.
    const rights = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Reading the rights of the token's user on {0}…", node.name), cancellable: true },
      (_progress, cancel) => {
        const ac = new AbortController();
        cancel.onCancellationRequested(() => ac.abort());
        return this.owner.userRights(node, ac.signal).then((r) => (ac.signal.aborted ? { reason: vscode.l10n.t('Reading the rights was cancelled.') } : r));
      },
    );
    view.findings = preSendChecks({
      party: view.party,
      actAs: r?.submitters,
      hashingSchemeVersion: request.hashingSchemeVersion,
      computedHash: r?.computedHash,
      claimedHash: checked.claimedHash,
      signatures: request.partySignatures.signatures[0]?.signatures ?? [],
      unsigned: checked.unsigned,
      knownPublicKey: (fp) => this.owner.knownPublicKey(fp),
      tokenUser,
      userId: request.userId,
      rights: rights.rights,
      rightsUnknownReason: rights.reason,
      preparationTime: r?.preparationTime,
      minLedgerEffectiveTime: r?.minLedgerEffectiveTime,
      maxLedgerEffectiveTime: r?.maxLedgerEffectiveTime,
      maxRecordTime: r?.maxRecordTime,
      nodeVersion: this.versionOf(node),
    });
    return view;
  }

  private versionOf(node: NodeConfig): string | undefined {
    const status = this.owner.nodes.status(node);
    return status.state === 'reachable' ? status.version : undefined;
  }

  /** Asks for confirmation and submits, once; a second call while one is in flight does nothing. */
  async submit(endpoint: Endpoint = 'execute'): Promise<SubmissionOutcome | undefined> {
    const node = this.node;
    if (!node || this.submitting) return undefined;
    this.submitting = true;
    try {
      // What is sent is the file as it is now: an edit the review has not read yet is read first.
      const doc = await vscode.workspace.openTextDocument(this.uri);
      if (doc.getText() !== this.reviewedText && !(await this.reread(node, doc, true))) return undefined;
      const view = this.view;
      if (!view || view.outcome) return undefined;
      if (!(await this.mayProceed(view))) return undefined;
      if (!(await this.owner.confirm(node, view.party, view.request.submissionId, endpoint))) return undefined;
      return await this.sendAndShow(node, view, endpoint);
    } finally {
      this.submitting = false;
    }
  }

  /** The blocking findings stop it with their reasons; an undecodable transaction needs an explicit yes. */
  private async mayProceed(view: ReviewView): Promise<boolean> {
    const blocks = blocking(view.findings);
    if (blocks.length > 0) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Not submitted: {0}', blocks.map((f) => f.text).join(' ')));
      return false;
    }
    if (view.decodeError) {
      const anyway = vscode.l10n.t('Submit Anyway');
      const pick = await vscode.window.showWarningMessage(
        vscode.l10n.t('The prepared transaction does not decode: Canton Lens cannot show what it does. Submit it anyway?'),
        { modal: true },
        anyway,
      );
      if (pick !== anyway) return false;
    }
    return true;
  }

  private async sendAndShow(node: NodeConfig, view: ReviewView, endpoint: Endpoint = 'execute'): Promise<SubmissionOutcome> {
    view.outcome = { state: 'sending' };
    this.render();
    this.submissions++;
    const outcome = await sendExecute(this.owner, this.uri, node, view, endpoint, (searching) => {
      view.outcome = searching;
      this.render();
    });
    view.outcome = outcome;
    this.render();
    return outcome;
  }

  /**
   * A retry of the same change on the review's node (never the active one): a fresh submission id,
   * confirmed first; only then written into the file and sent. Cancel leaves the file untouched.
   */
  async submitAgain(endpoint: Endpoint = 'execute'): Promise<SubmissionOutcome | undefined> {
    const node = this.node;
    if (!node || this.submitting) return undefined;
    this.submitting = true;
    try {
      const doc = await vscode.workspace.openTextDocument(this.uri);
      const text = doc.getText();
      const span = spanOf(jsonValueSpans(text), '$.submissionId');
      if (!span) return undefined;
      const fresh = JSON.stringify(newSubmissionId());
      const checked = await this.owner.check(doc, node, text.slice(0, span.start) + fresh + text.slice(span.end));
      if (!checked.request) return undefined;
      const view = await this.buildView(node, checked);
      if (!(await this.mayProceed(view))) return undefined;
      if (!(await this.owner.confirm(node, view.party, view.request.submissionId, endpoint))) return undefined;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(this.uri, new vscode.Range(doc.positionAt(span.start), doc.positionAt(span.end)), fresh);
      await vscode.workspace.applyEdit(edit);
      if (!doc.isUntitled) await doc.save();
      this.loads++;
      this.reviewedText = doc.getText();
      this.problems = undefined;
      this.view = view;
      return await this.sendAndShow(node, view, endpoint);
    } finally {
      this.submitting = false;
    }
  }

  private render(): void {
    if (this.view) this.show(reviewBody(this.view));
  }

  protected async onMessage(m: ExecuteReviewMessage): Promise<void> {
    switch (m.type) {
      case 'submitAndWaitForTransaction':
        return void this.submit('executeAndWaitForTransaction').catch((e: Error) =>
          vscode.window.showErrorMessage(vscode.l10n.t('Could not submit: {0}', e.message)),
        );
      case 'submitAndWait':
        return void this.submit('executeAndWait').catch((e: Error) => vscode.window.showErrorMessage(vscode.l10n.t('Could not submit: {0}', e.message)));
      case 'submit':
        return void this.submit().catch((e: Error) => vscode.window.showErrorMessage(vscode.l10n.t('Could not submit: {0}', e.message)));
      case 'submitAgain':
        return void this.submitAgain().catch((e: Error) => vscode.window.showErrorMessage(vscode.l10n.t('Could not submit again: {0}', e.message)));
      case 'sign': {
        if (!this.node || this.view?.outcome) return;
        if (!(await vscode.commands.executeCommand<boolean>(COMMAND.signPreparedTransaction, this.uri))) return;
        await this.reread(this.node, await vscode.workspace.openTextDocument(this.uri), true);
        return;
      }
      case 'reload': {
        if (!this.node) return;
        // The user's rights may have changed since (a right granted): ask the node again.
        this.owner.forgetRights(this.node);
        await this.reread(this.node, await vscode.workspace.openTextDocument(this.uri), true);
        return;
      }
      case 'openRequest':
        return void vscode.window.showTextDocument(this.uri, { viewColumn: vscode.ViewColumn.One });
      default:
        return this.node ? this.followLink(m, this.owner.lookups, this.node.name) : undefined;
    }
  }
}
