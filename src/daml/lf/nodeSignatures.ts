// The signatures of a node's packages: the ids it lists (`GET /v2/packages`), each package's
// archive (`GET /v2/packages/{package-id}`) decoded once per id for the whole session (an id never
// changes meaning). A package the node will not give (rights, not found) or that does not decode is
// left out with its reason, and the workspace's Daml index stays what completes. No `vscode` import.
import type { LedgerClient } from '../../ledger/ledgerClient';
import { getPackagePayload, listPackageIds } from '../../ledger/packageRequests';
import { LfError } from './lfDecode';
import { SignatureCache } from './lfPackages';
import type { PackageSignature } from './lfSignatures';

/** One cache for every node: a package id names the same package on each. */
export const SIGNATURES = new SignatureCache();

export interface NodeSignatures {
  packages: PackageSignature[];
  /** Packages left out, each with why. */
  missing: { packageId: string; reason: string }[];
}

/** Downloads at most this many archives at once. */
const PARALLEL = 4;

export async function nodeSignatures(client: LedgerClient, signal?: AbortSignal, cache = SIGNATURES): Promise<NodeSignatures> {
  const ids = (await listPackageIds(client, { signal })).packageIds ?? [];
  const packages: PackageSignature[] = [];
  const missing: NodeSignatures['missing'] = [];
  const todo = [...ids];
  const worker = async () => {
    for (let id = todo.shift(); id !== undefined; id = todo.shift()) {
      const known = cache.get(id);
      if (known) {
        packages.push(known);
        continue;
      }
      const refused = cache.refusal(id);
      if (refused) {
        missing.push({ packageId: id, reason: refused.message });
        continue;
      }
      try {
        packages.push(cache.decodePayload(await getPackagePayload(client, id, { signal }), id));
      } catch (e) {
        if (signal?.aborted) throw e;
        missing.push({ packageId: id, reason: e instanceof LfError ? e.message : (e as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker));
  const order = new Map(ids.map((id, i) => [id, i]));
  packages.sort((a, b) => (order.get(a.packageId) ?? 0) - (order.get(b.packageId) ?? 0));
  return { packages, missing };
}

const recent = new WeakMap<LedgerClient, { at: number; answer: Promise<NodeSignatures> }>();
/** How long a node's list is reused: completion asks on every keystroke, uploads are rare. */
const REUSE_MS = 30_000;

/** As `nodeSignatures`, the same answer for a client within REUSE_MS (a failed one is not kept). */
export function recentNodeSignatures(client: LedgerClient, now = Date.now()): Promise<NodeSignatures> {
  const known = recent.get(client);
  if (known && now - known.at < REUSE_MS) return known.answer;
  const answer = nodeSignatures(client);
  recent.set(client, { at: now, answer });
  answer.catch(() => recent.delete(client));
  return answer;
}
