// Canton: Open Daml Definition: a template, interface or choice name from the ledger
// opens where the workspace's Daml source defines it; a pick when several packages (or versions)
// do, and a message saying what was searched when none does.
import * as vscode from 'vscode';
import type { DamlMatch, DamlRef, DamlTarget } from '../daml/damlIndex';
import type { DamlWorkspace } from '../services/damlWorkspace';
import type { CommandRegistrar } from './commandRegistrar';
import { COMMAND } from '../ids/commandIds';

/** The command's arguments: (templateId, choice?, packageName?) or one { templateId, choice, packageName }. */
export function damlRefOf(templateArg: unknown, choiceArg?: unknown, packageArg?: unknown): DamlRef | undefined {
  if (typeof templateArg === 'object' && templateArg !== null) {
    const o = templateArg as Record<string, unknown>;
    // A tree row of the Active Contracts section: { kind: 'browse', item: { templateId, packageName } }.
    const item = typeof o.item === 'object' && o.item !== null ? (o.item as Record<string, unknown>) : o;
    return damlRefOf(item.templateId, item.choice, item.packageName);
  }
  if (typeof templateArg !== 'string' || templateArg.length === 0 || templateArg.length > 1000 || !templateArg.includes(':')) return undefined;
  const ref: DamlRef = { templateId: templateArg };
  if (typeof choiceArg === 'string' && choiceArg.length > 0 && choiceArg.length <= 1000) ref.choice = choiceArg;
  if (typeof packageArg === 'string' && packageArg.length > 0 && packageArg.length <= 1000) ref.packageName = packageArg;
  return ref;
}

function describe(m: DamlMatch, choice: string | undefined): string {
  const what = `${m.module}:${m.entity}`;
  const inPackage = m.packageName ? vscode.l10n.t(' of package {0}', m.packageName) : '';
  return choice ? vscode.l10n.t('choice {0} of {1}{2}', choice, what, inPackage) : `${what}${inPackage}`;
}

export async function openDamlTarget(t: DamlTarget): Promise<vscode.TextEditor> {
  const range = new vscode.Range(t.line, t.column, t.line, t.column + t.length);
  const column = vscode.window.visibleTextEditors[0]?.viewColumn ?? vscode.ViewColumn.One;
  return vscode.window.showTextDocument(vscode.Uri.parse(t.file), { selection: range, viewColumn: column, preview: true });
}

export function registerDamlCommands(daml: DamlWorkspace, register: CommandRegistrar): void {
  register(COMMAND.openDamlDefinition, async (templateArg?: unknown, choiceArg?: unknown, packageArg?: unknown) => {
    let ref = damlRefOf(templateArg, choiceArg, packageArg);
    // Called with something that is not a template id (a link, another extension): nothing to ask.
    if (!ref && templateArg !== undefined) return undefined;
    if (!ref) {
      const typed = await vscode.window.showInputBox({
        prompt: vscode.l10n.t('A template or interface id: <package id>:Module:Entity, #<package name>:Module:Entity or Module:Entity'),
        validateInput: (v) => (damlRefOf(v.trim()) ? undefined : vscode.l10n.t('Module and entity are separated by ":", e.g. Iou:Iou')),
      });
      ref = typed ? damlRefOf(typed.trim()) : undefined;
      if (!ref) return undefined;
    }
    const index = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Indexing Daml files…'), cancellable: true },
      (_p, token) => daml.ready(token),
    );
    if (!index) return undefined;
    const m = index.find(ref);
    if (!m) {
      void vscode.window.showWarningMessage(vscode.l10n.t('"{0}" is not a template or interface id.', ref.templateId));
      return undefined;
    }
    if (m.targets.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'No Daml source defines {0}: searched {1} ({2} files) for template or interface {3} in module {4}.',
          describe(m, ref.choice),
          daml.stats.scope,
          daml.stats.files,
          m.entity,
          m.module,
        ),
      );
      return undefined;
    }
    if (m.choiceMissing) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          '{0} declares no choice {1} (it may come through an interface): showing the {2}.',
          `${m.module}:${m.entity}`,
          ref.choice ?? '',
          m.targets[0].kind,
        ),
      );
    }
    let target: DamlTarget | undefined = m.targets[0];
    if (m.targets.length > 1 || !m.exact) {
      const items = m.targets.map((t) => ({
        label: `${t.packageName ?? vscode.l10n.t('(no daml.yaml)')}${t.packageVersion ? ` ${t.packageVersion}` : ''}`,
        description: `${vscode.workspace.asRelativePath(vscode.Uri.parse(t.file))}:${t.line + 1}`,
        detail: t.choice ? `${t.module}:${t.entity} · ${t.choice}` : `${t.kind} ${t.module}:${t.entity}`,
        target: t,
      }));
      const placeHolder = m.exact
        ? vscode.l10n.t('{0} is defined in {1} places: which one?', describe(m, ref.choice), m.targets.length)
        : vscode.l10n.t('Package {0} defines no {1} here; other packages do:', m.packageName ?? '', `${m.module}:${m.entity}`);
      target = (await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true }))?.target;
    }
    if (!target) return undefined;
    await openDamlTarget(target);
    return target;
  });
}
