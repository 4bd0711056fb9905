// JWTs signed by an identity provider, checked against its public keys, as a Canton participant
// configured with `jwt-jwks` (RS256, ES256, ES512) checks them. HS256 tokens go to hs256Jwt.ts.
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { verifyHs256, type JwtCheck, type LedgerJwtClaims } from './hs256Jwt';

const ALGORITHMS: Record<string, { hash: string; dsa: boolean }> = {
  RS256: { hash: 'sha256', dsa: false },
  ES256: { hash: 'sha256', dsa: true },
  ES512: { hash: 'sha512', dsa: true },
};

/** Checks a token the way the node's auth service is set up: HS256 with the secret, else by the JWKS. */
export function verifyLedgerJwt(token: string, secret: string, jwks: readonly JsonWebKey[] | undefined, nowSeconds = Date.now() / 1000): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a JWT' };
  let header: { alg?: string; kid?: string };
  let claims: LedgerJwtClaims;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { alg?: string; kid?: string };
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as LedgerJwtClaims;
  } catch {
    return { ok: false, reason: 'undecodable JWT' };
  }
  if (header.alg === 'HS256' || !jwks) return verifyHs256(token, secret, nowSeconds);
  const alg = ALGORITHMS[header.alg ?? ''];
  if (!alg) return { ok: false, reason: `unsupported algorithm ${header.alg}` };
  // Canton looks the key up by the token's key id.
  const jwk = jwks.find((k) => (k as { kid?: string }).kid === header.kid);
  if (!jwk) return { ok: false, reason: `no key ${header.kid}` };
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2], 'base64url');
  const good = verify(alg.hash, signed, alg.dsa ? { key, dsaEncoding: 'ieee-p1363' } : key, signature);
  if (!good) return { ok: false, reason: 'bad signature' };
  if (typeof claims.sub !== 'string' || claims.sub === '') return { ok: false, reason: 'no sub' };
  if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
