// The external signing commands (prepare, sign with a development key, allocate an external party):
// registered at activation, their code loaded from its own bundle on the first use of one.
import * as vscode from 'vscode';
import { EXTERNAL_SIGNING_COMMANDS, type ExternalSigningCommand } from './externalSigningIds';

export interface ExternalSigningRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The handlers by id, loaded on first use (dist/externalSigning.js). */
  readonly externalSigning: Record<ExternalSigningCommand, (...args: unknown[]) => unknown>;
}

export function registerExternalSigningCommands(ctx: ExternalSigningRegistrationDeps): void {
  for (const id of EXTERNAL_SIGNING_COMMANDS)
    ctx.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => ctx.externalSigning[id](...args)));
}
