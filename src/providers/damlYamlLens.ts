// Above a daml.yaml's `name:` line: the project's state on the active node (as the tree's Packages
// rows say it), with the action that fits: upload a build that is not there, validate one that
// differs from what the node runs. Read once per node and identity (packagesTree.ts), only while a
// daml.yaml is open and `cantonLens.codeLens.enabled` is on. damlRegistration.ts registers it at
// activation.
import * as vscode from 'vscode';
import type { NodeReader } from '../services/ledgerNodes';
import type { PackagesTreeSection } from '../views/packagesTree';
import { projectOnNode } from '../daml/packageMatch';
import { COMMAND } from '../ids/commandIds';

const enabled = () => vscode.workspace.getConfiguration('cantonLens').get<boolean>('codeLens.enabled', true);

export class DamlYamlLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly nodes: NodeReader,
    private readonly packages: PackagesTreeSection,
  ) {
    this.subscriptions = [packages.onDidChange(() => this.changed.fire()), nodes.onDidChange(() => this.changed.fire()), this.changed];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const node = this.nodes.active();
    if (!enabled() || !node || this.nodes.status(node).state !== 'reachable') return [];
    const line = Math.max(
      0,
      document
        .getText()
        .split(/\r?\n/)
        .findIndex((l) => /^name\s*:/.test(l)),
    );
    const range = new vscode.Range(line, 0, line, 0);
    const loaded = await this.packages.load(node);
    if (token.isCancellationRequested) return [];
    if (loaded.error)
      return [new vscode.CodeLens(range, { title: vscode.l10n.t('Canton: packages on "{0}" not readable', node.name), tooltip: loaded.error, command: '' })];
    const build = loaded.projects.find((p) => vscode.Uri.parse(p.yamlUri).toString() === document.uri.toString());
    if (!build) return [];
    const onNode = projectOnNode(build, loaded.packages ?? []);
    const darUri = build.darUri ? vscode.Uri.parse(build.darUri) : undefined;
    const lens = (title: string, command = '', args: unknown[] = []) => new vscode.CodeLens(range, { title, command, arguments: args });
    switch (onNode.state) {
      case 'vetted':
        return [lens(vscode.l10n.t('Canton: vetted on "{0}" ({1})', node.name, onNode.synchronizers.map((s) => s.split('::')[0]).join(', ')))];
      case 'uploadedNotVetted':
        return loaded.vettingError
          ? [
              new vscode.CodeLens(range, {
                title: vscode.l10n.t('Canton: uploaded to "{0}", vetting not known', node.name),
                tooltip: loaded.vettingError,
                command: '',
              }),
            ]
          : [lens(vscode.l10n.t('Canton: uploaded to "{0}", not vetted', node.name))];
      case 'notUploaded':
        return darUri
          ? [lens(vscode.l10n.t('Canton: not on "{0}" · Upload DAR', node.name), COMMAND.uploadDar, [darUri, node.name])]
          : [lens(vscode.l10n.t('Canton: not on "{0}" (not built here)', node.name))];
      case 'otherBuild':
        return [
          lens(vscode.l10n.t('Canton: "{0}" runs another build of {1} {2}', node.name, build.name, build.version)),
          lens(vscode.l10n.t('Validate DAR on Node'), COMMAND.validateDar, [darUri, node.name]),
        ];
      case 'onNodeNotBuilt':
        return [lens(vscode.l10n.t('Canton: "{0}" has {1} {2} (build here to compare)', node.name, build.name, build.version))];
    }
  }
}
