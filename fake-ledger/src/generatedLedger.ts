// The fake node's large and live ledger, generated lazily from indices so that 100,000 active
// contracts and a stream of new updates cost nothing until a request reads them, and are the same
// on every run. Offsets, in order:
//   seeded demo transactions (demoLedgerData.ts)       … up to `seededEnd`
//   one create per generated contract i                seededEnd + 1 + i
//   live update k (k ≥ 1), produced at `rate` per s    generatedEnd + k + the commits before it
//   a commit of an interactive submission             the ledger end + 1 when it commits
// Live update k creates contract live-k; an even k also archives live-(k-1) by a consuming choice.
// The object outlives a node: pass it to a new FakeLedgerNode on the same port and the offsets go on
// (a node restart). It has no `vscode` import.
import type { CreatedEvent, EventFormat, JsTransaction } from './apiTypes';
import {
  HOLDING_INTERFACE,
  HOLDING_PACKAGE_NAME,
  interfacePackageName,
  hex,
  micros,
  MICROS_BASE,
  mix,
  packageIdOf,
  templateInfo,
  type ContractMeta,
  type GeneratedLedgerOptions,
  type TemplateInfo,
} from './generatedModel';
import { matchFormat } from './generatedFilters';
import { generatedCreatedEvent, liveSettleEvent } from './generatedEvents';
import { MODEL_PACKAGE_V2 } from './demoLedgerHistory';
import { interfaceViewsOf } from './storedLedger';

export { HOLDING_INTERFACE, type ContractMeta, type GeneratedLedgerOptions, type TemplateInfo } from './generatedModel';
export { matchFormat, type Seen } from './generatedFilters';
import { updateIdFor, type DemoLedger, type StoredCreate } from './demoLedgerData';

/** Type ids (`pkgId:Module:Entity`) the node knows, each with its package name. */
export interface PackageCatalog {
  templates: Map<string, string>;
  interfaces: Map<string, string>;
}

interface SeededCreate {
  create: StoredCreate;
  offset: number;
  archivedAt: number;
  synchronizerId: string;
  workflowId: string;
}

const KEPT_COMMITS = 10_000; // commits whose offsets are remembered (the demo ledger runs for days)

export class GeneratedLedger {
  readonly contracts: number;
  readonly templateCount: number;
  readonly listLimit: number;
  /** The largest active-contracts page and updates page (Canton's `max-acs-page-size`, `max-updates-page-size`). */
  readonly maxAcsPageSize: number;
  readonly maxUpdatesPageSize: number;
  readonly pageTokenTtlMs: number;
  readonly defaultIdleTimeoutMs: number;
  readonly scanMsPerOffset: number;
  readonly hostile: boolean;
  prunedUpTo: number;
  private readonly templateCache = new Map<number, TemplateInfo>();
  private catalogCache: PackageCatalog | undefined;
  private seeded: SeededCreate[] = [];
  private seededByOffset = new Map<number, string>();
  private seededEnd = 0;
  private parties: string[] = [];
  private bank = '';
  private synchronizerId = '';
  /** Live updates produced before `since` at the earlier rates; then `rate` per second. */
  private baseProduced = 0;
  private since = Date.now();
  private rate: number;
  private readonly segments: { k: number; at: number; rate: number }[] = [];
  private attached = false;
  /**
   * Offsets taken by commits from outside the generator (interactive submissions), in runs: `count`
   * commits right after live update `afterLive`. Consecutive commits share a run, so the list stays
   * short whatever the number of commits.
   */
  private readonly commitRuns: { afterLive: number; count: number }[] = [];
  private commitCount = 0;
  /** The update id at each commit offset: the latest KEPT_COMMITS (older ones read as invisible). */
  private readonly commitIds = new Map<number, string>();

  constructor(options: GeneratedLedgerOptions = {}) {
    this.contracts = Math.max(0, Math.floor(options.contracts ?? 0));
    this.templateCount = Math.max(1, Math.min(10_000, Math.floor(options.templates ?? 20)));
    this.listLimit = options.listLimit ?? 200;
    this.maxAcsPageSize = options.maxPageSize ?? 10_000;
    this.maxUpdatesPageSize = options.maxPageSize ?? 2_000;
    this.pageTokenTtlMs = options.pageTokenTtlMs ?? 10 * 60_000;
    this.prunedUpTo = options.prunedUpTo ?? 0;
    this.defaultIdleTimeoutMs = options.defaultIdleTimeoutMs ?? 500;
    this.scanMsPerOffset = Math.max(0, options.scanMsPerOffset ?? 0);
    this.hostile = options.hostile ?? true;
    this.rate = options.rate ?? 0;
    this.segments.push({ k: 0, at: this.since, rate: this.rate });
  }

