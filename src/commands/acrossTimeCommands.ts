// The registrations of the questions across time, made at activation; their code (the diff, the
// lineage, the range reader, the payload filter, the panels) loads from dist/acrossTime.js on the
// first use of one of them.
import * as vscode from 'vscode';
import type { CompiledFilter } from '../panels/payloadFilterPick';
import { loadAcrossTimeBundle } from '../services/lazyBundles';
import type * as AcrossTimeModule from './acrossTime';
import type { CommandHandler } from './commandRegistrar';

const COMMANDS = [
  'cantonLens.compareContracts',
  'cantonLens.compareWithJson',
  'cantonLens.markLedgerPoint',
  'cantonLens.whatChanged',
  'cantonLens.showActiveContractsAt',
] as const;

export interface AcrossTimeAccess {
  /** The payload filter's input (for the Active Contracts table). */
  readonly pickPayloadFilter: (current: string, sample: readonly unknown[], parties: readonly string[]) => Promise<CompiledFilter | undefined>;
}

export function registerAcrossTimeCommands(context: vscode.ExtensionContext, deps: AcrossTimeModule.AcrossTimeDeps): AcrossTimeAccess {
  let mod: typeof AcrossTimeModule | undefined;
  let handlers: Map<string, CommandHandler> | undefined;
  const load = () => (mod ??= loadAcrossTimeBundle(vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath) as typeof AcrossTimeModule);
  const handler = (id: string): CommandHandler => {
    handlers ??= load().acrossTimeHandlers(context, deps);
    const h = handlers.get(id);
    if (!h) throw new Error(vscode.l10n.t('The command {0} is missing from its bundle: reinstall Canton Lens.', id));
    return h;
  };
  for (const id of COMMANDS) context.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => handler(id)(...args)));
  return { pickPayloadFilter: (current, sample, parties) => load().pickPayloadFilter(current, sample, parties) };
}
