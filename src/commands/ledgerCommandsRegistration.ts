// The ledger commands loop's VS Code commands: New Commands Request, Submit Commands, Follow Completions, Exercise on
// the Ledger… (the Daml choice lens). Only the registrations load with the extension; the loop
// itself (requests, review, completions) is its own bundle, required on first use.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import { isCommandsFile } from '../execute/commandsRequest';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import type * as LoopModule from './ledgerCommandsLoop';
import { nodeNameOf, resolveNode, nodeForCommand } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';

export interface LedgerCommandsLoopAccess {
  /** The loop, loaded on first use. */
  load(): LoopModule.LedgerCommandsLoop;
  /** The loop if it was loaded (tests, the API). */
  loaded(): LoopModule.LedgerCommandsLoop | undefined;
}

export interface LedgerCommandsLoopRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  readonly nodes: NodeReader;
  /** The loop, loaded on first use. */
  readonly ledgerCommandsLoop: LoopModule.LedgerCommandsLoop;
}

export function registerLedgerCommands(ctx: LedgerCommandsLoopRegistrationDeps, register: CommandRegistrar): void {
  const nodeFor = (arg: unknown, placeHolder: string): Promise<NodeConfig | undefined> => nodeForCommand(ctx.nodes, arg, placeHolder);

  register(COMMAND.newCommandsRequest, async (targetArg?: unknown, nodeArg?: unknown) => {
    const node = nodeNameOf(nodeArg) !== undefined ? await resolveNode(ctx.nodes, nodeArg, '') : ctx.nodes.active();
    return ctx.ledgerCommandsLoop.newRequest(node, targetArg instanceof vscode.Uri ? targetArg : undefined);
  });
  register(COMMAND.submitCommands, async (fileArg?: unknown, nodeArg?: unknown) => {
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
    return ctx.ledgerCommandsLoop.submit(uri, node);
  });
  register(COMMAND.followCompletions, async (nodeArg?: unknown, beginArg?: unknown) => {
    const node = await nodeFor(nodeArg, vscode.l10n.t('Follow the completions of which ledger node?'));
    if (!node) return undefined;
    return ctx.ledgerCommandsLoop.follow(node, typeof beginArg === 'number' && Number.isSafeInteger(beginArg) && beginArg >= 0 ? beginArg : undefined);
  });
  register(COMMAND.exerciseOnLedger, async (targetArg?: unknown, nodeArg?: unknown, fileArg?: unknown) => {
    const t = targetArg as Partial<LoopModule.ChoiceTarget> | undefined;
    if (!t || typeof t.file !== 'string' || typeof t.line !== 'number' || !t.module || !t.template || !t.choice) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Exercise on the Ledger… runs from the lens above a choice in a .daml file.'));
      return undefined;
    }
    const node = await nodeFor(nodeArg, vscode.l10n.t('Exercise on which ledger node?'));
    if (!node) return undefined;
    return ctx.ledgerCommandsLoop.exercise(node, t as LoopModule.ChoiceTarget, fileArg instanceof vscode.Uri ? fileArg : undefined);
  });
  // A contract panel's actions: the argument is checked in the loop's bundle (contractCommands.ts).
  register(COMMAND.exerciseContract, (contractArg?: unknown, fileArg?: unknown) =>
    ctx.ledgerCommandsLoop.contracts.exercise(contractArg, fileArg instanceof vscode.Uri ? fileArg : undefined),
  );
  register(COMMAND.addDisclosedContract, (contractArg?: unknown, fileArg?: unknown) =>
    ctx.ledgerCommandsLoop.contracts.addDisclosed(contractArg, fileArg instanceof vscode.Uri ? fileArg : undefined),
  );
}
