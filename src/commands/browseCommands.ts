// Canton: Show Active Contracts and Canton: Follow Updates. Both take their arguments
// from the tree, keybindings or other extensions: (node, parties, templates); without a node they
// use the active node, or ask.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import type { AcsPanels } from '../panels/acsPanel';
import type { UpdatesPanels } from '../panels/updatesPanel';
import { browseKey, type BrowseArgs, type RecentKind } from '../lookups/recentLookups';
import type { NodeReader } from '../services/ledgerNodes';
import type { RecentLookupStore } from '../services/recentLookupStore';
import type { BrowseTreeSection } from '../views/browseTree';
import { nodeNameOf, stringList, nodeForCommand } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';

export interface BrowseCommandsDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  readonly nodes: NodeReader;
  readonly recent: RecentLookupStore;
  readonly browseTree: BrowseTreeSection;
  /** The tables and Follow Updates panels, loaded by the first command that opens one. */
  readonly browse: { readonly acs: AcsPanels; readonly updates: UpdatesPanels };
}

export function registerBrowseCommands(ctx: BrowseCommandsDeps, register: CommandRegistrar): void {
  const { nodes, recent } = ctx;
  const nodeFor = (arg: unknown, placeHolder: string) => nodeForCommand(nodes, arg, placeHolder);
  // Into the request history, to open again with the same arguments (the user id only, never a token).
  const remember = (kind: RecentKind, node: Parameters<NodeReader['knownIdentity']>[0], args: BrowseArgs, summary: string) => {
    const askedByUser = nodes.knownIdentity(node)?.user;
    void recent.add({ kind, id: browseKey(args), node: node.name, summary, at: Date.now(), args, ...(askedByUser ? { askedByUser } : {}) });
  };
  // The fourth argument, { reload: true }, is Run Again's: an open table reads the node again.
  register(COMMAND.showActiveContracts, async (nodeArg?: unknown, partyArg?: unknown, templateArg?: unknown, options?: unknown) => {
    const node = await nodeFor(nodeArg, vscode.l10n.t('Show the active contracts of which ledger node?'));
    if (!node) return undefined;
    const templateId = stringList(templateArg)?.[0];
    const parties = stringList(partyArg);
    remember('activeContracts', node, { ...(parties ? { parties } : {}), ...(templateId ? { templates: [templateId] } : {}) }, vscode.l10n.t('table'));
    const o = options as { reload?: unknown; activeAtOffset?: unknown } | undefined;
    const at = typeof o?.activeAtOffset === 'number' && Number.isInteger(o.activeAtOffset) && o.activeAtOffset >= 0 ? o.activeAtOffset : undefined;
    return ctx.browse.acs.show({ node: node.name, parties, templateId, ...(at !== undefined ? { activeAtOffset: at } : {}) }, o?.reload === true);
  });
  register(COMMAND.followUpdates, async (nodeArg?: unknown, partiesArg?: unknown, templatesArg?: unknown, startArg?: unknown) => {
    const node = await nodeFor(nodeArg, vscode.l10n.t('Follow the updates of which ledger node?'));
    if (!node) return undefined;
    const start = typeof startArg === 'number' && Number.isInteger(startArg) && startArg >= 0 ? startArg : undefined;
    const parties = stringList(partiesArg);
    const templates = stringList(templatesArg);
    remember('followUpdates', node, { ...(parties ? { parties } : {}), ...(templates ? { templates } : {}) }, vscode.l10n.t('Follow Updates'));
    return ctx.browse.updates.show({ node: node.name, parties, templates, start });
  });
  register(COMMAND.refreshActiveContracts, (nodeArg?: unknown) => {
    const name = nodeNameOf(nodeArg);
    if (name) ctx.browseTree.refresh(name);
  });
}
