// A node's package signatures from its Daml definitions service, where it is enabled: one JSON
// answer per package (`GET /v2/definitions/packages/{package-id}`) instead of its archive. The
// service does not say a package's name and version: the vetting list does (any participant's).
// A node whose definitions paths are unknown (404: the service is off, Canton's default) is
// remembered and not asked again; anything else the service cannot answer is read from the
// archive. No `vscode` import.
import { LedgerApiError } from '../../ledger/ledgerApiError';
import type { LedgerClient } from '../../ledger/ledgerClient';
import { listAllVettedPackages } from '../../ledger/packageRequests';
import { signatureFromDefinitions, type DefTypeSig } from './lfDefinitions';
import type { PackageSignature } from './lfSignatures';

/** The clients of nodes without the service: asked once each for the session. */
const off = new WeakSet<LedgerClient>();

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
    let asked: Promise<DefTypeSig | null>;
    if (!this.first) asked = this.first = this.ask(packageId);
    else {
      // A node without the service is asked once: the others wait for the first answer.
      await this.first.catch(() => undefined);
      if (off.has(this.client)) return undefined;
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
    if (!sig) return undefined;
    this.names ??= vettedNames(this.client, this.signal).catch(() => new Map());
    const named = (await this.names).get(packageId);
    return named ? signatureFromDefinitions(packageId, named.name, named.version, sig) : undefined;
  }

  private ask(packageId: string): Promise<DefTypeSig | null> {
    return this.client.request('GET', `/v2/definitions/packages/${encodeURIComponent(packageId)}`, undefined, { signal: this.signal });
  }
}
