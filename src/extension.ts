import type * as vscode from 'vscode';
import { registerDemoLedgerCommands } from './commands/demoLedgerCommands';

export function activate(context: vscode.ExtensionContext): void {
  const userAgent = `canton-lens/${(context.extension.packageJSON as { version: string }).version}`;
  registerDemoLedgerCommands(context, userAgent);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
