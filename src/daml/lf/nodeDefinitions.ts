// A node's package signatures from its Daml definitions service, where it is enabled: one JSON
// answer per package (`GET /v2/definitions/packages/{package-id}`) instead of its archive. The
// service does not say a package's name and version: the vetting list does (any participant's).
// A node whose definitions paths are unknown (404: the service is off, Canton's default) is
// remembered and not asked again; anything else the service cannot answer is read from the
// archive, as is a package with a map keyed by Text (the service answers `TextMap` and
// `Map Text v` alike, and their JSON values differ). Its answers are kept per node, not in the
// cache every node shares: unlike an archive, nothing checks them against the package id.
// No `vscode` import.
import { LedgerApiError } from '../../ledger/ledgerApiError';
import type { LedgerClient } from '../../ledger/ledgerClient';
import { listAllVettedPackages } from '../../ledger/packageRequests';
import { signatureFromDefinitions, type DefTypeSig } from './lfDefinitions';
import type { PackageSignature } from './lfSignatures';

/** The clients of nodes without the service: asked once each for the session. */
const off = new WeakSet<LedgerClient>();
/** What each node's service answered, by package id: a package id never changes meaning. */
const answered = new WeakMap<LedgerClient, Map<string, PackageSignature>>();

/** Does the answer hold a map whose keys are Text (a `TextMap`, or a `Map Text v`: the service does not say which)? */
export function hasTextKeyedMap(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasTextKeyedMap);
  if (!value || typeof value !== 'object') return false;
  const map = (value as { GenMap?: { k?: unknown } }).GenMap;
  if (map && typeof map === 'object' && map.k && typeof map.k === 'object' && 'Text' in map.k) return true;
  return Object.values(value).some(hasTextKeyedMap);
}

export const definitionsOff = (client: LedgerClient) => off.has(client);

type Names = Map<string, { name: string; version: string }>;

async function vettedNames(client: LedgerClient, signal?: AbortSignal): Promise<Names> {
  const names: Names = new Map();
  const list = (legacy: boolean) => listAllVettedPackages(client, {}, { signal }, 100, { legacy });
  let vetted;
  try {
    vetted = await list(false);
  } catch (e) {
    // Before 3.4.12 the list is `GET /v2/package-vetting`.
    if (!(e instanceof LedgerApiError) || !e.routeMissing) throw e;
    vetted = await list(true);
  }
  for (const v of vetted)
    for (const p of v.packages) if (p.packageName && p.packageVersion) names.set(p.packageId, { name: p.packageName, version: p.packageVersion });
  return names;
}

/** One reading of a node's packages through its definitions service (one vetting list for all of them). */
export class NodeDefinitions {
  private names?: Promise<Names>;
  // The first request says whether the service is on.
  private first?: Promise<unknown>;

  constructor(
    private readonly client: LedgerClient,
    private readonly signal?: AbortSignal,
  ) {}

  /** The package's signature from the service; undefined when it is off or cannot say (then read the archive). */
  async signature(packageId: string): Promise<PackageSignature | undefined> {
    if (off.has(this.client)) return undefined;
    const known = answered.get(this.client)?.get(packageId);
    if (known) return known;
    let asked: Promise<DefTypeSig | null>;
    if (!this.first) asked = this.first = this.ask(packageId);
    else {
      // A node without the service is asked once: the others wait for the first answer.
      await this.first.catch(() => undefined);
      if (off.has(this.client)) return undefined;
      // A package no participant names is read from its archive: asking the service would be one request more.
      if (!(await this.namesOfPackages()).has(packageId)) return undefined;
      asked = this.ask(packageId);
    }
    let sig: DefTypeSig | null;
    try {
      sig = await asked;
    } catch (e) {
      if (this.signal?.aborted) throw e;
      if (e instanceof LedgerApiError && e.routeMissing) off.add(this.client);
      return undefined;
    }
    if (!sig || hasTextKeyedMap(sig)) return undefined;
    const named = (await this.namesOfPackages()).get(packageId);
    if (!named) return undefined;
    const signature = signatureFromDefinitions(packageId, named.name, named.version, sig);
    let mine = answered.get(this.client);
    if (!mine) answered.set(this.client, (mine = new Map<string, PackageSignature>()));
    mine.set(packageId, signature);
    return signature;
  }

  private namesOfPackages(): Promise<Names> {
    return (this.names ??= vettedNames(this.client, this.signal).catch(() => new Map()));
  }

  private ask(packageId: string): Promise<DefTypeSig | null> {
    return this.client.request('GET', `/v2/definitions/packages/${encodeURIComponent(packageId)}`, undefined, { signal: this.signal });
  }
}
