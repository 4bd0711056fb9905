// Development signing keys: Ed25519 key pairs made with node:crypto, their Canton fingerprint,
// and signatures over a prepared transaction's hash. For development ledgers only: the private
// key lives in VS Code's secret storage (services/devSigningKeys.ts), never on disk or in a log.
//
// The fingerprint, as Canton computes it for an Ed25519 signing key: SHA-256 over the hash
// purpose PublicKeyFingerprint (12) as a 4-byte big-endian integer followed by the raw 32-byte
// public key, as a multihash (0x12 = SHA-256, 0x20 = 32 bytes) in hex: `1220` + 64 hex digits.
// Sources: Canton's HashPurpose.scala (community/base/src/main/scala/com/digitalasset/canton/
// crypto/HashPurpose.scala: PublicKeyFingerprint = 12) and the ecosystem's signing library,
// hyperledger-labs/splice-wallet-kernel core/ledger-client/src/topology-write-service.ts
// (TopologyWriteService.createFingerprintFromKey and computeSha256CantonHash, commit
// 130895afc2b74cb442af22ac3bdc84b3d391c6a0). The vectors in test/unit/execute/signingKeys.test.ts are
// generate-topology answers of Canton nodes (docs/execute.md).
import type * as Crypto from 'node:crypto';

// node:crypto on first use: activation need not pay for it.
const crypto = (): typeof Crypto => require('node:crypto') as typeof Crypto;

/** Canton's hash purpose of a public key fingerprint. */
export const PUBLIC_KEY_FINGERPRINT_PURPOSE = 12;

/** A Canton hash: SHA-256 over the purpose (4 bytes, big-endian) and the bytes, as a `1220…` multihash in hex. */
export function cantonHashHex(purpose: number, bytes: Uint8Array): string {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(purpose, 0);
  return `1220${crypto().createHash('sha256').update(prefix).update(bytes).digest('hex')}`;
}

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The raw 32-byte Ed25519 public key of an SPKI DER (or the raw key itself). */
export function rawEd25519PublicKey(key: Buffer): Buffer {
  if (key.length === 32) return key;
  if (key.length === 44 && key.subarray(0, 12).equals(ED25519_SPKI_PREFIX)) return key.subarray(12);
  throw new Error('Not an Ed25519 public key (32 raw bytes or a 44-byte SPKI DER).');
}

/** The fingerprint Canton gives an Ed25519 public key (raw or SPKI DER). */
export function cantonFingerprint(publicKey: Buffer): string {
  return cantonHashHex(PUBLIC_KEY_FINGERPRINT_PURPOSE, rawEd25519PublicKey(publicKey));
}

export interface DevKeyPair {
  /** PKCS#8 DER, base64: the secret. */
  privateKey: string;
  /** SPKI DER, base64. */
  publicKey: string;
  /** The raw 32-byte public key, base64 (what generate-topology takes as CRYPTO_KEY_FORMAT_RAW). */
  publicKeyRaw: string;
  fingerprint: string;
}

export function generateDevKey(): DevKeyPair {
  const { publicKey, privateKey } = crypto().generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: spki.toString('base64'),
    publicKeyRaw: rawEd25519PublicKey(spki).toString('base64'),
    fingerprint: cantonFingerprint(spki),
  };
}

/** The public key (SPKI DER, base64) of a private key (PKCS#8 DER, base64). */
export function publicKeyOf(privateKey: string): string {
  const { createPublicKey, createPrivateKey } = crypto();
  return createPublicKey(createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' }))
    .export({ format: 'der', type: 'spki' })
    .toString('base64');
}

/** An Ed25519 signature (64 bytes, base64: SIGNATURE_FORMAT_CONCAT) over the raw bytes of a base64 hash. */
export function signHash(privateKey: string, hashBase64: string): string {
  const { sign, createPrivateKey } = crypto();
  return sign(null, Buffer.from(hashBase64, 'base64'), createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' })).toString(
    'base64',
  );
}
