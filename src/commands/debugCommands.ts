// The `canton` debug type: launch configurations and their resolution (an update id from the
// cursor, the recent lookups or an input box), the inline adapter, Canton: Debug Transaction, and
// opening a contract id shown in Variables. With the adapter in the debug bundle
// (dist/debugAdapter.js); debugRegistration.ts registers them at activation.
import * as vscode from 'vscode';
import { CantonDebugSession, type CantonDebugArgs, type DebugHost } from '../debug/cantonDebugSession';
import { classifyLedgerId } from '../ids/ledgerIds';
import { parseLedgerVersion } from '../ledger/ledgerVersion';
import type { NodeReader } from '../services/ledgerNodes';
import type { DamlWorkspace } from '../services/damlWorkspace';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { CommandRegistrar } from './commandRegistrar';
import { idInEditor } from './idAtCursor';
import { nodeNameOf } from './nodeArgument';
import { pickRecentOrTypedId } from './recentIdPick';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

const DEBUG_TYPE = 'canton';

type CantonConfiguration = vscode.DebugConfiguration & CantonDebugArgs;

export interface DebugDeps {
  readonly subscriptions: { dispose(): unknown }[];
  readonly nodes: NodeReader;
  /** Read when a session looks for the Daml source. */
  readonly daml: { readonly workspace: DamlWorkspace };
  readonly recent: RecentLookupStore;
}

/** The host side of a session: the node's ledger as the token sees it, and the workspace's Daml index. */
function debugHost(deps: DebugDeps): DebugHost {
  return {
    async connect(args, signal) {
      const node = deps.nodes.find(args.node) ?? (args.node ? undefined : deps.nodes.active());
      if (!node)
        throw new Error(
          args.node
            ? vscode.l10n.t('No ledger node named "{0}": check "node" in the launch configuration, or add it (Canton: Add Node).', args.node)
            : vscode.l10n.t('No active ledger node: add one (Canton: Add Node) or start the demo ledger, or name one in "node".'),
        );
      const credentials = await deps.nodes.credentials(node);
      const effective = await deps.nodes.facts.readAs(node, args.parties, signal);
      if (effective.refusal) throw new Error(effective.refusal);
      const status = deps.nodes.status(node);
      const version = status.state === 'reachable' ? parseLedgerVersion(status.version) : undefined;
      return {
        nodeName: node.name,
        client: deps.nodes.client(node),
        token: credentials.token,
        parties: effective.parties,
        userId: await deps.nodes.tokenUser(node),
        commandCompletions: !version || version.major > 3 || (version.major === 3 && version.minor >= 5),
        updatesPages: version !== undefined && (version.major > 3 || (version.major === 3 && version.minor >= 5)),
      };
    },
    sources: {
      index: () => deps.daml.workspace.ready(),
      pathOf: (file) => vscode.Uri.parse(file).fsPath,
      // The index names files by URI (vscode-remote:// in a remote window): the one at this path.
      indexedFileOf: (path) => {
        for (const f of deps.daml.workspace.index.allFiles()) if (vscode.Uri.parse(f.file).fsPath === path) return f.file;
        return vscode.Uri.file(path).toString();
      },
    },
  };
}

/** An update id: the argument, the cursor's, a recent lookup's, or typed. */
async function pickUpdateId(deps: DebugDeps, arg: unknown): Promise<{ id: string; node?: string } | undefined> {
  if (typeof arg === 'string' && arg.trim()) return { id: arg.trim() };
  // A row's context menu in the Follow Updates page: its update and node.
  const row = arg as { updateId?: unknown; node?: unknown } | undefined;
  if (typeof row?.updateId === 'string' && row.updateId) return { id: row.updateId, ...(typeof row.node === 'string' ? { node: row.node } : {}) };
  const found = idInEditor(vscode.window.activeTextEditor);
  if (found && 'id' in found && found.kind === 'update') return { id: found.id };
  return pickRecentOrTypedId(deps.recent, {
    kind: 'update',
    title: vscode.l10n.t('Debug Transaction'),
    placeHolder: vscode.l10n.t('Debug which transaction?'),
  });
}

export interface Debugging {
  readonly descriptors: vscode.DebugAdapterDescriptorFactory;
  readonly configurations: vscode.DebugConfigurationProvider;
}

/** The adapter's factory and the configurations' provider. */
export function debugging(deps: DebugDeps): Debugging {
  const host = debugHost(deps);
  // Each session reads as the identity its node had when it started: another identity ends it.
  const sessions = new Map<string, { session: vscode.DebugSession; node: string | undefined }>();
  deps.subscriptions.push(
    vscode.debug.onDidTerminateDebugSession((s) => sessions.delete(s.id)),
    deps.nodes.onDidChangeIdentity((e) => {
      for (const { session, node } of sessions.values()) {
        if (node !== e.node) continue;
        void vscode.debug.stopDebugging(session);
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'The debug session "{0}" ended: the token of {1} changed, and it read as the one before. Start it again to read as the new one.',
            session.name,
            e.node,
          ),
        );
      }
    }),
  );
  return {
    descriptors: {
      createDebugAdapterDescriptor: (session) => {
        const named = (session.configuration as CantonConfiguration).node;
        sessions.set(session.id, { session, node: typeof named === 'string' ? named : deps.nodes.active()?.name });
        return new vscode.DebugAdapterInlineImplementation(new CantonDebugSession(host));
      },
    },
    configurations: {
      // F5 without a launch.json, or a configuration without its update: ask for one.
      async resolveDebugConfiguration(_folder, config: CantonConfiguration) {
        if (!config.type && !config.request && !config.name) {
          const picked = await pickUpdateId(deps, undefined);
          if (!picked) return undefined;
          return {
            type: DEBUG_TYPE,
            request: 'launch',
            name: vscode.l10n.t('Debug Transaction'),
            updateId: picked.id,
            ...(picked.node ? { node: picked.node } : {}),
          };
        }
        if (config.request === 'launch' && !config.updateId && typeof config.fromOffset !== 'number') {
          const picked = await pickUpdateId(deps, undefined);
          if (!picked) return undefined;
          config.updateId = picked.id;
          config.node ??= picked.node;
        }
        return config;
      },
    },
  };
}

export function registerDebugCommands(deps: DebugDeps, register: CommandRegistrar): void {
  register(COMMAND.debugTransaction, async (idArg?: unknown, nodeArg?: unknown) => {
    const picked = await pickUpdateId(deps, idArg);
    if (!picked) return false;
    const node = nodeNameOf(nodeArg) ?? picked.node;
    const config: CantonConfiguration = {
      type: DEBUG_TYPE,
      request: 'launch',
      name: vscode.l10n.t('Debug {0}…', picked.id.slice(0, 12)),
      updateId: picked.id,
      ...(node ? { node } : {}),
    };
    return vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], config);
  });
  // A contract id in Variables or Watch: open it in the contract panel of the session's node.
  register(COMMAND.showContractFromDebugger, (arg?: { variable?: { value?: string } }) => {
    const raw = arg?.variable?.value ?? '';
    let id = raw;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'string') id = parsed;
    } catch {
      // Not quoted: the value as it is.
    }
    const node: unknown = vscode.debug.activeDebugSession?.configuration.node;
    if (classifyLedgerId(id).kind !== 'contract') {
      void vscode.window.showInformationMessage(vscode.l10n.t('This value is not a contract id.'));
      return undefined;
    }
    return runCommand(COMMAND.showContract, id, typeof node === 'string' ? node : undefined);
  });
}
