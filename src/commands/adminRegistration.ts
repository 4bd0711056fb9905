// The node administration commands, registered at activation; their code (adminCommands.ts) loads
// from its own bundle, dist/admin.js, on the first use of one.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as AdminModule from './adminCommands';
import type { NodeReader } from '../services/ledgerNodes';
import { ADMIN_COMMANDS } from './adminIds';

export function registerAdminCommands(ctx: { subscriptions: { dispose(): unknown }[]; nodes: NodeReader; bundleDir: string }): void {
  let handlers: ReturnType<typeof AdminModule.adminHandlers> | undefined;
  // A require at first use: a static import would put the commands' code in the activation bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = () => (handlers ??= (require(path.join(ctx.bundleDir, 'admin.js')) as typeof AdminModule).adminHandlers(ctx));
  for (const id of ADMIN_COMMANDS) ctx.subscriptions.push(vscode.commands.registerCommand(id, (arg?: unknown) => load()[id](arg)));
}
