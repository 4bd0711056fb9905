// The Canton fingerprint of an Ed25519 key against published vectors, and development signing.
import * as assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { cantonFingerprint, generateDevKey, publicKeyOf, signHash } from '../../../src/execute/signingKeys';

describe('development signing keys', () => {
  it('computes the fingerprint a Canton node gives a key (vectors from generate-topology answers)', () => {
    // A node's answer to POST /v2/parties/external/generate-topology for an SPKI DER key
    // (CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO), recorded in a public onboarding
    // write-up (docs/execute.md): keyData → publicKeyFingerprint.
    assert.equal(
      cantonFingerprint(Buffer.from('MCowBQYDK2VwAyEA3AB+vSMlgXW4HPdc0ZyLBauZTbXf8JRYDU+L4Q4+2Rk=', 'base64')),
      '1220676c8aac018d37ec757ef601f395444e4ce4a46d11f76ed0c1c53c971f8fe1d3',
    );
    // The same for a raw key (CRYPTO_KEY_FORMAT_RAW), from a public integration guide.
    assert.equal(
      cantonFingerprint(Buffer.from('AvC9tFfulOw6L9riF2ixaLyc9hQAfL/w/aBLia/V+xc=', 'base64')),
      '1220d6f2bfc0efae700e421a5f0a5dd454243cf11be318913b0106d6b8648e13ce80',
    );
  });

  it('the fingerprint is over the raw key: the same for a key as raw bytes and as SPKI DER', () => {
    const k = generateDevKey();
    assert.equal(cantonFingerprint(Buffer.from(k.publicKeyRaw, 'base64')), k.fingerprint);
    assert.match(k.fingerprint, /^1220[0-9a-f]{64}$/);
    assert.equal(publicKeyOf(k.privateKey), k.publicKey);
    assert.throws(() => cantonFingerprint(Buffer.alloc(31)), /Not an Ed25519 public key/);
  });

  it('signs the raw bytes of the hash, verifiably with the public key', () => {
    const k = generateDevKey();
    const hash = Buffer.alloc(32, 3).toString('base64');
    const sig = signHash(k.privateKey, hash);
    assert.equal(Buffer.from(sig, 'base64').length, 64);
    assert.ok(
      verify(
        null,
        Buffer.from(hash, 'base64'),
        createPublicKey({ key: Buffer.from(k.publicKey, 'base64'), format: 'der', type: 'spki' }),
        Buffer.from(sig, 'base64'),
      ),
    );
  });
});
