// The extension's one context, as rust-analyzer's Ctx: it builds what the first paint of the node
// tree and the status bar needs, owns every disposable (the extension's subscriptions), and makes
// everything else on first use, from its own bundle (a lazy bundle has its own copies of classes:
// what crosses between bundles is checked by shape, never by instanceof). The register* functions
// take from it what they need.
import * as vscode from 'vscode';
import type * as AgentToolsBundle from './bundles/agentTools';
import type * as BrowseBundle from './bundles/browse';
import type * as DamlBundle from './bundles/daml';
import type * as DebugBundle from './bundles/debug';
import type * as ExecuteBundle from './bundles/execute';
import type * as LookupPanelsBundle from './bundles/lookupPanels';
import type * as LookupsBundle from './bundles/lookups';
import type * as AcrossTimeModule from './commands/acrossTime';
import type { CommandHandler } from './commands/commandRegistrar';
import type * as LoopModule from './commands/commandsLoop';
import type * as ExternalSigningModule from './commands/externalSigningCommands';
import type { TailRow } from './protocol/tailRows';
import type { LookupPanels } from './panels/lookupPanels';
import type { CompiledFilter } from './panels/payloadFilterPick';
import { LedgerAuthProvider } from './providers/ledgerAuthProvider';
import { ExtensionLog } from './services/extensionLog';
import {
  loadAcrossTimeBundle,
  loadAgentToolsBundle,
  loadBrowseBundle,
  loadCommandsLoopBundle,
  loadDamlBundle,
  loadDebugAdapterBundle,
  loadExecuteBundle,
  loadExternalSigningBundle,
  loadLookupPanelsBundle,
  loadLookupsBundle,
} from './services/lazyBundles';
import { LedgerNodes } from './services/ledgerNodes';
import { LedgerPointStore } from './services/ledgerPointStore';
import type { LedgerLookupService } from './services/lookupService';
import { RecentLookupStore } from './services/recentLookupStore';
import { TokenStore } from './services/tokenStore';
import { BrowseTreeSection } from './views/browseTree';
import { NodeTreeProvider, type NodeTreeElement } from './views/nodeTree';
import { PackagesTreeSection } from './views/packagesTree';

