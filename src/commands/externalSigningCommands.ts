// The external signing loop before execute: `cantonLens.newPrepareRequest`,
// `cantonLens.prepareTransaction`, `cantonLens.generateSigningKey`, `cantonLens.signPreparedTransaction`.
// Development signing keys are for development ledgers only: every message says so.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { HASH_FIELD } from '../execute/executeRequestCheck';
import { jsonValueSpans, spanOf } from '../execute/jsonPathRanges';
import { checkPrepareRequest, executePathFor, executeRequestFromPrepare, prepareRequestTemplate } from '../execute/prepareRequestCheck';
import { signHash } from '../execute/signingKeys';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { loadTxReviewBundle } from '../ledger/lazyBundles';
import type { ExecuteReviews } from '../panels/executeReviewPanel';
import { newSubmissionId } from '../panels/randomIds';
import type { DevKeyInfo, DevSigningKeys } from '../services/devSigningKeys';
import type { LedgerNodes } from '../services/ledgerNodes';
import { nodeNameOf, resolveNode } from './nodeArgument';

export interface PrepareResult {
  executeFile: vscode.Uri;
  preparedTransactionHash: string;
  computedHash?: string;
  hashingDetails?: string;
}

const uriOf = (arg: unknown, pattern: RegExp): vscode.Uri | undefined => {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string') return vscode.Uri.parse(arg);
  const active = vscode.window.activeTextEditor?.document.uri;
  return active && pattern.test(active.path) ? active : undefined;
};

