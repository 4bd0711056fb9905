// Upload DAR and Validate DAR on Node: the DAR is read and checked here first (a file that is not
// a DAR, or too large, gets a clear error and nothing is sent), then sent once, with progress that
// can be cancelled. On a node with several synchronizers the person picks the one to validate
// against or vet on (remembered per node in the workspace), and the result says which. An upload
// writes to the node: never retried, and confirmed on nodes that are not on this machine.
import * as vscode from 'vscode';
import { browseFolder, builtDars } from '../daml/builtDars';
import { parseDamlYaml, type DamlProject } from '../daml/damlProject';
import { DarError, MAX_DAR_BYTES, readDar, type DarInfo } from '../daml/darArchive';
import { connectedSynchronizers, rememberedSynchronizerKey, synchronizerChoice, synchronizerName, type SynchronizerRef } from '../daml/darSynchronizer';
import { upgradeErrorNames, upgradeErrorPlaces, type ProjectFile } from '../daml/upgradeErrorPlaces';
import { isLedgerApiError, type LedgerApiError } from '../ledger/ledgerApiError';
import { isLoopbackUrl } from '../ledger/loopbackUrl';
import { uploadDar, validateDar } from '../ledger/packageRequests';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { DamlWorkspace } from '../services/damlWorkspace';
import type { NodeReader } from '../services/ledgerNodes';
import type { PackagesTreeSection } from '../views/packagesTree';
import type { CommandRegistrar } from './commandRegistrar';
import { nodeForCommand } from './nodeArgument';
import { showLedgerError } from './showLedgerError';
import { COMMAND } from '../ids/commandIds';
import { formatCount } from '../l10n/forPeople';

/** What a test or a caller can settle in advance: the vetting choice (skips its question), the answer to the synchronizer question. */
export interface DarCommandOptions {
  vetAllPackages?: boolean;
  /** Answers "which synchronizer?" instead of a quick pick (undefined: cancelled). */
  pickSynchronizer?: (choices: readonly SynchronizerRef[]) => SynchronizerRef | undefined | Promise<SynchronizerRef | undefined>;
  /** Answers "which DAR?" instead of a quick pick: one of the choices, or undefined (cancelled). */
  pickDar?: (choices: readonly DarChoice[]) => DarChoice | undefined | Promise<DarChoice | undefined>;
  /** Answers the file dialog of "Browse…" instead of showing it. */
  openDialog?: (options: vscode.OpenDialogOptions) => vscode.Uri[] | undefined | Promise<vscode.Uri[] | undefined>;
}

/** A row of "which DAR?": a built DAR of the workspace, or "Browse…" (no uri). */
export interface DarChoice extends vscode.QuickPickItem {
  uri?: vscode.Uri;
}

/** Where the DAR goes: the id to send (none: the node picks its only one), and the synchronizer to name in the result. */
interface Destination {
  synchronizerId?: string;
  where?: SynchronizerRef;
  /** The node has several: the result offers to pick another next time. */
  several: boolean;
}

/** A Packages row of the node tree (`{ kind: 'packages', name, item }`), when a command comes from one. */
function treeRow(arg: unknown): { name: string; item: { build?: { darUri?: string } } } | undefined {
  const row = arg as { kind?: unknown; name?: unknown; item?: unknown } | undefined;
  return row?.kind === 'packages' && typeof row.name === 'string' && typeof row.item === 'object' ? (row as ReturnType<typeof treeRow>) : undefined;
}

