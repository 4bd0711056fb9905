// The fake node's identity and party routes: who the token's user is, its rights, the participant
// id, the parties it hosts (paged) and its connected synchronizers. Each follows the node's stages
// (docs/fake-node.md) with the rights a participant asks for (docs/rights.md). No `vscode` import.
import { cantonError, invalidArgument, json, redacted, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger, UserRight } from './demoLedgerData';
import { adminState, isAdminOrIdpAdmin, isReply, matchIdp, partyDetailsJson, storedUser } from './adminClaims';
import type { FakeVersion } from './ledgerQueries';

export interface UserRoutesContext {
  ledger: () => DemoLedger;
  version: () => FakeVersion;
  rights: (user: string) => UserRight[];
  canReadAs: (user: string, party: string) => boolean;
  /** The advertised `partyManagement.maxPartiesPageSize`. */
  maxPartiesPageSize: () => number;
  /** The synchronizers the node is connected to (`connectedSynchronizers`). */
  connected: () => ConnectedSynchronizer[];
}

export interface ConnectedSynchronizer {
  alias: string;
  id: string;
}

/** `da1` and the second synchronizer, `global`; with `single`, `da1` only. */
export function connectedSynchronizers(ledger: DemoLedger, single: boolean): ConnectedSynchronizer[] {
  const da1 = { alias: 'da1', id: ledger.synchronizerId };
  return single ? [da1] : [da1, { alias: 'global', id: ledger.otherSynchronizerId }];
}

export interface UserEndpoint {
  method: 'GET';
  noBody: true;
  rights: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply;
}

const GRPC_NOT_FOUND = 5;

const isAdmin = (rights: UserRight[]) => rights.includes('participantAdmin');

/** One right as the JSON API encodes it (`Right.kind`, a one-key object per kind). */
export function rightJson(r: UserRight, version: FakeVersion): { kind: Record<string, unknown> }[] {
  if (typeof r === 'object') {
    if ('canActAs' in r) return [{ kind: { CanActAs: { value: { party: r.canActAs } } } }];
    if ('canReadAs' in r) return [{ kind: { CanReadAs: { value: { party: r.canReadAs } } } }];
    return [{ kind: { CanExecuteAs: { value: { party: r.canExecuteAs } } } }];
  }
  switch (r) {
    case 'canReadAsAnyParty':
      return [{ kind: { CanReadAsAnyParty: { value: {} } } }];
    case 'canExecuteAsAnyParty':
      return [{ kind: { CanExecuteAsAnyParty: { value: {} } } }];
    case 'participantAdmin':
      return [{ kind: { ParticipantAdmin: { value: {} } } }];
    case 'identityProviderAdmin':
      return [{ kind: { IdentityProviderAdmin: { value: {} } } }];
    // CanActAsAnyParty is new in 3.6; before, the same reach is the two rights it implies.
    case 'canActAsAnyParty':
      return version === '3.6'
        ? [{ kind: { CanActAsAnyParty: { value: {} } } }]
        : [{ kind: { CanReadAsAnyParty: { value: {} } } }, { kind: { CanExecuteAsAnyParty: { value: {} } } }];
  }
}

/** The parties the participant hosts, in a stable order: the named ones, the extra ones, then the allocated ones. */
export function hostedParties(ledger: DemoLedger): string[] {
  return [...Object.values(ledger.parties), ...ledger.extraHostedParties, ...adminState(ledger).allocated];
}

const pageToken = (index: number) => Buffer.from(`parties:${index}`, 'utf8').toString('base64');

