// The `canton` debug type's registrations, made at activation: the adapter's factory, the
// configurations' provider and the debug commands, whose code loads from dist/debugAdapter.js when
// a configuration is resolved or a command runs.
import * as vscode from 'vscode';
import { registerLazyCommands, type CommandHandler } from './commandRegistrar';
import { COMMAND } from '../ids/commandIds';

const DEBUG_TYPE = 'canton';

const COMMANDS = [COMMAND.debugTransaction, COMMAND.showContractFromDebugger] as const;

export interface DebugRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The debug side, loaded on first use. */
  readonly debug: {
    readonly descriptors: vscode.DebugAdapterDescriptorFactory;
    readonly configurations: vscode.DebugConfigurationProvider;
    readonly commands: ReadonlyMap<string, CommandHandler>;
  };
}

export function registerDebugging(ctx: DebugRegistrationDeps): void {
  registerLazyCommands(ctx.subscriptions, COMMANDS, () => ctx.debug.commands);
  ctx.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: (session, executable) => ctx.debug.descriptors.createDebugAdapterDescriptor(session, executable),
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration: (folder, config, token) => {
        const provider = ctx.debug.configurations;
        return provider.resolveDebugConfiguration ? provider.resolveDebugConfiguration(folder, config, token) : config;
      },
    }),
  );
}
