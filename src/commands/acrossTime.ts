// The questions across time as one bundle of their own (dist/acrossTime.js), loaded by the first of
// their commands: Compare Contracts, Compare with JSON, Mark Ledger Point, What Changed…, Show Active
// Contracts at Offset…, and the payload filter's input.
import type * as vscode from 'vscode';
import { registerChangesCommands, type ChangesDeps } from './changesCommands';
import { registerCompareCommands, type CompareDeps } from './compareCommands';
import { handlerTable, type CommandHandler } from './commandRegistrar';

export { pickPayloadFilter } from '../panels/payloadFilterPick';

export type AcrossTimeDeps = ChangesDeps & CompareDeps;

/** Each command's handler, by id. */
export function acrossTimeHandlers(context: vscode.ExtensionContext, deps: AcrossTimeDeps): Map<string, CommandHandler> {
  return handlerTable(
    (register) => registerCompareCommands(context, deps, register),
    (register) => registerChangesCommands(context, deps, register),
  );
}
