// The ledger's history, asked from the editor, as one bundle of its own (dist/ledgerHistory.js), loaded by the first of
// their commands: Compare Contracts, Compare with JSON, Mark Ledger Point, What Changed…, Show Active
// Contracts at Offset…, and the payload filter's input.
import type * as vscode from 'vscode';
import { registerChangesCommands, type ChangesDeps } from './changesCommands';
import { registerCompareCommands, type CompareDeps } from './compareCommands';
import { handlerTable, type CommandHandler } from './commandRegistrar';

export { pickPayloadFilter } from '../panels/payloadFilterPick';

export type LedgerHistoryDeps = ChangesDeps & CompareDeps;

/** Each command's handler, by id. */
export function ledgerHistoryHandlers(context: vscode.ExtensionContext, deps: LedgerHistoryDeps): Map<string, CommandHandler> {
  return handlerTable(
    (register) => registerCompareCommands(context, deps, register),
    (register) => registerChangesCommands(context, deps, register),
  );
}
