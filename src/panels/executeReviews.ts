// The owner of the execute reviews: one panel per request file, the diagnostics of request files,
// the confirmation, and what the reviews learn (hashing details, rights). The panel itself
// (executeReviewPanel.ts, with the transaction decoder and the review's HTML) is its own bundle,
// loaded when the first review opens (dist/executeReview.js).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExecuteRight } from '../auth/userRights';
import { checkExecuteRequest, type CheckedRequest } from '../execute/executeRequestCheck';
import { MAX_DETAILS } from '../execute/hashingDetails';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import type { RecentLookupStore } from '../services/recentLookupStore';
import { loadBundle } from '../services/lazyBundles';
import { requestDiagnostics } from './requestDiagnostics';
import type { LookupPanels } from './lookupPanels';

/** What ExecuteReviews needs of a review panel (the class is in the panel's bundle). */
export interface ExecuteReviewPanelLike {
  reveal(): void;
  dispose(): void;
  readonly isDisposed: boolean;
  readonly onDidDispose: vscode.Event<void>;
  load(node: NodeConfig, checked: CheckedRequest): Promise<void>;
}

type PanelModule = { ExecuteReviewPanel: new (owner: ExecuteReviews, uri: vscode.Uri, nodeName: string) => ExecuteReviewPanelLike };

/**
 * execute answers at once ({}), then the outcome is looked up (completions; completion-by-hash on
 * 3.6); executeAndWait once the transaction committed (update id, offset); executeAndWaitForTransaction
 * with the committed transaction, compared with the prepared one.
 */
export type Endpoint = 'execute' | 'executeAndWait' | 'executeAndWaitForTransaction';

/** How long a plain execute's outcome is looked for before it is reported unknown. */
export const OUTCOME_SEARCH_MS = 30_000;

/** Asks the person to confirm a submission; tests replace it. */
export type Confirm = (node: NodeConfig, party: string, submissionId: string, endpoint?: Endpoint) => Thenable<boolean>;

export const confirmWithModal: Confirm = async (node, party, submissionId, endpoint = 'execute') => {
  const submit = vscode.l10n.t('Submit');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Submit this transaction to "{0}" as {1}?', node.name, party),
    {
      modal: true,
      detail: vscode.l10n.t(
        'POST {0}/v2/interactive-submission/{2} with submission id {1}. Once the node accepts it, it executes it; a submission cannot be called back.',
        node.url,
        submissionId,
        endpoint,
      ),
    },
    submit,
  );
  return pick === submit;
};

export interface ExecuteReviewsDeps {
  readonly extensionUri: vscode.Uri;
  readonly nodes: NodeReader;
  /** The lookup panels a review opens what it submitted in (read when it does). */
  readonly panels: LookupPanels;
  readonly recent: RecentLookupStore;
  /** The public key (SPKI DER, base64) of a signing key fingerprint known locally (development keys). */
  readonly knownPublicKey: (fingerprint: string) => string | undefined;
  /**
   * The rights of the token's user on a node (GET /v2/users/{user-id}/rights, as the node's facts
   * learned them), or why they are not known.
   */
  readonly userRights: (node: NodeConfig, signal?: AbortSignal) => Promise<{ rights?: ExecuteRight[]; reason?: string }>;
  /** Forgets the learned rights of a node's user, so the next check asks again (Check Again, a party allocated). */
  readonly forgetRights: (node: NodeConfig) => void;
}

export class ExecuteReviews implements vscode.Disposable {
  private readonly open = new Map<string, ExecuteReviewPanelLike>();
  readonly diagnostics = vscode.languages.createDiagnosticCollection('Canton Lens');
  readonly extensionUri: vscode.Uri;
  readonly nodes: NodeReader;
  readonly recent: RecentLookupStore;
  /** Asks before each submission; tests replace it. */
  confirm: Confirm = confirmWithModal;
  readonly knownPublicKey: ExecuteReviewsDeps['knownPublicKey'];
  /** Tests replace it. */
  userRights: ExecuteReviewsDeps['userRights'];
  readonly forgetRights: ExecuteReviewsDeps['forgetRights'];
  /** The node's hashingDetails of recent prepare answers (verboseHashing), by node, identity and preparedTransactionHash. */
  private readonly hashingDetails = new Map<string, string>();
  /** How long a plain execute's outcome is looked for (tests shorten it). */
  outcomeSearchMs = OUTCOME_SEARCH_MS;

