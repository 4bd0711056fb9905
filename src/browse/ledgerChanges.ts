// What changed on a ledger between two offsets, for the token's parties: the contracts created,
// archived, and created then archived inside the range. Built from the range's transactions in
// ACS-delta shape (each create and archive once), or from the active sets at both ends compared.
// The range is checked before it is read: a pruned start, an end after the ledger end, an empty
// range each get a sentence and the offsets to use instead. No `vscode` import.
import type { CreatedEvent } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';

export type ChangeKind = 'created' | 'archived' | 'createdAndArchived';

export interface ChangePoint {
  offset: number;
  updateId: string;
  /** The transaction's effective time (ISO). */
  at?: string;
  /** The consuming choice that archived it (read in ledger-effects shape only). */
  choice?: string;
}

export interface ContractChange {
  contractId: string;
  templateId: string;
  packageName?: string;
  kind: ChangeKind;
  /** Where it was created, when inside the range (or known from its create event). */
  created?: ChangePoint;
  /** Where it was archived, when inside the range (the active-set comparison does not know). */
  archived?: ChangePoint;
  /** The create argument, when its create was read. */
  argument?: unknown;
}

export interface ChangeCounts {
  created: number;
  archived: number;
  createdAndArchived: number;
  /** Transactions read. */
  transactions: number;
}

/** A transaction of `/v2/updates` in ACS-delta shape, as far as the changes need it. */
export interface DeltaTransaction {
  updateId?: string;
  offset?: number;
  effectiveAt?: string;
  events?: unknown[];
}

interface ArchivedLike {
  contractId?: unknown;
  templateId?: string;
  /** A consuming exercise (ledger-effects shape): its choice and whether it consumed the contract. */
  choice?: unknown;
  consuming?: unknown;
  acsDelta?: unknown;
  packageName?: unknown;
}

/** The accumulated changes of a range: one row per contract, in ledger order. */
export class ChangeSet {
  private readonly rows = new Map<string, ContractChange>();
  /** The rows in ledger order (a row's kind may change when its archive comes). */
  readonly ordered: ContractChange[] = [];
  readonly counts: ChangeCounts = { created: 0, archived: 0, createdAndArchived: 0, transactions: 0 };
  private readonly readers: ReadonlySet<string>;

  /** `parties`: who reads (none: any party), to tell a stakeholder's event from a witnessed one. */
  constructor(parties: readonly string[] = []) {
    this.readers = new Set(parties);
  }

  /**
   * In ledger effects, events the readers only witnessed carry `acsDelta: false`: such a create is
   * not in their active set (unless they are its stakeholders: a contract created and archived in one
   * transaction is not in it either), and such an archive ends only a row already seen.
   */
  private stakeholding(e: { acsDelta?: unknown; signatories?: unknown; observers?: unknown }): boolean {
    if (e.acsDelta !== false || this.readers.size === 0) return true;
    const of = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
    return [...of(e.signatories), ...of(e.observers)].some((p) => this.readers.has(String(p)));
  }

  get size(): number {
    return this.rows.size;
  }

  /** One transaction's creates and archives. Unknown event kinds and malformed events are skipped. */
  addTransaction(t: DeltaTransaction): void {
    this.counts.transactions++;
    const point = (): ChangePoint => ({
      offset: typeof t.offset === 'number' ? t.offset : 0,
      updateId: typeof t.updateId === 'string' ? t.updateId : '',
      ...(typeof t.effectiveAt === 'string' ? { at: t.effectiveAt } : {}),
    });
    for (const e of Array.isArray(t.events) ? t.events : []) {
      if (!e || typeof e !== 'object') continue;
      const w = e as { CreatedEvent?: CreatedEvent; ArchivedEvent?: ArchivedLike; ExercisedEvent?: ArchivedLike };
      if (w.CreatedEvent && typeof w.CreatedEvent.contractId === 'string') {
        if (this.stakeholding(w.CreatedEvent)) this.created(w.CreatedEvent, point());
      } else if (w.ArchivedEvent && typeof w.ArchivedEvent.contractId === 'string') this.archived(w.ArchivedEvent, point());
      // Ledger effects: an archive is a consuming exercise, and says which choice.
      else if (w.ExercisedEvent?.consuming === true && typeof w.ExercisedEvent.contractId === 'string') {
        const x = w.ExercisedEvent;
        if (x.acsDelta !== false || this.rows.has(String(x.contractId)))
          this.archived(x, { ...point(), ...(typeof x.choice === 'string' ? { choice: x.choice } : {}) });
      }
    }
  }

  /** A contract created in the range (still active, unless an archive follows). */
  created(e: CreatedEvent, at: ChangePoint | undefined): void {
    const id = e.contractId;
    if (this.rows.has(id)) return;
    this.add({
      contractId: id,
      templateId: String(e.templateId ?? ''),
      ...(typeof e.packageName === 'string' ? { packageName: e.packageName } : {}),
      kind: 'created',
      ...(at ? { created: at } : {}),
      argument: e.createArgument,
    });
    this.counts.created++;
  }

  /** A contract archived in the range: created in it before (both), or before the range. */
  archived(e: ArchivedLike, at: ChangePoint | undefined): void {
    const id = String(e.contractId);
    const row = this.rows.get(id);
    if (row?.kind === 'created') {
      row.kind = 'createdAndArchived';
      if (at) row.archived = at;
      this.counts.created--;
      this.counts.createdAndArchived++;
      return;
    }
    if (row) return;
    this.add({
      contractId: id,
      templateId: String(e.templateId ?? ''),
      ...(typeof e.packageName === 'string' ? { packageName: e.packageName } : {}),
      kind: 'archived',
      ...(at ? { archived: at } : {}),
    });
    this.counts.archived++;
  }