function readPageToken(token: string): number | undefined {
  const m = /^parties:(\d{1,9})$/.exec(Buffer.from(token, 'base64').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}

/** The endpoints, by path (a `{user-id}` segment is a path parameter), to spread into the node's table. */
export function userEndpoints(ctx: UserRoutesContext): Record<string, UserEndpoint> {
  return {
    // Any authenticated (and active) user may ask who it is.
    '/v2/authenticated-user': {
      method: 'GET',
      noBody: true,
      rights: () => undefined,
      handle: (user) => {
        const details = ctx.ledger().userDetails[user] ?? {};
        return json(200, {
          user: {
            id: user,
            primaryParty: details.primaryParty ?? '',
            isDeactivated: details.isDeactivated ?? false,
            identityProviderId: details.identityProviderId ?? '',
          },
        });
      },
    },
    // A user's own rights, or anyone's of its identity provider for an administrator (the JSON layer asks in no provider).
    '/v2/users/{user-id}/rights': {
      method: 'GET',
      noBody: true,
      rights: (user, _b, _q, params) => (params['user-id'] === user || isAdminOrIdpAdmin(ctx.rights(user)) ? undefined : redacted(403)),
      handle: (user, _b, _q, params) => {
        const id = params['user-id'] ?? '';
        if (!/^[A-Za-z0-9@^$.!`\-#+'~_|:()]{1,128}$/.test(id)) return invalidArgument(`Invalid field user_id: "${id.slice(0, 140)}" is not a valid user id`);
        const rights = ctx.ledger().users[id];
        if (!rights) return cantonError(404, 'USER_NOT_FOUND', `list user rights failed for unknown user "${id}"`, 11, GRPC_NOT_FOUND, [['USER_ID', id]]);
        const found = storedUser(ctx.ledger(), id, matchIdp(ctx.ledger(), user, '') as string, 'list user rights');
        if (isReply(found)) return found;
        return json(200, { rights: ctx.rights(id).flatMap((r) => rightJson(r, ctx.version())) });
      },
    },
    '/v2/parties/participant-id': {
      method: 'GET',
      noBody: true,
      rights: () => undefined,
      handle: () => json(200, { participantId: ctx.ledger().participantId }),
    },
    // Listing the known parties needs ParticipantAdmin (or IdentityProviderAdmin, of the asked provider).
    '/v2/parties': {
      method: 'GET',
      noBody: true,
      rights: (user, _b, query) => {
        if (!isAdminOrIdpAdmin(ctx.rights(user))) return redacted(403);
        const idp = matchIdp(ctx.ledger(), user, query.get('identity-provider-id') ?? '');
        return isReply(idp) ? idp : undefined;
      },
      handle: (user, _b, query) => {
        const all = hostedParties(ctx.ledger());
        const rawSize = query.get('pageSize');
        if (rawSize !== null && !/^-?\d{1,10}$/.test(rawSize))
          return { status: 400, contentType: 'text/plain; charset=UTF-8', body: 'Invalid value for: query parameter pageSize' };
        const asked = rawSize === null ? 0 : Number(rawSize);
        if (asked < 0) return invalidArgument('Invalid field page_size: must be non-negative');
        const size = asked === 0 ? ctx.maxPartiesPageSize() : Math.min(asked, ctx.maxPartiesPageSize());
        const token = query.get('pageToken') ?? '';
        const start = token === '' ? 0 : readPageToken(token);
        if (start === undefined) return invalidArgument('Invalid field page_token: cannot parse the page token');
        const filter = query.get('filter-party');
        const matching = filter ? all.filter((p) => p.includes(filter)) : all;
        const page = matching.slice(start, start + size);
        const next = start + size < matching.length ? pageToken(start + size) : '';
        const idp = matchIdp(ctx.ledger(), user, query.get('identity-provider-id') ?? '') as string;
        const records = adminState(ctx.ledger()).partyRecords;
        return json(200, { partyDetails: page.map((party) => partyDetailsJson(party, records.get(party), true, idp)), nextPageToken: next });
      },
    },
    // With `party`: readAs that party (or an admin); without: an admin only.
    '/v2/state/connected-synchronizers': {
      method: 'GET',
      noBody: true,
      rights: (user, _b, query) => {
        const party = query.get('party');
        if (isAdmin(ctx.rights(user))) return undefined;
        return party && ctx.canReadAs(user, party) ? undefined : redacted(403);
      },
      handle: (_user, _b, query) => {
        const l = ctx.ledger();
        const party = query.get('party');
        const permission = party
          ? party === l.parties.Carol
            ? 'PARTICIPANT_PERMISSION_OBSERVATION'
            : 'PARTICIPANT_PERMISSION_SUBMISSION'
          : 'PARTICIPANT_PERMISSION_UNSPECIFIED';
        return json(200, {
          connectedSynchronizers: ctx.connected().map((c) => ({ synchronizerAlias: c.alias, synchronizerId: c.id, permission })),
        });
      },
    },
  };
}

/** Matches a request path to a templated route (`/v2/users/{user-id}/rights`): the route and its decoded parameters. */
export function matchTemplate(templates: readonly string[], path: string): { route: string; params: Record<string, string> } | undefined {
  const segments = path.split('/');
  for (const t of templates) {
    if (!t.includes('{')) continue;
    const parts = t.split('/');
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const m = /^\{(.+)\}$/.exec(parts[i]);
      if (m) {
        try {
          params[m[1]] = decodeURIComponent(segments[i]);
        } catch {
          ok = false;
        }
        ok &&= segments[i] !== '';
      } else ok = parts[i] === segments[i];
    }
    if (ok) return { route: t, params };
  }
  return undefined;
}
