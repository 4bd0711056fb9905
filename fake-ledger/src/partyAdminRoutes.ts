// The fake node's party administration: allocate a party (by hint, on a synchronizer when the node
// has several), read and update a party's local metadata, list identity providers. Rights and
// refusals as Canton's PartyManagementServiceAuthorization, ApiPartyManagementService and
// PartyAllocation decide them (docs/fake-node.md). No `vscode` import.
import { randomBytes } from 'node:crypto';
import { cantonError, invalidArgument, json, missingField, redacted } from './cantonErrorBodies';
import {
  adminState,
  checkAnnotations,
  checkParty,
  checkUserId,
  isAdminOrIdpAdmin,
  isReply,
  str,
  matchIdp,
  mergeAnnotations,
  partyDetailsJson,
  storedUser,
  type Rights,
} from './adminClaims';
import type { AdminEndpoint } from './userAdminRoutes';
import type { DemoLedger } from './storedLedger';
import type { ConnectedSynchronizer } from './userRoutes';

export interface PartyAdminContext {
  ledger: () => DemoLedger;
  rights: Rights;
  connected: () => ConnectedSynchronizer[];
  /** Every party the participant hosts (the seeded ones, then the allocated ones). */
  hosted: () => string[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

const fail = (code: string, cause: string, category: number, grpc: number, status: number, resources: [string, string][] = []) =>
  cantonError(status, code, cause, category, grpc, resources);

export function partyAdminEndpoints(ctx: PartyAdminContext): Record<string, AdminEndpoint> {
  const l = ctx.ledger;
  const idpExists = (idp: string) => idp === '' || adminState(l()).idps.some((i) => i.identityProviderId === idp);
  return {
    // AllocateParty: an administrator (of the request's provider); a user allocating for itself is
    // past the rights, then refused by the self-allocation quota (0 by default).
    'POST /v2/parties': {
      method: 'POST',
      rights: (user, body) => {
        const rights = ctx.rights(user);
        if (!isAdminOrIdpAdmin(rights) && body.userId !== user) return redacted(403);
        const idp = matchIdp(l(), user, typeof body.identityProviderId === 'string' ? body.identityProviderId : '');
        return isReply(idp) ? idp : undefined;
      },
      handle: (user, body) => {
        const hint = str(body.partyIdHint);
        const meta = obj(body.localMetadata);
        const bad =
          (hint ? checkParty(hint) : undefined) ??
          (meta.resourceVersion ? invalidArgument('field local_metadata.resource_version must be not set') : undefined) ??
          checkAnnotations(obj(meta.annotations), false, 'local_metadata.annotations') ??
          (body.userId ? checkUserId(body.userId, 'user_id') : undefined);
        if (bad) return bad;
        // UniqueIdentifier.create: the hint must not hold the delimiter and fits in 185 characters.
        if (hint.includes('::')) return invalidArgument('Invalid party ID: String contains reserved delimiter `::`.');
        if (hint.length > 185) return invalidArgument(`Invalid party ID: String too long: at most 185 characters`);
        const idp = matchIdp(l(), user, str(body.identityProviderId)) as string;
        const connected = ctx.connected();
        const synchronizerId = str(body.synchronizerId);
        if (synchronizerId !== '' && !connected.some((c) => c.id === synchronizerId))
          return fail('NOT_CONNECTED_TO_SYNCHRONIZER', `This participant is not connected to synchronizer ${synchronizerId}.`, 9, 9, 400);
        const namespace = l().participantId.split('::')[1];
        const party = `${hint || `party-${randomBytes(16).toString('hex')}`}::${namespace}`;
        if (!idpExists(idp)) return invalidArgument(`Provided identity_provider_id ${idp} has not been found.`);
        const userId = str(body.userId);
        if (userId) {
          const target = storedUser(l(), userId, idp, 'allocating party');
          if (isReply(target)) return target;
          // checkUserLimitsIfUserSpecified: a regular user's quota of self-allocated parties is 0.
          if (!isAdminOrIdpAdmin(ctx.rights(user))) return redacted(403);
        }
        const state = adminState(l());
        const record = state.partyRecords.get(party);
        if (record && record.identityProviderId !== idp) return redacted(403);
        if (synchronizerId === '' && connected.length > 1)
          return fail(
            'PARTY_ALLOCATION_CANNOT_DETERMINE_SYNCHRONIZER',
            `Cannot determine the synchronizer on which to allocate party ${party}, because the participant is connected to multiple synchronizers and no synchronizer was specified.`,
            9,
            9,
            400,
          );
        // PartyAllocation: MappingAlreadyExists, which the service turns into INVALID_ARGUMENT.
        if (ctx.hosted().includes(party))
          return cantonError(
            400,
            'INVALID_ARGUMENT',
            `The submitted request has invalid arguments: Party already exists: party ${party} is already allocated on this node`,
            8,
            3,
          );
        state.allocated.push(party);
        const stored = { annotations: obj(meta.annotations) as Record<string, string>, identityProviderId: idp, resourceVersion: 0 };
        state.partyRecords.set(party, stored);
        if (userId) l().users[userId].push({ canActAs: party });
        return json(200, { partyDetails: partyDetailsJson(party, stored, true, idp) });
      },
    },
    // GetParties: an administrator, or a user that may act or read as each asked party.
    '/v2/parties/{party}': {
      method: 'GET',
      noBody: true,
      rights: (user, _b, query) => {
        const idp = matchIdp(l(), user, query.get('identity-provider-id') ?? '');
        return isReply(idp) ? idp : isAdminOrIdpAdmin(ctx.rights(user)) ? undefined : redacted(403);
      },
      handle: (user, _b, query, params) => {
        const asked = [params.party, ...query.getAll('parties')];
        for (const p of asked) {
          const bad = checkParty(p);
          if (bad) return bad;
        }
        const idp = matchIdp(l(), user, query.get('identity-provider-id') ?? '') as string;
        const hosted = ctx.hosted();
        const known = asked.filter((p) => hosted.includes(p));
        return json(200, { partyDetails: known.map((p) => partyDetailsJson(p, adminState(l()).partyRecords.get(p), true, idp)) });
      },
    },
    'PATCH /v2/parties/{party}': {
      method: 'PATCH',
      rights: (user, body) => {
        if (!isAdminOrIdpAdmin(ctx.rights(user))) return redacted(403);
        const idp = matchIdp(l(), user, str(obj(body.partyDetails).identityProviderId));
        return isReply(idp) ? idp : undefined;
      },
      handle: (user, body, _q, params) => {
        const d = obj(body.partyDetails);
        if (d.party !== params.party) return invalidArgument(`${params.party} does not match party in body ${str(d.party)}`);
        const meta = obj(d.localMetadata);
        const party = str(d.party);
        const bad =
          checkParty(party) ??
          (meta.resourceVersion && !/^-?\d+$/.test(str(meta.resourceVersion))
            ? cantonError(
                400,
                'INVALID_FIELD',
                'The submitted command has a field with invalid value: Invalid field party_details.local_metadata: Invalid resource version number',
                8,
                3,
              )
            : undefined) ??
          checkAnnotations(obj(meta.annotations), true, 'party_details.local_metadata.annotations');
        if (bad) return bad;
        if (body.updateMask === undefined) return missingField('update_mask');
        const idp = matchIdp(l(), user, str(d.identityProviderId)) as string;
        if (!idpExists(idp)) return invalidArgument(`Provided identity_provider_id ${idp} has not been found.`);
        const paths = (Array.isArray(obj(body.updateMask).paths) ? obj(body.updateMask).paths : []) as string[];
        const reject = (reason: string) =>
          cantonError(400, 'INVALID_PARTY_DETAILS_UPDATE_REQUEST', `Update operation for party '${party}' failed due to: ${reason}`, 8, 3, [['PARTY', party]]);
        if (paths.length === 0) return reject('The update mask contains no entries');
        const unknown = paths.find(
          (p) => !['party', 'is_local', 'local_metadata', 'local_metadata.annotations', 'local_metadata.resource_version', 'identity_provider_id'].includes(p),
        );
        if (unknown !== undefined) return reject(`The update path: '${unknown.slice(0, 50)}' points to an unknown field.`);
        if (!ctx.hosted().includes(party))
          return cantonError(404, 'PARTY_NOT_FOUND', `Party: '${party}' was not found when updating a party record`, 11, 5, [['PARTY', party]]);
        if (paths.includes('is_local') && d.isLocal === false) return reject("Update request attempted to modify not-modifiable 'is_local' attribute");
        const records = adminState(l()).partyRecords;
        const record = records.get(party) ?? { annotations: {}, identityProviderId: '', resourceVersion: 0 };
        if (record.identityProviderId !== idp) return redacted(403);
        if (meta.resourceVersion && Number(meta.resourceVersion) !== record.resourceVersion)
          return cantonError(
            409,
            'CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED',
            `Update operation for party '${party}' failed due to a concurrent update to the same party`,
            10,
            10,
            [['PARTY', party]],
          );
        if (paths.some((p) => p.startsWith('local_metadata') && p !== 'local_metadata.resource_version'))
          record.annotations = mergeAnnotations(record.annotations, obj(meta.annotations) as Record<string, string>);
        record.resourceVersion += 1;
        records.set(party, record);
        return json(200, { partyDetails: partyDetailsJson(party, record, true, idp) });
      },
    },
    // ListIdentityProviderConfigs: a ParticipantAdmin only.
    '/v2/idps': {
      method: 'GET',
      noBody: true,
      rights: (user) => (ctx.rights(user).includes('participantAdmin') ? undefined : redacted(403)),
      handle: () => json(200, { identityProviderConfigs: adminState(l()).idps }),
    },
  };
}
