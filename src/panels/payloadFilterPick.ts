// The payload filter's input: a quick pick whose value is the filter, whose first item applies it
// (or says what is wrong and where), and whose other items complete the field path, operator or
// keyword at the end of the text from the rows' fields.
import * as vscode from 'vscode';
import { compileFilter, completeFilter, fieldPathsOf } from '../browse/payloadFilter';

/** A payload filter: its text and test, or why the text is not one. */
export type CompiledFilter = { ok: true; text: string; test: (argument: unknown) => boolean } | { ok: false; message: string };

type Item = vscode.QuickPickItem & { apply?: boolean; insert?: { from: number; to: number; text: string } };

/** Asks for a filter over these rows' arguments; undefined when dismissed, an empty text to clear. */
export function pickPayloadFilter(current: string, sample: readonly unknown[], parties: readonly string[]): Promise<CompiledFilter | undefined> {
  const fields = fieldPathsOf(sample, 200);
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Filter on Payload Fields');
  pick.placeholder = vscode.l10n.t('amount > 100 and owner = Alice, status in [Open, Pending], note exists');
  pick.value = current;
  pick.matchOnDescription = false;
  const refresh = () => {
    const text = pick.value;
    const compiled = text.trim() ? compileFilter(text, { parties }) : undefined;
    const first: Item = !text.trim()
      ? { label: vscode.l10n.t('$(clear-all) No filter'), description: vscode.l10n.t('Show every row'), apply: true, alwaysShow: true }
      : compiled?.ok
        ? { label: vscode.l10n.t('$(check) Apply'), description: text, apply: true, alwaysShow: true }
        : {
            label: vscode.l10n.t('$(error) Not a filter yet'),
            description: compiled ? vscode.l10n.t('{0} (column {1})', compiled.message, compiled.position + 1) : '',
            alwaysShow: true,
          };
    const completion = completeFilter(text, text.length, fields);
    pick.items = [
      first,
      ...completion.items
        .slice(0, 50)
        .map((c): Item => ({ label: c.label, description: c.detail, alwaysShow: true, insert: { from: completion.from, to: completion.to, text: c.insert } })),
    ];
  };
  refresh();
  return new Promise((resolve) => {
    let result: CompiledFilter | undefined;
    pick.onDidChangeValue(refresh);
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      if (chosen?.insert) {
        const { from, to, text } = chosen.insert;
        pick.value = pick.value.slice(0, from) + text + pick.value.slice(to);
        refresh();
        return;
      }
      const text = pick.value.trim();
      if (!text) {
        result = { ok: true, text: '', test: () => true };
        return pick.hide();
      }
      const compiled = compileFilter(text, { parties });
      if (!compiled.ok) return;
      result = { ok: true, text, test: compiled.test };
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(result);
    });
    pick.show();
  });
}
