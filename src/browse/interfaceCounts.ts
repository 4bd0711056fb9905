// The node tree's interfaces: every interface the node's packages define (by package name, so every
// version of a package counts once), and how many active contracts implement each, counted as the
// template counts are, by reading the active set, here with the node's InterfaceFilter (no views: a
// count needs none). No `vscode` import.
import { interfacesOf, type PackageSignature } from '../daml/lf/lfSignatures';
import { readActiveContracts, type AcsClient } from './acsPaging';
import { browseEventFormat, hasPagedEndpoints } from './browseForms';

export interface InterfaceRef {
  /** `#<package name>:Module:Entity`: the interface across every version of its package. */
  interfaceId: string;
  packageName: string;
  module: string;
  entity: string;
}

/** The interfaces of the node's packages, by package name, module and name. */
export function interfaceRefs(sigs: readonly PackageSignature[]): InterfaceRef[] {
  const out = new Map<string, InterfaceRef>();
  for (const p of sigs)
    for (const { module, iface } of interfacesOf(p)) {
      const interfaceId = `#${p.name}:${module}:${iface.name}`;
      if (!out.has(interfaceId)) out.set(interfaceId, { interfaceId, packageName: p.name, module, entity: iface.name });
    }
  const order = (a: InterfaceRef, b: InterfaceRef) => (a.interfaceId < b.interfaceId ? -1 : a.interfaceId > b.interfaceId ? 1 : 0);
  return [...out.values()].sort(order);
}

export interface InterfaceCount {
  count: number;
  /** The node stopped the read at its limit: the count is a lower bound. */
  incomplete: boolean;
  activeAt: number;
}

export interface InterfaceCountOptions {
  parties: readonly string[];
  /** The node's Canton version, if known (the paged endpoints came with 3.5). */
  version: string | undefined;
  signal: AbortSignal;
}

/** The active contracts of templates that implement `interfaceId`, as the parties see them. */
export async function countInterfaceContracts(client: AcsClient, interfaceId: string, o: InterfaceCountOptions): Promise<InterfaceCount> {
  let count = 0;
  let activeAt = 0;
  let incomplete = false;
  for await (const page of readActiveContracts(client, {
    eventFormat: browseEventFormat({ parties: o.parties, interfaces: [interfaceId], views: false }),
    paged: hasPagedEndpoints(o.version),
    websocket: true,
    pageSize: 1000,
    signal: o.signal,
  })) {
    if (page.restarted) count = 0;
    count += page.events.length;
    activeAt = page.activeAtOffset;
    incomplete ||= page.incomplete === true;
  }
  return { count, incomplete, activeAt };
}
