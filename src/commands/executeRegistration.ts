// New Execute Request and Execute Submission, registered at activation; their code (the request
// checks, the reviews' owner) loads from dist/execute.js on the first use of one.
import type * as vscode from 'vscode';
import { registerLazyCommands, type CommandHandler } from './commandRegistrar';

const COMMANDS = ['cantonLens.newExecuteRequest', 'cantonLens.executeSubmission'] as const;

export interface ExecuteRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The execute side, loaded on first use. */
  readonly execute: { readonly commands: ReadonlyMap<string, CommandHandler> };
}

export function registerExecuteCommands(ctx: ExecuteRegistrationDeps): void {
  registerLazyCommands(ctx.subscriptions, COMMANDS, () => ctx.execute.commands);
}
