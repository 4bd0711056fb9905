// How a group of commands is registered: with VS Code directly, or into a table that a lazily loaded
// bundle hands to the registrations made at activation (acrossTimeCommands.ts).
import type * as vscode from 'vscode';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own command callback type
export type CommandHandler = (...args: any[]) => unknown;
export type CommandRegistrar = (command: string, handler: CommandHandler) => vscode.Disposable;
