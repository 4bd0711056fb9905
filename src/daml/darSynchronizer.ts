// Which synchronizer a DAR is validated against or vetted on. A node connected to several refuses
// validation, and an upload that vets, without `synchronizerId`
// (PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER, CantonSyncService.autoDetectSynchronizer): the
// person picks one, and the pick is remembered per node (in the workspace) while the node stays
// connected to it. With one synchronizer the node picks it. No `vscode` import.
import type { GetConnectedSynchronizersResponse } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';

export interface SynchronizerRef {
  alias: string;
  id: string;
}

export type SynchronizerChoice =
  /** None or one connected: send no id, the node decides (and says so if it cannot). */
  | { kind: 'node'; only?: SynchronizerRef }
  /** The remembered pick, still connected. */
  | { kind: 'remembered'; synchronizer: SynchronizerRef }
  /** Several connected, none remembered (or no longer connected): ask. */
  | { kind: 'ask'; choices: SynchronizerRef[] };

/** The node's connected synchronizers, one per id, as the response lists them. */
export function connectedSynchronizers(res: GetConnectedSynchronizersResponse | undefined): SynchronizerRef[] {
  const seen = new Set<string>();
  const out: SynchronizerRef[] = [];
  for (const c of res?.connectedSynchronizers ?? []) {
    if (typeof c?.synchronizerId !== 'string' || !c.synchronizerId || seen.has(c.synchronizerId)) continue;
    seen.add(c.synchronizerId);
    out.push({ alias: typeof c.synchronizerAlias === 'string' ? c.synchronizerAlias : '', id: c.synchronizerId });
  }
  return out;
}

export function synchronizerChoice(connected: readonly SynchronizerRef[], remembered: string | undefined): SynchronizerChoice {
  if (connected.length <= 1) return { kind: 'node', only: connected[0] };
  const still = connected.find((c) => c.id === remembered);
  return still ? { kind: 'remembered', synchronizer: still } : { kind: 'ask', choices: [...connected] };
}

/** The workspaceState key of a node's remembered synchronizer. */
export function rememberedSynchronizerKey(node: string): string {
  return `cantonLens.darSynchronizer:${node}`;
}

/** How a synchronizer is named to a person: its alias, else the first part of its id. */
export function synchronizerName(s: SynchronizerRef): string {
  return s.alias || s.id.split('::')[0] || l10n.t('(unnamed synchronizer)');
}
