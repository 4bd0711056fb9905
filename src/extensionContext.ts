// The extension's one context, as rust-analyzer's Ctx: it builds the extension's parts at activation
// (their constructors only subscribe: the work starts with the first use), owns every disposable
// (the extension's subscriptions), and loads the lazy bundles of ours (src/services/lazyBundles.ts)
// through getters on first use. The register* functions take from it what they need.
import * as vscode from 'vscode';
import { commandFailureTool } from './agentTools/commandFailureTool';
import { languageModelTools } from './agentTools/languageModelTools';
import { COMMAND_FAILURE_TOOL } from './agentTools/toolNames';
import type * as DebugBundle from './bundles/debug';
import type * as LedgerHistoryModule from './commands/ledgerHistory';
import type * as AdminModule from './commands/adminCommands';
import type { CommandHandler } from './commands/commandRegistrar';
import type * as LoopModule from './commands/ledgerCommandsLoop';
import { AcsPanels } from './panels/acsPanel';
import { ExecuteReviews } from './panels/executeReviews';
import { LookupPanels } from './panels/lookupPanels';
import type { CompiledFilter } from './panels/payloadFilterPick';
import { UpdatesPanels } from './panels/updatesPanel';
import type { UpdateRow } from './protocol/updateRows';
import { commandsCompletionProvider } from './providers/commandsCompletionProvider';
import type * as DamlLfModule from './daml/lf/nodeSignatures';
import type { NodeSignaturesReader } from './daml/lf/lfSignatures';
import { DamlCodeLensProvider } from './providers/damlCodeLens';
import { DamlYamlLens } from './providers/damlYamlLens';
import { LedgerAuthProvider } from './providers/ledgerAuthProvider';
import { ledgerIdHoverProvider } from './providers/ledgerIdHoverProvider';
import { DamlLedgerCounts } from './services/damlLedgerCounts';
import { DamlWorkspace } from './services/damlWorkspace';
import { DevSigningKeys } from './services/devSigningKeys';
import { ExtensionLog } from './services/extensionLog';
import { loadBundle } from './services/lazyBundles';
import { LedgerNodes } from './services/ledgerNodes';
import { LedgerPointStore } from './services/ledgerPointStore';
import { LedgerLookupService } from './services/lookupService';
import { RecentLookupStore } from './services/recentLookupStore';
import { TokenStore } from './services/tokenStore';
import { AdminTreeProvider, type AdminElement } from './views/adminTree';
import { BrowseTreeSection } from './views/browseTree';
import { NodeTreeProvider, type NodeTreeElement } from './views/nodeTree';
import { PackagesTreeSection } from './views/packagesTree';

/** A part of a lazy bundle, made on first use, once. */
class Lazy<T> {
  private made: { value: T } | undefined;
  /** A part that failed to load fails again the same way: made twice, it would register twice. */
  private failure: { error: unknown } | undefined;
  constructor(private readonly make: () => T) {}
  get(): T {
    if (this.failure) throw this.failure.error;
    try {
      return (this.made ??= { value: this.make() }).value;
    } catch (error) {
      this.failure = { error };
      throw error;
    }
  }
  /** The part if it was made. */
  peek(): T | undefined {
    return this.made?.value;
  }
}

