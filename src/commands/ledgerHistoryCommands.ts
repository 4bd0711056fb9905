// The registrations of the ledger history's commands, made at activation; their code (the diff, the
// lineage, the range reader, the payload filter, the panels) loads from dist/ledgerHistory.js on the
// first use of one of them.
import type * as vscode from 'vscode';
import { registerLazyCommands, type CommandHandler } from './commandRegistrar';
import { COMMAND } from '../ids/commandIds';

const COMMANDS = [COMMAND.compareContracts, COMMAND.compareWithJson, COMMAND.markLedgerPoint, COMMAND.whatChanged, COMMAND.showActiveContractsAt] as const;

export interface LedgerHistoryRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The commands' handlers, loaded on first use. */
  readonly ledgerHistoryCommands: ReadonlyMap<string, CommandHandler>;
}

export function registerLedgerHistoryCommands(ctx: LedgerHistoryRegistrationDeps): void {
  registerLazyCommands(ctx.subscriptions, COMMANDS, () => ctx.ledgerHistoryCommands);
}
