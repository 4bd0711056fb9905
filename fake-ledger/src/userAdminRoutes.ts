// The fake node's user administration: list, create, read, update and delete users, grant and
// revoke rights, move a user between identity providers. Rights and refusals as Canton's
// UserManagementServiceAuthorization, ApiUserManagementService and its store decide them
// (docs/fake-node.md). No `vscode` import.
import { cantonError, invalidArgument, json, missingField, redacted, type ErrorReply } from './cantonErrorBodies';
import {
  adminState,
  checkAnnotations,
  checkParty,
  checkUserId,
  isAdminOrIdpAdmin,
  isParticipantAdmin,
  isReply,
  str,
  matchIdp,
  mergeAnnotations,
  storedUser,
  userExists,
  type Rights,
} from './adminClaims';
import type { DemoLedger, UserDetails, UserRight } from './storedLedger';
import type { FakeVersion } from './ledgerQueries';

export interface AdminEndpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  noBody?: true;
  rights: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply;
}

export interface AdminContext {
  ledger: () => DemoLedger;
  version: () => FakeVersion;
  rights: Rights;
  maxRightsPerUser: () => number;
  maxUsersPageSize: () => number;
  /** One right as the JSON API encodes it (userRoutes.ts). */
  rightJson: (r: UserRight) => { kind: Record<string, unknown> }[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

/** A user as the JSON API sends it. */
export function userJson(id: string, d: UserDetails): Json {
  return {
    id,
    primaryParty: d.primaryParty ?? '',
    isDeactivated: d.isDeactivated ?? false,
    metadata: { resourceVersion: String(d.resourceVersion ?? 0), annotations: { ...d.annotations } },
    identityProviderId: d.identityProviderId ?? '',
    primaryPartyAuthentication: d.primaryPartyAuthentication ?? false,
  };
}

/** A JSON `Right` as the fake stores it, or the validator's refusal (`fromProtoRight`). */
function readRight(right: unknown): UserRight | ErrorReply {
  const kind = obj(obj(right).kind);
  const [name] = Object.keys(kind);
  const party = str(obj(obj(kind[name]).value).party);
  const partyRight = (make: (p: string) => UserRight) => checkParty(party) ?? make(party);
  switch (name) {
    case 'ParticipantAdmin':
      return 'participantAdmin';
    case 'IdentityProviderAdmin':
      return 'identityProviderAdmin';
    case 'CanReadAsAnyParty':
      return 'canReadAsAnyParty';
    case 'CanExecuteAsAnyParty':
      return 'canExecuteAsAnyParty';
    case 'CanActAsAnyParty':
      return 'canActAsAnyParty';
    case 'CanActAs':
      return partyRight((p) => ({ canActAs: p }));
    case 'CanReadAs':
      return partyRight((p) => ({ canReadAs: p }));
    case 'CanExecuteAs':
      return partyRight((p) => ({ canExecuteAs: p }));
    default:
      return invalidArgument('unknown kind of right - check that the Ledger API version of the server is recent enough');
  }
}

function readRights(rights: unknown): UserRight[] | ErrorReply {
  const out: UserRight[] = [];
  for (const r of Array.isArray(rights) ? rights : []) {
    const read = readRight(r);
    if (isReply(read)) return read;
    if (!out.some((o) => sameRight(o, read))) out.push(read);
  }
  return out;
}

const sameRight = (a: UserRight, b: UserRight) => JSON.stringify(a) === JSON.stringify(b);

/** Rights only a ParticipantAdmin may grant or revoke: 3.4 `containsParticipantAdmin`, 3.5 and 3.6 `needsParticipantAdmin`. */
const ADMIN_ONLY: Record<FakeVersion, string[]> = {
  '3.4': ['ParticipantAdmin'],
  '3.5': ['ParticipantAdmin', 'CanReadAsAnyParty', 'CanExecuteAsAnyParty'],
  '3.6': ['ParticipantAdmin', 'CanReadAsAnyParty', 'CanExecuteAsAnyParty', 'CanActAsAnyParty'],
};
const adminOnly = (version: FakeVersion, rights: unknown) =>
  (Array.isArray(rights) ? rights : []).some((r) => ADMIN_ONLY[version].includes(Object.keys(obj(obj(r).kind))[0]));

/** The rights of `idpAdminClaimsAndMatchingRequestIdpId`. */
function idpAdminClaims(ctx: AdminContext, user: string, requestedIdp: unknown, mustBeParticipantAdmin = false): ErrorReply | undefined {
  const rights = ctx.rights(user);
  if (!(mustBeParticipantAdmin ? isParticipantAdmin(rights) : isAdminOrIdpAdmin(rights))) return redacted(403);
  const idp = matchIdp(ctx.ledger(), user, typeof requestedIdp === 'string' ? requestedIdp : '');
  return isReply(idp) ? idp : undefined;
}

/** The request's identity provider after the authorizer filled it in from the caller's. */
const effectiveIdp = (ctx: AdminContext, user: string, requested: unknown) =>
  matchIdp(ctx.ledger(), user, typeof requested === 'string' ? requested : '') as string;

const pageToken = (id: string) => Buffer.from(`users:${id}`, 'utf8').toString('base64url');
function readPageToken(token: string): string | undefined {
  const m = /^users:(.+)$/s.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return m ? m[1] : undefined;
}

/** `JsUserManagementService.unmatchedUserId`: the path's user and the body's must agree. */
const unmatched = (inPath: string, inBody: unknown) => invalidArgument(`${inPath} does not match user in body: Some(${str(inBody)}) `);

export function userAdminEndpoints(ctx: AdminContext): Record<string, AdminEndpoint> {
  const l = ctx.ledger;
  return {
    // ListUsers: the JSON layer asks with no identity provider, so the caller's (or the default one's users).
    '/v2/users': {
      method: 'GET',
      noBody: true,
      rights: (user) => idpAdminClaims(ctx, user, ''),
      handle: (user, _b, query) => {
        const rawSize = query.get('pageSize');
        if (rawSize !== null && !/^-?\d{1,10}$/.test(rawSize))
          return { status: 400, contentType: 'text/plain; charset=UTF-8', body: 'Invalid value for: query parameter pageSize' };
        const asked = rawSize === null ? 0 : Number(rawSize);
        if (asked < 0) return invalidArgument('Max page size must be non-negative');
        const token = query.get('pageToken') ?? '';
        const after = token === '' ? '' : readPageToken(token);
        if (after === undefined) return invalidArgument('Invalid page token');
        const size = asked === 0 ? ctx.maxUsersPageSize() : Math.min(asked, ctx.maxUsersPageSize());
        const idp = effectiveIdp(ctx, user, '');
        const ids = Object.keys(l().users)
          .filter((id) => (l().userDetails[id]?.identityProviderId ?? '') === idp && id > after)
          .sort()
          .slice(0, size);
        return json(200, {
          users: ids.map((id) => userJson(id, l().userDetails[id] ?? {})),
          nextPageToken: ids.length < size ? '' : pageToken(ids[ids.length - 1]),
        });
      },
    },
    'POST /v2/users': {
      method: 'POST',
      rights: (user, body) => idpAdminClaims(ctx, user, obj(body.user).identityProviderId, adminOnly(ctx.version(), body.rights)),
      handle: (user, body) => {
        const u = obj(body.user);
        if (body.user === undefined) return missingField('user');
        const bad =
          checkUserId(u.id, 'id') ??
          (obj(u.metadata).resourceVersion ? invalidArgument('field user.metadata.resource_version must be not set') : undefined) ??
          checkAnnotations(obj(obj(u.metadata).annotations), false, 'user.metadata.annotations') ??
          (u.primaryParty ? checkParty(str(u.primaryParty)) : undefined);
        if (bad) return bad;
        const rights = readRights(body.rights);
        if (isReply(rights)) return rights;
        const idp = effectiveIdp(ctx, user, u.identityProviderId);
        if (idp !== '' && !adminState(l()).idps.some((i) => i.identityProviderId === idp))
          return invalidArgument(`Provided identity_provider_id ${idp} has not been found.`);
        const id = str(u.id);
        if (l().users[id]) return (l().userDetails[id]?.identityProviderId ?? '') === idp ? userExists('creating user', id) : redacted(403);
        if (rights.length > ctx.maxRightsPerUser()) return tooManyRights('creating user', id);
        l().users[id] = rights;
        l().userDetails[id] = {
          primaryParty: u.primaryParty ? str(u.primaryParty) : undefined,
          isDeactivated: u.isDeactivated === true,
          identityProviderId: idp || undefined,
          annotations: obj(obj(u.metadata).annotations) as Record<string, string>,
          resourceVersion: 0,
          primaryPartyAuthentication: u.primaryPartyAuthentication === true,
        };
        return json(200, { user: userJson(id, l().userDetails[id]) });
      },
    },
    // GetUser: oneself, or an administrator of the user's identity provider.
    '/v2/users/{user-id}': {
      method: 'GET',
      noBody: true,
      rights: (user, _b, query, params) => {
        const idp = matchIdp(l(), user, query.get('identity-provider-id') ?? '');
        if (isReply(idp)) return idp;
        return params['user-id'] === user || isAdminOrIdpAdmin(ctx.rights(user)) ? undefined : redacted(403);
      },
      handle: (user, _b, query, params) => {
        const id = params['user-id'];
        const bad = checkUserId(id, 'user_id');
        if (bad) return bad;
        const found = storedUser(l(), id, effectiveIdp(ctx, user, query.get('identity-provider-id') ?? ''), 'getting user');
        return isReply(found) ? found : json(200, { user: userJson(id, found) });
      },
    },
    'PATCH /v2/users/{user-id}': {
      method: 'PATCH',
      rights: (user, body) => idpAdminClaims(ctx, user, obj(body.user).identityProviderId),
      handle: (user, body, _q, params) => updateUser(ctx, user, body, params['user-id']),
    },
    // DeleteUser: the JSON layer asks with no identity provider; nobody deletes itself.
    'DELETE /v2/users/{user-id}': {
      method: 'DELETE',
      noBody: true,
      rights: (user) => idpAdminClaims(ctx, user, ''),
      handle: (user, _b, _q, params) => {
        const id = params['user-id'];
        const bad = checkUserId(id, 'user_id');
        if (bad) return bad;
        if (id === user) return invalidArgument('Requesting user cannot delete itself');
        const found = storedUser(l(), id, effectiveIdp(ctx, user, ''), 'deleting user');
        if (isReply(found)) return found;
        delete l().users[id];
        delete l().userDetails[id];
        return json(200, {});
      },
    },
    'POST /v2/users/{user-id}/rights': {
      method: 'POST',
      rights: (user, body) => idpAdminClaims(ctx, user, body.identityProviderId, adminOnly(ctx.version(), body.rights)),
      handle: (user, body, _q, params) => changeRights(ctx, user, body, params['user-id'], 'grant'),
    },
    'PATCH /v2/users/{user-id}/rights': {
      method: 'PATCH',
      rights: (user, body) => idpAdminClaims(ctx, user, body.identityProviderId, adminOnly(ctx.version(), body.rights)),
      handle: (user, body, _q, params) => changeRights(ctx, user, body, params['user-id'], 'revoke'),
    },
    // Moving a user between identity providers: a ParticipantAdmin only.
    '/v2/users/{user-id}/identity-provider-id': {
      method: 'PATCH',
      rights: (user) => (isParticipantAdmin(ctx.rights(user)) ? undefined : redacted(403)),
      handle: (_user, body, _q, params) => {
        const id = params['user-id'];
        if (body.userId !== id) return unmatched(id, body.userId);
        const bad = checkUserId(id, 'user_id');
        if (bad) return bad;
        const source = str(body.sourceIdentityProviderId);
        const target = str(body.targetIdentityProviderId);
        for (const idp of [source, target])
          if (idp !== '' && !adminState(l()).idps.some((i) => i.identityProviderId === idp))
            return invalidArgument(`Provided identity_provider_id ${idp} has not been found.`);
        const found = storedUser(l(), id, source, 'update user identity provider');
        if (isReply(found)) return found;
        found.identityProviderId = target || undefined;
        return json(200, {});
      },
    },
  };
}

function tooManyRights(operation: string, id: string): ErrorReply {
  return cantonError(400, 'TOO_MANY_USER_RIGHTS', `${operation} failed, as user "${id}" would have too many rights.`, 9, 9, [['USER_ID', id]]);
}

/** Grant or revoke: only what changes is answered (granting a held right, revoking a missing one: nothing, no error). */
function changeRights(ctx: AdminContext, user: string, body: Json, id: string, how: 'grant' | 'revoke'): ErrorReply {
  const l = ctx.ledger();
  if (body.userId !== id) return unmatched(id, body.userId);
  const bad = checkUserId(id, 'user_id');
  if (bad) return bad;
  const rights = readRights(body.rights);
  if (isReply(rights)) return rights;
  if (how === 'revoke' && id === user && rights.includes('participantAdmin')) return invalidArgument('Requesting user cannot remove own admin rights');
  const idp = effectiveIdp(ctx, user, body.identityProviderId);
  // verifyPartiesExistInIdp: an IdentityProviderAdmin may name only parties its provider knows.
  if (!isParticipantAdmin(ctx.rights(user))) {
    const records = adminState(l).partyRecords;
    const unknown = rights
      .map((r) => (typeof r === 'object' && !('canExecuteAs' in r) ? ('canActAs' in r ? r.canActAs : r.canReadAs) : undefined))
      .filter((p): p is string => p !== undefined && records.get(p)?.identityProviderId !== idp);
    if (unknown.length > 0)
      return cantonError(
        404,
        'NOT_FOUND',
        `Provided parties have not been found in identity_provider_id=\`${idp}\`: [${unknown.join(',')}].`,
        11,
        5,
        unknown.map((p) => ['PARTY', p]),
      );
  }
  const found = storedUser(l, id, idp, `${how} user rights`);
  if (isReply(found)) return found;
  const held = l.users[id];
  if (how === 'grant') {
    const added = rights.filter((r) => !held.some((h) => sameRight(h, r)));
    if (held.length + added.length > ctx.maxRightsPerUser()) return tooManyRights('grant user rights', id);
    held.push(...added);
    return json(200, { newlyGrantedRights: added.flatMap(ctx.rightJson) });
  }
  const removed = rights.filter((r) => held.some((h) => sameRight(h, r)));
  l.users[id] = held.filter((h) => !removed.some((r) => sameRight(h, r)));
  return json(200, { newlyRevokedRights: removed.flatMap(ctx.rightJson) });
}

const USER_PATHS = [
  'id',
  'primary_party',
  'is_deactivated',
  'metadata',
  'metadata.annotations',
  'metadata.resource_version',
  'identity_provider_id',
  'primary_party_authentication',
];

/** UpdateUser: the mask's paths (proto names), the resource version if given, no self-deactivation. */
function updateUser(ctx: AdminContext, user: string, body: Json, id: string): ErrorReply {
  const l = ctx.ledger();
  const u = obj(body.user);
  if (u.id !== id) return unmatched(id, u.id);
  const meta = obj(u.metadata);
  const bad =
    checkUserId(u.id, 'user.id') ??
    (u.primaryParty ? checkParty(str(u.primaryParty)) : undefined) ??
    (meta.resourceVersion && !/^-?\d+$/.test(str(meta.resourceVersion))
      ? cantonError(
          400,
          'INVALID_FIELD',
          'The submitted command has a field with invalid value: Invalid field user.metadata.resource_version: Invalid resource version number',
          8,
          3,
        )
      : undefined) ??
    checkAnnotations(obj(meta.annotations), true, 'user.metadata.annotations');
  if (bad) return bad;
  const paths = (Array.isArray(obj(body.updateMask).paths) ? obj(body.updateMask).paths : []) as string[];
  const reject = (reason: string) =>
    cantonError(400, 'INVALID_USER_UPDATE_REQUEST', `Update operation for user id '${id}' failed due to: ${reason}`, 8, 3, [['USER_ID', id]]);
  if (paths.length === 0) return reject('The update mask contains no entries');
  const unknownPath = paths.find((p) => !USER_PATHS.includes(p));
  if (unknownPath !== undefined) return reject(`The update path: '${unknownPath.slice(0, 50)}' points to an unknown field.`);
  if (new Set(paths).size !== paths.length) return reject(`The update path: '${paths.find((p, i) => paths.indexOf(p) !== i)}' is duplicated.`);
  const idp = effectiveIdp(ctx, user, u.identityProviderId);
  if (idp !== '' && !adminState(l).idps.some((i) => i.identityProviderId === idp))
    return invalidArgument(`Provided identity_provider_id ${idp} has not been found.`);
  if (id === user && paths.includes('is_deactivated') && u.isDeactivated === true) return invalidArgument('Requesting user cannot self-deactivate');
  const found = storedUser(l, id, idp, 'updating user');
  if (isReply(found)) return found;
  if (meta.resourceVersion && Number(meta.resourceVersion) !== (found.resourceVersion ?? 0))
    return cantonError(409, 'CONCURRENT_USER_UPDATE_DETECTED', `Update operation for user '${id}' failed due a concurrent update to the same user`, 10, 10, [
      ['USER_ID', id],
    ]);
  const has = (p: string) => paths.includes(p);
  if (has('primary_party')) found.primaryParty = u.primaryParty ? str(u.primaryParty) : undefined;
  if (has('is_deactivated')) found.isDeactivated = u.isDeactivated === true;
  if (has('primary_party_authentication')) found.primaryPartyAuthentication = u.primaryPartyAuthentication === true;
  if (has('metadata') || has('metadata.annotations')) found.annotations = mergeAnnotations(found.annotations, obj(meta.annotations) as Record<string, string>);
  found.resourceVersion = (found.resourceVersion ?? 0) + 1;
  return json(200, { user: userJson(id, found) });
}
