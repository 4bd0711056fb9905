// The administration endpoints: users (list, read, create), rights (grant, revoke) and parties
// (list, allocate). Each write is sent once and never retried: a second send could create or
// grant what the first already did, or fail on it. No `vscode` import.
import type {
  AllocatePartyRequest,
  AllocatePartyResponse,
  CreateUserResponse,
  GetUserResponse,
  GrantUserRightsResponse,
  LedgerUser,
  ListKnownPartiesResponse,
  ListUsersResponse,
  PartyDetails,
  RevokeUserRightsResponse,
  UserRightJson,
} from './apiTypes';
import type { CallOptions, LedgerClient } from './ledgerClient';

const userPath = (id: string) => `/v2/users/${encodeURIComponent(id)}`;

/** One page of the users of the token's identity provider (an administrator's token). */
export function listUsers(client: LedgerClient, q: { pageSize?: number; pageToken?: string } = {}, opts: CallOptions = {}): Promise<ListUsersResponse> {
  const params = [q.pageSize ? `pageSize=${q.pageSize}` : '', q.pageToken ? `pageToken=${encodeURIComponent(q.pageToken)}` : ''].filter(Boolean);
  return client.request('GET', `/v2/users${params.length ? `?${params.join('&')}` : ''}`, undefined, opts);
}

/** Every user, page after page (at most `maxPages`). */
export async function listAllUsers(client: LedgerClient, opts: CallOptions = {}, maxPages = 100): Promise<LedgerUser[]> {
  const out: LedgerUser[] = [];
  let pageToken: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await listUsers(client, { pageToken }, opts);
    out.push(...(page.users ?? []));
    pageToken = page.nextPageToken || undefined;
    if (!pageToken) break;
  }
  return out;
}

/** Every party the node knows, page after page (at most `maxPages`). */
export async function listAllParties(client: LedgerClient, opts: CallOptions = {}, maxPages = 100): Promise<PartyDetails[]> {
  const out: PartyDetails[] = [];
  let pageToken: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page: ListKnownPartiesResponse = await client.listParties({ pageToken }, opts);
    out.push(...(page.partyDetails ?? []));
    pageToken = page.nextPageToken || undefined;
    if (!pageToken) break;
  }
  return out;
}

/** GET /v2/users/{id}, in the given identity provider (else the token's own). */
export function getUser(client: LedgerClient, id: string, opts: CallOptions = {}, identityProviderId = ''): Promise<GetUserResponse> {
  const query = identityProviderId ? `?identity-provider-id=${encodeURIComponent(identityProviderId)}` : '';
  return client.request('GET', `${userPath(id)}${query}`, undefined, opts);
}

/** POST /v2/users: a write. */
export function createUser(client: LedgerClient, user: LedgerUser, rights: UserRightJson[], opts: CallOptions = {}): Promise<CreateUserResponse> {
  return client.request('POST', '/v2/users', { user, rights }, opts);
}

/** POST /v2/users/{id}/rights: a write; the answer lists only the rights that were new. */
export function grantRights(client: LedgerClient, userId: string, rights: UserRightJson[], opts: CallOptions = {}): Promise<GrantUserRightsResponse> {
  return client.request('POST', `${userPath(userId)}/rights`, { userId, rights }, opts);
}

/** PATCH /v2/users/{id}/rights: a write; the answer lists only the rights the user had. */
export function revokeRights(client: LedgerClient, userId: string, rights: UserRightJson[], opts: CallOptions = {}): Promise<RevokeUserRightsResponse> {
  return client.request('PATCH', `${userPath(userId)}/rights`, { userId, rights }, opts);
}

/** POST /v2/parties: a write. */
export function allocateParty(client: LedgerClient, request: AllocatePartyRequest, opts: CallOptions = {}): Promise<AllocatePartyResponse> {
  return client.request('POST', '/v2/parties', request, opts);
}

/** GET /v2/idps: the identity provider configs (a ParticipantAdmin's token). */
export function listIdentityProviders(client: LedgerClient, opts: CallOptions = {}): Promise<{ identityProviderConfigs?: unknown[] }> {
  return client.request('GET', '/v2/idps', undefined, opts);
}

/** GET /v2/parties/{party}: one party's details (its local metadata included). */
export function getParty(client: LedgerClient, party: string, opts: CallOptions = {}): Promise<{ partyDetails?: unknown[] }> {
  return client.request('GET', `/v2/parties/${encodeURIComponent(party)}`, undefined, opts);
}