  private add(row: ContractChange): void {
    this.rows.set(row.contractId, row);
    this.ordered.push(row);
  }

  get(contractId: string): ContractChange | undefined {
    return this.rows.get(contractId);
  }
}

/**
 * The active-set comparison: the contracts active at the end and not at the start were created in
 * the range, those active at the start and not at the end archived in it. A contract created and
 * archived inside the range is in neither set: this way cannot see it.
 */
export function compareActiveSets(start: ReadonlyMap<string, CreatedEvent>, end: ReadonlyMap<string, CreatedEvent>, into = new ChangeSet()): ChangeSet {
  const pointOf = (e: CreatedEvent): ChangePoint | undefined =>
    typeof e.offset === 'number' ? { offset: e.offset, updateId: '', ...(typeof e.createdAt === 'string' ? { at: e.createdAt } : {}) } : undefined;
  for (const [id, e] of end) if (!start.has(id)) into.created(e, pointOf(e));
  for (const [id, e] of start) {
    if (end.has(id)) continue;
    into.archived(e, undefined);
    const row = into.get(id);
    if (row && e.createArgument !== undefined) {
      row.argument = e.createArgument;
      const created = pointOf(e);
      if (created) row.created = created;
    }
  }
  return into;
}

export type ChangesMethod = 'updates' | 'activeSets';

/** Ranges shorter than this are read as updates without asking the active set's size. */
export const PROBE_FROM_OFFSETS = 10_000;

/** Updates cost one read per offset, the active sets two per active contract: the cheaper one. */
export function activeSetsCheaper(rangeLength: number, activeCount: number): boolean {
  return 2 * activeCount < rangeLength;
}

/** Why a method was used, for the panel's header. */
export function methodReason(method: ChangesMethod, rangeLength: number, activeCount: number | undefined, forced: boolean): string {
  const n = formatCount(rangeLength);
  if (forced)
    return method === 'updates'
      ? l10n.t('Read as the {0} offsets\u2019 updates, as asked.', n)
      : l10n.t('Read as the active sets at both ends compared, as asked: contracts created and archived inside the range are not seen this way.');
  if (method === 'activeSets')
    return l10n.t(
      'Read as the active sets at both ends compared: {0} active contracts twice cost less than the range\u2019s {1} offsets. Contracts created and archived inside the range are not seen this way; read the updates to see them.',
      formatCount(activeCount ?? 0),
      n,
    );
  if (activeCount === undefined)
    return rangeLength < PROBE_FROM_OFFSETS
      ? rangeLength === 1
        ? l10n.t('Read as the range\u2019s updates (1 offset): a short range, and the only way to see contracts created and archived inside it.')
        : l10n.t('Read as the range\u2019s updates ({0} offsets): a short range, and the only way to see contracts created and archived inside it.', n)
      : rangeLength === 1
        ? l10n.t('Read as the range\u2019s updates (1 offset).')
        : l10n.t('Read as the range\u2019s updates ({0} offsets).', n);
  return l10n.t(
    'Read as the range\u2019s updates: {0} offsets cost less than the active sets at both ends (at least {1} contracts each), and they show contracts created and archived inside the range.',
    n,
    formatCount(activeCount),
  );
}

export interface RangeFacts {
  ledgerEnd: number;
  /** The node's pruning point: updates at or below it are gone. */
  prunedUpTo: number;
}

export type RangeCheck = { ok: true; from: number; to: number } | { ok: false; message: string; from?: number; to?: number };

/**
 * A range (`from` exclusive, `to` inclusive) the node will serve, or why not with the offsets to
 * use instead. Both ways read the state at `from`, which must not be pruned.
 */
export function checkRange(from: number, to: number, facts: RangeFacts): RangeCheck {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < 0)
    return { ok: false, message: l10n.t('Offsets are whole numbers of 0 or more: got {0} and {1}.', String(from), String(to)) };
  const n = formatCount;
  if (from > facts.ledgerEnd)
    return {
      ok: false,
      message: l10n.t(
        'The start, offset {0}, is after the node\u2019s ledger end ({1}): it was marked before the ledger was reset, or on another node of that name. Pick an earlier start.',
        n(from),
        n(facts.ledgerEnd),
      ),
    };
  if (from > to) return { ok: false, message: l10n.t('The start ({0}) is after the end ({1}): they are swapped.', n(from), n(to)), from: to, to: from };
  if (to > facts.ledgerEnd)
    return {
      ok: false,
      message: l10n.t(
        'Offset {0} is after the node\u2019s ledger end ({1}): nothing has happened there yet. End at the ledger end.',
        n(to),
        n(facts.ledgerEnd),
      ),
      from: Math.min(from, facts.ledgerEnd),
      to: facts.ledgerEnd,
    };
  if (from < facts.prunedUpTo)
    return {
      ok: false,
      message: l10n.t(
        'The node has pruned its history up to offset {0}: what happened between {1} and {0} is gone from it. Start at {0} or later.',
        n(facts.prunedUpTo),
        n(from),
      ),
      from: facts.prunedUpTo,
      to,
    };
  if (from === to) return { ok: false, message: l10n.t('The range from {0} to {0} is empty: nothing can have changed.', n(from)) };
  return { ok: true, from, to };
}