  /** Binds to the seeded ledger of the node (the same on every node: it is deterministic). */
  attach(ledger: DemoLedger): void {
    if (this.attached) return;
    this.attached = true;
    const { Alice, Bob, Bank, Carol, Dana } = ledger.parties;
    this.parties = [Alice, Bob, Carol, Dana, Bank];
    this.bank = Bank;
    this.synchronizerId = ledger.synchronizerId;
    // One pruning point for the node: the seeded ledger's, unless a later one was asked for.
    this.prunedUpTo = Math.max(this.prunedUpTo, ledger.prunedUpTo);
    // Generated offsets follow every seeded update: transactions, reassignments and topology.
    for (const u of [...ledger.reassignments, ...ledger.topology]) this.seededEnd = Math.max(this.seededEnd, u.offset);
    const archived = new Map<string, number>();
    for (const t of ledger.transactions) {
      this.seededByOffset.set(t.offset, t.updateId);
      this.seededEnd = Math.max(this.seededEnd, t.offset);
      for (const e of t.events) if (e.kind === 'exercised' && e.event.consuming) archived.set(e.event.contractId, t.offset);
    }
    for (const t of ledger.transactions) {
      for (const e of t.events) {
        if (e.kind !== 'created') continue;
        this.seeded.push({
          create: e,
          offset: t.offset,
          archivedAt: archived.get(e.event.contractId) ?? Infinity,
          synchronizerId: t.synchronizerId,
          workflowId: t.workflowId,
        });
      }
    }
  }

  get generatedEnd(): number {
    return this.seededEnd + this.contracts;
  }

  /** Live updates produced so far. */
  produced(): number {
    return this.baseProduced + (this.rate > 0 ? Math.floor(((Date.now() - this.since) * this.rate) / 1000) : 0);
  }

  ledgerEnd(): number {
    return this.generatedEnd + this.produced() + this.commitCount;
  }

  /** Takes the next offset for a commit (the ledger end moves to it): a tail or a lookup after it sees it. */
  reserveCommitOffset(): number {
    const live = this.produced();
    const last = this.commitRuns.at(-1);
    if (last && last.afterLive === live) last.count++;
    else this.commitRuns.push({ afterLive: live, count: 1 });
    this.commitCount++;
    return this.ledgerEnd();
  }

  /**
   * A seeded contract a commit consumed: archived from that offset on, in the active contracts.
   * (A commit's own creates are found by lookups and the update stream, not listed here: slots are
   * positions that page tokens point into.)
   */
  archiveSeeded(contractId: string, offset: number): void {
    const s = this.seeded.find((x) => x.create.event.contractId === contractId);
    if (s && s.archivedAt === Infinity) s.archivedAt = offset;
  }

  recordCommit(offset: number, updateId: string): void {
    this.commitIds.set(offset, updateId);
    if (this.commitIds.size > KEPT_COMMITS) this.commitIds.delete(this.commitIds.keys().next().value as number);
  }

  /** The update id of the commit at an offset (answered by the node's LedgerQueries), if it is one. */
  commitUpdateIdAt(offset: number): string | undefined {
    return this.commitIds.get(offset);
  }

  /** What a live-or-commit offset (after generatedEnd) holds: live update k, or a commit. */
  private afterGenerated(offset: number): { live: number } | { commit: true } {
    const rel = offset - this.generatedEnd;
    let before = 0;
    for (const run of this.commitRuns) {
      const start = run.afterLive + before + 1;
      if (rel < start) break;
      if (rel < start + run.count) return { commit: true };
      before += run.count;
    }
    return { live: rel - before };
  }

  /** The offset of live update k. */
  private liveOffset(k: number): number {
    let before = 0;
    for (const run of this.commitRuns) {
      if (run.afterLive >= k) break;
      before += run.count;
    }
    return this.generatedEnd + k + before;
  }

  /** How many live updates are at or before an offset. */
  private liveUpTo(offset: number): number {
    if (offset <= this.generatedEnd) return 0;
    const at = this.afterGenerated(offset);
    if ('live' in at) return at.live;
    // A commit: the live updates before its run.
    const rel = offset - this.generatedEnd;
    let before = 0;
    for (const run of this.commitRuns) {
      if (rel < run.afterLive + before + 1 + run.count) return run.afterLive;
      before += run.count;
    }
    return this.produced();
  }

  /** Changes the rate of live updates; what was produced stays. */
  setRate(perSecond: number): void {
    this.baseProduced = this.produced();
    this.since = Date.now();
    this.rate = Math.max(0, perSecond);
    this.segments.push({ k: this.baseProduced, at: this.since, rate: this.rate });
  }