export class CantonLensContext {
  readonly subscriptions: { dispose(): unknown }[];
  readonly extensionUri: vscode.Uri;
  /** The bundles' folder, dist/. */
  readonly bundleDir: string;
  /** The node's package signatures, decoded from its Daml-LF by the decoder's bundle on first use. */
  readonly signatures: NodeSignaturesReader = (client) => loadBundle<typeof DamlLfModule>(this.bundleDir, 'damlLf').recentNodeSignatures(client);
  readonly log = new ExtensionLog();
  readonly tokens: TokenStore;
  readonly nodes: LedgerNodes;
  readonly recent: RecentLookupStore;
  readonly points: LedgerPointStore;
  /** Sign-in per node (the Accounts menu's "Canton Ledger" provider). */
  readonly auth: LedgerAuthProvider;
  readonly browseTree: BrowseTreeSection;
  readonly packages: PackagesTreeSection;
  readonly nodeTree: NodeTreeProvider;
  /** The Administration view (users, parties, identity providers of the active node). */
  readonly adminView: AdminTreeProvider;
  /** The lookup service, with its cache, and the hover on ids. */
  readonly lookups: LedgerLookupService;
  readonly idHover: vscode.HoverProvider;
  /** The lookup panels (their serializer revives those a reload left open). */
  readonly panels: LookupPanels;
  /** The Active Contracts tables and the Follow Updates panels. */
  readonly browse: { readonly acs: AcsPanels; readonly updates: UpdatesPanels };
  /** The Daml index, the counts of its templates on the node, its lenses and the requests' completions. */
  readonly daml: {
    readonly workspace: DamlWorkspace;
    readonly counts: DamlLedgerCounts;
    /** CodeLens and hovers of .daml files. */
    readonly codeLens: DamlCodeLensProvider;
    readonly yamlLens: DamlYamlLens;
    readonly completions: vscode.CompletionItemProvider;
  };
  /** The execute reviews' owner and the development signing keys. */
  readonly execute: { readonly reviews: ExecuteReviews; readonly devKeys: DevSigningKeys };
  /** The language-model tools by name. */
  readonly agentTools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;

  private readonly lazy = {
    debug: new Lazy(() => loadBundle<typeof DebugBundle>(this.bundleDir, 'debugAdapter').createDebug(this)),
    ledgerHistory: new Lazy(() => loadBundle<typeof LedgerHistoryModule>(this.bundleDir, 'ledgerHistory')),
    adminChanges: new Lazy(() =>
      loadBundle<typeof AdminModule>(this.bundleDir, 'nodeAdministration').adminChangeHandlers({
        nodes: this.nodes,
        changed: () => this.adminView.refresh(),
        signatures: this.signatures,
        packagesChanged: (node) => this.packages.forget(node),
      }),
    ),
    ledgerCommandsLoop: new Lazy(() => {
      const loop = loadBundle<typeof LoopModule>(this.bundleDir, 'ledgerCommandsLoop').createLedgerCommandsLoop(this);
      this.subscriptions.push(loop);
      return loop;
    }),
  };
  private readonly ledgerHistoryHandlers = new Lazy(() => this.lazy.ledgerHistory.get().ledgerHistoryHandlers(this.extension, this));

