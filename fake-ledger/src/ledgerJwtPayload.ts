// A verified token's `aud` and `scope` read as Canton reads them (AuthServiceJWTCodec.readPayload,
// readAudienceBasedToken, readScopeBasedToken and AuthServiceJWTBase.checkAudienceAndScope, the same
// in 3.4, 3.5 and 3.6): which token format it is, and the participant id it is for. A token
// Canton cannot read is unauthenticated (401); a participant id that is not the node's is refused
// later, by the authorizer (403).
import type { LedgerJwtClaims } from './hs256Jwt';

const PARTICIPANT_AUDIENCE = 'https://daml.com/jwt/aud/participant/';
const LEDGER_API_SCOPE = 'daml_ledger_api';

/** The node's `auth-services` settings that decide how a token is read. */
export interface TokenTargets {
  /** `target-audience`: `aud` must contain it, and no participant id is read. */
  targetAudience?: string;
  /** `target-scope` (read only without a target-audience): `scope` must contain it. */
  targetScope?: string;
}

export type PayloadReading = { ok: true; participantId?: string } | { ok: false; reason: string };

/** A string is one value, an array its string elements (Canton's readOptionalStringOrArray). */
function stringOrArray(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  return undefined;
}

/** `scope` split on " ", else `scp` (a string or a list). */
function scopesOf(claims: LedgerJwtClaims): string[] | undefined {
  const fromScope = typeof claims.scope === 'string' ? claims.scope.split(' ').filter((s) => s !== '') : [];
  return fromScope.length > 0 ? fromScope : stringOrArray(claims.scp);
}

export function readLedgerJwtPayload(claims: LedgerJwtClaims, targets: TokenTargets = {}): PayloadReading {
  const audiences = stringOrArray(claims.aud);
  const scopes = scopesOf(claims);
  if (!audiences || !scopes) return { ok: false, reason: 'aud or scope is neither a string nor a list of strings' };
  if (targets.targetAudience !== undefined)
    return audiences.includes(targets.targetAudience) ? { ok: true } : { ok: false, reason: "Audience doesn't match the target value" };
  if (targets.targetScope !== undefined)
    return scopes.includes(targets.targetScope) ? { ok: true } : { ok: false, reason: "Scope doesn't match the target value" };
  const participantAudiences = audiences.filter((a) => a.startsWith(PARTICIPANT_AUDIENCE));
  if (participantAudiences.length > 0) {
    const ids = participantAudiences.map((a) => a.slice(PARTICIPANT_AUDIENCE.length)).filter((id) => id !== '');
    if (ids.length === 1) return { ok: true, participantId: ids[0] };
    return { ok: false, reason: ids.length === 0 ? '`aud` must include participantId value' : '`aud` must include a single participantId value' };
  }
  if (scopes.includes(LEDGER_API_SCOPE)) {
    // Scope-based: `aud` is the participant id, or none.
    if (audiences.length > 1) return { ok: false, reason: '`aud` must be empty or a single participantId.' };
    return { ok: true, participantId: audiences[0] };
  }
  return { ok: false, reason: 'Access token with unknown scope' };
}
