// The lookup panels' registrations, made at activation: their commands, whose code (the panels, their
// HTML, Copy as cURL) loads from dist/lookupPanels.js on the first use of one, and the revival of
// the panels a reload left open, which loads that bundle at once.
import * as vscode from 'vscode';
import { registerLazyCommands, type CommandHandler } from './commandRegistrar';

const COMMANDS = [
  'cantonLens.inspectAtCursor',
  'cantonLens.showContract',
  'cantonLens.showTransaction',
  'cantonLens.lookUpOnAllNodes',
  'cantonLens.copyAsCurl',
] as const;

/** The view type of a lookup panel (lookupPanels.ts). */
const VIEW_TYPE = 'cantonLens.ledgerPanel';

export interface LookupPanelRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The panels and their commands, loaded on first use (their serializer registers then). */
  readonly lookupPanels: { readonly commands: ReadonlyMap<string, CommandHandler> };
  readonly lookupPanelsLoaded: boolean;
  readonly log: { error(message: string): void };
}

export function registerLookupPanelCommands(ctx: LookupPanelRegistrationDeps): void {
  registerLazyCommands(ctx.subscriptions, COMMANDS, () => ctx.lookupPanels.commands);
  registerLookupPanelRevival(ctx);
}

/** A lookup panel's tab (VS Code prefixes the view type of an extension's webview). */
function isLookupPanelTab(tab: vscode.Tab): boolean {
  return tab.input instanceof vscode.TabInputWebview && (tab.input.viewType === VIEW_TYPE || tab.input.viewType.endsWith(`-${VIEW_TYPE}`));
}

/**
 * Panels left open by a reload wait for their serializer, which registers with the bundle: when a
 * lookup panel's tab is there (now, or as the tabs are restored), the bundle loads.
 */
function registerLookupPanelRevival(ctx: LookupPanelRegistrationDeps): void {
  const revive = (): boolean => {
    if (ctx.lookupPanelsLoaded) return true;
    for (const group of vscode.window.tabGroups.all)
      for (const tab of group.tabs)
        if (isLookupPanelTab(tab)) {
          // A bundle that fails to load costs the restored panels, never the activation.
          try {
            void ctx.lookupPanels;
          } catch (e) {
            ctx.log.error(`The lookup panels could not be loaded: ${(e as Error).message}`);
            void vscode.window.showErrorMessage(
              vscode.l10n.t('Canton Lens could not load its lookup panels ({0}). Reinstall the extension, or reload the window.', (e as Error).message),
            );
          }
          return true;
        }
    return false;
  };
  if (revive()) return;
  const watch = vscode.window.tabGroups.onDidChangeTabs(() => {
    if (revive()) watch.dispose();
  });
  ctx.subscriptions.push(watch);
}
