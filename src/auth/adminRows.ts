// The administration view's rows, pure (no `vscode`): who may administer, the node's users (primary
// party, rights grouped by party, identity provider, deactivated, annotations), parties (hosted here
// or not, local metadata) and identity providers, read defensively and filtered. Ledger text stays
// text: labels are plain, control and bidirectional characters shown as code points.
import { shortenPartyId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';
import type { LearnedAccess, UserRights } from './userRights';

export interface AdminUser {
  id: string;
  primaryParty?: string;
  isDeactivated: boolean;
  identityProviderId: string;
  annotations: Record<string, string>;
  resourceVersion: string;
}

export interface AdminParty {
  party: string;
  isLocal: boolean;
  identityProviderId: string;
  annotations: Record<string, string>;
  resourceVersion: string;
}

export interface AdminIdp {
  id: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  isDeactivated: boolean;
}

/** What the view may show: everything (ParticipantAdmin), one identity provider's users and parties, or nothing and why. */
export type AdminAccess = { may: 'participantAdmin' } | { may: 'identityProviderAdmin' } | { may: false; why: string };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function annotationsOf(meta: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(obj(meta).annotations))) if (typeof v === 'string') out[k] = v;
  return out;
}

/** A user as the JSON API sends it; undefined without an id. */
export function readAdminUser(u: unknown): AdminUser | undefined {
  const o = obj(u);
  const id = text(o.id);
  if (!id) return undefined;
  return {
    id,
    primaryParty: text(o.primaryParty) || undefined,
    isDeactivated: o.isDeactivated === true,
    identityProviderId: text(o.identityProviderId),
    annotations: annotationsOf(o.metadata),
    resourceVersion: text(obj(o.metadata).resourceVersion),
  };
}

export function readAdminParty(p: unknown): AdminParty | undefined {
  const o = obj(p);
  const party = text(o.party);
  if (!party) return undefined;
  return {
    party,
    isLocal: o.isLocal === true,
    identityProviderId: text(o.identityProviderId),
    annotations: annotationsOf(o.localMetadata),
    resourceVersion: text(obj(o.localMetadata).resourceVersion),
  };
}

export function readAdminIdp(i: unknown): AdminIdp | undefined {
  const o = obj(i);
  const id = text(o.identityProviderId);
  if (!id) return undefined;
  return { id, issuer: text(o.issuer), jwksUrl: text(o.jwksUrl), audience: text(o.audience), isDeactivated: o.isDeactivated === true };
}

/** Whether the token's user may administer, from its rights as the node told them. */
export function adminAccess(access: LearnedAccess | undefined): AdminAccess {
  const needs = l10n.t("Administration needs the token's user to hold ParticipantAdmin, or IdentityProviderAdmin within its identity provider.");
  if (!access) return { may: false, why: needs };
  if (access.state === 'refused') return { may: false, why: l10n.t('The node refused the token ({0}): {1}', access.status, access.reason) };
  if (access.state === 'unknown') return { may: false, why: l10n.t("The token's rights are not known ({0}). {1}", access.reason, needs) };
  if (access.rights.admin.has('ParticipantAdmin')) return { may: 'participantAdmin' };
  if (access.rights.admin.has('IdentityProviderAdmin')) return { may: 'identityProviderAdmin' };
  return { may: false, why: l10n.t('"{0}" holds no administration right. {1}', asText(access.user.id), needs) };
}

/**
 * Ledger text for a label: control characters, line breaks and bidirectional overrides shown as
 * their code points, so a hostile id cannot hide or reorder what is shown.
 */
export function asText(s: string): string {
  return [...s].map((c) => (hidden(c.codePointAt(0) ?? 0) ? `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>` : c)).join('');
}

/** C0 and C1 controls, zero-width characters, bidirectional marks, overrides and isolates, the BOM. */
function hidden(cp: number): boolean {
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp <= 0x9f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0xfeff
  );
}

/** Case-insensitive: does any of the texts hold the filter? An empty filter keeps everything. */
export function matchesFilter(filter: string, ...texts: (string | undefined)[]): boolean {
  const f = filter.trim().toLowerCase();
  return f === '' || texts.some((t) => t !== undefined && t.toLowerCase().includes(f));
}