  /** Produces `n` live updates now (tests). */
  advance(n: number): void {
    this.setRate(this.rate);
    this.baseProduced += n;
    this.segments.push({ k: this.baseProduced, at: Date.now(), rate: this.rate });
  }

  /** Every offset of the ledger's updates in (from, to]: the "log" tests check a tail against. */
  offsetsBetween(from: number, to: number): number[] {
    const out: number[] = [];
    for (let o = Math.max(from + 1, 1); o <= Math.min(to, this.ledgerEnd()); o++) if (this.hasUpdateAt(o)) out.push(o);
    return out;
  }

  hasUpdateAt(offset: number): boolean {
    return offset > this.seededEnd ? offset <= this.ledgerEnd() : this.seededByOffset.has(offset);
  }

  seededUpdateIdAt(offset: number): string | undefined {
    return this.seededByOffset.get(offset);
  }

  template(t: number): TemplateInfo {
    let info = this.templateCache.get(t);
    if (!info) this.templateCache.set(t, (info = templateInfo(t, this.hostile)));
    return info;
  }

  /** The templates and interfaces the node's packages define (seeded, generated, the holding interface). */
  catalog(): PackageCatalog {
    if (this.catalogCache) return this.catalogCache;
    const c: PackageCatalog = { templates: new Map(), interfaces: new Map() };
    const add = (into: Map<string, string>, id: string, packageName: string) => into.set(id, packageName);
    for (const s of this.seeded) {
      add(c.templates, s.create.event.templateId, s.create.event.packageName);
      for (const v of s.create.views) add(c.interfaces, v.interfaceId, interfacePackageName(v.interfaceId));
    }
    for (let t = 0; t < this.templateCount; t++) add(c.templates, this.template(t).templateId, this.template(t).packageName);
    // The model's 2.0.0 is an upgrade of 1.0.0: it defines every template 1.0.0 does (Canton's upgrade checks require it).
    const v1 = packageIdOf('canton-lens-demo-model');
    for (const [id, name] of [...c.templates]) if (id.startsWith(`${v1}:`)) add(c.templates, `${MODEL_PACKAGE_V2}${id.slice(v1.length)}`, name);
    add(c.interfaces, HOLDING_INTERFACE, HOLDING_PACKAGE_NAME);
    this.catalogCache = c;
    return c;
  }

  /** The number of contract slots (seeded creates, generated contracts, live creates) up to `activeAt`. */
  slotsUpTo(activeAt: number): number {
    return this.seeded.length + Math.max(0, Math.min(this.contracts, activeAt - this.seededEnd)) + this.liveUpTo(activeAt);
  }

  /** What filters need about slot `index`, without building its event. */
  meta(index: number): ContractMeta {
    if (index < this.seeded.length) {
      const s = this.seeded[index];
      const e = s.create.event;
      const templateId = e.templateId;
      const [packageId = '', module = '', entity = ''] = templateId.split(':');
      const template: TemplateInfo = {
        templateId,
        packageId,
        packageName: e.packageName,
        module,
        entity,
        interfaces: s.create.views.map((v) => v.interfaceId),
        keyed: Boolean(e.contractKey),
      };
      return { index, offset: s.offset, archivedAt: s.archivedAt, template, stakeholders: [...new Set([...e.signatories, ...(e.observers ?? [])])] };
    }
    const i = index - this.seeded.length;
    if (i < this.contracts) {
      const h = mix(i);
      // Skewed: a few templates hold most contracts, as on real ledgers.
      const u = (h % 100_000) / 100_000;
      const t = Math.min(this.templateCount - 1, Math.floor(this.templateCount * u * u));
      const owner = this.parties[(h >>> 8) % this.parties.length];
      return {
        index,
        offset: this.seededEnd + 1 + i,
        archivedAt: Infinity,
        template: this.template(t),
        stakeholders: owner === this.bank ? [this.bank] : [this.bank, owner],
      };
    }
    const k = i - this.contracts + 1;
    return this.liveMeta(k, index);
  }

  private liveMeta(k: number, index = this.seeded.length + this.contracts + k - 1): ContractMeta {
    const owner = this.parties[k % 4];
    const offset = this.liveOffset(k);
    return {
      index,
      offset,
      archivedAt: k % 2 === 1 ? this.liveOffset(k + 1) : Infinity,
      template: this.template(k % Math.min(this.templateCount, 18)),
      stakeholders: [this.bank, owner],
    };
  }

