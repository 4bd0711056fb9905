// The inner loop's commands: New Commands Request, Submit Commands, Follow Completions, Exercise on
// the Ledger… (the Daml choice lens). Only the registrations load with the extension; the loop
// itself (requests, review, completions) is its own bundle, required on first use.
import * as vscode from 'vscode';
import { isCommandsFile } from '../execute/commandsRequest';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import type * as LoopModule from './commandsLoop';
import { nodeNameOf, resolveNode, nodeForCommand } from './nodeArgument';

export interface CommandsLoopAccess {
  /** The loop, loaded on first use. */
  load(): LoopModule.CommandsLoop;
  /** The loop if it was loaded (tests, the API). */
  loaded(): LoopModule.CommandsLoop | undefined;
}

export interface CommandsLoopRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  readonly nodes: NodeReader;
  /** The loop, loaded on first use. */
  readonly commandsLoop: LoopModule.CommandsLoop;
}

export function registerCommandsLoop(ctx: CommandsLoopRegistrationDeps): void {
  const nodeFor = (arg: unknown, placeHolder: string): Promise<NodeConfig | undefined> => nodeForCommand(ctx.nodes, arg, placeHolder);

  ctx.subscriptions.push(
    vscode.commands.registerCommand('cantonLens.newCommandsRequest', async (targetArg?: unknown, nodeArg?: unknown) => {
      const node = nodeNameOf(nodeArg) !== undefined ? await resolveNode(ctx.nodes, nodeArg, '') : ctx.nodes.active();
      return ctx.commandsLoop.newRequest(node, targetArg instanceof vscode.Uri ? targetArg : undefined);
    }),
    vscode.commands.registerCommand('cantonLens.submitCommands', async (fileArg?: unknown, nodeArg?: unknown) => {
      let uri = fileArg instanceof vscode.Uri ? fileArg : typeof fileArg === 'string' ? vscode.Uri.parse(fileArg) : undefined;
      const active = vscode.window.activeTextEditor?.document.uri;
      if (!uri && active && isCommandsFile(active.path)) uri = active;
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({
          title: vscode.l10n.t('Submit Which Commands?'),
          filters: { 'Commands requests': ['commands.json', 'json'] },
          canSelectMany: false,
        });
        uri = picked?.[0];
      }
      if (!uri) return undefined;
      const node = await nodeFor(nodeArg, vscode.l10n.t('Submit to which ledger node?'));
      if (!node) return undefined;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (doc?.isDirty) await doc.save();
      return ctx.commandsLoop.submit(uri, node);
    }),
    vscode.commands.registerCommand('cantonLens.followCompletions', async (nodeArg?: unknown, beginArg?: unknown) => {
      const node = await nodeFor(nodeArg, vscode.l10n.t('Follow the completions of which ledger node?'));
      if (!node) return undefined;
      return ctx.commandsLoop.follow(node, typeof beginArg === 'number' && Number.isSafeInteger(beginArg) && beginArg >= 0 ? beginArg : undefined);
    }),
    vscode.commands.registerCommand('cantonLens.exerciseOnLedger', async (targetArg?: unknown, nodeArg?: unknown, fileArg?: unknown) => {
      const t = targetArg as Partial<LoopModule.ChoiceTarget> | undefined;
      if (!t || typeof t.file !== 'string' || typeof t.line !== 'number' || !t.module || !t.template || !t.choice) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Exercise on the Ledger… runs from the lens above a choice in a .daml file.'));
        return undefined;
      }
      const node = await nodeFor(nodeArg, vscode.l10n.t('Exercise on which ledger node?'));
      if (!node) return undefined;
      return ctx.commandsLoop.exercise(node, t as LoopModule.ChoiceTarget, fileArg instanceof vscode.Uri ? fileArg : undefined);
    }),
    // A contract panel's actions: the argument is checked in the loop's bundle (contractCommands.ts).
    vscode.commands.registerCommand('cantonLens.exerciseContract', (contractArg?: unknown, fileArg?: unknown) =>
      ctx.commandsLoop.contracts.exercise(contractArg, fileArg instanceof vscode.Uri ? fileArg : undefined),
    ),
    vscode.commands.registerCommand('cantonLens.addDisclosedContract', (contractArg?: unknown, fileArg?: unknown) =>
      ctx.commandsLoop.contracts.addDisclosed(contractArg, fileArg instanceof vscode.Uri ? fileArg : undefined),
    ),
  );
}
