// The history of requests (the tree's Recent Lookups): newest first, one entry per request and
// node, pinned entries kept, the others bounded. Pure, so the rules are tested without VS Code.

export type RecentKind = 'contract' | 'update' | 'submission' | 'activeContracts' | 'followUpdates';
const KINDS: readonly RecentKind[] = ['contract', 'update', 'submission', 'activeContracts', 'followUpdates'];
/** Kinds stored under an earlier name. */
const RENAMED_KINDS: Readonly<Record<string, RecentKind>> = { tail: 'followUpdates' };

/** What an Active Contracts table or a Follow Updates panel was opened with, to open it again the same way. */
export interface BrowseArgs {
  parties?: string[];
  templates?: string[];
}

export interface RecentLookup {
  /** A lookup, an execute submission (id: its submission id), an Active Contracts table or a Follow Updates panel (id: browseKey of its args). */
  kind: RecentKind;
  id: string;
  node: string;
  /** "active · Iou:Iou", "not found"… */
  summary: string;
  at: number;
  pinned?: boolean;
  /** For a submission: the request file. */
  file?: string;
  /** Who asked: the token's user id (the JWT subject, not a secret); unset when not known. Never a token or digest. */
  askedByUser?: string;
  /** For a table or a Follow Updates panel: its parties and templates. */
  args?: BrowseArgs;
}

/** One history entry per node and set of arguments of a table or Follow Updates panel. */
export function browseKey(args: BrowseArgs): string {
  const list = (xs: string[] | undefined) => (xs && xs.length > 0 ? [...xs].sort().join(',') : '*');
  return `${list(args.templates)} for ${list(args.parties)}`;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

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
  return (
    (value as unknown[])
      .map((x) => {
        const kind = (x as { kind?: unknown } | null)?.kind;
        return typeof kind === 'string' && kind in RENAMED_KINDS ? { ...(x as object), kind: RENAMED_KINDS[kind] } : x;
      })
      .filter((x): x is RecentLookup => {
        const e = x as Partial<Record<keyof RecentLookup, unknown>> | null;
        return (
          typeof e === 'object' &&
          e !== null &&
          KINDS.includes(e.kind as RecentKind) &&
          typeof e.id === 'string' &&
          typeof e.node === 'string' &&
          typeof e.summary === 'string' &&
          typeof e.at === 'number'
        );
      })
      // Entries stored before the field was named askedByUser kept it as askedAs.
      .map(({ askedAs, ...e }: RecentLookup & { askedAs?: unknown }) => {
        const user = e.askedByUser ?? askedAs;
        return { ...e, askedByUser: typeof user === 'string' ? user : undefined };
      })
      .map((e) => {
        if (e.args === undefined) return e;
        const a = e.args as unknown as Record<string, unknown> | null;
        const args = { parties: strings(a?.parties), templates: strings(a?.templates) };
        return { ...e, args: { ...(args.parties ? { parties: args.parties } : {}), ...(args.templates ? { templates: args.templates } : {}) } };
      })
  );
}
