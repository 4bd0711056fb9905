// Answers lookups from the seeded ledger as a participant would: visibility by party,
// ACS-delta or ledger-effects shapes, fields per version.
import type { ArchivedEvent, CreatedEvent, EventFormat, Filters, JsGetEventsByContractIdResponse, JsTransaction, LedgerEvent } from './apiTypes';
import type { DemoLedger, StoredCreate, StoredExercise, StoredReassignment, StoredTopology, StoredTransaction } from './demoLedgerData';
import { interfaceViewsOf } from './storedLedger';

export type FakeVersion = '3.4' | '3.5' | '3.6';

/** Who a request reads as: named parties, or every party on the participant. */
export type Readers = { parties: Set<string> } | 'anyParty';

interface ContractEntry {
  create: StoredCreate;
  createdIn: StoredTransaction;
  archive?: { exercise: StoredExercise; in: StoredTransaction };
}

/** What update-by-id and update-by-offset may ask for (UpdateFormat). */
export interface UpdateFormatBody {
  includeTransactions?: { eventFormat: EventFormat; transactionShape: string };
  includeReassignments?: EventFormat;
  includeTopologyEvents?: { includeParticipantAuthorizationEvents?: { parties?: string[] } };
}

type StoredUpdate =
  { kind: 'transaction'; update: StoredTransaction } | { kind: 'reassignment'; update: StoredReassignment } | { kind: 'topology'; update: StoredTopology };

/** Commits remembered by the demo ledger (matches the generated ledger's remembered commit offsets). */
export const KEPT_COMMITTED = 10_000;

export class LedgerQueries {
  private readonly contracts = new Map<string, ContractEntry>();
  private readonly updates = new Map<string, StoredTransaction>();
  private readonly allUpdates = new Map<string, StoredUpdate>();
  private readonly byOffset = new Map<number, StoredUpdate>();
  /** Transactions committed after the seeded ones, oldest first (at most KEPT_COMMITTED). */
  private readonly committed: StoredTransaction[] = [];

  constructor(readonly ledger: DemoLedger) {
    const index = (u: StoredUpdate) => {
      this.allUpdates.set(u.update.updateId, u);
      this.byOffset.set(u.update.offset, u);
    };
    for (const update of ledger.transactions) index({ kind: 'transaction', update });
    for (const update of ledger.reassignments) index({ kind: 'reassignment', update });
    for (const update of ledger.topology) index({ kind: 'topology', update });
    for (const t of ledger.transactions) {
      this.updates.set(t.updateId, t);
      for (const e of t.events) {
        if (e.kind === 'created') this.contracts.set(e.event.contractId, { create: e, createdIn: t });
      }
    }
    for (const t of ledger.transactions) {
      for (const e of t.events) {
        const target = e.kind === 'exercised' && e.event.consuming ? this.contracts.get(e.event.contractId) : undefined;
        if (target) target.archive = { exercise: e as StoredExercise, in: t };
      }
    }
  }

  /**
   * A transaction committed after the seeded ones (the interactive submissions' commits): findable
   * by update-by-id, update-by-offset and transaction-by-id from then on; its creates are contracts.
   * Its offset must be one no other update has.
   */
  addTransaction(t: StoredTransaction): void {
    if (this.byOffset.has(t.offset) || this.allUpdates.has(t.updateId)) throw new Error(`offset ${t.offset} or update ${t.updateId} is taken`);
    this.committed.push(t);
    // The demo ledger runs for days: past the latest KEPT_COMMITTED commits the oldest is forgotten,
    // with the contracts it created, and reads as a node reads pruned data (not found).
    if (this.committed.length > KEPT_COMMITTED) this.forget(this.committed.shift()!);
    const u: StoredUpdate = { kind: 'transaction', update: t };
    this.allUpdates.set(t.updateId, u);
    this.byOffset.set(t.offset, u);
    this.updates.set(t.updateId, t);
    for (const e of t.events) {
      if (e.kind === 'created') this.contracts.set(e.event.contractId, { create: e, createdIn: t });
      else if (e.event.consuming) {
        const target = this.contracts.get(e.event.contractId);
        if (target) target.archive = { exercise: e, in: t };
      }
    }
  }

  private forget(t: StoredTransaction): void {
    this.allUpdates.delete(t.updateId);
    this.byOffset.delete(t.offset);
    this.updates.delete(t.updateId);
    for (const e of t.events) if (e.kind === 'created' && this.contracts.get(e.event.contractId)?.createdIn === t) this.contracts.delete(e.event.contractId);
  }

  /** A contract the node knows (seeded or committed): its create, and whether it is archived. */
  contract(contractId: string): { create: StoredCreate; archived: boolean; createdAt: number } | undefined {
    const entry = this.contracts.get(contractId);
    return entry && { create: entry.create, archived: entry.archive !== undefined, createdAt: entry.createdIn.offset };
  }

