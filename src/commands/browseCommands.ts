// Canton: Show Active Contracts and Canton: Follow Updates. Both take their arguments
// from the tree, keybindings or other extensions: (node, parties, templates); without a node they
// use the active node, or ask.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import type { AcsPanels } from '../panels/acsPanel';
import { interfaceRefs } from '../browse/interfaceCounts';
import type { NodeSignaturesReader } from '../daml/lf/lfSignatures';
import { isLedgerApiError } from '../ledger/ledgerApiError';
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
  /** The node's Daml-LF signatures: the interfaces to pick from. */
  readonly signatures: NodeSignaturesReader;
}

export function registerBrowseCommands(ctx: BrowseCommandsDeps, register: CommandRegistrar): void {
  const { nodes, recent } = ctx;
  const nodeFor = (arg: unknown, placeHolder: string) => nodeForCommand(nodes, arg, placeHolder);
  // Into the request history, to open again with the same arguments (the user id only, never a token).
  const remember = (kind: RecentKind, node: Parameters<NodeReader['knownIdentity']>[0], args: BrowseArgs, summary: string) => {
    const askedByUser = nodes.knownIdentity(node)?.user;
    void recent.add({ kind, id: browseKey(args), node: node.name, summary, at: Date.now(), args, ...(askedByUser ? { askedByUser } : {}) });
  };
  /** One of the interfaces the node's packages define (their Daml-LF read from the node). */
  const pickInterface = async (node: Parameters<NodeReader['client']>[0]): Promise<string | undefined> => {
    let refs;
    try {
      const sigs = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t("Reading the node's packages…") }, () =>
        ctx.signatures(nodes.client(node)),
      );
      refs = interfaceRefs(sigs.packages);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not list the interfaces: {0}', isLedgerApiError(e) ? e.explanation : (e as Error).message));
      return undefined;
    }
    if (refs.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t("No interfaces in the node's packages"));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      refs.map((r) => ({ label: `${r.module}:${r.entity}`, description: r.packageName, detail: r.interfaceId, interfaceId: r.interfaceId })),
      { placeHolder: vscode.l10n.t('Which interface? Its views become the columns.'), matchOnDescription: true, matchOnDetail: true },
    );
    return picked?.interfaceId;
  };
  // The fourth argument: { reload: true } is Run Again's (an open table reads the node again);
  // { interfaceId } opens the table of an interface.
  register(COMMAND.showActiveContracts, async (nodeArg?: unknown, partyArg?: unknown, templateArg?: unknown, options?: unknown) => {
    const node = await nodeFor(nodeArg, vscode.l10n.t('Show the active contracts of which ledger node?'));
    if (!node) return undefined;
    const templateId = stringList(templateArg)?.[0];
    const parties = stringList(partyArg);
    const o = options as { reload?: unknown; activeAtOffset?: unknown; interfaceId?: unknown } | undefined;
    // { interfaceId }: the contracts of every template that implements it, its views as the columns.
    const interfaceId = !templateId && typeof o?.interfaceId === 'string' && o.interfaceId ? o.interfaceId : undefined;
    if (!interfaceId)
      remember('activeContracts', node, { ...(parties ? { parties } : {}), ...(templateId ? { templates: [templateId] } : {}) }, vscode.l10n.t('table'));
    const at = typeof o?.activeAtOffset === 'number' && Number.isInteger(o.activeAtOffset) && o.activeAtOffset >= 0 ? o.activeAtOffset : undefined;
    return ctx.browse.acs.show(
      { node: node.name, parties, templateId, ...(interfaceId ? { interfaceId } : {}), ...(at !== undefined ? { activeAtOffset: at } : {}) },
      o?.reload === true,
    );
  });
  register(COMMAND.showInterfaceContracts, async (nodeArg?: unknown, interfaceArg?: unknown) => {
    const node = await nodeFor(nodeArg, vscode.l10n.t('Show the active contracts of an interface on which ledger node?'));
    if (!node) return undefined;
    const interfaceId = typeof interfaceArg === 'string' && interfaceArg ? interfaceArg : await pickInterface(node);
    return interfaceId ? ctx.browse.acs.show({ node: node.name, interfaceId }) : undefined;
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
