// The `canton` debug type as one bundle (dist/debugAdapter.js): the inline adapter (the walk over
// an update's exercise tree, on @vscode/debugadapter), the resolution of launch configurations, and
// Debug Transaction. Loaded when a configuration is resolved or one of its commands runs.
import { handlerTable, type CommandHandler } from '../commands/commandRegistrar';
import { debugging, registerDebugCommands, type DebugDeps, type Debugging } from '../commands/debugCommands';

export interface Debug extends Debugging {
  readonly commands: ReadonlyMap<string, CommandHandler>;
}

export function createDebug(deps: DebugDeps): Debug {
  return { ...debugging(deps), commands: handlerTable((register) => registerDebugCommands(deps, register)) };
}
