// Runs one of the extension's own commands with the arguments its table says it takes.
import * as vscode from 'vscode';
import type { ArgsOf, CommandId } from '../ids/commandIds';

export function runCommand<K extends CommandId>(id: K, ...args: ArgsOf<K>): Thenable<unknown> {
  return vscode.commands.executeCommand(id, ...(args as unknown[]));
}
