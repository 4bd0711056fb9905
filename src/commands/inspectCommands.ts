// Inspect ids: from the cursor or selection, an argument, or an input box that validates as you type.
// Registered from activate() (src/extension.ts).
import * as vscode from 'vscode';
import { classifyLedgerId } from '../ids/ledgerIds';
import type { PanelTarget, LookupPanels } from '../panels/lookupPanels';
import type { NodeReader } from '../services/ledgerNodes';
import type { CommandRegistrar } from './commandRegistrar';
import { idInEditor } from './idAtCursor';
import { nodeForCommand } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';

type Wanted = 'contract' | 'update' | 'any';

async function askForId(wanted: Wanted): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title:
      wanted === 'contract'
        ? vscode.l10n.t('Look Up a Contract Id')
        : wanted === 'update'
          ? vscode.l10n.t('Look Up an Update Id')
          : vscode.l10n.t('Look Up a Contract or Update Id'),
    prompt:
      wanted === 'update'
        ? vscode.l10n.t('An update id: 1220 followed by 64 hex digits')
        : vscode.l10n.t('A contract id (00… or 01…, lower-case hex) or an update id (1220…)'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (!v.trim()) return undefined;
      const c = classifyLedgerId(v);
      if (c.kind === 'none') return c.reason;
      if (c.kind === 'party') return vscode.l10n.t('This is a party id; enter a contract or update id.');
      if (wanted === 'contract' && c.kind !== 'contract') return vscode.l10n.t('This is an update id; use "Canton: Show Transaction".');
      if (wanted === 'update' && c.kind !== 'update') return vscode.l10n.t('This is a contract id; use "Canton: Show Contract".');
      return undefined;
    },
  });
  return value?.trim().replace(/^["'`]|["'`]$/g, '') || undefined;
}

export function registerInspectCommands(deps: { readonly nodes: NodeReader; readonly panels: LookupPanels }, register: CommandRegistrar): void {
  const { nodes, panels } = deps;
  /** The node to look up on: the one named, else the active node, else ask. */
  const nodeFor = (arg: unknown) => nodeForCommand(nodes, arg, vscode.l10n.t('Look up on which ledger node?'));

  const show = async (wanted: Wanted, idArg: unknown, nodeArg: unknown, from?: unknown): Promise<PanelTarget | undefined> => {
    let id = typeof idArg === 'string' ? idArg.trim() : undefined;
    if (id !== undefined) {
      const c = classifyLedgerId(id);
      if (c.kind === 'none' || c.kind === 'party') {
        void vscode.window.showErrorMessage(
          c.kind === 'none'
            ? vscode.l10n.t('"{0}" is not a contract or update id: {1}', id.slice(0, 80), c.reason)
            : vscode.l10n.t('"{0}" is not a contract or update id: it is a party id.', id.slice(0, 80)),
        );
        return undefined;
      }
    } else {
      const found = idInEditor(vscode.window.activeTextEditor);
      id = found && 'id' in found && found.kind !== 'party' && (wanted === 'any' || found.kind === wanted) ? found.id : await askForId(wanted);
    }
    if (!id) return undefined;
    const kind = classifyLedgerId(id).kind as 'contract' | 'update';
    // Show Contract's prompt accepts an update id too: it opens as what it is.
    if (wanted !== 'any' && kind !== wanted && !(wanted === 'contract' && kind === 'update')) {
      void vscode.window.showErrorMessage(
        kind === 'contract' ? vscode.l10n.t('This is a contract id, not an update id.') : vscode.l10n.t('This is an update id, not a contract id.'),
      );
      return undefined;
    }
    const node = await nodeFor(nodeArg);
    if (!node) return undefined;
    const target: PanelTarget = { kind, id, node: node.name };
    // Reopened from Recent Lookups: who asked then, so the panel can say when it is someone else now.
    const recordedAs = (from as { recordedAs?: unknown } | undefined)?.recordedAs;
    if (typeof recordedAs === 'string') target.recordedAs = recordedAs;
    const panel = panels.show(target);
    // Run Again from the history: asked afresh, not answered from the cache.
    if ((from as { refresh?: unknown } | undefined)?.refresh === true) void panel.askAgain();
    return target;
  };

  const inspectAtCursor = async (): Promise<PanelTarget | undefined> => {
    const found = idInEditor(vscode.window.activeTextEditor);
    if (!found) {
      void vscode.window
        .showInformationMessage(vscode.l10n.t('There is no contract or update id under the cursor.'), vscode.l10n.t('Enter an Id'))
        .then((pick) => (pick ? show('any', undefined, undefined) : undefined));
      return undefined;
    }
    if ('reason' in found) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The selection is not a ledger id: {0}', found.reason));
      return undefined;
    }
    if (found.kind === 'party') {
      void vscode.window
        .showInformationMessage(vscode.l10n.t('This is a party id: {0}', found.id), vscode.l10n.t('Copy'))
        .then((pick) => (pick ? vscode.env.clipboard.writeText(found.id) : undefined));
      return undefined;
    }
    return show(found.kind, found.id, undefined);
  };

  const lookUpOnAllNodes = async (idArg?: unknown): Promise<PanelTarget | undefined> => {
    const found = typeof idArg === 'string' ? { id: idArg } : idInEditor(vscode.window.activeTextEditor);
    const id = found && 'id' in found && ['contract', 'update'].includes(classifyLedgerId(found.id).kind) ? found.id : await askForId('any');
    if (!id || nodes.all().length === 0) return undefined;
    const target: PanelTarget = { kind: 'everywhere', id, node: (nodes.active() ?? nodes.all()[0]).name };
    panels.show(target);
    return target;
  };

  register(COMMAND.inspectAtCursor, inspectAtCursor);
  register(COMMAND.showContract, (id?: unknown, node?: unknown, from?: unknown) => show('contract', id, node, from));
  register(COMMAND.showTransaction, (id?: unknown, node?: unknown, from?: unknown) => show('update', id, node, from));
  register(COMMAND.lookUpOnAllNodes, lookUpOnAllNodes);
}
