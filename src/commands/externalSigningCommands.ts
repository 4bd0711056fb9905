// The external signing loop before execute: `cantonLens.newPrepareRequest`,
// `cantonLens.prepareTransaction`, `cantonLens.generateSigningKey`, `cantonLens.signPreparedTransaction`.
// Development signing keys are for development ledgers only: every message says so.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { HASH_FIELD } from '../execute/executeRequestCheck';
import { checkPrepareRequest, executePathFor, executeRequestFromPrepare, prepareRequestTemplate, synchronizerForPrepare } from '../execute/prepareRequestCheck';
import { partiesPrepareCannotRead } from '../execute/preSendChecks';
import { signHash } from '../execute/signingKeys';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type * as TxReviewModule from '../execute/preparedTransactionReview';
import { loadBundle } from '../services/lazyBundles';
import type { ExecuteReviews } from '../panels/executeReviews';
import { newSubmissionId } from '../panels/randomIds';
import type { DevKeyInfo, DevSigningKeys } from '../services/devSigningKeys';
import type { NodeReader } from '../services/ledgerNodes';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { CommandRegistrar } from './commandRegistrar';
import { nodeForCommand } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';
import { damlFileText } from '../services/damlWorkspace';
import type { DamlIndex } from '../daml/damlIndex';
import type { NodeSignaturesReader } from '../daml/lf/lfSignatures';
import type * as DamlLfModule from '../daml/lf/nodeSignatures';
import { argumentTypeIssues } from '../panels/argumentTypeReaders';
import { describeCode } from '../execute/commandErrorCodes';

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

export interface ExternalSigningDeps {
  readonly extensionUri: vscode.Uri;
  readonly nodes: NodeReader;
  readonly execute: { readonly reviews: ExecuteReviews; readonly devKeys: DevSigningKeys };
  /** The node's package signatures and the workspace's Daml: the arguments' types, checked before preparing. */
  readonly signatures?: NodeSignaturesReader;
  readonly daml?: { readonly workspace: { ready(): Promise<DamlIndex | undefined> } };
}

