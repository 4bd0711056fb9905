import * as vscode from 'vscode';
import { registerLanguageModelTools } from './agentTools/toolRegistration';
import { registerLedgerHistoryCommands } from './commands/ledgerHistoryCommands';
import { registerAdminCommands } from './commands/adminRegistration';
import { registerBrowseCommands } from './commands/browseCommands';
import { registerLedgerCommands, type LedgerCommandsLoopAccess } from './commands/ledgerCommandsRegistration';
import { commandRegistrar } from './commands/commandRegistrar';
import { registerCopyAsCurlCommand } from './commands/copyAsCurlCommand';
import { registerDaml } from './commands/damlRegistration';
import { registerDebugging } from './commands/debugRegistration';
import { registerDemoLedgerCommands } from './commands/demoLedgerCommands';
import { registerExecuteCommands } from './commands/executeCommands';
import { registerExternalSigningCommands } from './commands/externalSigningCommands';
import { registerIdAtCursorContext } from './commands/idAtCursor';
import { registerInspectCommands } from './commands/inspectCommands';
import { registerNodeCommands } from './commands/nodeCommands';
import { registerRecentLookupCommands } from './commands/recentLookupCommands';
import { registerSignInCommands } from './commands/signInCommands';
import { registerTokenCommands } from './commands/tokenCommands';
import { CantonLensContext } from './extensionContext';
import { useTranslator } from './l10n/l10n';
import type { AcsPanels } from './panels/acsPanel';
import type { ExecuteReviews } from './panels/executeReviews';
import type { LookupPanels } from './panels/lookupPanels';
import type { UpdatesPanels } from './panels/updatesPanel';
import { registerJsonDocuments } from './providers/jsonDocuments';
import { registerLedgerAuthProvider, type LedgerAuthProvider } from './providers/ledgerAuthProvider';
import { registerLedgerIdHover } from './providers/ledgerIdHover';
import { registerLedgerIdLinks } from './providers/ledgerIdLinks';
import { registerPartyCompletion } from './providers/partyCompletionProvider';
import { registerRequestFieldFixes } from './providers/requestFieldFixes';
import type { DamlLedgerCounts } from './services/damlLedgerCounts';
import type { DamlWorkspace } from './services/damlWorkspace';
import { registerDemoSetup } from './services/demoSetup';
import type { ExtensionLog } from './services/extensionLog';
import type { LedgerNodes } from './services/ledgerNodes';
import type { LedgerLookupService } from './services/lookupService';
import type { RecentLookupStore } from './services/recentLookupStore';
import { registerTokenExpiryWarnings } from './services/tokenExpiryWarnings';
import { registerWalkthroughProgress } from './services/walkthroughProgress';
import { registerActiveNodeStatusBar } from './views/activeNodeStatusBar';
import type { AdminTreeProvider } from './views/adminTree';
import type { BrowseTreeSection } from './views/browseTree';
import type { NodeTreeProvider } from './views/nodeTree';

/** What tests (and other extensions) can see; no tokens. */
export interface CantonLensApi {
  nodeTree: NodeTreeProvider;
  /** The Administration view. */
  adminView: AdminTreeProvider;
  nodes: LedgerNodes;
  log: ExtensionLog;
  panels: LookupPanels;
  lookups: LedgerLookupService;
  recent: RecentLookupStore;
  execute: ExecuteReviews;
  /** Active contracts and the followed updates. */
  browse: { acs: AcsPanels; updates: UpdatesPanels; tree: BrowseTreeSection };
  /** The workspace's Daml index and the counts of its templates on the ledger. */
  daml: { workspace: DamlWorkspace; counts: DamlLedgerCounts };
  /** Sign-in per node (the Accounts menu's "Canton Ledger" provider). */
  auth: LedgerAuthProvider;
  /** Commands requests, their review and the completions (loaded on first use). */
  commands: LedgerCommandsLoopAccess;
}

export function activate(context: vscode.ExtensionContext): CantonLensApi {
  // The pure modules' strings (errors, panels, checks) go through vscode.l10n like the rest.
  useTranslator((message, args) => vscode.l10n.t(message, ...args));
  context.subscriptions.push({ dispose: () => useTranslator(undefined) });
  const ctx = new CantonLensContext(context);
  // Each feature registers its commands through this one registrar.
  const register = commandRegistrar(ctx.subscriptions);
  registerActiveNodeStatusBar(ctx);
  registerNodeCommands(ctx, register);
  registerTokenCommands(ctx, register);
  registerTokenExpiryWarnings(ctx);
  registerLedgerAuthProvider(ctx);
  registerSignInCommands(ctx, register);
  registerDemoLedgerCommands(ctx, register);
  registerWalkthroughProgress(ctx, registerDemoSetup(ctx));
  registerRecentLookupCommands(ctx, register);
  registerAdminCommands(ctx, register);
  registerIdAtCursorContext(ctx);
  registerLedgerIdLinks(ctx);
  registerJsonDocuments(ctx);
  registerPartyCompletion(ctx);
  registerRequestFieldFixes(ctx);
  registerLedgerIdHover(ctx);
  registerInspectCommands(ctx, register);
  registerCopyAsCurlCommand(ctx, register);
  registerBrowseCommands(ctx, register);
  registerExecuteCommands(ctx.nodes, ctx.execute.reviews, register);
  registerExternalSigningCommands(ctx, register);
  registerDaml(ctx, register);
  registerLanguageModelTools(ctx);
  // Registered now, their code loaded from its bundle on first use (src/services/lazyBundles.ts).
  registerLedgerHistoryCommands(ctx);
  registerLedgerCommands(ctx, register);
  registerDebugging(ctx);
  return api(ctx);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/** The API over the context; the ledger commands loop loads with its first use. */
function api(ctx: CantonLensContext): CantonLensApi {
  return {
    nodeTree: ctx.nodeTree,
    adminView: ctx.adminView,
    nodes: ctx.nodes,
    log: ctx.log,
    panels: ctx.panels,
    lookups: ctx.lookups,
    recent: ctx.recent,
    execute: ctx.execute.reviews,
    browse: { acs: ctx.browse.acs, updates: ctx.browse.updates, tree: ctx.browseTree },
    daml: { workspace: ctx.daml.workspace, counts: ctx.daml.counts },
    auth: ctx.auth,
    commands: { load: () => ctx.ledgerCommandsLoop, loaded: () => ctx.loadedLedgerCommandsLoop },
  };
}
