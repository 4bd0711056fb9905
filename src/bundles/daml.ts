// The workspace's Daml against the ledger as one bundle (dist/daml.js): the Daml index and the
// counts of its templates on the node, the CodeLens and hovers of .daml and daml.yaml files, the
// completions of commands requests, Open Daml Definition, Upload and Validate DAR, and the read
// behind the node tree's Packages rows. Loaded by the first of them that is needed.
import type * as vscode from 'vscode';
import { handlerTable, type CommandHandler } from '../commands/commandRegistrar';
import { registerDamlCommands } from '../commands/damlCommands';
import { registerDarCommands } from '../commands/darCommands';
import { commandsCompletionProvider } from '../providers/commandsCompletionProvider';
import { DamlCodeLensProvider } from '../providers/damlCodeLens';
import { DamlYamlLens } from '../providers/damlYamlLens';
import { DamlLedgerCounts } from '../services/damlLedgerCounts';
import { DamlWorkspace } from '../services/damlWorkspace';
import type { ExtensionLog } from '../services/extensionLog';
import type { NodeReader } from '../services/ledgerNodes';
import type { PackagesTreeSection } from '../views/packagesTree';

export { packagesRowItem, packagesRows, readPackages } from '../views/packagesTreeParts';

export interface DamlDeps {
  readonly subscriptions: { dispose(): unknown }[];
  readonly log: ExtensionLog;
  readonly nodes: NodeReader;
  readonly packages: PackagesTreeSection;
  readonly extension: Pick<vscode.ExtensionContext, 'workspaceState'>;
}

export interface Daml {
  readonly workspace: DamlWorkspace;
  readonly counts: DamlLedgerCounts;
  /** CodeLens and hovers of .daml files. */
  readonly codeLens: DamlCodeLensProvider;
  readonly yamlLens: DamlYamlLens;
  readonly completions: vscode.CompletionItemProvider;
  readonly commands: ReadonlyMap<string, CommandHandler>;
}

export function createDaml(deps: DamlDeps): Daml {
  const { nodes, packages } = deps;
  const workspace = new DamlWorkspace(deps.log);
  const counts = new DamlLedgerCounts(nodes);
  const codeLens = new DamlCodeLensProvider(nodes, workspace, counts);
  const yamlLens = new DamlYamlLens(nodes, packages);
  deps.subscriptions.push(workspace, counts, codeLens, yamlLens);
  const commands = handlerTable(
    (register) => registerDamlCommands(workspace, register),
    (register) =>
      registerDarCommands({ subscriptions: deps.subscriptions, nodes, packages, daml: workspace, workspaceState: deps.extension.workspaceState }, register),
  );
  return { workspace, counts, codeLens, yamlLens, completions: commandsCompletionProvider(workspace, nodes), commands };
}
