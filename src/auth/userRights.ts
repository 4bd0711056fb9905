// What a token's user may read, learned from the node (GET /v2/authenticated-user and
// GET /v2/users/{user-id}/rights), and the parties a lookup reads as because of it. Pure (no
// `vscode`): the rules are tested in the fast tier. The rights rules are in docs/rights.md.
import { shortenPartyId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';

export type PartyRight = 'CanActAs' | 'CanReadAs' | 'CanExecuteAs';
export type AnyPartyRight = 'CanReadAsAnyParty' | 'CanActAsAnyParty' | 'CanExecuteAsAnyParty';
export type AdminRight = 'ParticipantAdmin' | 'IdentityProviderAdmin';

/** A user's rights, grouped: per party, the any-party rights, the admin rights. */
export interface UserRights {
  /** Party → its rights, in the order the node listed the parties. */
  byParty: Map<string, PartyRight[]>;
  anyParty: Set<AnyPartyRight>;
  admin: Set<AdminRight>;
  /** Rights of kinds this version of Canton Lens does not know (`Empty`, or newer ones). */
  unknown: number;
  /** How many rights the node listed. */
  total: number;
}

/** The token's user as the node knows it. */
export interface NodeUser {
  id: string;
  primaryParty?: string;
  isDeactivated: boolean;
}

/**
 * What the node said about the token's user: `known` with its rights; `refused` when even
 * authenticated-user was denied (a deactivated or deleted user, or a rejected token); `unknown`
 * when the rights could not be read (an old node, a proxy, an identity provider set-up).
 */
export type LearnedAccess =
  | { state: 'known'; user: NodeUser; rights: UserRights; maxRightsPerUser?: number }
  | { state: 'refused'; status: number; reason: string }
  | { state: 'unknown'; reason: string; user?: NodeUser; transient?: boolean };

const PARTY_KINDS: readonly PartyRight[] = ['CanActAs', 'CanReadAs', 'CanExecuteAs'];
const ANY_KINDS: readonly AnyPartyRight[] = ['CanReadAsAnyParty', 'CanActAsAnyParty', 'CanExecuteAsAnyParty'];
const ADMIN_KINDS: readonly AdminRight[] = ['ParticipantAdmin', 'IdentityProviderAdmin'];

/** Reads a ListUserRightsResponse defensively: anything malformed counts as an unknown right. */
export function parseRights(response: unknown): UserRights {
  const out: UserRights = { byParty: new Map(), anyParty: new Set(), admin: new Set(), unknown: 0, total: 0 };
  const list = (response as { rights?: unknown } | undefined)?.rights;
  if (!Array.isArray(list)) return out;
  for (const right of list) {
    out.total++;
    const kind = (right as { kind?: unknown } | null)?.kind;
    const [name, body] = typeof kind === 'object' && kind !== null ? (Object.entries(kind)[0] ?? []) : [];
    if ((PARTY_KINDS as readonly string[]).includes(name ?? '')) {
      const party = (body as { value?: { party?: unknown } } | undefined)?.value?.party;
      if (typeof party !== 'string' || party === '') {
        out.unknown++;
        continue;
      }
      const rights = out.byParty.get(party) ?? [];
      if (!rights.includes(name as PartyRight)) rights.push(name as PartyRight);
      out.byParty.set(party, rights);
    } else if ((ANY_KINDS as readonly string[]).includes(name ?? '')) out.anyParty.add(name as AnyPartyRight);
    else if ((ADMIN_KINDS as readonly string[]).includes(name ?? '')) out.admin.add(name as AdminRight);
    else out.unknown++;
  }
  return out;
}

/** Reads a GetUserResponse; undefined when it has no user id. */
export function parseUser(response: unknown): NodeUser | undefined {
  const u = (response as { user?: { id?: unknown; primaryParty?: unknown; isDeactivated?: unknown } } | undefined)?.user;
  if (!u || typeof u.id !== 'string' || u.id === '') return undefined;
  return {
    id: u.id,
    primaryParty: typeof u.primaryParty === 'string' && u.primaryParty !== '' ? u.primaryParty : undefined,
    isDeactivated: u.isDeactivated === true,
  };
}

/** The right that lets the user read as a party (the strongest first), or undefined. */
export function readRightFor(rights: UserRights, party: string): PartyRight | AnyPartyRight | undefined {
  const own = rights.byParty.get(party) ?? [];
  if (own.includes('CanActAs')) return 'CanActAs';
  if (own.includes('CanReadAs')) return 'CanReadAs';
  if (rights.anyParty.has('CanReadAsAnyParty')) return 'CanReadAsAnyParty';
  if (rights.anyParty.has('CanActAsAnyParty')) return 'CanActAsAnyParty';
  return undefined;
}

export function readsAnyParty(rights: UserRights): boolean {
  return rights.anyParty.has('CanReadAsAnyParty') || rights.anyParty.has('CanActAsAnyParty');
}

/** The parties the user may read as one by one (CanActAs or CanReadAs), in the node's order. */
export function readableParties(rights: UserRights): string[] {
  return [...rights.byParty].filter(([, r]) => r.includes('CanActAs') || r.includes('CanReadAs')).map(([p]) => p);
}

/** Where a lookup's parties came from ('given': named by the caller, such as a table opened for one party). */
export type PartySource = 'given' | 'settings' | 'rights' | 'fallback';

export interface EffectiveParties {
  /** The parties to read as; empty: any party (`filtersForAnyParty`). */
  parties: string[];
  source: PartySource;
  /** Party → the right that lets it read ("*" for the any-party form), where the rights are known. */
  rightOf: Record<string, PartyRight | AnyPartyRight>;
  /** Set when no form the node accepts exists for these rights: the lookup is not sent. */
  refusal?: string;
  /** Why the parties are what they are, when it is not plain (a fallback, a party without a right). */
  note?: string;
}

/**
 * The parties a lookup reads as. Configured parties win. Otherwise, from the rights: the any-party
 * form when the user holds CanReadAsAnyParty (or CanActAsAnyParty), else every party it can read
 * as (CanActAs, CanReadAs); no read right at all: nothing is sent. Rights not known: the any-party
 * form, and why.
 */
export function effectiveParties(configured: readonly string[] | undefined, access: LearnedAccess | undefined): EffectiveParties {
  const known = access?.state === 'known' ? access : undefined;
  if (configured && configured.length > 0) {
    const rightOf: EffectiveParties['rightOf'] = {};
    const missing: string[] = [];
    for (const p of configured) {
      const r = known && readRightFor(known.rights, p);
      if (r) rightOf[p] = r;
      else if (known) missing.push(p);
    }
    const note =
      missing.length > 0
        ? l10n.t('{0} has no read right for {1}: the node refuses a lookup as it (403).', known!.user.id, missing.map(shortenPartyId).join(', '))
        : undefined;
    return { parties: [...configured], source: 'settings', rightOf, ...(note ? { note } : {}) };
  }
  if (!access)
    return {
      parties: [],
      source: 'fallback',
      rightOf: {},
      note: l10n.t("The token's rights are not known yet: asking for any party (needs CanReadAsAnyParty)."),
    };
  if (access.state !== 'known') {
    return {
      parties: [],
      source: 'fallback',
      rightOf: {},
      note: l10n.t(
        "The token's rights could not be read ({0}): asking for any party, which needs CanReadAsAnyParty. Set `parties` for this node to ask as named parties.",
        access.reason,
      ),
    };
  }
  if (access.user.isDeactivated) {
    return {
      parties: [],
      source: 'rights',
      rightOf: {},
      refusal: l10n.t("The token's user {0} is deactivated on this node: it is denied all access to the Ledger API.", access.user.id),
    };
  }
  const any = access.rights.anyParty.has('CanReadAsAnyParty')
    ? 'CanReadAsAnyParty'
    : access.rights.anyParty.has('CanActAsAnyParty')
      ? 'CanActAsAnyParty'
      : undefined;
  if (any) return { parties: [], source: 'rights', rightOf: { '*': any } };
  const parties = readableParties(access.rights);
  if (parties.length === 0) return { parties: [], source: 'rights', rightOf: {}, refusal: noReadRight(access.user.id, access.rights) };
  const rightOf: EffectiveParties['rightOf'] = {};
  for (const p of parties) rightOf[p] = readRightFor(access.rights, p)!;
  return { parties, source: 'rights', rightOf };
}

/** Why a user with no read right can read nothing, naming what it does hold. */
export function noReadRight(user: string, rights: UserRights): string {
  const held = describeHeld(rights);
  return held
    ? l10n.t(
        "The token's user {0} holds {1}, but no right to read: reading needs CanReadAs or CanActAs for a party, or CanReadAsAnyParty. ParticipantAdmin alone reads nothing. Nothing was sent (the node would refuse it with 403).",
        user,
        held,
      )
    : l10n.t(
        "The token's user {0} has no rights on this node: reading needs CanReadAs or CanActAs for a party, or CanReadAsAnyParty. Nothing was sent (the node would refuse it with 403).",
        user,
      );
}

function describeHeld(rights: UserRights): string {
  const parts: string[] = [...rights.admin, ...rights.anyParty];
  for (const [party, r] of rights.byParty) parts.push(`${r.join('+')} ${shortenPartyId(party)}`);
  return parts.join(', ');
}

/** "CanActAs Alice::1220ab…, CanReadAs Bob::1220ab…" or "CanReadAsAnyParty": the rights behind the parties asked. */
export function describeRightsUsed(e: EffectiveParties): string {
  if (e.parties.length === 0) return e.rightOf['*'] ?? l10n.t('any party (CanReadAsAnyParty needed)');
  return e.parties.map((p) => (e.rightOf[p] ? `${e.rightOf[p]} ${shortenPartyId(p)}` : shortenPartyId(p))).join(', ');
}

/** Where the parties came from, in words. */
export function sourceName(source: PartySource): string {
  switch (source) {
    case 'given':
      return l10n.t('as asked');
    case 'settings':
      return l10n.t('from the settings');
    case 'rights':
      return l10n.t("from the token's rights");
    case 'fallback':
      return l10n.t('rights unknown');
  }
}

/** The parties among `parties` the known user may not read as (an administrator can grant CanReadAs). */
export function missingReadRights(parties: readonly string[], access: LearnedAccess | undefined): { user: string; parties: string[] } | undefined {
  if (access?.state !== 'known' || access.user.isDeactivated) return undefined;
  const missing = parties.filter((p) => !readRightFor(access.rights, p));
  return missing.length > 0 ? { user: access.user.id, parties: missing } : undefined;
}

/**
 * A 403 on a lookup explained from the rights: the party (or the any-party right) the user lacks.
 * Undefined when the rights do not show what is missing.
 */
export function missingRightFor(parties: readonly string[], access: LearnedAccess | undefined): string | undefined {
  if (access?.state !== 'known') return undefined;
  const user = access.user.id;
  if (access.user.isDeactivated) return l10n.t("The token's user {0} is deactivated on this node.", user);
  if (parties.length === 0) {
    return readsAnyParty(access.rights) ? undefined : l10n.t('{0} lacks CanReadAsAnyParty, which asking for any party needs.', user);
  }
  const missing = missingReadRights(parties, access);
  return missing && l10n.t('{0} lacks CanReadAs (or CanActAs) for {1}.', user, missing.parties.map(shortenPartyId).join(', '));
}

/** The rights of a user grouped by party, for the tree: one line per party, then the others. */
export function rightsLines(rights: UserRights): { label: string; value: string; party?: string }[] {
  const lines: { label: string; value: string; party?: string }[] = [];
  for (const [party, r] of rights.byParty) lines.push({ label: shortenPartyId(party), value: r.join(', '), party });
  for (const r of rights.anyParty) lines.push({ label: r, value: l10n.t('any party on the node') });
  for (const r of rights.admin)
    lines.push({
      label: r,
      value:
        r === 'ParticipantAdmin'
          ? l10n.t('administers the participant (reads nothing by itself)')
          : l10n.t("administers its identity provider's users and parties"),
    });
  if (rights.unknown > 0) lines.push({ label: l10n.t('Other'), value: l10n.t('{0} rights of kinds not known to Canton Lens', rights.unknown) });
  return lines;
}

/** A right of a user as the node lists it; `undefined` rights: not known (not read from the node). */
export type ExecuteRight =
  | { canActAs: string }
  | { canExecuteAs: string }
  | { canReadAs: string }
  | 'canActAsAnyParty'
  | 'canExecuteAsAnyParty'
  | 'canReadAsAnyParty'
  | 'participantAdmin';

/**
 * The rights that matter for executing, from what the node said about the token's user
 * (GET /v2/users/{user-id}/rights): undefined when they are not known. A deactivated user holds
 * none (the node denies it everything).
 */
export function executeRightsOf(access: LearnedAccess | undefined): ExecuteRight[] | undefined {
  if (access?.state !== 'known') return undefined;
  if (access.user.isDeactivated) return [];
  const out: ExecuteRight[] = [];
  for (const [party, rights] of access.rights.byParty) {
    for (const r of rights) out.push(r === 'CanActAs' ? { canActAs: party } : r === 'CanExecuteAs' ? { canExecuteAs: party } : { canReadAs: party });
  }
  for (const r of access.rights.anyParty)
    out.push(r === 'CanActAsAnyParty' ? 'canActAsAnyParty' : r === 'CanExecuteAsAnyParty' ? 'canExecuteAsAnyParty' : 'canReadAsAnyParty');
  if (access.rights.admin.has('ParticipantAdmin')) out.push('participantAdmin');
  return out;
}
