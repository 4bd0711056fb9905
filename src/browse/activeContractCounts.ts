// The node tree's count of the active contracts by package, module and template: one read of the
// active set as the node's parties (paged, or streamed where the node has no paged endpoint), on
// the first expand of Active Contracts. No `vscode` import.
import type { PackageGroup } from './acsGrouping';
import { TemplateCounter } from './acsGrouping';
import { readActiveContracts, type AcsClient } from './acsPaging';
import { browseEventFormat, hasPagedEndpoints } from './browseForms';

export interface ActiveContractCount {
  groups: PackageGroup[];
  total: number;
  /** The offset the set was read at. */
  activeAt: number;
  notice?: string;
  /** The node stopped the read at its limit: every count is a lower bound. */
  incomplete: boolean;
}

export interface CountOptions {
  parties: readonly string[];
  /** The node's Canton version, if known (the paged endpoints came with 3.5). */
  version: string | undefined;
  signal: AbortSignal;
  /** Told the running total after each page. */
  progress: (total: number) => void;
}

export async function countActiveContracts(client: AcsClient, o: CountOptions): Promise<ActiveContractCount> {
  const counter = new TemplateCounter();
  let activeAt = 0;
  let notice: string | undefined;
  let incomplete = false;
  for await (const page of readActiveContracts(client, {
    eventFormat: browseEventFormat({ parties: o.parties }),
    paged: hasPagedEndpoints(o.version),
    websocket: true,
    pageSize: 1000,
    signal: o.signal,
  })) {
    if (page.restarted) counter.reset();
    for (const ev of page.events) counter.add(String(ev.templateId), String(ev.packageName ?? ''));
    activeAt = page.activeAtOffset;
    notice = page.notice ?? notice;
    incomplete ||= page.incomplete === true;
    o.progress(counter.total);
  }
  return { groups: counter.groups(), total: counter.total, activeAt, notice, incomplete };
}
