// The registrations of the Daml side, made at activation: CodeLens and hovers of .daml files, the
// daml.yaml lens, completions in commands requests, and Open Daml Definition, Upload DAR and
// Validate DAR on Node. Their code (the Daml index among it) loads from dist/daml.js on the first
// use of one, which is when such a file is shown or such a command runs.
import * as vscode from 'vscode';
import { lazyCodeLensProvider, lazyCompletionProvider, lazyHoverProvider } from '../providers/lazyProviders';
import { registerLazyCommands, type CommandHandler } from './commandRegistrar';

const COMMANDS = ['cantonLens.openDamlDefinition', 'cantonLens.uploadDar', 'cantonLens.validateDar'] as const;

const DAML_FILES: vscode.DocumentSelector = [{ language: 'daml' }, { pattern: '**/*.daml' }];

export interface DamlRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The Daml side, loaded on first use. */
  readonly daml: {
    readonly codeLens: vscode.CodeLensProvider & vscode.HoverProvider;
    readonly yamlLens: vscode.CodeLensProvider;
    readonly completions: vscode.CompletionItemProvider;
    readonly commands: ReadonlyMap<string, CommandHandler>;
  };
}

export function registerDaml(ctx: DamlRegistrationDeps): void {
  registerLazyCommands(ctx.subscriptions, COMMANDS, () => ctx.daml.commands);
  const damlLens = lazyCodeLensProvider(() => ctx.daml.codeLens);
  const yamlLens = lazyCodeLensProvider(() => ctx.daml.yamlLens);
  ctx.subscriptions.push(
    damlLens,
    yamlLens,
    vscode.languages.registerCodeLensProvider(DAML_FILES, damlLens),
    vscode.languages.registerHoverProvider(
      DAML_FILES,
      lazyHoverProvider(() => ctx.daml.codeLens),
    ),
    vscode.languages.registerCodeLensProvider({ pattern: '**/daml.yaml' }, yamlLens),
    vscode.languages.registerCompletionItemProvider(
      { pattern: '**/*.commands.json' },
      lazyCompletionProvider(() => ctx.daml.completions),
      '"',
    ),
  );
}
