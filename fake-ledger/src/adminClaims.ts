// Who may administer what on the fake node, as Canton's authorizer and user store decide it: a
// ParticipantAdmin anywhere, an IdentityProviderAdmin only within its own identity provider, and
// the store's refusals (a user of another identity provider, an unknown one). The checks of ids and
// annotations the validators make. docs/fake-node.md cites each. No `vscode` import.
import { cantonError, invalidArgument, missingField, redacted, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger, UserDetails, UserRight } from './storedLedger';

export interface IdpConfig {
  identityProviderId: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  isDeactivated: boolean;
}

export interface PartyRecord {
  annotations: Record<string, string>;
  identityProviderId: string;
  resourceVersion: number;
}

/** What administration changed on a ledger: identity providers and the parties' local records. */
export interface AdminState {
  idps: IdpConfig[];
  partyRecords: Map<string, PartyRecord>;
  /** Parties allocated through `POST /v2/parties`, in order. */
  allocated: string[];
}

const states = new WeakMap<DemoLedger, AdminState>();

/** The ledger's administration state; the seeded `acme-idp` provider from the start. */
export function adminState(ledger: DemoLedger): AdminState {
  let s = states.get(ledger);
  if (!s) {
    const acme = {
      identityProviderId: 'acme-idp',
      issuer: 'https://idp.acme.example',
      jwksUrl: 'https://idp.acme.example/jwks',
      audience: '',
      isDeactivated: false,
    };
    states.set(ledger, (s = { idps: [acme], partyRecords: new Map(), allocated: [] }));
  }
  return s;
}

export type Rights = (user: string) => UserRight[];

export const isParticipantAdmin = (rights: UserRight[]) => rights.includes('participantAdmin');
export const isAdminOrIdpAdmin = (rights: UserRight[]) => rights.includes('participantAdmin') || rights.includes('identityProviderAdmin');
export const idpOf = (ledger: DemoLedger, user: string) => ledger.userDetails[user]?.identityProviderId ?? '';

/**
 * `RequiredClaim.MatchIdentityProviderId`: an empty request id takes the caller's provider; a
 * caller of a non-default provider may name only its own (403 otherwise). The effective id, or the refusal.
 */
export function matchIdp(ledger: DemoLedger, caller: string, requested: string | undefined): string | ErrorReply {
  const own = idpOf(ledger, caller);
  const effective = requested || own;
  return own !== '' && effective !== own ? redacted(403) : effective;
}

const GRPC_NOT_FOUND = 5;
const GRPC_ALREADY_EXISTS = 6;

export const userNotFound = (operation: string, id: string) =>
  cantonError(404, 'USER_NOT_FOUND', `${operation} failed for unknown user "${id}"`, 11, GRPC_NOT_FOUND, [['USER_ID', id]]);

export const userExists = (operation: string, id: string) =>
  cantonError(409, 'USER_ALREADY_EXISTS', `${operation} failed, as user "${id}" already exists`, 10, GRPC_ALREADY_EXISTS, [['USER_ID', id]]);

/** The store's `withUser`: the user, if it exists in this identity provider; another's is 403, none 404. */
export function storedUser(ledger: DemoLedger, id: string, idp: string, operation: string): UserDetails | ErrorReply {
  if (!ledger.users[id]) return userNotFound(operation, id);
  const details = (ledger.userDetails[id] ??= {});
  return (details.identityProviderId ?? '') === idp ? details : redacted(403);
}

/** A JSON field as text: a string, else empty (the proto's default). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export const isReply = (x: unknown): x is ErrorReply => typeof x === 'object' && x !== null && 'status' in x && 'contentType' in x;

export const USER_ID = /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]{1,128}$/;
const PARTY = /^[a-zA-Z0-9:\-_ ]{1,255}$/;

/** `FieldValidator.requireUserId`: empty is MISSING_FIELD, else Ref.UserId's charset and length. */
export function checkUserId(id: unknown, field: string): ErrorReply | undefined {
  if (typeof id !== 'string' || id === '') return missingField(field);
  return USER_ID.test(id) ? undefined : invalidField(field, `User ID "${id.slice(0, 140)}" does not match regex "[a-zA-Z0-9@^$.!\`\\-#+'~_|:\\(\\)]{1,128}"`);
}

/** `FieldValidator.requireParty`: Ref.Party (not empty: an absent party decodes as ""; letters, digits, `:-_ `, at most 255; IdString.scala). */
export function checkParty(party: string): ErrorReply | undefined {
  if (PARTY.test(party)) return undefined;
  const bad = [...party].find((c) => !/[a-zA-Z0-9:\-_ ]/.test(c));
  return invalidArgument(
    party === ''
      ? 'Daml-LF Party is empty'
      : bad === undefined
        ? `Daml-LF Party is too long (max: 255)`
        : `non expected character 0x${(bad.codePointAt(0) ?? 0).toString(16)} in Daml-LF Party "${party.slice(0, 140)}"`,
  );
}

function invalidField(field: string, message: string): ErrorReply {
  return cantonError(400, 'INVALID_FIELD', `The submitted command has a field with invalid value: Invalid field ${field}: ${message}`, 8, 3);
}

const KEY_NAME = /^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,61}[a-zA-Z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** `ResourceAnnotationValidator`: keys `[prefix/]name`, values non-empty unless an update removes one, 256 kb in all. */
export function checkAnnotations(annotations: Record<string, unknown> | undefined, allowEmptyValues: boolean, field: string): ErrorReply | undefined {
  let size = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    const slash = key.lastIndexOf('/');
    const prefix = slash < 0 ? undefined : key.slice(0, slash);
    const name = slash < 0 ? key : key.slice(slash + 1);
    if (!KEY_NAME.test(name) || (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))))
      return invalidArgument(`Key '${key.slice(0, 100)}' in ${field} is invalid`);
    if (typeof value !== 'string' || (value === '' && !allowEmptyValues))
      return invalidArgument(`The value of key '${key.slice(0, 100)}' in ${field} must be non-empty`);
    size += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  return size > 256 * 1024 ? invalidArgument(`annotations from field '${field}' are larger than the limit of 256kb`) : undefined;
}

/** Applies an update's annotations: an empty value removes its key. */
export function mergeAnnotations(current: Record<string, string> | undefined, changes: Record<string, string>): Record<string, string> {
  const out = { ...current };
  for (const [k, v] of Object.entries(changes)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

/** A party's details as the JSON API sends them; `isLocal` when hosted here and in the caller's provider. */
export function partyDetailsJson(party: string, record: PartyRecord | undefined, hosted: boolean, callerIdp: string): Record<string, unknown> {
  const idp = record?.identityProviderId ?? '';
  return {
    party,
    isLocal: hosted && idp === callerIdp,
    localMetadata: { resourceVersion: String(record?.resourceVersion ?? 0), annotations: idp === callerIdp ? { ...record?.annotations } : {} },
    identityProviderId: idp === callerIdp ? idp : '',
  };
}
