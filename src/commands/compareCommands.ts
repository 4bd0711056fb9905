// Canton: Compare Contracts: two contract ids (the arguments; else the cursor's and a pick from the
// recent lookups, pins first; else typed), compared on one node in a panel of their own.
import * as vscode from 'vscode';
import { ContractDiffPanel } from '../panels/contractDiffPanel';
import type { LedgerPanels } from '../panels/ledgerPanel';
import type { LedgerNodes } from '../services/ledgerNodes';
import type { LedgerLookupService } from '../services/lookupService';
import type { RecentLookupStore } from '../services/recentLookupStore';
import { idInEditor } from './inspectCommands';
import { nodeNameOf, resolveNode } from './nodeArgument';
import { pickRecentOrTypedId } from './recentIdPick';

export interface CompareDeps {
  nodes: LedgerNodes;
  lookups: LedgerLookupService;
  panels: LedgerPanels;
  recent: RecentLookupStore;
}

function pickContract(deps: CompareDeps, title: string, except?: string) {
  return pickRecentOrTypedId(deps.recent, { kind: 'contract', title, placeHolder: vscode.l10n.t('A recent contract, or enter an id'), except });
}

export function registerCompareCommands(context: vscode.ExtensionContext, deps: CompareDeps): void {
  const open = new Set<ContractDiffPanel>();
  context.subscriptions.push(
    { dispose: () => open.forEach((p) => p.dispose()) },
    vscode.commands.registerCommand('cantonLens.compareContracts', async (leftArg?: unknown, rightArg?: unknown, nodeArg?: unknown) => {
      const atCursor = idInEditor(vscode.window.activeTextEditor);
      const left =
        typeof leftArg === 'string' && leftArg.trim()
          ? { id: leftArg.trim() }
          : atCursor && 'id' in atCursor && atCursor.kind === 'contract'
            ? { id: atCursor.id }
            : await pickContract(deps, vscode.l10n.t('Compare Contracts: the first contract'));
      if (!left) return undefined;
      const right =
        typeof rightArg === 'string' && rightArg.trim()
          ? { id: rightArg.trim() }
          : await pickContract(deps, vscode.l10n.t('Compare {0}… with', left.id.slice(0, 12)), left.id);
      if (!right) return undefined;
      const named = nodeNameOf(nodeArg) ?? ('node' in right ? right.node : undefined) ?? ('node' in left ? left.node : undefined);
      const node =
        named !== undefined
          ? deps.nodes.find(named)
          : (deps.nodes.active() ?? (await resolveNode(deps.nodes, undefined, vscode.l10n.t('Compare on which ledger node?'))));
      if (!node) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('No ledger node to read the contracts from: add one (Canton: Add Ledger Node) or start the demo ledger.'),
        );
        return undefined;
      }
      const panel = new ContractDiffPanel(context.extensionUri, deps.lookups, deps.panels, node, left.id, right.id);
      open.add(panel);
      panel.onDidDispose(() => open.delete(panel));
      await panel.load();
      return panel;
    }),
  );
}