export function userMatches(u: AdminUser, filter: string): boolean {
  return matchesFilter(filter, u.id, u.primaryParty, u.identityProviderId, ...Object.entries(u.annotations).flat());
}

export function partyMatches(p: AdminParty, filter: string): boolean {
  return matchesFilter(filter, p.party, p.identityProviderId, ...Object.entries(p.annotations).flat());
}

/** A detail under a user, party or provider: a label and its value, and the party it names if any. */
export interface AdminDetail {
  kind: 'primaryParty' | 'identityProvider' | 'status' | 'rights' | 'anyParty' | 'admin' | 'annotation' | 'hosted' | 'issuer' | 'jwks' | 'audience' | 'none';
  label: string;
  value: string;
  party?: string;
}

const idpName = (id: string) => id || l10n.t('the default identity provider');

export function userLine(u: AdminUser): { label: string; description: string } {
  const parts = [u.primaryParty ? shortenPartyId(asText(u.primaryParty)) : '', u.isDeactivated ? l10n.t('deactivated') : ''].filter(Boolean);
  return { label: asText(u.id), description: parts.join(' · ') };
}

/** A user's details: primary party, identity provider, active or not, rights grouped by party, annotations. */
export function userDetails(u: AdminUser, rights: UserRights | undefined): AdminDetail[] {
  const out: AdminDetail[] = [
    { kind: 'primaryParty', label: l10n.t('Primary party'), value: u.primaryParty ? asText(u.primaryParty) : '—', party: u.primaryParty },
    { kind: 'identityProvider', label: l10n.t('Identity provider'), value: asText(idpName(u.identityProviderId)) },
    { kind: 'status', label: l10n.t('Status'), value: u.isDeactivated ? l10n.t('deactivated: the node refuses its tokens') : l10n.t('active') },
  ];
  if (rights) out.push(...rightsDetails(rights));
  out.push(...annotationDetails(u.annotations));
  return out;
}

/** The rights grouped: per party its kinds, then the any-party and admin rights. */
export function rightsDetails(rights: UserRights): AdminDetail[] {
  const out: AdminDetail[] = [];
  for (const [party, kinds] of rights.byParty) out.push({ kind: 'rights', label: shortenPartyId(asText(party)), value: kinds.join(', '), party });
  if (rights.anyParty.size) out.push({ kind: 'anyParty', label: l10n.t('Any party'), value: [...rights.anyParty].join(', ') });
  if (rights.admin.size) out.push({ kind: 'admin', label: l10n.t('Administration'), value: [...rights.admin].join(', ') });
  if (rights.unknown) out.push({ kind: 'none', label: l10n.t('Other rights'), value: l10n.t('{0} of kinds this version does not know', rights.unknown) });
  if (rights.total === 0) out.push({ kind: 'none', label: l10n.t('Rights'), value: l10n.t('none') });
  return out;
}

function annotationDetails(annotations: Record<string, string>): AdminDetail[] {
  return Object.keys(annotations)
    .sort()
    .map((k) => ({ kind: 'annotation' as const, label: asText(k), value: asText(annotations[k]) }));
}

export function partyLine(p: AdminParty): { label: string; description: string } {
  return { label: shortenPartyId(asText(p.party)), description: p.isLocal ? l10n.t('hosted here') : l10n.t('not hosted here') };
}

export function partyDetails(p: AdminParty): AdminDetail[] {
  return [
    { kind: 'hosted', label: l10n.t('Hosted'), value: p.isLocal ? l10n.t('on this participant') : l10n.t('not on this participant'), party: p.party },
    { kind: 'identityProvider', label: l10n.t('Identity provider'), value: asText(idpName(p.identityProviderId)) },
    ...annotationDetails(p.annotations),
  ];
}

