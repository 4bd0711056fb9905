import * as vscode from 'vscode';
import { registerLanguageModelTools } from './agentTools/languageModelTools';
import { registerCommandFailureTool } from './agentTools/commandFailureTool';
import { registerBrowseCommands } from './commands/browseCommands';
import { registerDamlCommands } from './commands/damlCommands';
import { registerDebugCommands } from './commands/debugCommands';
import { registerAcrossTimeCommands } from './commands/acrossTimeCommands';
import { LedgerPointStore } from './services/ledgerPointStore';
import { registerDarCommands } from './commands/darCommands';
import { registerCopyAsCurlCommand } from './commands/copyAsCurlCommand';
import { registerDemoLedgerCommands } from './commands/demoLedgerCommands';
import { registerExecuteCommands } from './commands/executeCommands';
import { registerCommandsLoop, type CommandsLoopAccess } from './commands/commandsLoopCommands';
import { registerExternalSigningCommands } from './commands/externalSigningRegistration';
import { registerInspectCommands } from './commands/inspectCommands';
import { registerNodeCommands } from './commands/nodeCommands';
import { registerRecentLookupCommands } from './commands/recentLookupCommands';
import { registerSignInCommands } from './commands/signInCommands';
import { registerTokenCommands } from './commands/tokenCommands';
import { useTranslator } from './l10n/l10n';
import { AcsPanels } from './panels/acsPanel';
import { ExecuteReviews } from './panels/executeReviews';
import { LedgerPanels } from './panels/ledgerPanel';
import { TailPanels } from './panels/tailPanel';
import { registerDamlCodeLens } from './providers/damlCodeLens';
import { registerDamlYamlLens } from './providers/damlYamlLens';
import { registerLedgerAuthProvider, type LedgerAuthProvider } from './providers/ledgerAuthProvider';
import { registerLedgerIdHover } from './providers/ledgerIdHover';
import { registerJsonDocuments } from './providers/jsonDocuments';
import { registerLedgerIdLinks } from './providers/ledgerIdLinks';
import { DamlLedgerCounts } from './services/damlLedgerCounts';
import { DamlWorkspace } from './services/damlWorkspace';
import { registerDemoSetup } from './services/demoSetup';
import { registerWalkthroughProgress } from './services/walkthroughProgress';
import { registerPartyCompletion } from './providers/partyCompletionProvider';
import { registerCommandsCompletion } from './providers/commandsCompletionProvider';
import { DevSigningKeys } from './services/devSigningKeys';
import { ExtensionLog } from './services/extensionLog';
import { LedgerLookupService } from './services/lookupService';
import { LedgerNodes } from './services/ledgerNodes';
import { RecentLookupStore } from './services/recentLookupStore';
import { registerTokenExpiryWarnings } from './services/tokenExpiryWarnings';
import { TokenStore } from './services/tokenStore';
import { registerActiveNodeStatusBar } from './views/activeNodeStatusBar';
import { BrowseTreeSection } from './views/browseTree';
import { NodeTreeProvider, type NodeTreeElement } from './views/nodeTree';
import { PackagesTreeSection } from './views/packagesTree';

/** What tests (and other extensions) can see; no tokens. */
export interface CantonLensApi {
  nodeTree: NodeTreeProvider;
  nodes: LedgerNodes;
  log: ExtensionLog;
  panels: LedgerPanels;
  lookups: LedgerLookupService;
  recent: RecentLookupStore;
  execute: ExecuteReviews;
  /** Active contracts and the update tail. */
  browse: { acs: AcsPanels; tails: TailPanels; tree: BrowseTreeSection };
  /** The workspace's Daml index and the counts of its templates on the ledger. */
  daml: { workspace: DamlWorkspace; counts: DamlLedgerCounts };
  /** Sign-in per node (the Accounts menu's "Canton Ledger" provider). */
  auth: LedgerAuthProvider;
  /** Commands requests, their review and the completions (loaded on first use). */
  commands: CommandsLoopAccess;
}