  /** The active contract of a template (module and entity) with this key, if any. */
  contractByKey(moduleAndEntity: string, key: unknown): StoredCreate | undefined {
    const wanted = JSON.stringify(key);
    for (const entry of this.contracts.values())
      if (!entry.archive && entry.create.event.templateId.endsWith(`:${moduleAndEntity}`) && JSON.stringify(entry.create.event.contractKey) === wanted)
        return entry.create;
    return undefined;
  }

  /** How many commits are remembered now (for the soak bench and tests). */
  get committedKept(): number {
    return this.committed.length;
  }

  eventsByContractId(contractId: string, format: EventFormat, version: FakeVersion): JsGetEventsByContractIdResponse | undefined {
    const entry = this.contracts.get(contractId);
    if (!entry) return undefined;
    const pruned = this.ledger.prunedUpTo;
    // Pruning removes archived contracts: all of one archived before the pruning point, the
    // create event of one archived after it. Active contracts stay.
    if (entry.archive && entry.archive.in.offset <= pruned) return undefined;
    const readers = readersOf(format);
    const created = this.createdFor(entry.create, readers, format, version);
    if (!created) return undefined;
    const response: JsGetEventsByContractIdResponse = {};
    if (!(entry.archive && entry.createdIn.offset <= pruned)) {
      response.created = { createdEvent: created, synchronizerId: entry.createdIn.synchronizerId };
    }
    if (entry.archive) {
      const archivedEvent = archivedFor(entry.archive.exercise, readers);
      if (archivedEvent) response.archived = { archivedEvent, synchronizerId: entry.archive.in.synchronizerId };
    }
    return response.created || response.archived ? response : undefined;
  }

  /** The update with this id as update-by-id answers it, or undefined (unknown, pruned, not visible, not asked for). */
  update(updateId: string, format: UpdateFormatBody, version: FakeVersion): Record<string, { value: unknown }> | undefined {
    const u = this.allUpdates.get(updateId);
    return u ? this.render(u, format, version) : undefined;
  }

  /** The update at this offset, as update-by-offset answers it. */
  updateAt(offset: number, format: UpdateFormatBody, version: FakeVersion): Record<string, { value: unknown }> | undefined {
    const u = this.byOffset.get(offset);
    return u ? this.render(u, format, version) : undefined;
  }

  private render(u: StoredUpdate, format: UpdateFormatBody, version: FakeVersion): Record<string, { value: unknown }> | undefined {
    if (u.update.offset <= this.ledger.prunedUpTo) return undefined;
    if (u.kind === 'transaction') {
      const tf = format.includeTransactions;
      const t = tf && this.transaction(u.update.updateId, tf.eventFormat, tf.transactionShape, version);
      return t ? { Transaction: { value: t } } : undefined;
    }
    if (u.kind === 'reassignment') {
      const r = format.includeReassignments && this.reassignment(u.update, format.includeReassignments, version);
      return r ? { Reassignment: { value: r } } : undefined;
    }
    const wanted = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
    if (!wanted) return undefined;
    const parties = wanted.parties ?? [];
    const events = u.update.events
      .filter((e) => parties.length === 0 || parties.includes(e.partyId))
      .map((e) => ({ event: { ParticipantAuthorizationAdded: { value: e } } }));
    if (events.length === 0) return undefined;
    const { updateId, offset, synchronizerId, recordTime } = u.update;
    return { TopologyTransaction: { value: { updateId, offset, synchronizerId, recordTime, events } } };
  }

  private reassignment(r: StoredReassignment, format: EventFormat, version: FakeVersion): unknown {
    const readers = readersOf(format);
    const e = r.event;
    let event: unknown;
    if (e.kind === 'unassigned') {
      const witnessParties = visibleTo(e.stakeholders, readers);
      if (witnessParties.length === 0) return undefined;
      event = {
        JsUnassignedEvent: {
          value: {
            reassignmentId: e.reassignmentId,
            contractId: e.contractId,
            templateId: e.templateId,
            source: e.source,
            target: e.target,
            submitter: e.submitter,
            reassignmentCounter: e.reassignmentCounter,
            witnessParties,
            packageName: e.packageName,
            offset: r.offset,
            nodeId: 0,
          },
        },
      };
    } else {
      const createdEvent = this.createdFor(e.create, readers, format, version);
      if (!createdEvent) return undefined;
      event = {
        JsAssignmentEvent: {
          source: e.source,
          target: e.target,
          reassignmentId: e.reassignmentId,
          submitter: e.submitter,
          reassignmentCounter: e.reassignmentCounter,
          createdEvent,
        },
      };
    }
    return {
      updateId: r.updateId,
      commandId: r.commandId,
      workflowId: r.workflowId,
      offset: r.offset,
      events: [event],
      traceContext: r.traceContext,
      recordTime: r.recordTime,
      synchronizerId: r.synchronizerId,
    };
  }

