// The Daml side's registrations: CodeLens and hovers of .daml files, the daml.yaml lens, completions
// in commands requests, and Open Daml Definition, Upload DAR and Validate DAR on Node.
import * as vscode from 'vscode';
import type { DamlCodeLensProvider } from '../providers/damlCodeLens';
import type { DamlWorkspace } from '../services/damlWorkspace';
import type { CommandRegistrar } from './commandRegistrar';
import { registerDamlCommands } from './damlCommands';
import { registerDarCommands, type DarCommandsDeps } from './darCommands';

const DAML_FILES: vscode.DocumentSelector = [{ language: 'daml' }, { pattern: '**/*.daml' }];

export interface DamlRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  readonly nodes: DarCommandsDeps['nodes'];
  readonly packages: DarCommandsDeps['packages'];
  readonly extension: Pick<vscode.ExtensionContext, 'workspaceState'>;
  readonly daml: {
    readonly workspace: DamlWorkspace;
    readonly codeLens: DamlCodeLensProvider;
    readonly yamlLens: vscode.CodeLensProvider;
    readonly completions: vscode.CompletionItemProvider;
  };
}

export function registerDaml(ctx: DamlRegistrationDeps, register: CommandRegistrar): void {
  const { daml } = ctx;
  registerDamlCommands(daml.workspace, register);
  registerDarCommands(
    { subscriptions: ctx.subscriptions, nodes: ctx.nodes, packages: ctx.packages, daml: daml.workspace, workspaceState: ctx.extension.workspaceState },
    register,
  );
  ctx.subscriptions.push(
    vscode.languages.registerCodeLensProvider(DAML_FILES, daml.codeLens),
    vscode.languages.registerHoverProvider(DAML_FILES, daml.codeLens),
    vscode.languages.registerCodeLensProvider({ pattern: '**/daml.yaml' }, daml.yamlLens),
    vscode.languages.registerCompletionItemProvider({ pattern: '**/*.commands.json' }, daml.completions, '"'),
  );
}