export function activate(context: vscode.ExtensionContext): CantonLensApi {
  // The pure modules' strings (errors, panels, checks) go through vscode.l10n like the rest.
  useTranslator((message, args) => vscode.l10n.t(message, ...args));
  context.subscriptions.push({ dispose: () => useTranslator(undefined) });
  const userAgent = `canton-lens/${(context.extension.packageJSON as { version: string }).version}`;
  const log = new ExtensionLog();
  const tokens = new TokenStore(context.secrets);
  const nodes = new LedgerNodes(vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath, userAgent, tokens, log);
  const recent = new RecentLookupStore(context.globalState);
  const browseTree = new BrowseTreeSection(nodes);
  const facts = nodes.facts;
  const packages = new PackagesTreeSection(nodes);
  const nodeTree = new NodeTreeProvider(nodes, recent, browseTree, facts, packages);
  const view = vscode.window.createTreeView<NodeTreeElement>('cantonLens.nodes', { treeDataProvider: nodeTree, showCollapseAll: true });
  nodeTree.attach(view);
  const lookups = new LedgerLookupService(nodes.registry, facts);
  const panels = new LedgerPanels(context.extensionUri, nodes, lookups, (t, summary, askedAs) => {
    if (t.kind === 'contract' || t.kind === 'update') void recent.add({ kind: t.kind, id: t.id, node: t.node, summary, at: Date.now(), askedAs });
  });
  context.subscriptions.push(log, tokens, recent, nodes, lookups, packages, nodeTree, view, panels, panels.registerSerializer());
  // Code and ledger side by side: built on first need, not at activation.
  const daml = new DamlWorkspace(log);
  registerDarCommands(context, nodes, packages, daml);
  registerDamlYamlLens(context, nodes, packages);
  registerRecentLookupCommands(context, recent);
  const execute = new ExecuteReviews(context.extensionUri, nodes, panels, recent);
  context.subscriptions.push(execute);
  registerExecuteCommands(context, nodes, execute);
  const devKeys = new DevSigningKeys(context.secrets, context.globalState);
  execute.knownPublicKey = (fingerprint) => devKeys.publicKey(fingerprint);
  execute.userRights = (node, signal) => facts.executeRights(node, signal);
  execute.forgetRights = (node) => facts.forget(node.name);
  registerExternalSigningCommands(context, nodes, execute, devKeys);
  const commandsLoop = registerCommandsLoop(context, { nodes, panels, recent });
  registerCommandFailureTool(context, nodes, () => commandsLoop.loaded()?.reviews.refused ?? []);

  registerTokenExpiryWarnings(context, nodes);
  registerNodeCommands(context, nodes, log);
  registerTokenCommands(context, nodes, log);
  const auth = registerLedgerAuthProvider(context, nodes, log);
  registerSignInCommands(context, nodes, auth);
  registerDemoLedgerCommands(context, nodes, log);
  registerWalkthroughProgress(context, nodes, tokens, registerDemoSetup(context, nodes, tokens, log));
  registerActiveNodeStatusBar(context, nodes);
  registerInspectCommands(context, nodes, panels);
  registerCopyAsCurlCommand(context, nodes, tokens, log, panels);
  registerLedgerIdHover(context, nodes, lookups);
  registerLanguageModelTools(context, nodes, lookups);
  registerLedgerIdLinks(context);
  registerJsonDocuments(context);
  registerPartyCompletion(context, nodes);
  const tails = new TailPanels(context.extensionUri, nodes, (node, offset, live) => browseTree.reportLedgerEnd(node, offset, live));
  const points = new LedgerPointStore(context.workspaceState);
  context.subscriptions.push(points);
  const acrossTime = registerAcrossTimeCommands(context, {
    nodes,
    lookups,
    panels,
    recent,
    points,
    tailRows: (node) => tails.recentRows(node),
    // The open tables' first rows (the table is made below; this runs only when a command asks).
    tableContracts: () => acs.panels.flatMap((p) => p.shown.firstIds.map((id) => ({ id, node: p.target.node, detail: p.webviewPanel.title }))),
  });
  const acs = new AcsPanels(context.extensionUri, nodes, acrossTime.pickPayloadFilter);
  context.subscriptions.push(browseTree, acs, tails);
  registerBrowseCommands(context, nodes, acs, tails, browseTree, recent);
  const damlCounts = new DamlLedgerCounts(nodes);
  context.subscriptions.push(daml, damlCounts);
  registerDamlCommands(context, daml);
  registerDamlCodeLens(context, nodes, daml, damlCounts);
  registerCommandsCompletion(context, daml, nodes);
  registerDebugCommands(context, { nodes, daml, recent });
  return {
    nodeTree,
    nodes,
    log,
    panels,
    lookups,
    recent,
    execute,
    browse: { acs, tails, tree: browseTree },
    daml: { workspace: daml, counts: damlCounts },
    auth,
    commands: commandsLoop,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
