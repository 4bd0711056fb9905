// The list of recent lookups: newest first, one entry per id and node, pinned entries kept,
// the others bounded. Pure, so the rules are tested without VS Code.

export interface RecentLookup {
  /** A lookup, or an execute submission (id: its submission id). */
  kind: 'contract' | 'update' | 'submission';
  id: string;
  node: string;
  /** "active · Iou:Iou", "not found"… */
  summary: string;
  at: number;
  pinned?: boolean;
  /** For a submission: the request file. */
  file?: string;
  /** Who asked: the token's user id (the JWT subject, not a secret); unset when not known. Never a token or digest. */
  askedAs?: string;
}

export const MAX_UNPINNED = 30;

const same = (a: RecentLookup, b: Pick<RecentLookup, 'kind' | 'id' | 'node'>) => a.kind === b.kind && a.id === b.id && a.node === b.node;

export function addRecent(list: readonly RecentLookup[], entry: RecentLookup, max = MAX_UNPINNED): RecentLookup[] {
  const previous = list.find((e) => same(e, entry));
  const next = [{ ...entry, pinned: previous?.pinned ?? entry.pinned }, ...list.filter((e) => !same(e, entry))];
  let unpinned = 0;
  return next.filter((e) => e.pinned || ++unpinned <= max);
}

export function setPinned(list: readonly RecentLookup[], target: Pick<RecentLookup, 'kind' | 'id' | 'node'>, pinned: boolean): RecentLookup[] {
  return list.map((e) => (same(e, target) ? { ...e, pinned } : e));
}

/** Clears the unpinned entries; pinned ones stay until unpinned. */
export function clearRecent(list: readonly RecentLookup[]): RecentLookup[] {
  return list.filter((e) => e.pinned);
}

/** Pinned first, then newest first. */
export function ordered(list: readonly RecentLookup[]): RecentLookup[] {
  return [...list].sort((a, b) => Number(Boolean(b.pinned)) - Number(Boolean(a.pinned)) || b.at - a.at);
}

/** Entries from storage that still make sense (storage may hold anything). */
export function validRecent(value: unknown): RecentLookup[] {
  if (!Array.isArray(value)) return [];
  return value.filter((e): e is RecentLookup => typeof e === 'object' && e !== null
    && (e.kind === 'contract' || e.kind === 'update' || e.kind === 'submission') && typeof e.id === 'string' && typeof e.node === 'string'
    && typeof e.summary === 'string' && typeof e.at === 'number')
    .map((e) => (e.askedAs === undefined || typeof e.askedAs === 'string' ? e : { ...e, askedAs: undefined }));
}