/** A part made on first use, once. */
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

  private readonly bundles = {
    lookups: () => loadLookupsBundle(this.bundleDir) as typeof LookupsBundle,
    lookupPanels: () => loadLookupPanelsBundle(this.bundleDir) as typeof LookupPanelsBundle,
    browse: () => loadBrowseBundle(this.bundleDir) as typeof BrowseBundle,
    daml: () => loadDamlBundle(this.bundleDir) as typeof DamlBundle,
    agentTools: () => loadAgentToolsBundle(this.bundleDir) as typeof AgentToolsBundle,
    execute: () => loadExecuteBundle(this.bundleDir) as typeof ExecuteBundle,
    debug: () => loadDebugAdapterBundle(this.bundleDir) as typeof DebugBundle,
    acrossTime: () => loadAcrossTimeBundle(this.bundleDir) as typeof AcrossTimeModule,
    externalSigning: () => loadExternalSigningBundle(this.bundleDir) as typeof ExternalSigningModule,
    commandsLoop: () => loadCommandsLoopBundle(this.bundleDir) as typeof LoopModule,
  };

  // Each part takes what it needs from this context; what it reads later (the panels, the Daml
  // index) it reads through the context's getters, so that its bundle loads only then.
  private readonly parts = {
    lookups: new Lazy(() => this.bundles.lookups().createLookups(this)),
    lookupPanels: new Lazy(() => this.bundles.lookupPanels().createLookupPanels(this)),
    browse: new Lazy(() => this.bundles.browse().createBrowse(this)),
    daml: new Lazy(() => this.bundles.daml().createDaml(this)),
    agentTools: new Lazy(() => this.bundles.agentTools().createAgentTools(this)),
    execute: new Lazy(() => this.bundles.execute().createExecute(this)),
    debug: new Lazy(() => this.bundles.debug().createDebug(this)),
    acrossTime: new Lazy(() => this.bundles.acrossTime().acrossTimeHandlers(this.extension, this)),
    externalSigning: new Lazy(() =>
      this.bundles.externalSigning().externalSigningHandlers(this.extensionUri, this.nodes, this.execute.reviews, this.execute.devKeys),
    ),
    commandsLoop: new Lazy(() => {
      const loop = this.bundles.commandsLoop().createCommandsLoop(this);
      this.subscriptions.push(loop);
      return loop;
    }),
  };

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
    this.browseTree = new BrowseTreeSection(this.nodes, () => this.bundles.browse().countActiveContracts);
    this.packages = new PackagesTreeSection(this.nodes, () => this.bundles.daml());
    this.nodeTree = new NodeTreeProvider(this.nodes, this.recent, this.browseTree, this.nodes.facts, this.packages);
    const view = vscode.window.createTreeView<NodeTreeElement>('cantonLens.nodes', { treeDataProvider: this.nodeTree, showCollapseAll: true });
    this.nodeTree.attach(view);
    this.subscriptions.push(this.log, this.tokens, this.recent, this.nodes, this.points, this.auth, this.browseTree, this.packages, this.nodeTree, view);
  }

  /** The lookup service, with its cache (dist/lookups.js). */
  get lookups(): LedgerLookupService {
    return this.parts.lookups.get().service;
  }

  /** The hover on ids (dist/lookups.js). */
  get idHover(): vscode.HoverProvider {
    return this.parts.lookups.get().hover;
  }

  /** The lookup panels and their commands (dist/lookupPanels.js); their serializer registers with them. */
  get lookupPanels(): LookupPanelsBundle.LookupPanelsFeature {
    return this.parts.lookupPanels.get();
  }

  get lookupPanelsLoaded(): boolean {
    return this.parts.lookupPanels.peek() !== undefined;
  }

  get panels(): LookupPanels {
    return this.lookupPanels.panels;
  }

  /** The Active Contracts tables and the live tails (dist/browse.js). */
  get browse(): BrowseBundle.Browse {
    return this.parts.browse.get();
  }

  /** The Daml index, its lenses, completions and commands (dist/daml.js). */
  get daml(): DamlBundle.Daml {
    return this.parts.daml.get();
  }

  /** The language-model tools by name (dist/agentTools.js). */
  get agentTools(): ReadonlyMap<string, vscode.LanguageModelTool<unknown>> {
    return this.parts.agentTools.get();
  }

  /** The execute reviews, the development keys and the execute commands (dist/execute.js). */
  get execute(): ExecuteBundle.Execute {
    return this.parts.execute.get();
  }

  /** The `canton` debug type (dist/debugAdapter.js). */
  get debug(): DebugBundle.Debug {
    return this.parts.debug.get();
  }

  /** The questions across time's commands (dist/acrossTime.js). */
  get acrossTimeCommands(): ReadonlyMap<string, CommandHandler> {
    return this.parts.acrossTime.get();
  }

  /** The external signing commands (dist/externalSigning.js). */
  get externalSigning(): ReturnType<typeof ExternalSigningModule.externalSigningHandlers> {
    return this.parts.externalSigning.get();
  }

  /** The commands loop (dist/commandsLoop.js). */
  get commandsLoop(): LoopModule.CommandsLoop {
    return this.parts.commandsLoop.get();
  }

  /** The commands loop if it was loaded (the API; the command-failure tool's refusals). */
  get loadedCommandsLoop(): LoopModule.CommandsLoop | undefined {
    return this.parts.commandsLoop.peek();
  }

  /** The payload filter's input (for the Active Contracts table; dist/acrossTime.js). */
  pickPayloadFilter(current: string, sample: readonly unknown[], parties: readonly string[]): Promise<CompiledFilter | undefined> {
    return this.bundles.acrossTime().pickPayloadFilter(current, sample, parties);
  }

  /** The latest rows of the node's open Follow Updates tails, newest first (none before they load). */
  tailRows(node: string): readonly TailRow[] {
    return this.parts.browse.peek()?.tails.recentRows(node) ?? [];
  }

  /** The first rows of the open Active Contracts tables (none before they load). */
  tableContracts(): readonly { id: string; node: string; detail: string }[] {
    const acs = this.parts.browse.peek()?.acs;
    return acs ? acs.panels.flatMap((p) => p.shown.firstIds.map((id) => ({ id, node: p.target.node, detail: p.webviewPanel.title }))) : [];
  }
}