  /** The created event of slot `index` for the given witnesses. */
  createdEvent(
    meta: ContractMeta,
    witnessParties: string[],
    blob: boolean,
    views: string[],
  ): { event: CreatedEvent; synchronizerId: string; workflowId: string } {
    if (meta.index < this.seeded.length) {
      const s = this.seeded[meta.index];
      const interfaceViews = interfaceViewsOf(s.create, (id) => views.includes(id));
      return {
        event: { ...s.create.event, witnessParties, interfaceViews, createdEventBlob: blob ? s.create.event.createdEventBlob : '' },
        synchronizerId: s.synchronizerId,
        workflowId: s.workflowId,
      };
    }
    const i = meta.index - this.seeded.length;
    const live = i >= this.contracts;
    const n = live ? i - this.contracts + 1 : i;
    const event = generatedCreatedEvent({
      meta,
      seed: live ? `live-${n}` : `acs-${i}`,
      n,
      live,
      createdAtMs: live ? this.timeOfLive(n) : MICROS_BASE + i * 1000,
      bank: this.bank,
      hostile: this.hostile,
      witnessParties,
      blob,
      views,
    });
    return { event, synchronizerId: this.synchronizerId, workflowId: live ? this.workflowOf(n) : '' };
  }

  private workflowOf(k: number): string {
    return k % 50 === 0 && this.hostile ? '<b>workflow</b>"><img src=x>' : `tail-${k % 7}`;
  }

  /** When live update k was produced (wall clock, ms). */
  timeOfLive(k: number): number {
    let seg = this.segments[0];
    for (const s of this.segments) if (s.k <= k - 1) seg = s;
    return seg.rate > 0 ? seg.at + ((k - seg.k) * 1000) / seg.rate : seg.at;
  }

  /**
   * The transaction at a generated or live offset as `readers` see it, or undefined when no event is
   * visible. Seeded offsets are answered by the node's LedgerQueries.
   */
  transactionAt(offset: number, format: EventFormat, shape: string): JsTransaction | undefined {
    if (offset <= this.seededEnd || offset > this.ledgerEnd()) return undefined;
    const ledgerEffects = shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
    const events: JsTransaction['events'] = [];
    let commandId: string;
    let workflowId = '';
    let updateSeed: string;
    let at: number;
    if (offset <= this.generatedEnd) {
      const i = offset - this.seededEnd - 1;
      const meta = this.meta(this.seeded.length + i);
      const seen = matchFormat(format, meta);
      if (!seen) return undefined;
      const { event } = this.createdEvent(meta, seen.witnesses, seen.blob, seen.views);
      events.push({ CreatedEvent: event });
      commandId = `import-${i}`;
      updateSeed = `acs-${i}`;
      at = MICROS_BASE + i * 1000;
    } else {
      const slot = this.afterGenerated(offset);
      if (!('live' in slot)) return undefined;
      const k = slot.live;
      commandId = `live-cmd-${k}`;
      workflowId = this.workflowOf(k);
      updateSeed = `live-${k}`;
      at = this.timeOfLive(k);
      if (k % 2 === 0) {
        // A consuming choice on the contract of the update before, then its create.
        const prev = this.liveMeta(k - 1);
        const seen = matchFormat(format, prev);
        if (seen) events.push(liveSettleEvent(offset, k, prev, seen.witnesses, this.bank, ledgerEffects));
      }
      const meta = this.liveMeta(k);
      const seen = matchFormat(format, meta);
      if (seen) {
        const { event } = this.createdEvent(meta, seen.witnesses, seen.blob, seen.views);
        events.push({ CreatedEvent: { ...event, nodeId: k % 2 === 0 && ledgerEffects ? 1 : 0 } });
      }
      if (events.length === 0) return undefined;
    }
    return {
      updateId: updateIdFor(updateSeed),
      commandId,
      workflowId,
      effectiveAt: micros(at),
      events,
      offset,
      synchronizerId: this.synchronizerId,
      traceContext: {
        traceparent: `00-${hex(`trace:${updateSeed}`).slice(0, 32)}-${hex(`span:${updateSeed}`).slice(0, 16)}-01`,
      },
      recordTime: micros(at + 1),
    };
  }

  /** The record time of an offset, for checkpoints. */
  recordTimeAt(offset: number): string {
    if (offset <= this.seededEnd) return micros(MICROS_BASE - 1000);
    if (offset <= this.generatedEnd) return micros(MICROS_BASE + (offset - this.seededEnd - 1) * 1000 + 1);
    return micros(this.timeOfLive(Math.max(1, this.liveUpTo(offset))) + 1);
  }

  get synchronizer(): string {
    return this.synchronizerId;
  }
}