  constructor(private readonly deps: ExecuteReviewsDeps) {
    this.extensionUri = deps.extensionUri;
    this.nodes = deps.nodes;
    this.recent = deps.recent;
    this.knownPublicKey = deps.knownPublicKey;
    this.userRights = deps.userRights;
    this.forgetRights = deps.forgetRights;
  }

  /** The lookup panels a review opens what it submitted in. */
  get lookups(): LookupPanels {
    return this.deps.panels;
  }

  /** An answer belongs to who asked: the node (name and URL) and the identity its token was, with the hash. */
  private hashingKey(node: NodeConfig, hash: string): string | undefined {
    const identity = this.nodes.knownIdentity(node)?.key;
    return identity === undefined ? undefined : JSON.stringify([node.name, node.url, identity, hash]);
  }

  rememberHashingDetails(node: NodeConfig, hash: string, details: string): void {
    const key = this.hashingKey(node, hash);
    if (key === undefined) return;
    this.hashingDetails.delete(key);
    // What the review can show, and one character more so it still says the text was cut.
    this.hashingDetails.set(key, details.slice(0, MAX_DETAILS + 1));
    // Only the latest few: a review needs the details of what was just prepared.
    if (this.hashingDetails.size > 20) this.hashingDetails.delete(this.hashingDetails.keys().next().value as string);
  }

  hashingDetailsFor(node: NodeConfig, hash: string | undefined): string | undefined {
    const key = hash === undefined ? undefined : this.hashingKey(node, hash);
    return key === undefined ? undefined : this.hashingDetails.get(key);
  }

  /** Checks a request file; shows its problems, or opens its review. */
  async review(uri: vscode.Uri, node: NodeConfig): Promise<ExecuteReviewPanelLike | undefined> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const checked = await this.check(doc, node);
    if (!checked.request) return undefined;
    let panel = this.open.get(uri.toString());
    if (!panel) {
      const { ExecuteReviewPanel } = loadBundle<PanelModule>(vscode.Uri.joinPath(this.extensionUri, 'dist').fsPath, 'executeReview');
      const created = new ExecuteReviewPanel(this, uri, node.name);
      panel = created;
      this.open.set(uri.toString(), created);
      created.onDidDispose(() => this.open.get(uri.toString()) === created && this.open.delete(uri.toString()));
    } else panel.reveal();
    await panel.load(node, checked);
    return panel;
  }

  /** A request file's problems (execute or prepare), as diagnostics on their JSON paths; none clears them. */
  showProblems(doc: vscode.TextDocument, text: string, problems: readonly { path: string; message: string }[]): void {
    this.diagnostics.set(doc.uri, requestDiagnostics(doc, text, problems));
  }

  /** The problems of a request, as diagnostics on their JSON paths; the parsed request when there are none. */
  async check(doc: vscode.TextDocument, node: NodeConfig, text = doc.getText()): Promise<CheckedRequest> {
    const checked = await this.checkQuietly(doc, node, text);
    if (checked.problems.length > 0) {
      const n = checked.problems.length;
      const first = checked.problems
        .slice(0, 3)
        .map((p) => `${p.path}: ${p.message}`)
        .join(' ');
      const file = path.basename(doc.uri.path);
      const showProblems = vscode.l10n.t('Show Problems');
      void vscode.window
        .showErrorMessage(
          n === 1
            ? vscode.l10n.t('{0} has 1 problem; nothing was sent. {1}', file, first)
            : vscode.l10n.t('{0} has {1} problems; nothing was sent. {2}', file, n, first),
          showProblems,
        )
        .then((pick) => pick && vscode.commands.executeCommand('workbench.actions.view.problems'));
    }
    return checked;
  }

  /** The same check, its problems only as diagnostics (a review following the file as it is typed). */
  async checkQuietly(doc: vscode.TextDocument, node: NodeConfig, text = doc.getText()): Promise<CheckedRequest> {
    // Unsigned is not a problem here: the review before signing shows it as a blocking check.
    const checked = checkExecuteRequest(text, await this.nodes.tokenUser(node), { allowUnsigned: true });
    this.showProblems(doc, text, checked.problems);
    return checked;
  }

  dispose(): void {
    for (const p of this.open.values()) p.dispose();
    this.diagnostics.dispose();
  }
}
