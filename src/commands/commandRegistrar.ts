// How a feature registers its commands: its `register*(deps, register)` calls `register(id, handler)`
// once per command, and activate() hands every feature the same registrar (commandRegistrar), so each
// command is written in one place. The features of a lazy bundle (the ledger history, the debug
// type) fill a table instead (handlerTable), which registerLazyCommands hands on to on first call.
import * as vscode from 'vscode';
import type { CommandId } from '../ids/commandIds';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own command callback type
export type CommandHandler = (...args: any[]) => unknown;
export type CommandRegistrar = (command: CommandId, handler: CommandHandler) => vscode.Disposable;

/** Registers with VS Code; each command is disposed with the extension. */
export function commandRegistrar(subscriptions: { dispose(): unknown }[]): CommandRegistrar {
  return (id, handler) => {
    const registration = vscode.commands.registerCommand(id, handler);
    subscriptions.push(registration);
    return registration;
  };
}

/** The handlers that `register` functions make, by id (inside a lazy bundle: nothing reaches VS Code). */
export function handlerTable(...registers: ((register: CommandRegistrar) => void)[]): Map<string, CommandHandler> {
  const handlers = new Map<string, CommandHandler>();
  const register: CommandRegistrar = (id, handler) => {
    handlers.set(id, handler);
    return { dispose: () => handlers.delete(id) };
  };
  for (const r of registers) r(register);
  return handlers;
}

/**
 * Registers `ids` with VS Code now; their handlers come from `load` (a lazy bundle's table) on the
 * first call of one, so the command works from the palette, a menu or another extension alike.
 */
export function registerLazyCommands(
  subscriptions: { dispose(): unknown }[],
  ids: readonly CommandId[],
  load: () => ReadonlyMap<string, CommandHandler>,
): void {
  let handlers: ReadonlyMap<string, CommandHandler> | undefined;
  const handler = (id: string): CommandHandler => {
    handlers ??= load();
    const h = handlers.get(id);
    if (!h) throw new Error(vscode.l10n.t('The command {0} is missing from its bundle: reinstall Canton Lens.', id));
    return h;
  };
  for (const id of ids) subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => handler(id)(...args)));
}
