// Nonces and submission ids. node:crypto is required on first use: it costs ~3 ms to load,
// which activation need not pay.
import type * as Crypto from 'node:crypto';

const crypto = (): typeof Crypto => require('node:crypto') as typeof Crypto;

/** A CSP nonce: 128 random bits. */
export function newNonce(): string {
  return crypto().randomBytes(16).toString('base64');
}

/** A fresh submission id (a UUID, as the proto suggests). */
export function newSubmissionId(): string {
  return crypto().randomUUID();
}