  transaction(updateId: string, format: EventFormat, shape: string, version: FakeVersion): JsTransaction | undefined {
    const t = this.updates.get(updateId);
    if (!t || t.offset <= this.ledger.prunedUpTo) return undefined;
    const readers = readersOf(format);
    const events: LedgerEvent[] = [];
    const effects = shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
    // In ledger effects, a party that sees an exercise sees the nodes under it too.
    const enclosing: { last: number; witnesses: string[] }[] = [];
    for (const e of t.events) {
      while (enclosing.length > 0 && enclosing.at(-1)!.last < e.event.nodeId) enclosing.pop();
      const inherited = effects ? enclosing.flatMap((x) => x.witnesses) : [];
      if (e.kind === 'exercised') enclosing.push({ last: e.event.lastDescendantNodeId, witnesses: e.event.witnessParties });
      if (e.kind === 'created') {
        const created = this.createdFor(e, readers, format, version, inherited);
        if (created) events.push({ CreatedEvent: shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS' ? created : { ...created, acsDelta: true } });
      } else if (shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS') {
        const witnessParties = visibleTo([...e.event.witnessParties, ...inherited], readers);
        if (witnessParties.length > 0) events.push({ ExercisedEvent: { ...e.event, witnessParties } });
      } else if (e.event.consuming) {
        const archived = archivedFor(e, readers);
        if (archived) events.push({ ArchivedEvent: archived });
      }
    }
    if (events.length === 0) return undefined;
    const out: JsTransaction = {
      updateId: t.updateId,
      commandId: t.commandId,
      workflowId: t.workflowId,
      effectiveAt: t.effectiveAt,
      events,
      offset: t.offset,
      synchronizerId: t.synchronizerId,
      traceContext: t.traceContext as JsTransaction['traceContext'],
      recordTime: t.recordTime,
    };
    if (t.externalTransactionHash) out.externalTransactionHash = t.externalTransactionHash;
    if (t.paidTrafficCost !== undefined) out.paidTrafficCost = t.paidTrafficCost;
    if (version === '3.6') out.transactionHash = Buffer.from(t.updateId.slice(4), 'hex').toString('base64');
    return out;
  }

  private createdFor(e: StoredCreate, readers: Readers, format: EventFormat, version: FakeVersion, inherited: string[] = []): CreatedEvent | undefined {
    const stakeholders = [...e.event.signatories, ...(e.event.observers ?? []), ...inherited];
    const witnessParties = visibleTo(stakeholders, readers);
    if (witnessParties.length === 0) return undefined;
    const filters = filtersFor(format, witnessParties);
    const wantsBlob = filters.some((f) => wants(f, 'includeCreatedEventBlob'));
    const viewIds = new Set(filters.flatMap(interfaceViewsWanted));
    const interfaceViews = interfaceViewsOf(e, (id) => viewIds.has(id), version !== '3.4');
    const created: CreatedEvent = { ...e.event, witnessParties, interfaceViews, createdEventBlob: wantsBlob ? e.event.createdEventBlob : '' };
    if (version === '3.4') delete created.contractKeyHash;
    return created;
  }
}

function readersOf(format: EventFormat): Readers {
  if (format.filtersForAnyParty) return 'anyParty';
  return { parties: new Set(Object.keys(format.filtersByParty ?? {})) };
}

function visibleTo(parties: readonly string[], readers: Readers): string[] {
  const unique = [...new Set(parties)];
  return readers === 'anyParty' ? unique : unique.filter((p) => readers.parties.has(p));
}

function filtersFor(format: EventFormat, witnesses: string[]): Filters[] {
  const out: Filters[] = [];
  if (format.filtersForAnyParty) out.push(format.filtersForAnyParty);
  for (const w of witnesses) {
    const f = format.filtersByParty?.[w];
    if (f) out.push(f);
  }
  return out;
}

type FilterValue = { includeCreatedEventBlob?: boolean; includeInterfaceView?: boolean; interfaceId?: string };

function filterValues(f: Filters): FilterValue[] {
  const cumulative = f.cumulative ?? [];
  if (cumulative.length === 0) return [{}];
  return cumulative.map((c) => {
    const idf = (c.identifierFilter ?? {}) as Record<string, { value?: FilterValue }>;
    const [, inner] = Object.entries(idf)[0] ?? [];
    return inner?.value ?? {};
  });
}

function wants(f: Filters, flag: 'includeCreatedEventBlob'): boolean {
  return filterValues(f).some((v) => v[flag] === true);
}

function interfaceViewsWanted(f: Filters): string[] {
  return filterValues(f)
    .filter((v) => v.includeInterfaceView && v.interfaceId)
    .map((v) => v.interfaceId!);
}

function archivedFor(e: StoredExercise, readers: Readers): ArchivedEvent | undefined {
  const witnessParties = visibleTo(e.stakeholders, readers);
  if (witnessParties.length === 0) return undefined;
  const archived: ArchivedEvent = {
    offset: e.event.offset,
    nodeId: e.event.nodeId,
    contractId: e.event.contractId,
    templateId: e.event.templateId,
    witnessParties,
    packageName: e.event.packageName,
  };
  if (e.event.implementedInterfaces) archived.implementedInterfaces = e.event.implementedInterfaces;
  return archived;
}
