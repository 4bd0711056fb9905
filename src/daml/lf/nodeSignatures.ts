// The signatures of a node's packages: the ids it lists (`GET /v2/packages`), each package from
// the node's definitions service where it is enabled (nodeDefinitions.ts), else its archive
// (`GET /v2/packages/{package-id}`) decoded; once per id for the whole session (an id never
// changes meaning; the service's answers are kept per node, nodeDefinitions.ts says why). A package the node will not give (rights, not found) or that does not decode is
// left out with its reason, and the workspace's Daml index stays what completes. No `vscode` import.
import { LedgerApiError } from '../../ledger/ledgerApiError';
import type { LedgerClient } from '../../ledger/ledgerClient';
import * as l10n from '../../l10n/l10n';
import { getPackagePayload, listPackageIds } from '../../ledger/packageRequests';
import { LfError } from './lfDecode';
import { SignatureCache } from './lfPackages';
import { NodeDefinitions } from './nodeDefinitions';
import type { PackageSignature } from './lfSignatures';

/** One cache for every node: a package id names the same package on each. */
export const SIGNATURES = new SignatureCache();

export interface NodeSignatures {
  packages: PackageSignature[];
  /** Packages left out, each with why. */
  missing: { packageId: string; reason: string }[];
  /** Why the node's packages could not be listed at all, when they could not. */
  refused?: string;
}

/** Why a package (or the list) could not be read, in words that say whose doing it was. */
export function unreadReason(e: unknown): string {
  if (e instanceof LfError) return l10n.t('its archive does not decode: {0}', e.message);
  if (e instanceof LedgerApiError) {
    if (e.kind === 'permissionDenied') return l10n.t('the node refused it (403): {0}', e.explanation);
    if (e.kind === 'unauthenticated') return l10n.t('the node did not accept the token (401): {0}', e.explanation);
    if (e.kind === 'notFound') return l10n.t('the node does not have it (404): {0}', e.explanation);
    return e.explanation;
  }
  return (e as Error).message;
}

/** Downloads at most this many archives at once. */
const PARALLEL = 4;

export async function nodeSignatures(client: LedgerClient, signal?: AbortSignal, cache = SIGNATURES): Promise<NodeSignatures> {
  let ids: string[];
  try {
    ids = (await listPackageIds(client, { signal })).packageIds ?? [];
  } catch (e) {
    // A node that will not list its packages (rights) leaves completion to the workspace's Daml.
    if (signal?.aborted || !(e instanceof LedgerApiError) || (e.kind !== 'permissionDenied' && e.kind !== 'unauthenticated')) throw e;
    return { packages: [], missing: [], refused: unreadReason(e) };
  }
  const packages: PackageSignature[] = [];
  const missing: NodeSignatures['missing'] = [];
  const todo = [...ids];
  const definitions = new NodeDefinitions(client, signal);
  const worker = async () => {
    for (let id = todo.shift(); id !== undefined; id = todo.shift()) {
      const known = cache.get(id);
      if (known) {
        packages.push(known);
        continue;
      }
      const refused = cache.refusal(id);
      if (refused) {
        missing.push({ packageId: id, reason: unreadReason(refused) });
        continue;
      }
      try {
        const defined = await definitions.signature(id);
        packages.push(defined ?? cache.decodePayload(await getPackagePayload(client, id, { signal }), id));
      } catch (e) {
        if (signal?.aborted) throw e;
        missing.push({ packageId: id, reason: unreadReason(e) });
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

// The arguments' type checks ride in this bundle: they need the signatures it reads, and the main bundle has no room.
export { commandArgumentIssues } from './lfValueCheck';
export { sourceArgumentFields, sourceArgumentIssues } from '../../execute/sourceArgumentTypes';
