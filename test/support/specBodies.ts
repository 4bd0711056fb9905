// Valid request bodies for each route the fake node serves, built from its seeded ledger, so
// tests can break one field at a time.
import type { FakeLedgerNode } from '../../fake-ledger/src/testing';

export const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };

export function validBodies(node: FakeLedgerNode): Record<string, Record<string, unknown>> {
  const { parties, samples } = node.ledger;
  const eventFormat = { filtersByParty: { [parties.Alice]: wildcard }, verbose: true };
  return {
    'POST /v2/events/events-by-contract-id': { contractId: samples.activeContract, eventFormat },
    'POST /v2/updates/update-by-id': {
      updateId: samples.transferUpdate,
      updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    },
    'POST /v2/updates/transaction-by-id': { updateId: samples.transferUpdate, requestingParties: [parties.Alice] },
    'POST /v2/state/active-contracts': { activeAtOffset: node.generated.ledgerEnd(), eventFormat },
    'POST /v2/state/active-contracts-page': { eventFormat, maxPageSize: 10 },
    'POST /v2/updates/get-updates-page': {
      beginOffsetExclusive: node.ledger.prunedUpTo,
      maxPageSize: 5,
      updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
    },
    'POST /v2/interactive-submission/execute': {
      // A PreparedTransaction starts with field 1 (transaction): 0x0a, then a length.
      preparedTransaction: Buffer.from([0x0a, 0x04, 0x0a, 0x02, 0x32, 0x2e]).toString('base64'),
      partySignatures: {
        signatures: [
          {
            party: parties.Dana,
            signatures: [
              {
                format: 'SIGNATURE_FORMAT_CONCAT',
                signature: Buffer.alloc(64, 7).toString('base64'),
                signedBy: `1220${'ab'.repeat(32)}`,
                signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
              },
            ],
          },
        ],
      },
      submissionId: 'b3f0c2a4-8d1e-4c55-9f0a-6f1d2e3c4b5a',
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      deduplicationPeriod: { Empty: {} },
    },
  };
}

/** The user whose token may send each valid body. */
export const USER_FOR: Record<string, string> = {
  'POST /v2/events/events-by-contract-id': 'alice',
  'POST /v2/updates/update-by-id': 'alice',
  'POST /v2/updates/transaction-by-id': 'alice',
  'POST /v2/state/active-contracts': 'alice',
  'POST /v2/state/active-contracts-page': 'alice',
  'POST /v2/updates/get-updates-page': 'alice',
  'POST /v2/interactive-submission/execute': 'dana',
};

export interface RawReply {
  status: number;
  contentType: string;
  text: string;
  json?: Record<string, unknown>;
}

/** One request over real HTTP, whatever the body (it may be no JSON at all). */
export async function send(node: FakeLedgerNode, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<RawReply> {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body,
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  let json: Record<string, unknown> | undefined;
  if (contentType.startsWith('application/json')) json = JSON.parse(text) as Record<string, unknown>;
  return { status: res.status, contentType, text, json };
}