const kb = (n: number) => (n < 1024 * 1024 ? `${formatCount(Math.max(1, Math.round(n / 1024)))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export interface DarCommandsDeps {
  readonly subscriptions: { dispose(): unknown }[];
  readonly nodes: NodeReader;
  readonly packages: PackagesTreeSection;
  readonly daml: DamlWorkspace;
  /** Where the picked synchronizer of each node is remembered. */
  readonly workspaceState: vscode.Memento;
}

export function registerDarCommands(deps: DarCommandsDeps, register: CommandRegistrar): void {
  const { nodes, packages, daml } = deps;
  const diagnostics = vscode.languages.createDiagnosticCollection('cantonLens.dar');
  deps.subscriptions.push(diagnostics);
  /** The Daml files a project's last refusal was shown on, by the project's daml.yaml. */
  const shownOn = new Map<string, vscode.Uri[]>();
  const clear = (yaml: vscode.Uri) => {
    diagnostics.delete(yaml);
    for (const u of shownOn.get(yaml.toString()) ?? []) diagnostics.delete(u);
    shownOn.delete(yaml.toString());
  };

  /** An upgrade refusal on the declarations it names, in the project's Daml source. */
  const showInSource = async (node: NodeConfig, yaml: vscode.Uri, e: LedgerApiError): Promise<void> => {
    const names = upgradeErrorNames(e.cantonError?.cause ?? '');
    const index = names.length > 0 ? await daml.ready() : undefined;
    if (!index) return;
    const root = vscode.Uri.joinPath(yaml, '..').path;
    const files: ProjectFile[] = [];
    for (const f of index.allFiles()) {
      if (f.project?.root !== root) continue;
      const text = await vscode.workspace.fs.readFile(vscode.Uri.parse(f.file)).then(
        (b) => Buffer.from(b).toString('utf8'),
        () => undefined,
      );
      if (text !== undefined) files.push({ file: f.file, module: f.module, text });
    }
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const p of upgradeErrorPlaces(names, files)) {
      const d = new vscode.Diagnostic(
        new vscode.Range(p.line, p.column, p.line, p.column + p.length),
        `${node.name}: ${e.code ?? ''}: ${e.cantonError?.cause ?? e.explanation}`,
        vscode.DiagnosticSeverity.Error,
      );
      d.source = 'Canton';
      d.code = e.code;
      byFile.set(p.file, [...(byFile.get(p.file) ?? []), d]);
    }
    const uris = [...byFile.keys()].map((f) => vscode.Uri.parse(f));
    for (const u of uris) diagnostics.set(u, byFile.get(u.toString()) ?? []);
    shownOn.set(yaml.toString(), uris);
  };

  /** The workspace's daml.yaml projects (outside build output and node_modules). */
  const workspaceProjects = async (): Promise<DamlProject[]> => {
    const yamls = await vscode.workspace.findFiles('**/daml.yaml', '**/{node_modules,.daml}/**', 200);
    const out: DamlProject[] = [];
    for (const y of yamls) {
      const text = await vscode.workspace.fs.readFile(y).then(
        (b) => new TextDecoder().decode(b),
        () => undefined,
      );
      if (text !== undefined) out.push(parseDamlYaml(text, vscode.Uri.joinPath(y, '..').path));
    }
    return out;
  };

  /**
   * The DAR named by `arg` (a file, or a Packages row of the tree), else the one picked among the
   * workspace's builds (name, version, project), or "Browse…": a file dialog at the project's `.daml/dist`.
   */
  const pickDar = async (arg: unknown, options: DarCommandOptions): Promise<vscode.Uri | undefined> => {
    if (arg instanceof vscode.Uri) return arg;
    const darUri = treeRow(arg)?.item.build?.darUri;
    if (darUri) return vscode.Uri.parse(darUri);
    const [projects, found] = await Promise.all([workspaceProjects(), vscode.workspace.findFiles('**/.daml/dist/*.dar', '**/node_modules/**', 100)]);
    const uriOf = new Map(found.map((u) => [u.path, u]));
    const dars = builtDars(
      projects,
      found.map((u) => u.path),
    );
    const choices: DarChoice[] = [
      ...dars.map((d) => ({
        label: `${d.name} ${d.version}`.trim(),
        description: d.project
          ? d.current
            ? vscode.l10n.t('{0} · built', vscode.workspace.asRelativePath(d.project.root))
            : vscode.l10n.t('{0} · an earlier build', vscode.workspace.asRelativePath(d.project.root))
          : undefined,
        detail: vscode.workspace.asRelativePath(d.path),
        uri: uriOf.get(d.path) ?? vscode.Uri.file(d.path),
      })),
      { label: vscode.l10n.t('Browse…'), description: dars.length === 0 ? vscode.l10n.t('no DAR is built in this workspace') : undefined },
    ];
    const picked = options.pickDar
      ? await options.pickDar(choices)
      : await vscode.window.showQuickPick(choices, { placeHolder: vscode.l10n.t('Which DAR?'), matchOnDescription: true, matchOnDetail: true });
    if (!picked) return undefined;
    if (picked.uri) return picked.uri;
    const folder = browseFolder(projects, dars, vscode.window.activeTextEditor?.document.uri.path);
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const dialog: vscode.OpenDialogOptions = {
      canSelectMany: false,
      filters: { [vscode.l10n.t('Daml archives')]: ['dar'] },
      defaultUri: folder && base ? base.with({ path: folder }) : base,
    };
    return (await (options.openDialog ? options.openDialog(dialog) : vscode.window.showOpenDialog(dialog)))?.[0];
  };

  /** The DAR's bytes and what it holds, or a clear error (and nothing sent). */
  const readChecked = async (uri: vscode.Uri): Promise<{ bytes: Uint8Array; dar: DarInfo } | undefined> => {
    const name = vscode.workspace.asRelativePath(uri);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_DAR_BYTES) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('{0} is {1}, more than a DAR can be ({2}): nothing was sent.', name, kb(stat.size), kb(MAX_DAR_BYTES)),
        );
        return undefined;
      }
      const bytes = await vscode.workspace.fs.readFile(uri);
      return { bytes, dar: readDar(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) };
    } catch (e) {
      const why = e instanceof DarError ? e.message : (e as Error).message;
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} is not a DAR Canton Lens can send: {1} Nothing was sent.', name, why));
      return undefined;
    }
  };

  /**
   * The synchronizer to validate against or vet on: the node's only one, the remembered pick, or
   * the person's pick (remembered). Undefined: the person cancelled. A node whose synchronizers
   * cannot be read gets no id: it picks, or says why it cannot.
   */
  const destination = async (node: NodeConfig, options: DarCommandOptions, question: string): Promise<Destination | undefined> => {
    const connected = await nodes
      .client(node)
      .getConnectedSynchronizers(undefined)
      .then(connectedSynchronizers, () => undefined);
    if (!connected) return { several: false };
    const key = rememberedSynchronizerKey(node.name);
    const choice = synchronizerChoice(connected, deps.workspaceState.get<string>(key));
    if (choice.kind === 'node') return { where: choice.only, several: false };
    if (choice.kind === 'remembered') return { synchronizerId: choice.synchronizer.id, where: choice.synchronizer, several: true };
    const picked = options.pickSynchronizer
      ? await options.pickSynchronizer(choice.choices)
      : (
          await vscode.window.showQuickPick(
            choice.choices.map((c) => ({ label: synchronizerName(c), description: c.id, synchronizer: c })),
            {
              placeHolder: question,
              ignoreFocusOut: true,
            },
          )
        )?.synchronizer;
    if (!picked) return undefined;
    await deps.workspaceState.update(key, picked.id);
    return { synchronizerId: picked.id, where: picked, several: true };
  };

  /** The result, naming the synchronizer; with several, a button to pick another next time. */
  const tell = async (node: NodeConfig, message: string, to: Destination) => {
    const another = vscode.l10n.t('Pick Another Synchronizer Next Time');
    const answer = to.several ? await vscode.window.showInformationMessage(message, another) : await vscode.window.showInformationMessage(message);
    if (answer === another) await deps.workspaceState.update(rememberedSynchronizerKey(node.name), undefined);
  };

  const label = (dar: DarInfo) => `${dar.name ?? dar.mainDalf} (${dar.packageId.slice(0, 12)}…)`;

  /** Shows a refusal on the daml.yaml next to the DAR's build, and as a message. */
  const report = async (node: NodeConfig, uri: vscode.Uri, e: unknown, what: string) => {
    // The node left the synchronizer (or has more than thought): the next attempt asks again.
    if (isLedgerApiError(e) && /^PACKAGE_SERVICE_(NOT_CONNECTED_TO|CANNOT_AUTODETECT)_SYNCHRONIZER$/.test(e.code ?? ''))
      await deps.workspaceState.update(rememberedSynchronizerKey(node.name), undefined);
    const yaml = vscode.Uri.joinPath(uri, '..', '..', '..', 'daml.yaml');
    let exists = false;
    try {
      await vscode.workspace.fs.stat(yaml);
      exists = true;
    } catch {
      // A DAR outside a Daml project: the message is enough.
    }
    if (exists && isLedgerApiError(e)) {
      clear(yaml);
      const d = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), `${node.name}: ${e.explanation}`, vscode.DiagnosticSeverity.Error);
      d.source = 'Canton';
      d.code = e.code;
      diagnostics.set(yaml, [d]);
      await showInSource(node, yaml, e);
    }
    // Not awaited: the command ends while the message waits for the person.
    void showLedgerError(node, e, what);
  };

  const upload = async (arg?: unknown, nodeArg?: unknown, options: DarCommandOptions = {}): Promise<boolean> => {
    const uri = await pickDar(arg, options);
    if (!uri) return false;
    const node = await nodeForCommand(nodes, nodeArg ?? treeRow(arg)?.name, vscode.l10n.t('Upload the DAR to which ledger node?'));
    if (!node) return false;
    const checked = await readChecked(uri);
    if (!checked) return false;
    const { bytes, dar } = checked;
    let vet = options.vetAllPackages;
    const [andVet, only] = [vscode.l10n.t('Upload and Vet'), vscode.l10n.t('Upload Only')];
    if (!isLoopbackUrl(node.url)) {
      const pick = await vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Upload {0} to "{1}" at {2}? Vetting makes the node accept transactions of these packages.',
          label(dar),
          node.name,
          new URL(node.url).origin,
        ),
        { modal: true },
        andVet,
        only,
      );
      if (!pick) return false;
      vet = pick === andVet;
    } else if (vet === undefined) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: andVet, detail: vscode.l10n.t("Vet every package of the DAR on the node's synchronizer"), vet: true },
          { label: only, detail: vscode.l10n.t('Upload without vetting'), vet: false },
        ],
        { placeHolder: vscode.l10n.t('Upload {0} to "{1}"', label(dar), node.name) },
      );
      if (!pick) return false;
      vet = pick.vet;
    }
    // Only vetting needs a synchronizer: an upload without it goes to the node alone.
    const to = vet
      ? await destination(node, options, vscode.l10n.t('"{0}" is connected to several synchronizers: vet {1} on which?', node.name, label(dar)))
      : { several: false };
    if (!to) return false;
    let sending = false;
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Uploading {0} ({1}) to "{2}"…', label(dar), kb(bytes.byteLength), node.name),
          cancellable: true,
        },
        async (_p, cancel) => {
          const abort = new AbortController();
          cancel.onCancellationRequested(() => abort.abort());
          const credentials = await nodes.credentials(node);
          if (abort.signal.aborted) throw new vscode.CancellationError();
          sending = true;
          // One POST: a write is never sent again by itself.
          await uploadDar(
            nodes.client(node),
            bytes,
            { vetAllPackages: vet, synchronizerId: to.synchronizerId },
            { signal: abort.signal, auth: { token: credentials.token } },
          );
        },
      );
    } catch (e) {
      packages.forget(node.name);
      if (e instanceof vscode.CancellationError || (isLedgerApiError(e) && e.kind === 'cancelled')) {
        if (sending)
          void vscode.window.showWarningMessage(
            vscode.l10n.t('The upload was cancelled while it was sent: the node may have received it. Expand Packages to see.'),
          );
        return false;
      }
      await report(node, uri, e, vscode.l10n.t('Uploading {0}', label(dar)));
      return false;
    }
    packages.forget(node.name);
    clear(vscode.Uri.joinPath(uri, '..', '..', '..', 'daml.yaml'));
    // Not awaited: the command ends while the message waits for the person.
    void tell(
      node,
      !vet
        ? vscode.l10n.t('Uploaded {0} to "{1}" (not vetted).', label(dar), node.name)
        : to.where
          ? vscode.l10n.t('Uploaded {0} to "{1}" and vetted it on {2} ({3}).', label(dar), node.name, synchronizerName(to.where), to.where.id)
          : vscode.l10n.t('Uploaded {0} to "{1}" and vetted it.', label(dar), node.name),
      to,
    );
    return true;
  };

  const validate = async (arg?: unknown, nodeArg?: unknown, options: DarCommandOptions = {}): Promise<boolean> => {
    const uri = await pickDar(arg, options);
    if (!uri) return false;
    const node = await nodeForCommand(nodes, nodeArg ?? treeRow(arg)?.name, vscode.l10n.t('Validate the DAR against which ledger node?'));
    if (!node) return false;
    const checked = await readChecked(uri);
    if (!checked) return false;
    const to = await destination(
      node,
      options,
      vscode.l10n.t('"{0}" is connected to several synchronizers: validate {1} against which?', node.name, label(checked.dar)),
    );
    if (!to) return false;
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Validating {0} on "{1}"…', label(checked.dar), node.name), cancellable: true },
        (_p, cancel) => {
          const abort = new AbortController();
          cancel.onCancellationRequested(() => abort.abort());
          return validateDar(nodes.client(node), checked.bytes, { synchronizerId: to.synchronizerId }, { signal: abort.signal });
        },
      );
    } catch (e) {
      await report(node, uri, e, vscode.l10n.t('Validating {0}', label(checked.dar)));
      return false;
    }
    clear(vscode.Uri.joinPath(uri, '..', '..', '..', 'daml.yaml'));
    void tell(
      node,
      to.where
        ? vscode.l10n.t(
            '"{0}" accepts {1} on {2} ({3}): it is a valid DAR, upgrade-compatible with what the node has vetted.',
            node.name,
            label(checked.dar),
            synchronizerName(to.where),
            to.where.id,
          )
        : vscode.l10n.t('"{0}" accepts {1}: it is a valid DAR, upgrade-compatible with what the node has vetted.', node.name, label(checked.dar)),
      to,
    );
    return true;
  };

  register(COMMAND.uploadDar, upload);
  register(COMMAND.validateDar, validate);
}