  constructor(readonly extension: vscode.ExtensionContext) {
    this.subscriptions = extension.subscriptions;
    this.extensionUri = extension.extensionUri;
    this.bundleDir = vscode.Uri.joinPath(extension.extensionUri, 'dist').fsPath;
    const userAgent = `canton-lens/${(extension.extension.packageJSON as { version: string }).version}`;
    this.tokens = new TokenStore(extension.secrets);
    this.nodes = new LedgerNodes(this.bundleDir, userAgent, this.tokens, this.log);
    this.recent = new RecentLookupStore(extension.globalState);
    this.points = new LedgerPointStore(extension.workspaceState);
    this.auth = new LedgerAuthProvider(this.nodes, this.log);
    this.browseTree = new BrowseTreeSection(this.nodes, (client) => this.signatures(client));
    this.packages = new PackagesTreeSection(this.nodes);
    this.nodeTree = new NodeTreeProvider(this.nodes, this.recent, this.browseTree, this.nodes.facts, this.packages);
    const view = vscode.window.createTreeView<NodeTreeElement>('cantonLens.nodes', { treeDataProvider: this.nodeTree, showCollapseAll: true });
    this.nodeTree.attach(view);
    this.adminView = new AdminTreeProvider(this.nodes);
    const adminView = vscode.window.createTreeView<AdminElement>('cantonLens.admin', { treeDataProvider: this.adminView });
    this.adminView.attach(adminView);
    this.subscriptions.push(this.adminView, adminView);
    this.subscriptions.push(this.log, this.tokens, this.recent, this.nodes, this.points, this.auth, this.browseTree, this.packages, this.nodeTree, view);

    this.lookups = new LedgerLookupService(this.nodes.registry, this.nodes.facts);
    this.idHover = ledgerIdHoverProvider(this.nodes, this.lookups);
    this.panels = new LookupPanels(
      this.extensionUri,
      this.nodes,
      this.lookups,
      (t, summary, askedByUser) => {
        if (t.kind === 'contract' || t.kind === 'update') void this.recent.add({ kind: t.kind, id: t.id, node: t.node, summary, at: Date.now(), askedByUser });
      },
      this.signatures,
    );
    const acs = new AcsPanels(
      this.extensionUri,
      this.nodes,
      (current, sample, parties) => this.pickPayloadFilter(current, sample, parties),
      (client) => this.signatures(client),
    );
    const updates = new UpdatesPanels(this.extensionUri, this.nodes, (node, offset, live) => this.browseTree.reportLedgerEnd(node, offset, live));
    this.browse = { acs, updates };
    const workspace = new DamlWorkspace(this.log);
    const counts = new DamlLedgerCounts(this.nodes);
    const codeLens = new DamlCodeLensProvider(this.nodes, workspace, counts);
    const yamlLens = new DamlYamlLens(this.nodes, this.packages);
    this.daml = {
      workspace,
      counts,
      codeLens,
      yamlLens,
      completions: commandsCompletionProvider(workspace, this.nodes, this.signatures),
    };
    const devKeys = new DevSigningKeys(extension.secrets, extension.globalState);
    const reviews = new ExecuteReviews({
      extensionUri: this.extensionUri,
      nodes: this.nodes,
      panels: this.panels,
      recent: this.recent,
      knownPublicKey: (fingerprint) => devKeys.publicKey(fingerprint),
      userRights: (node, signal) => this.nodes.facts.executeRights(node, signal),
      forgetRights: (node) => this.nodes.facts.forget(node.name),
    });
    this.execute = { reviews, devKeys };
    const tools = languageModelTools(this);
    tools.set(
      COMMAND_FAILURE_TOOL,
      commandFailureTool(this.nodes, () => this.loadedLedgerCommandsLoop?.reviews.refused ?? []),
    );
    this.agentTools = tools;
    this.subscriptions.push(this.lookups, this.panels, this.panels.registerSerializer(), acs, updates, workspace, counts, codeLens, yamlLens, reviews);
  }

  /** The `canton` debug type (dist/debugAdapter.js). */
  get debug(): DebugBundle.Debug {
    return this.lazy.debug.get();
  }

  /** The changes to a node an administrator asks for (dist/nodeAdministration.js). */
  get adminChangeCommands(): ReadonlyMap<string, CommandHandler> {
    return this.lazy.adminChanges.get();
  }

  /** The ledger history's commands (dist/ledgerHistory.js). */
  get ledgerHistoryCommands(): ReadonlyMap<string, CommandHandler> {
    return this.ledgerHistoryHandlers.get();
  }

  /** The ledger commands loop (dist/ledgerCommandsLoop.js). */
  get ledgerCommandsLoop(): LoopModule.LedgerCommandsLoop {
    return this.lazy.ledgerCommandsLoop.get();
  }

  /** The ledger commands loop if it was loaded (the API; the command-failure tool's refusals). */
  get loadedLedgerCommandsLoop(): LoopModule.LedgerCommandsLoop | undefined {
    return this.lazy.ledgerCommandsLoop.peek();
  }

  /** The payload filter's input (for the Active Contracts table; dist/ledgerHistory.js). */
  pickPayloadFilter(current: string, sample: readonly unknown[], parties: readonly string[]): Promise<CompiledFilter | undefined> {
    return this.lazy.ledgerHistory.get().pickPayloadFilter(current, sample, parties);
  }

  /** The latest rows of the node's open Follow Updates panels, newest first. */
  updateRows(node: string): readonly UpdateRow[] {
    return this.browse.updates.recentRows(node);
  }

  /** The first rows of the open Active Contracts tables. */
  tableContracts(): readonly { id: string; node: string; detail: string }[] {
    return this.browse.acs.panels.flatMap((p) => p.shown.firstIds.map((id) => ({ id, node: p.target.node, detail: p.webviewPanel.title })));
  }
}