/** The external signing commands. */
export function registerExternalSigningCommands(deps: ExternalSigningDeps, register: CommandRegistrar): void {
  const { extensionUri, nodes } = deps;
  const { reviews, devKeys: keys } = deps.execute;
  const dist = vscode.Uri.joinPath(extensionUri, 'dist').fsPath;
  /** The external party last allocated on each node (by name): a new prepare request acts as it. */
  const allocatedParty = new Map<string, string>();
  const nodeFor = (nodeArg: unknown) => nodeForCommand(nodes, nodeArg, vscode.l10n.t('Which ledger node?'));

  const newPrepareRequest = async (): Promise<vscode.Uri | undefined> => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('New Prepare Request'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, 'commands.prepare.json') : undefined,
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Create'),
    });
    if (!target) return undefined;
    const uri = target.with({ path: `${target.path.replace(/(\.prepare)?\.json$/i, '')}.prepare.json` });
    const active = nodes.active();
    // The loop's party first: the one just allocated for a development key, else the node's first configured party.
    const party = (active ? allocatedParty.get(active.name) : undefined) ?? active?.parties?.[0];
    // Where the party is hosted, when the node says (a read the token may not be allowed): else "" lets the node choose.
    const synchronizer =
      active && party
        ? await nodes
            .client(active)
            .getConnectedSynchronizers(party, { signal: AbortSignal.timeout(5_000) })
            .then(
              (r) => synchronizerForPrepare(r.connectedSynchronizers ?? []),
              () => '',
            )
        : '';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(prepareRequestTemplate(`cmd-${newSubmissionId()}`, party, synchronizer), 'utf8'));
    await vscode.window.showTextDocument(uri);
    return uri;
  };

  /**
   * The commands' arguments against the node's types (a problem: nothing is sent) and the
   * workspace's Daml source (which may not be what the node runs: asked), as diagnostics on their paths.
   */
  const argumentTypesFit = async (doc: vscode.TextDocument, text: string, node: NodeConfig, commands: readonly unknown[]): Promise<boolean> => {
    const status = nodes.status(node);
    const version = status.state === 'reachable' ? status.version : undefined;
    const readers = {
      signatures: deps.signatures,
      damlSource: deps.daml && { index: () => deps.daml!.workspace.ready(), fileText: damlFileText },
      checks: () => loadBundle<typeof DamlLfModule>(dist, 'damlLf'),
    };
    const { lf = [], source = [] } = await argumentTypeIssues(readers, nodes.client(node), commands, version, '$.');
    if (lf.length + source.length === 0) return true;
    reviews.showProblems(doc, text, [...lf, ...source]);
    const first = [...lf, ...source]
      .slice(0, 2)
      .map((p) => `${p.path}: ${p.message}`)
      .join(' ');
    const name = path.basename(doc.uri.path);
    if (lf.length > 0) {
      void vscode.window.showErrorMessage(vscode.l10n.t("{0}: {1} argument(s) do not fit the node's types; nothing was sent. {2}", name, lf.length, first));
      return false;
    }
    const anyway = vscode.l10n.t('Prepare Anyway');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t("{0}: {1} argument(s) do not fit the types of the workspace's Daml source. {2}", name, source.length, first),
      anyway,
    );
    return pick === anyway;
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
    reviews.showProblems(doc, text, checked.problems);
    if (!checked.request) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          '{0} has {1} problem(s); nothing was sent. {2}',
          path.basename(uri.path),
          checked.problems.length,
          checked.problems
            .slice(0, 3)
            .map((p) => `${p.path}: ${p.message}`)
            .join(' '),
        ),
      );
      return undefined;
    }
    if (!(await argumentTypesFit(doc, text, node, checked.request.commands))) return undefined;
    // Preparing reads as every acting and reading party: an execute-only user is refused (403), so nothing is sent.
    const { rights } = await reviews.userRights(node);
    const unreadable = rights ? partiesPrepareCannotRead(rights, [...checked.request.actAs, ...(checked.request.readAs ?? [])]) : [];
    if (unreadable.length > 0) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'Not prepared: preparing reads as every acting party, and user {0} has no read right for {1} (CanExecuteAs is not one; it is enough only to execute). Grant CanReadAs (or CanActAs) for it, or prepare with a user that may read as it.',
          (await nodes.tokenUser(node)) ?? vscode.l10n.t("the token's user"),
          unreadable.join(', '),
        ),
      );
      return undefined;
    }
    let prepared;
    try {
      prepared = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Preparing on {0}…', node.name) },
        () => nodes.client(node).prepareSubmission(checked.request!),
      );
    } catch (e) {
      // Canton's JSON layer answers a value of the wrong JSON type with a redacted 500: say what it usually means.
      const internal = isLedgerApiError(e) && e.cantonError?.code === 'LEDGER_API_INTERNAL_ERROR' ? describeCode(e.cantonError.code, undefined) : undefined;
      const said = isLedgerApiError(e) ? e.explanation : (e as Error).message;
      void vscode.window.showErrorMessage(vscode.l10n.t('Not prepared on {0}: {1}', node.name, internal ? `${said} ${internal.title} ${internal.next}` : said));
      return undefined;
    }
    let computedHash: string | undefined;
    let note: string;
    try {
      const review = await loadBundle<typeof TxReviewModule>(dist, 'txReview').reviewPreparedTransaction(
        prepared.preparedTransaction,
        prepared.hashingSchemeVersion,
      );
      computedHash = review.computedHash;
      note = !computedHash
        ? review.hashNote
        : computedHash === prepared.preparedTransactionHash
          ? vscode.l10n.t("The hash recomputed locally equals the node's.")
          : vscode.l10n.t(
              "The hash recomputed locally differs from the node's: do not sign it before finding out why (compare with the node's hashing details).",
            );
    } catch (e) {
      note = vscode.l10n.t('The prepared transaction does not decode here ({0}): its hash is not checked.', (e as Error).message);
    }
    const executeFile = uri.with({ path: executePathFor(uri.path) });
    await vscode.workspace.fs.writeFile(executeFile, Buffer.from(executeRequestFromPrepare(prepared, checked.request.actAs[0], newSubmissionId()), 'utf8'));
    if (typeof prepared.hashingDetails === 'string') reviews.rememberHashingDetails(node, prepared.preparedTransactionHash, prepared.hashingDetails);
    await vscode.window.showTextDocument(executeFile, { preview: false });
    // The review before signing: what it does, the hash check, the node's hashing details.
    await reviews.review(executeFile, node);
    const sign = vscode.l10n.t('Sign with Development Key');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Prepared on {0}; wrote {1}, ready to sign. {2}', node.name, path.basename(executeFile.path), note), sign)
      .then((pick) => pick === sign && runCommand(COMMAND.signPreparedTransaction, executeFile));
    return { executeFile, preparedTransactionHash: prepared.preparedTransactionHash, computedHash, hashingDetails: prepared.hashingDetails };
  };

  const generateSigningKey = async (): Promise<DevKeyInfo> => {
    const key = await keys.generate();
    const copyFingerprint = vscode.l10n.t('Copy Fingerprint');
    const copyKey = vscode.l10n.t('Copy Public Key');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t(
          "Development signing key {0} (Ed25519) created; its private key is in VS Code's secret storage only. For development ledgers only.",
          key.fingerprint,
        ),
        copyFingerprint,
        copyKey,
      )
      .then((pick) => (pick ? vscode.env.clipboard.writeText(pick === copyFingerprint ? key.fingerprint : key.publicKeyRaw) : undefined));
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
    // An external party allocated for a development key is named after the key's fingerprint.
    const namespace = (request.partySignatures as { signatures?: { party?: string }[] } | undefined)?.signatures?.[0]?.party?.split('::')[1];
    if (!fingerprint && namespace && keys.list().some((k) => k.fingerprint === namespace)) fingerprint = namespace;
    if (!fingerprint) {
      const list = keys.list();
      if (list.length === 0) {
        const generate = vscode.l10n.t('Generate Development Signing Key');
        if ((await vscode.window.showWarningMessage(vscode.l10n.t('No development signing key yet.'), generate)) !== generate) return false;
        fingerprint = (await generateSigningKey()).fingerprint;
      } else {
        fingerprint =
          list.length === 1
            ? list[0].fingerprint
            : (
                await vscode.window.showQuickPick(
                  list.map((k) => ({ label: k.fingerprint, description: k.createdAt })),
                  { title: vscode.l10n.t('Sign with which development key? (development ledgers only)') },
                )
              )?.label;
      }
    }
    if (!fingerprint) return false;
    const privateKey = await keys.privateKey(fingerprint);
    if (!privateKey) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'The development key {0} is missing or was deleted from the secret storage: generate a new one (and allocate its party again).',
          fingerprint,
        ),
      );
      return false;
    }
    let review;
    try {
      review = await loadBundle<typeof TxReviewModule>(dist, 'txReview').reviewPreparedTransaction(
        String(request.preparedTransaction),
        String(request.hashingSchemeVersion),
      );
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Not signed: the prepared transaction does not decode ({0}).', (e as Error).message));
      return false;
    }
    const claimed = typeof request[HASH_FIELD] === 'string' ? request[HASH_FIELD] : undefined;
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
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Not signed: {0} is not an acting party of the prepared transaction ({1}).', party, review.submitters.join(', ')),
      );
      return false;
    }
    request.partySignatures = {
      signatures: [
        {
          party,
          signatures: [
            {
              format: 'SIGNATURE_FORMAT_CONCAT',
              signature: signHash(privateKey, hash),
              signedBy: fingerprint,
              signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
            },
          ],
        },
      ],
    };
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), `${JSON.stringify(request, null, 2)}\n`);
    if (!(await vscode.workspace.applyEdit(edit)) || !(await doc.save())) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Signed, but {0} could not be written: check the file, then sign again.', path.basename(uri.path)));
      return false;
    }
    const execute = vscode.l10n.t('Execute');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('Signed as {0} with development key {1} (development ledgers only).', party.split('::')[0] ?? party, fingerprint),
        execute,
      )
      .then((pick) => pick === execute && runCommand(COMMAND.executeSubmission, uri));
    return true;
  };

  /**
   * Allocates an external party for a development key: generate-topology (writes nothing), the
   * key signs its multi-hash, then one confirmed POST to allocate, never retried. On 3.5+ the
   * token's user is named in the request, so it may act as the new party.
   */
  const allocateExternalParty = async (fingerprintArg?: unknown, hintArg?: unknown, nodeArg?: unknown): Promise<string | undefined> => {
    const node = await nodeFor(nodeArg);
    if (!node) return undefined;
    let fingerprint = typeof fingerprintArg === 'string' ? fingerprintArg : undefined;
    if (!fingerprint) {
      const list = keys.list();
      fingerprint =
        list.length === 0
          ? (await generateSigningKey()).fingerprint
          : list.length === 1
            ? list[0].fingerprint
            : (
                await vscode.window.showQuickPick(
                  list.map((k) => ({ label: k.fingerprint, description: k.createdAt })),
                  { title: vscode.l10n.t('Allocate a party for which development key? (development ledgers only)') },
                )
              )?.label;
    }
    if (!fingerprint) return undefined;
    const info = keys.list().find((k) => k.fingerprint === fingerprint);
    const privateKey = await keys.privateKey(fingerprint);
    if (!info || !privateKey) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'The development key {0} is missing or was deleted from the secret storage: generate a new one with Canton: Generate Development Signing Key.',
          fingerprint,
        ),
      );
      return undefined;
    }
    const hint =
      typeof hintArg === 'string'
        ? hintArg
        : await vscode.window.showInputBox({
            title: vscode.l10n.t('Party hint of the external party (development ledgers only)'),
            value: 'dev-external',
            validateInput: (v) => (/^[A-Za-z0-9_\- ]{1,185}$/.test(v) ? undefined : vscode.l10n.t('Letters, digits, "-", "_" and spaces only.')),
          });
    if (!hint) return undefined;
    const client = nodes.client(node);
    const tokenUser = await nodes.tokenUser(node);
    try {
      const { topology, synchronizer, version } = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Generating the party topology on {0}…', node.name), cancellable: true },
        async (_p, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          const version = (await client.getVersion({ signal: ac.signal })).version;
          const synchronizers = (await client.getConnectedSynchronizers(undefined, { signal: ac.signal })).connectedSynchronizers ?? [];
          if (synchronizers.length === 0) throw new Error(vscode.l10n.t('The node is connected to no synchronizer: connect it to one first.'));
          const synchronizer = synchronizers[0].synchronizerId;
          const topology = await client.generateExternalPartyTopology(
            {
              synchronizer,
              partyHint: hint,
              publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: info.publicKeyRaw, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
            },
            { signal: ac.signal },
          );
          return { topology, synchronizer, version };
        },
      );
      if (topology.publicKeyFingerprint !== fingerprint) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t(
            'Not allocated: the node computed fingerprint {0} for the key, not {1}. Check the key format the node expects.',
            topology.publicKeyFingerprint,
            fingerprint,
          ),
        );
        return undefined;
      }
      const namesUser = !/^3\.4\./.test(version) && tokenUser !== undefined;
      const allocate = vscode.l10n.t('Allocate');
      const pick = await vscode.window.showWarningMessage(
        vscode.l10n.t('Allocate external party {0} on "{1}"?', topology.partyId, node.name),
        {
          modal: true,
          detail: vscode.l10n.t(
            'POST {0}/v2/parties/external/allocate, signed by development key {1}. A party cannot be removed once allocated. For development ledgers only.',
            node.url,
            fingerprint,
          ),
        },
        allocate,
      );
      if (pick !== allocate) return undefined;
      const signature = signHash(privateKey, topology.multiHash);
      const allocated = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Allocating {0} on {1}…', hint, node.name) },
        () =>
          client.allocateExternalParty({
            synchronizer,
            onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })),
            multiHashSignatures: [
              { format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: fingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' },
            ],
            ...(namesUser ? { userId: tokenUser } : {}),
          }),
      );
      allocatedParty.set(node.name, allocated.partyId);
      // The user may now act as the party (3.5+): the next pre-send check asks for its rights again.
      reviews.forgetRights(node);
      const copy = vscode.l10n.t('Copy Party Id');
      void vscode.window
        .showInformationMessage(
          namesUser
            ? vscode.l10n.t('Allocated external party {0} for development key {1}; user {2} may act as it.', allocated.partyId, fingerprint, tokenUser)
            : vscode.l10n.t(
                'Allocated external party {0} for development key {1}. Grant your user CanActAs for it (or CanReadAs to prepare and CanExecuteAs to execute) before preparing (this node version does not do it with the allocation).',
                allocated.partyId,
                fingerprint,
              ),
          copy,
        )
        .then((p) => (p === copy ? vscode.env.clipboard.writeText(allocated.partyId) : undefined));
      return allocated.partyId;
    } catch (e) {
      if (isLedgerApiError(e) && e.kind === 'cancelled') return undefined;
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          "No external party allocated on {0}: {1} Check that the token's user is a participant admin (or, on 3.5+, may allocate parties), then try again.",
          node.name,
          isLedgerApiError(e) ? e.explanation : (e as Error).message,
        ),
      );
      return undefined;
    }
  };

  register(COMMAND.allocateExternalParty, allocateExternalParty);
  register(COMMAND.newPrepareRequest, newPrepareRequest);
  register(COMMAND.prepareTransaction, prepareTransaction);
  register(COMMAND.generateSigningKey, generateSigningKey);
  register(COMMAND.signPreparedTransaction, signPreparedTransaction);
}
