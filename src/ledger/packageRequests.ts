// The package endpoints: the node's package ids, what is vetted on which synchronizer by which
// participant (paged: `POST /v2/package-vetting/list`, before 3.4.12 `GET /v2/package-vetting`
// with the same body), and DAR upload and validation (the DAR's bytes as
// `application/octet-stream`; a node on several synchronizers needs `synchronizerId`). Upload
// writes to the node: sent once, never retried. No `vscode` import.
import type { ListPackagesResponse, ListVettedPackagesRequest, ListVettedPackagesResponse, VettedPackages } from './apiTypes';
import type { CallOptions, LedgerClient } from './ledgerClient';
import type { LedgerVersion } from './ledgerVersion';

export interface DarQuery {
  /** The synchronizer to vet on (or validate against); unset: the node's only one. */
  synchronizerId?: string;
}

function query(params: Record<string, string | boolean | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** GET /v2/packages: every package id the node has (any authenticated user). */
export function listPackageIds(client: LedgerClient, opts: CallOptions = {}): Promise<ListPackagesResponse> {
  return client.request('GET', '/v2/packages', undefined, opts);
}

/** `POST /v2/package-vetting/list` came in 3.4.12; earlier 3.4 nodes list with `GET /v2/package-vetting`. Unknown: the new one. */
export function hasVettingList(version: LedgerVersion | undefined): boolean {
  return !version || version.major !== 3 || version.minor !== 4 || version.patch >= 12;
}

/** Which vetting list to call: the new one, or (`legacy`) the GET of nodes before 3.4.12. */
export interface VettingRoute {
  legacy?: boolean;
}

/** One page of the vetting list. */
export function listVettedPackages(
  client: LedgerClient,
  request: ListVettedPackagesRequest,
  opts: CallOptions = {},
  route: VettingRoute = {},
): Promise<ListVettedPackagesResponse> {
  return route.legacy ? client.request('GET', '/v2/package-vetting', request, opts) : client.request('POST', '/v2/package-vetting/list', request, opts);
}

/** The request for one participant's own vetting (its id from `GET /v2/parties/participant-id`). */
export function ownVettingRequest(participantId: string): Omit<ListVettedPackagesRequest, 'pageToken'> {
  return { topologyStateFilter: { participantIds: [participantId], synchronizerIds: [] } };
}

/** Every page of the vetting list, `pageSize` at a time (the node caps it; 100 by default). */
export async function listAllVettedPackages(
  client: LedgerClient,
  request: Omit<ListVettedPackagesRequest, 'pageToken'> = {},
  opts: CallOptions = {},
  maxPages = 1_000,
  route: VettingRoute = {},
): Promise<VettedPackages[]> {
  const out: VettedPackages[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await listVettedPackages(client, { ...request, ...(pageToken ? { pageToken } : {}) }, opts, route);
    out.push(...(res.vettedPackages ?? []));
    pageToken = res.nextPageToken ?? undefined;
    if (!pageToken) break;
  }
  return out;
}

/**
 * GET /v2/packages/{package-id}: the package's ArchivePayload (its SHA-256 is the id; Canton also
 * sends it in Canton-Package-Hash). Decode it with src/daml/lf/, which checks the hash.
 */
export function getPackagePayload(client: LedgerClient, packageId: string, opts: CallOptions = {}): Promise<Buffer> {
  return client.requestBytes(`/v2/packages/${encodeURIComponent(packageId)}`, opts);
}

/** POST /v2/dars: uploads a DAR, vetting its packages unless `vetAllPackages` is false. A write. */
export function uploadDar(client: LedgerClient, bytes: Uint8Array, q: DarQuery & { vetAllPackages?: boolean } = {}, opts: CallOptions = {}): Promise<unknown> {
  return client.request(
    'POST',
    `/v2/dars${query({ vetAllPackages: q.vetAllPackages, synchronizerId: q.synchronizerId })}`,
    { raw: bytes, contentType: 'application/octet-stream' },
    opts,
  );
}

/** POST /v2/dars/validate: checks a DAR and its upgrade compatibility; changes nothing. */
export function validateDar(client: LedgerClient, bytes: Uint8Array, q: DarQuery = {}, opts: CallOptions = {}): Promise<unknown> {
  return client.request(
    'POST',
    `/v2/dars/validate${query({ synchronizerId: q.synchronizerId })}`,
    { raw: bytes, contentType: 'application/octet-stream' },
    opts,
  );
}
