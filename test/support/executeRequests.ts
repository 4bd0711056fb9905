// An *.execute.json body around the second real vector (a Splice TransferPreapproval proposal,
// V2 hash known): for the UI tests and the demo workspace.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The acting party of the preapproval vector (its metadata.submitterInfo.actAs): the party that may sign it. */
export const PREAPPROVAL_PARTY = 'bob::12205be3b9d177573fffb68eb245986f88b9df58d44ce575819078970580d87d1dc0';

const VECTORS = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'prepared-transaction-vectors.json');

/** The request a person writes for the preapproval vector, signed (with a dummy signature) as `party`. */
export function preapprovalExecuteRequest(party: string, submissionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const [, vector] = JSON.parse(fs.readFileSync(VECTORS, 'utf8')) as { preparedTransaction: string; preparedTransactionHash: string }[];
  return {
    preparedTransaction: vector.preparedTransaction,
    preparedTransactionHash: vector.preparedTransactionHash,
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    partySignatures: {
      signatures: [
        {
          party,
          signatures: [
            {
              format: 'SIGNATURE_FORMAT_CONCAT',
              signature: Buffer.alloc(64, 5).toString('base64'),
              signedBy: `1220${'ab'.repeat(32)}`,
              signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
            },
          ],
        },
      ],
    },
    submissionId,
    deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } },
    ...extra,
  };
}
