// HS256 JWTs, as a Canton participant configured with `hs256-unsafe` issues and checks them
// (docs/ledger-api.md#auth). Only the fake node verifies; the extension itself never does.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LedgerJwtClaims {
  /** The Ledger API user id. */
  sub: string;
  exp?: number;
  iss?: string;
  aud?: string | string[];
  scope?: string;
  [claim: string]: unknown;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export function mintHs256(claims: LedgerJwtClaims, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

export type JwtCheck = { ok: true; claims: LedgerJwtClaims } | { ok: false; reason: string };

export function verifyHs256(token: string, secret: string, nowSeconds = Date.now() / 1000): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a JWT' };
  const [head, body, sig] = parts as [string, string, string];
  let header: { alg?: string };
  let claims: LedgerJwtClaims;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LedgerJwtClaims;
  } catch {
    return { ok: false, reason: 'undecodable JWT' };
  }
  if (header.alg !== 'HS256') return { ok: false, reason: `unsupported algorithm ${header.alg}` };
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad signature' };
  if (typeof claims.sub !== 'string' || claims.sub === '') return { ok: false, reason: 'no sub' };
  if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
