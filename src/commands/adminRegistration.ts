// The Administration view's commands, registered at activation: the view's own (filter, refresh,
// more rows) run here; the changes to a node (adminCommands.ts and its siblings) load from
// dist/nodeAdministration.js on the first one asked for.
import * as vscode from 'vscode';
import { COMMAND } from '../ids/commandIds';
import type { AdminTreeProvider } from '../views/adminTree';
import { ADMIN_COMMANDS } from './adminIds';
import { registerLazyCommands, type CommandHandler, type CommandRegistrar } from './commandRegistrar';

export interface AdminRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  readonly adminView: AdminTreeProvider;
  /** The changes' handlers, loaded on first use. */
  readonly adminChangeCommands: ReadonlyMap<string, CommandHandler>;
}

export function registerAdminCommands(ctx: AdminRegistrationDeps, register: CommandRegistrar): void {
  registerLazyCommands(ctx.subscriptions, ADMIN_COMMANDS, () => ctx.adminChangeCommands);
  register(COMMAND.filterAdminView, async (arg?: unknown) => {
    const text =
      typeof arg === 'string'
        ? arg
        : await vscode.window.showInputBox({
            prompt: vscode.l10n.t('Show the users and parties whose id, primary party, identity provider or annotations hold this text'),
            value: ctx.adminView.filter,
          });
    if (text !== undefined) ctx.adminView.setFilter(text);
  });
  register(COMMAND.clearAdminFilter, () => ctx.adminView.setFilter(''));
  register(COMMAND.refreshAdminView, () => ctx.adminView.refresh());
  register(COMMAND.adminLoadMore, (section: unknown) => (section === 'users' || section === 'parties' ? ctx.adminView.more(section) : undefined));
}
