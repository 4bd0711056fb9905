// Changes an administrator makes to a node: the checks of user ids and party hints by Canton's own
// rules (per version), the rights as the JSON API writes them, and what a change will send, shown
// before it is sent. Pure (no `vscode`): tested in the fast tier. docs/fake-node.md cites the rules.
import type { UserRightJson } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';

export type AdminVersion = '3.4' | '3.5' | '3.6';

/** The rules of ids per version: Ref.UserId, Ref.Party and UniqueIdentifier's 185-character identifier (the same on 3.4–3.6). */
const RULES: Record<AdminVersion, { userId: RegExp; userIdMax: number; hintChars: RegExp; hintMax: number }> = {
  '3.4': { userId: /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]+$/, userIdMax: 128, hintChars: /^[a-zA-Z0-9:\-_ ]+$/, hintMax: 185 },
  '3.5': { userId: /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]+$/, userIdMax: 128, hintChars: /^[a-zA-Z0-9:\-_ ]+$/, hintMax: 185 },
  '3.6': { userId: /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]+$/, userIdMax: 128, hintChars: /^[a-zA-Z0-9:\-_ ]+$/, hintMax: 185 },
};

/** The version whose rules apply: a node's `major.minor`, the newest known one otherwise. */
export function adminVersion(version: { major: number; minor: number } | undefined): AdminVersion {
  const v = version ? `${version.major}.${version.minor}` : '';
  return v === '3.4' || v === '3.5' ? v : '3.6';
}