export function idpDetails(i: AdminIdp): AdminDetail[] {
  return [
    { kind: 'status', label: l10n.t('Status'), value: i.isDeactivated ? l10n.t('deactivated') : l10n.t('active') },
    { kind: 'issuer', label: l10n.t('Issuer'), value: asText(i.issuer) },
    { kind: 'jwks', label: l10n.t('JWKS URL'), value: asText(i.jwksUrl) },
    { kind: 'audience', label: l10n.t('Audience'), value: asText(i.audience) || '—' },
  ];
}

/**
 * Annotations as a person edits them, one `key=value` a line, and the change that turns the current
 * ones into the edited ones (a removed key is sent with an empty value, which removes it).
 */
export function annotationsText(annotations: Record<string, string>): string {
  return Object.keys(annotations)
    .sort()
    .map((k) => `${k}=${annotations[k]}`)
    .join('\n');
}

export function parseAnnotations(input: string): { ok: true; value: Record<string, string> } | { ok: false; problem: string } {
  const value: Record<string, string> = {};
  for (const [i, raw] of input.split(/\r?\n|;/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return { ok: false, problem: l10n.t('Entry {0} is not key=value: {1}', i + 1, asText(line.slice(0, 60))) };
    const key = line.slice(0, eq).trim();
    if (!annotationKeyOk(key))
      return {
        ok: false,
        problem: l10n.t(
          'The key {0} is not one Canton accepts: [a DNS subdomain and "/"] then a name of at most 63 letters, digits, ".", "-" or "_", starting and ending with a letter or digit.',
          asText(key.slice(0, 80)),
        ),
      };
    value[key] = line.slice(eq + 1).trim();
  }
  return { ok: true, value };
}

const KEY_NAME = /^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,61}[a-zA-Z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** Canton's ResourceAnnotationValidator on a key: an optional DNS-subdomain prefix and "/", then the name. */
export function annotationKeyOk(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  return KEY_NAME.test(name) && (prefix === undefined || (prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix)));
}

/** What to send to go from `before` to `after`: the new and changed keys, and removed keys with "". */
export function annotationsDelta(before: Record<string, string>, after: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(after)) if (before[k] !== v && v !== '') out[k] = v;
  for (const k of Object.keys(before)) if (!(k in after) || after[k] === '') out[k] = '';
  return out;
}

/** What changed between two sets of annotations, in words (for the read-back). */
export function annotationsChanged(before: Record<string, string>, after: Record<string, string>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(after).sort())
    if (!(k in before)) out.push(l10n.t('added {0}', asText(k)));
    else if (before[k] !== after[k]) out.push(l10n.t('changed {0}', asText(k)));
  for (const k of Object.keys(before).sort()) if (!(k in after)) out.push(l10n.t('removed {0}', asText(k)));
  return out;
}

export type AdminSection = 'users' | 'parties' | 'idps';

export type AdminElement =
  | { kind: 'adminMessage'; text: string; detail?: string }
  | { kind: 'adminSection'; node: string; section: AdminSection }
  | { kind: 'adminUser'; node: string; user: AdminUser }
  | { kind: 'adminParty'; node: string; party: AdminParty }
  | { kind: 'adminIdp'; node: string; idp: AdminIdp }
  | { kind: 'adminDetail'; node: string; detail: AdminDetail; userId?: string }
  | { kind: 'adminMore'; node: string; section: 'users' | 'parties' };

/** What an administration command reads from a row it is run on: the node, the user, the party. */
export function answersFromRow(arg: unknown): { node: string; userId?: string; userIdentityProviderId?: string; party?: string } | undefined {
  const row = arg as Partial<AdminElement> | undefined;
  if (!row || typeof row !== 'object' || typeof row.kind !== 'string' || !row.kind.startsWith('admin') || !('node' in row)) return undefined;
  const node = String(row.node);
  switch (row.kind) {
    case 'adminUser':
      return { node, userId: row.user?.id, ...(row.user?.identityProviderId ? { userIdentityProviderId: row.user.identityProviderId } : {}) };
    case 'adminParty':
      return { node, party: row.party?.party };
    case 'adminDetail':
      return { node, userId: row.userId, party: row.detail?.party };
    default:
      return { node };
  }
}
