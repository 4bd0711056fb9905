// The call stack's pieces: a frame's name, where its source is (the Daml declaration in the
// workspace's index, else the event's JSON as a read-only document), and a refused range explained.
// No `vscode` import.
import type { DamlIndex } from '../daml/damlIndex';
import { shortenPartyId } from '../ids/ledgerIds';
import { templateName } from '../ids/templateNames';
import { earliestOffsetOf, isLedgerApiError } from '../ledger/ledgerApiError';
import { nodeAt, updateIdOf, updateOffset, type LoadedUpdate } from './debugProgram';
import * as l10n from '../l10n/l10n';

export type FrameLocation =
  { kind: 'daml'; path: string; line: number; column: number; origin?: string } | { kind: 'virtual'; name: string; content: () => string };

/** Where a frame points: its choice's (or template's) declaration, else the event's JSON. Zero-based. */
export function frameLocation(u: LoadedUpdate, node: number, index: DamlIndex | undefined, pathOf: (indexedFile: string) => string): FrameLocation {
  const n = nodeAt(u, node);
  const templateId = n?.kind === 'exercised' ? (n.event.interfaceId ?? n.event.templateId) : n?.event.templateId;
  const choice = n?.kind === 'exercised' ? n.event.choice : undefined;
  const match =
    index && templateId ? index.find({ templateId, choice, packageName: (n?.event as { packageName?: string } | undefined)?.packageName }) : undefined;
  const target = match?.targets[0];
  if (target && !(choice && match?.choiceMissing)) {
    const origin =
      match?.exact === false
        ? l10n.t('package {0} has no such declaration in the workspace: the source may not be what ran', match.packageName ?? '')
        : undefined;
    return { kind: 'daml', path: pathOf(target.file), line: target.line, column: target.column, ...(origin ? { origin } : {}) };
  }
  const value = n ? n.event : u.update.value;
  return {
    kind: 'virtual',
    name: `${node >= 0 ? `node ${(n?.event as { nodeId?: number }).nodeId}` : u.update.kind} ${updateIdOf(u.update).slice(0, 12)}.json`,
    content: () => JSON.stringify(value, null, 2),
  };
}

/** A range the node refuses, with what to do: start after the pruning point, end at the ledger end. */
export function rangeError(e: unknown, from: number, end: number): unknown {
  if (!isLedgerApiError(e)) return e;
  const code = e.cantonError?.code;
  if (code === 'PARTICIPANT_PRUNED_DATA_ACCESSED') {
    const earliest = earliestOffsetOf(e.cantonError);
    return new Error(
      earliest !== undefined
        ? l10n.t('The node has pruned the updates up to offset {0}: set "fromOffset" to {0} or later (it was {1}).', earliest, from)
        : l10n.t('The node has pruned updates after offset {0}: set a later "fromOffset". ({1})', from, e.explanation),
    );
  }
  if (code === 'OFFSET_AFTER_LEDGER_END')
    return new Error(l10n.t('Offset {0} is after the node\u2019s ledger end: set "toOffset" to the ledger end or leave it out. ({1})', end, e.explanation));
  return e;
}

/** A frame's name: `Module:Template.Choice (acting parties)`, `create Module:Template`, or the update. */
export function frameName(u: LoadedUpdate, node: number): string {
  const n = nodeAt(u, node);
  if (!n) {
    const offset = updateOffset(u.update);
    if (u.update.kind === 'failedCommand') return l10n.t('failed command {0}', String((u.update.value as { commandId?: string }).commandId ?? ''));
    return l10n.t('{0} at offset {1}', u.update.kind, offset === undefined ? '?' : offset);
  }
  if (n.kind === 'exercised') {
    const on = templateName(n.event.interfaceId ?? n.event.templateId ?? '');
    const acting = (n.event.actingParties ?? []).map(shortenPartyId).join(', ');
    return `${on}.${n.event.choice}${acting ? ` (${acting})` : ''}`;
  }
  if (n.kind === 'created') return l10n.t('create {0}', templateName(n.event.templateId ?? ''));
  return l10n.t('archive {0}', templateName(n.event.templateId ?? ''));
}