/** Why Canton would refuse this user id, or undefined. */
export function checkUserId(id: string, version: AdminVersion): string | undefined {
  const r = RULES[version];
  if (id === '') return l10n.t('A user id cannot be empty.');
  if (id.length > r.userIdMax) return l10n.t('A user id has at most {0} characters; this one has {1}.', r.userIdMax, id.length);
  if (!r.userId.test(id)) return l10n.t("A user id holds only letters, digits and @^$.!`-#+'~_|:() — not {0}.", firstBad(id, /[a-zA-Z0-9@^$.!`\-#+'~_|:()]/));
  return undefined;
}

/** Why Canton would refuse this party hint, or undefined. */
export function checkPartyHint(hint: string, version: AdminVersion): string | undefined {
  const r = RULES[version];
  if (hint === '') return l10n.t('A party hint cannot be empty.');
  if (hint.includes('::')) return l10n.t('A party hint cannot hold "::" (it separates the hint from the namespace).');
  if (hint.length > r.hintMax) return l10n.t('A party hint has at most {0} characters; this one has {1}.', r.hintMax, hint.length);
  if (!r.hintChars.test(hint))
    return l10n.t('A party hint holds only letters, digits, ":", "-", "_" and spaces — not {0}.', firstBad(hint, /[a-zA-Z0-9:\-_ ]/));
  return undefined;
}

/** The first character a rule refuses, as a code point people can read (never raw control text). */
function firstBad(text: string, allowed: RegExp): string {
  const c = [...text].find((ch) => !allowed.test(ch)) ?? '';
  const code = `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\x21-\x7e]$/.test(c) ? `"${c}" (${code})` : code;
}

export type PartyRightKind = 'CanActAs' | 'CanReadAs' | 'CanExecuteAs';

/** A right as the JSON API writes it. */
export function partyRight(kind: PartyRightKind, party: string): UserRightJson {
  return { kind: { [kind]: { value: { party } } } } as UserRightJson;
}

/** A right in words: "CanReadAs Bob::1220ab…". */
export function describeRight(right: UserRightJson): string {
  const kind = (right as { kind?: Record<string, { value?: { party?: string } }> }).kind ?? {};
  const [name, body] = Object.entries(kind)[0] ?? ['?', {}];
  const party = body?.value?.party;
  return party ? `${name} ${party}` : name;
}

/** A change before it is sent: its method, path and body, and in words what it does. */
export interface AdminChange {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
  /** One line per effect, for the confirmation. */
  summary: string[];
}

export function allocatePartyChange(hint: string, synchronizerId?: string): AdminChange {
  const body: Record<string, unknown> = { partyIdHint: hint, ...(synchronizerId ? { synchronizerId } : {}) };
  return {
    method: 'POST',
    path: '/v2/parties',
    body,
    summary: [
      synchronizerId
        ? l10n.t('Allocate a new party with the hint "{0}" on {1}.', hint, synchronizerId)
        : l10n.t('Allocate a new party with the hint "{0}".', hint),
    ],
  };
}

export function createUserChange(id: string, primaryParty: string | undefined, rights: UserRightJson[]): AdminChange {
  return {
    method: 'POST',
    path: '/v2/users',
    body: { user: { id, primaryParty: primaryParty ?? '', isDeactivated: false, identityProviderId: '' }, rights },
    summary: [
      primaryParty ? l10n.t('Create the user "{0}" with the primary party {1}.', id, primaryParty) : l10n.t('Create the user "{0}".', id),
      ...rights.map((r) => l10n.t('Grant it {0}.', describeRight(r))),
    ],
  };
}

export function grantRightsChange(userId: string, rights: UserRightJson[]): AdminChange {
  return {
    method: 'POST',
    path: `/v2/users/${encodeURIComponent(userId)}/rights`,
    body: { userId, rights },
    summary: rights.map((r) => l10n.t('Grant {0} to the user "{1}".', describeRight(r), userId)),
  };
}

export function revokeRightsChange(userId: string, rights: UserRightJson[]): AdminChange {
  return {
    method: 'PATCH',
    path: `/v2/users/${encodeURIComponent(userId)}/rights`,
    body: { userId, rights },
    summary: rights.map((r) => l10n.t('Revoke {0} from the user "{1}".', describeRight(r), userId)),
  };
}

/** UpdateUser: only the fields named in the update mask change (their proto names). */
export function updateUserChange(userId: string, set: { primaryParty?: string; isDeactivated?: boolean }): AdminChange {
  const paths: string[] = [];
  const summary: string[] = [];
  if (set.primaryParty !== undefined) {
    paths.push('primary_party');
    summary.push(l10n.t('Set the primary party of the user "{0}" to {1}.', userId, set.primaryParty || '—'));
  }
  if (set.isDeactivated !== undefined) {
    paths.push('is_deactivated');
    summary.push(
      set.isDeactivated
        ? l10n.t('Deactivate the user "{0}": the node then refuses every request with its tokens.', userId)
        : l10n.t('Reactivate the user "{0}".', userId),
    );
  }
  // The spec lists a FieldMask's unknownFields as required (Canton's decoder defaults it): sent empty, as Canton writes it.
  return {
    method: 'PATCH',
    path: `/v2/users/${encodeURIComponent(userId)}`,
    body: { user: { id: userId, ...set }, updateMask: { paths, unknownFields: { fields: {} } } },
    summary,
  };
}

export function deleteUserChange(userId: string): AdminChange {
  return { method: 'DELETE', path: `/v2/users/${encodeURIComponent(userId)}`, summary: [l10n.t('Delete the user "{0}" and all its rights.', userId)] };
}

/** What will be sent, as text for a confirmation: the effects, then the request itself. */
export function describeChange(change: AdminChange): string {
  return [...change.summary, '', `${change.method} ${change.path}`, ...(change.body ? [JSON.stringify(change.body, null, 2)] : [])].join('\n');
}

const NO_UNKNOWN_FIELDS = { unknownFields: { fields: {} } };

/** Annotations to send, in words: each key added, changed or removed (an empty value removes it). */
function annotationLines(delta: Record<string, string>): string[] {
  return Object.keys(delta)
    .sort()
    .map((k) => (delta[k] === '' ? l10n.t('Remove the annotation {0}.', k) : l10n.t('Set the annotation {0} to "{1}".', k, delta[k])));
}

/**
 * UpdateUser of the annotations only: the mask is `metadata.annotations`, and the resource version
 * read with them, so a change made meanwhile is refused (CONCURRENT_USER_UPDATE_DETECTED) rather than lost.
 */
export function userAnnotationsChange(userId: string, delta: Record<string, string>, resourceVersion: string): AdminChange {
  return {
    method: 'PATCH',
    path: `/v2/users/${encodeURIComponent(userId)}`,
    body: {
      user: { id: userId, metadata: { resourceVersion, annotations: delta } },
      updateMask: { paths: ['metadata.annotations'], ...NO_UNKNOWN_FIELDS },
    },
    summary: [l10n.t('Change the annotations of the user "{0}":', userId), ...annotationLines(delta)],
  };
}

/** UpdatePartyDetails of the local metadata's annotations, with the resource version read. */
export function partyMetadataChange(party: string, delta: Record<string, string>, resourceVersion: string): AdminChange {
  return {
    method: 'PATCH',
    path: `/v2/parties/${encodeURIComponent(party)}`,
    body: {
      partyDetails: { party, localMetadata: { resourceVersion, annotations: delta } },
      updateMask: { paths: ['local_metadata.annotations'], ...NO_UNKNOWN_FIELDS },
    },
    summary: [l10n.t('Change the local metadata of the party {0}:', party), ...annotationLines(delta)],
  };
}

/** UpdateUserIdentityProviderId: "" is the default identity provider. */
export function moveUserChange(userId: string, source: string, target: string): AdminChange {
  const name = (idp: string) => idp || l10n.t('the default identity provider');
  return {
    method: 'PATCH',
    path: `/v2/users/${encodeURIComponent(userId)}/identity-provider-id`,
    body: { userId, sourceIdentityProviderId: source, targetIdentityProviderId: target },
    summary: [l10n.t('Move the user "{0}" from {1} to {2}.', userId, name(source), name(target))],
  };
}

/** A package as a vetting change names it: its id, and its name and version where known. */
export interface VettingTarget {
  packageId: string;
  name?: string;
  version?: string;
}

const packageWords = (p: VettingTarget) => (p.name ? `${p.name} ${p.version ?? '?'} (${p.packageId.slice(0, 12)}…)` : p.packageId);

/**
 * UpdateVettedPackages of one package by its id, on the synchronizer given (else the node's only
 * one). The summary names the templates it affects: vetted, this participant accepts transactions
 * that use them; unvetted, it refuses them, and its active contracts of these templates can no
 * longer be used in a transaction through this package.
 */
export function vettingChange(
  how: 'vet' | 'unvet',
  pkg: VettingTarget,
  synchronizerId: string | undefined,
  templates: readonly string[] | undefined,
): AdminChange {
  const op = how === 'vet' ? 'Vet' : 'Unvet';
  const where = synchronizerId ?? l10n.t("the node's synchronizer");
  const shown = templates === undefined ? undefined : templates.length > 12 ? [...templates.slice(0, 12), '…'] : templates;
  const effect =
    shown === undefined
      ? l10n.t('Its templates could not be read.')
      : shown.length === 0
        ? l10n.t('It defines no template.')
        : how === 'vet'
          ? l10n.t('This participant then accepts transactions that use its templates: {0}.', shown.join(', '))
          : l10n.t(
              'This participant then refuses transactions that use its templates, and its active contracts of them can no longer be used through this package: {0}.',
              shown.join(', '),
            );
  return {
    method: 'POST',
    path: '/v2/package-vetting/update',
    body: {
      changes: [{ operation: { [op]: { value: { packages: [{ packageId: pkg.packageId }] } } } }],
      dryRun: false,
      ...(synchronizerId ? { synchronizerId } : {}),
    },
    summary: [how === 'vet' ? l10n.t('Vet {0} on {1}.', packageWords(pkg), where) : l10n.t('Unvet {0} on {1}.', packageWords(pkg), where), effect],
  };
}