export function registerExternalSigningCommands(context: vscode.ExtensionContext, nodes: LedgerNodes, reviews: ExecuteReviews, keys: DevSigningKeys): void {
  const dist = vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath;
  const nodeFor = async (nodeArg: unknown) => (nodeNameOf(nodeArg) !== undefined ? resolveNode(nodes, nodeArg, '') : nodes.active() ?? resolveNode(nodes, undefined, vscode.l10n.t('Which ledger node?')));

  const newPrepareRequest = async (): Promise<vscode.Uri | undefined> => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({ title: vscode.l10n.t('New Prepare Request'), defaultUri: folder ? vscode.Uri.joinPath(folder, 'commands.prepare.json') : undefined, filters: { JSON: ['json'] }, saveLabel: vscode.l10n.t('Create') });
    if (!target) return undefined;
    const uri = target.with({ path: `${target.path.replace(/(\.prepare)?\.json$/i, '')}.prepare.json` });
    await vscode.workspace.fs.writeFile(uri, Buffer.from(prepareRequestTemplate(`cmd-${newSubmissionId()}`, nodes.active()?.parties?.[0]), 'utf8'));
    await vscode.window.showTextDocument(uri);
    return uri;
  };

  /** Checks the *.prepare.json (nothing sent on a problem), prepares it, writes the *.execute.json to sign. */
  const prepareTransaction = async (fileArg?: unknown, nodeArg?: unknown): Promise<PrepareResult | undefined> => {
    const uri = uriOf(fileArg, /\.prepare\.json$/i);
    if (!uri) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a *.prepare.json first (Canton: New Prepare Request writes one).'));
      return undefined;
    }
    const node = await nodeFor(nodeArg);
    if (!node) return undefined;
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.isDirty) await doc.save();
    const text = doc.getText();
    const checked = checkPrepareRequest(text, await nodes.tokenUser(node));
    const spans = jsonValueSpans(text);
    reviews.diagnostics.set(uri, checked.problems.map((p) => {
      const span = spanOf(spans, p.path) ?? { start: 0, end: 0 };
      const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(span.start), doc.positionAt(span.end)), `${p.path}: ${p.message}`, vscode.DiagnosticSeverity.Error);
      d.source = 'Canton Lens';
      return d;
    }));
    if (!checked.request) {
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} has {1} problem(s); nothing was sent. {2}', path.basename(uri.path), checked.problems.length, checked.problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join(' ')));
      return undefined;
    }
    let prepared;
    try {
      prepared = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Preparing on {0}…', node.name) },
        () => nodes.client(node).prepareSubmission(checked.request!));
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Not prepared on {0}: {1}', node.name, isLedgerApiError(e) ? e.explanation : (e as Error).message));
      return undefined;
    }
    let computedHash: string | undefined;
    let note: string;
    try {
      const review = await loadTxReviewBundle(dist).reviewPreparedTransaction(prepared.preparedTransaction, prepared.hashingSchemeVersion);
      computedHash = review.computedHash;
      note = !computedHash ? review.hashNote : computedHash === prepared.preparedTransactionHash
        ? vscode.l10n.t('The hash recomputed locally equals the node\'s.')
        : vscode.l10n.t('The hash recomputed locally differs from the node\'s: do not sign it before finding out why (compare with the node\'s hashing details).');
    } catch (e) {
      note = vscode.l10n.t('The prepared transaction does not decode here ({0}): its hash is not checked.', (e as Error).message);
    }
    const executeFile = uri.with({ path: executePathFor(uri.path) });
    await vscode.workspace.fs.writeFile(executeFile, Buffer.from(executeRequestFromPrepare(prepared, checked.request.actAs[0]!, newSubmissionId()), 'utf8'));
    await vscode.window.showTextDocument(executeFile, { preview: false });
    const sign = vscode.l10n.t('Sign with Development Key');
    void vscode.window.showInformationMessage(vscode.l10n.t('Prepared on {0}; wrote {1}, ready to sign. {2}', node.name, path.basename(executeFile.path), note), sign)
      .then((pick) => pick === sign && vscode.commands.executeCommand('cantonLens.signPreparedTransaction', executeFile));
    return { executeFile, preparedTransactionHash: prepared.preparedTransactionHash, computedHash, hashingDetails: prepared.hashingDetails };
  };

  const generateSigningKey = async (): Promise<DevKeyInfo> => {
    const key = await keys.generate();
    const copyFingerprint = vscode.l10n.t('Copy Fingerprint');
    const copyKey = vscode.l10n.t('Copy Public Key');
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Development signing key {0} (Ed25519) created; its private key is in VS Code\'s secret storage only. For development ledgers only.', key.fingerprint),
      copyFingerprint, copyKey,
    ).then((pick) => (pick ? vscode.env.clipboard.writeText(pick === copyFingerprint ? key.fingerprint : key.publicKeyRaw) : undefined));
    return key;
  };

  /** Signs the hash recomputed locally with a development key and writes the partySignatures entry. */
  const signPreparedTransaction = async (fileArg?: unknown, fingerprintArg?: unknown): Promise<boolean> => {
    const uri = uriOf(fileArg, /\.execute\.json$/i);
    if (!uri) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a *.execute.json first.'));
      return false;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(doc.getText()) as Record<string, unknown>;
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} is not valid JSON: {1}', path.basename(uri.path), (e as Error).message));
      return false;
    }
    let fingerprint = typeof fingerprintArg === 'string' ? fingerprintArg : undefined;
    if (!fingerprint) {
      const list = keys.list();
      if (list.length === 0) {
        const generate = vscode.l10n.t('Generate Development Signing Key');
        if ((await vscode.window.showWarningMessage(vscode.l10n.t('No development signing key yet.'), generate)) !== generate) return false;
        fingerprint = (await generateSigningKey()).fingerprint;
      } else {
        fingerprint = list.length === 1 ? list[0]!.fingerprint : (await vscode.window.showQuickPick(list.map((k) => ({ label: k.fingerprint, description: k.createdAt })), { title: vscode.l10n.t('Sign with which development key? (development ledgers only)') }))?.label;
      }
    }
    if (!fingerprint) return false;
    const privateKey = await keys.privateKey(fingerprint);
    if (!privateKey) {
      void vscode.window.showErrorMessage(vscode.l10n.t('The development key {0} is missing or was deleted from the secret storage: generate a new one (and allocate its party again).', fingerprint));
      return false;
    }
    let review;
    try {
      review = await loadTxReviewBundle(dist).reviewPreparedTransaction(String(request.preparedTransaction), String(request.hashingSchemeVersion));
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Not signed: the prepared transaction does not decode ({0}).', (e as Error).message));
      return false;
    }
    const claimed = typeof request[HASH_FIELD] === 'string' ? request[HASH_FIELD] as string : undefined;
    if (review.computedHash && claimed && review.computedHash !== claimed) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Not signed: the hash recomputed locally differs from {0} in the file.', HASH_FIELD));
      return false;
    }
    const hash = review.computedHash ?? claimed;
    if (!hash) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Not signed: {0}, and the file has no {1}.', review.hashNote, HASH_FIELD));
      return false;
    }
    const existing = (request.partySignatures as { signatures?: { party?: string }[] } | undefined)?.signatures?.[0]?.party;
    const party = existing ?? review.submitters[0] ?? '';
    if (!review.submitters.includes(party)) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Not signed: {0} is not an acting party of the prepared transaction ({1}).', party, review.submitters.join(', ')));
      return false;
    }
    request.partySignatures = { signatures: [{ party, signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature: signHash(privateKey, hash), signedBy: fingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }] }] };
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), `${JSON.stringify(request, null, 2)}\n`);
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    const execute = vscode.l10n.t('Execute');
    void vscode.window.showInformationMessage(vscode.l10n.t('Signed as {0} with development key {1} (development ledgers only).', party.split('::')[0] ?? party, fingerprint), execute)
      .then((pick) => pick === execute && vscode.commands.executeCommand('cantonLens.executeSubmission', uri));
    return true;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('cantonLens.newPrepareRequest', newPrepareRequest),
    vscode.commands.registerCommand('cantonLens.prepareTransaction', prepareTransaction),
    vscode.commands.registerCommand('cantonLens.generateSigningKey', generateSigningKey),
    vscode.commands.registerCommand('cantonLens.signPreparedTransaction', signPreparedTransaction),
  );
}
