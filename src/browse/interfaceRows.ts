// The Active Contracts table read by interface: each row is a contract of some template that
// implements the interface, and what the table shows of it is the interface's view (the node
// computes it for an InterfaceFilter with `includeInterfaceView`), not the template's argument. The
// view's fields are the columns, named from the view type in the node's Daml-LF where it is known,
// else from the views that came; a view the node could not compute shows as failed with its status.
// No `vscode` import.
import type { CreatedEvent } from '../ledger/apiTypes';
import { recordFields, resolveEntity } from '../daml/lf/lfCompletions';
import type { PackageSignature } from '../daml/lf/lfSignatures';
import * as l10n from '../l10n/l10n';
import { VIEW_FAILED } from '../protocol/acsRows';

export { VIEW_FAILED };

/** The fields of the interface's view type, in their declared order; undefined when the signatures do not say. */
export function viewColumnsFromLf(sigs: readonly PackageSignature[], interfaceId: string): string[] | undefined {
  const iface = resolveEntity(sigs, interfaceId)?.iface;
  if (!iface) return undefined;
  const fields = recordFields(sigs, iface.viewType).map((f) => f.name);
  return fields.length > 0 ? fields : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field names of the first computed views of these rows (the order of the first, then any others'); undefined when none has a view. */
export function viewColumnsFromValues(rows: readonly CreatedEvent[]): string[] | undefined {
  const names: string[] = [];
  for (const e of rows) {
    const v = e.createArgument;
    if (!isRecord(v) || VIEW_FAILED in v) continue;
    for (const k of Object.keys(v)) if (!names.includes(k)) names.push(k);
    if (names.length > 0) break;
  }
  return names.length > 0 ? names : undefined;
}

type InterfaceView = NonNullable<CreatedEvent['interfaceViews']>[number];

/** `pkg:M:E` and `#name:M:E` of the same entity: the node names views by package id whatever was asked. */
const sameEntity = (asked: string, answered: string) => asked === answered || asked.slice(asked.indexOf(':')) === answered.slice(answered.indexOf(':'));

/** The view of the interface asked for (the one view the filter asks for, when the ids differ in form). */
function viewOf(e: CreatedEvent, interfaceId: string): InterfaceView | undefined {
  const views = e.interfaceViews ?? [];
  return views.find((v) => v.interfaceId === interfaceId) ?? views.find((v) => sameEntity(interfaceId, String(v.interfaceId))) ?? views[0];
}

/** A failed view's status in words: its gRPC code and the node's message. */
export function viewFailure(status: { code?: number | null; message?: string | null } | null | undefined): string {
  if (!status) return l10n.t('The node computed no view.');
  return l10n.t('The view failed (code {0}): {1}', String(status.code ?? ''), String(status.message ?? ''));
}

/**
 * The rows as the interface table shows them: the contract as it is, its argument replaced by its
 * view, in the columns' order when they are known (a field the view lacks left out); a failed or
 * missing view becomes `{ [VIEW_FAILED]: its status in words }`.
 */
export function interfaceRows(events: readonly CreatedEvent[], interfaceId: string, columns: readonly string[] | undefined): CreatedEvent[] {
  return events.map((e) => {
    const view = viewOf(e, interfaceId);
    const ok = view !== undefined && (view.viewStatus?.code ?? 0) === 0 && isRecord(view.viewValue);
    let argument: Record<string, unknown>;
    if (ok) {
      const value = view.viewValue as Record<string, unknown>;
      argument = columns
        ? Object.fromEntries(
            [...columns.filter((c) => Object.hasOwn(value, c)), ...Object.keys(value).filter((k) => !columns.includes(k))].map((k) => [k, value[k]]),
          )
        : value;
    } else argument = { [VIEW_FAILED]: viewFailure(view?.viewStatus) };
    return { ...e, createArgument: argument };
  });
}
