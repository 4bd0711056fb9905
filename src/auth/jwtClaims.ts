// Reads a JWT's claims to show who a token is for and when it expires. Never verifies (the node
// does) and never logs: the token stays a secret.
import * as l10n from '../l10n/l10n';

export interface TokenClaims {
  /** The Ledger API user id. */
  user?: string;
  /** Expiry, in milliseconds since the epoch. */
  expiresAt?: number;
  audience?: string[];
  scope?: string;
  /** As Canton reads them: `scope` split on spaces, else `scp` (a string or a list). */
  scopes?: string[];
  issuer?: string;
}

export type TokenState =
  | { state: 'none' }
  | { state: 'opaque' }
  | { state: 'valid'; claims: TokenClaims; expiresInMs?: number }
  | { state: 'expiring'; claims: TokenClaims; expiresInMs: number }
  | { state: 'expired'; claims: TokenClaims; expiredForMs: number };

/** Claims of a JWT, or undefined for a token that is not a readable JWT (an opaque token). */
export function decodeJwtClaims(token: string): TokenClaims | undefined {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return undefined;
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null) return undefined;
  const aud = payload.aud;
  const scp = payload.scp;
  const fromScope = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  const scopes =
    fromScope.length > 0 ? fromScope : typeof scp === 'string' ? [scp] : Array.isArray(scp) ? scp.filter((s): s is string => typeof s === 'string') : [];
  return {
    user: typeof payload.sub === 'string' ? payload.sub : undefined,
    expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined,
    audience: typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : undefined,
    scope: typeof payload.scope === 'string' ? payload.scope : undefined,
    scopes,
    issuer: typeof payload.iss === 'string' ? payload.iss : undefined,
  };
}

/** Warn this long before a token expires. */
export const EXPIRY_WARNING_MS = 5 * 60_000;

export function tokenState(token: string | undefined, now = Date.now()): TokenState {
  if (!token) return { state: 'none' };
  const claims = decodeJwtClaims(token);
  if (!claims) return { state: 'opaque' };
  if (claims.expiresAt === undefined) return { state: 'valid', claims };
  const left = claims.expiresAt - now;
  if (left <= 0) return { state: 'expired', claims, expiredForMs: -left };
  if (left <= EXPIRY_WARNING_MS) return { state: 'expiring', claims, expiresInMs: left };
  return { state: 'valid', claims, expiresInMs: left };
}

/** "in 52 min", "3 h ago": for labels. */
export function relativeTime(ms: number): string {
  const abs = Math.abs(ms);
  const text =
    abs < 60_000
      ? `${Math.max(1, Math.round(abs / 1000))} s`
      : abs < 3_600_000
        ? `${Math.round(abs / 60_000)} min`
        : abs < 86_400_000
          ? `${(abs / 3_600_000).toFixed(abs < 36_000_000 ? 1 : 0).replace(/\.0$/, '')} h`
          : `${Math.round(abs / 86_400_000)} d`;
  return ms >= 0 ? l10n.t('in {0}', text) : l10n.t('{0} ago', text);
}

/** One line on a token, e.g. "alice, expires in 52 min". Holds no part of the token. */
export function describeTokenState(s: TokenState, now = Date.now()): string {
  const user = s.state === 'none' || s.state === 'opaque' ? '' : (s.claims.user ?? l10n.t('Unknown user'));
  switch (s.state) {
    case 'none':
      return l10n.t('No token');
    case 'opaque':
      return l10n.t('Token set (not a JWT: user and expiry unknown)');
    case 'expired':
      return l10n.t('{0}, expired {1}', user, relativeTime(-s.expiredForMs));
    case 'expiring':
    case 'valid':
      return s.claims.expiresAt === undefined ? l10n.t('{0}, no expiry', user) : l10n.t('{0}, expires {1}', user, relativeTime(s.claims.expiresAt - now));
  }
}
