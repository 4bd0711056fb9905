// What a Daml file's CodeLens and hover say about a template on the ledger: how many of
// its contracts are active, how many of those were created recently, and the latest few. Counted
// from active-contract pages of a request filtered to the file's templates by package name
// (`#<package name>:Module:Entity`, so every version of the package counts). No `vscode` import.
import type { CreatedEvent } from '../ledger/apiTypes';
import { parseTemplateId } from './damlIndex';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';

export interface LatestContract {
  contractId: string;
  createdAt: string;
}

export interface TemplateCount {
  active: number;
  /** Created within the recent window (createdAt at or after now − window). */
  recent: number;
  /** The newest few, newest first. */
  latest: LatestContract[];
}

/** `#<package name>:Module:Entity`: the template's id across every version of its package. */
export function packageNameRef(packageName: string, module: string, entity: string): string {
  return `#${packageName}:${module}:${entity}`;
}

export const RECENT_MS = 24 * 3600 * 1000;
export const LATEST = 5;

/** Counts created events into the templates asked for; events of other templates are ignored. */
export class TemplateCountsBuilder {
  private readonly counts = new Map<string, TemplateCount>();
  private readonly since: number;
  total = 0;

  constructor(
    refs: readonly string[],
    now = Date.now(),
    recentMs = RECENT_MS,
    private readonly latestN = LATEST,
  ) {
    for (const r of refs) this.counts.set(r, { active: 0, recent: 0, latest: [] });
    this.since = now - recentMs;
  }

  add(events: readonly CreatedEvent[]): void {
    for (const e of events) {
      const id = parseTemplateId(String(e.templateId));
      if (!id || !e.packageName) continue;
      const c = this.counts.get(packageNameRef(String(e.packageName), id.module, id.entity));
      if (!c) continue;
      this.total++;
      c.active++;
      const createdAt = String(e.createdAt ?? '');
      const t = Date.parse(createdAt);
      if (!Number.isNaN(t) && t >= this.since) c.recent++;
      // Newest first; ISO times of one ledger compare as strings.
      if (c.latest.length < this.latestN || createdAt > c.latest[c.latest.length - 1].createdAt) {
        c.latest.push({ contractId: String(e.contractId), createdAt });
        c.latest.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
        if (c.latest.length > this.latestN) c.latest.pop();
      }
    }
  }

  /** Forgets what was counted (the reading started again). */
  reset(): void {
    for (const c of this.counts.values()) Object.assign(c, { active: 0, recent: 0, latest: [] });
    this.total = 0;
  }

  result(): Map<string, TemplateCount> {
    return this.counts;
  }
}

/** The CodeLens line: "12 active · 3 created in the last 24 h"; `capped`: counting stopped early. */
export function countTitle(c: TemplateCount, capped: boolean): string {
  const active = capped ? l10n.t('{0}+ active', formatCount(c.active)) : c.active === 1 ? l10n.t('1 active') : l10n.t('{0} active', formatCount(c.active));
  return `${active} · ${l10n.t('{0} created in the last 24 h', formatCount(c.recent))}`;
}
