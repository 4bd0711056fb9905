// Canton's hashes as the official library computes them (@canton-network/core-tx-visualizer),
// never the product's code: a key's fingerprint, the multi-hash of onboarding topology
// transactions, a prepared transaction's V2 hash. A bug in the product's hashing then fails
// against the fake instead of agreeing with it.
// Purposes (Canton's HashPurpose.scala): PublicKeyFingerprint 12, TopologyTransactionSignature 11,
// MultiTopologyTransaction 55; the multi-hash as hyperledger-labs/splice-wallet-kernel's
// TopologyWriteService computes it.
import { createPublicKey } from 'node:crypto';
import type * as TxVisualizer from '@canton-network/core-tx-visualizer' with { 'resolution-mode': 'import' };

// The package ships CommonJS too: require it (esbuild bundles the literal require).
const official = require('@canton-network/core-tx-visualizer') as typeof TxVisualizer;

const FINGERPRINT = 12;
const TOPOLOGY_TRANSACTION = 11;
const MULTI_TOPOLOGY_TRANSACTION = 55;

/** The raw 32-byte Ed25519 key of raw bytes or an SPKI DER; throws for anything else. */
export function rawEd25519Key(key: Buffer): Buffer {
  if (key.length === 32) return key;
  const jwk = createPublicKey({ key, format: 'der', type: 'spki' }).export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new Error('not an Ed25519 key');
  return Buffer.from(jwk.x, 'base64url');
}

/** The fingerprint Canton gives an Ed25519 public key: `1220` + hex. */
export async function keyFingerprint(publicKey: Buffer): Promise<string> {
  return Buffer.from(await official.computeSha256CantonHash(FINGERPRINT, rawEd25519Key(publicKey))).toString('hex');
}

/** The multi-hash an external party signs over its onboarding transactions, base64. */
export async function topologyMultiHash(transactions: Buffer[]): Promise<string> {
  const hashes = await Promise.all(transactions.map((t) => official.computeSha256CantonHash(TOPOLOGY_TRANSACTION, t)));
  const multi = await official.computeMultiHashForTopology(hashes);
  return Buffer.from(await official.computeSha256CantonHash(MULTI_TOPOLOGY_TRANSACTION, multi)).toString('base64');
}

/** A prepared transaction's V2 hash (base64), or undefined when it does not decode. */
export async function preparedTransactionHash(base64: string): Promise<string | undefined> {
  try {
    return await official.hashPreparedTransaction(base64, 'base64');
  } catch {
    return undefined;
  }
}

/** The prepared transaction, decoded by the official bindings; undefined when it does not decode. */
export function decodePrepared(base64: string): ReturnType<typeof TxVisualizer.decodePreparedTransaction> | undefined {
  try {
    return official.decodePreparedTransaction(base64);
  } catch {
    return undefined;
  }
}
