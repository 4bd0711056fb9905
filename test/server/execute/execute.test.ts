// POST /v2/interactive-submission/execute through the client, checked by the fake node.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { JsExecuteSubmissionRequest } from '../../../src/ledger/apiTypes';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { rejectsWith } from '../../support/rejectsWith';

describe('LedgerClient execute', function () {
  this.timeout(10_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  let token: string;

  // A PreparedTransaction starts with field 1 (transaction): 0x0a, then a length.
  const prepared = Buffer.from([0x0a, 0x04, 0x0a, 0x02, 0x32, 0x2e]).toString('base64');
  const request = (over: Partial<JsExecuteSubmissionRequest> = {}): JsExecuteSubmissionRequest => ({
    preparedTransaction: prepared,
    partySignatures: {
      signatures: [
        {
          party: node.ledger.parties.Dana,
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
    deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } },
    ...over,
  });

  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 1 });
  });
  after(() => node.close());
  beforeEach(() => {
    node.version = '3.5';
    node.executed.length = 0;
    token = node.mintToken('dana');
    client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token });
  });
  afterEach(() => client.close());

  it('is accepted with an empty object, and the node records what was sent', async () => {
    assert.deepEqual(await client.executeSubmission(request()), {});
    assert.equal(node.executed.length, 1);
    assert.equal(node.executed[0].party, node.ledger.parties.Dana);
    assert.equal(node.executed[0].body.submissionId, 'b3f0c2a4-8d1e-4c55-9f0a-6f1d2e3c4b5a');
  });

  it('V3 hashing is refused by 3.4 as an undecodable enum (text/plain 400), accepted by 3.5', async () => {
    node.version = '3.4';
    // Sent on purpose: not counted as a body Canton Lens builds (test/support/specConformance.ts).
    const raw = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, userAgent: 'a test' });
    const e = await rejectsWith(raw.executeSubmission(request({ hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' })), {
      kind: 'invalidRequest',
      status: 400,
    });
    assert.match(e.plainText ?? '', /Unknown enum value "HASHING_SCHEME_VERSION_V3" at 'hashingSchemeVersion'/);
    await raw.close();
    node.version = '3.5';
    assert.deepEqual(await client.executeSubmission(request({ hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' })), {});
  });

  it('refuses bad base64, a non-protobuf payload, two parties, a missing submission id', async () => {
    await rejectsWith(client.executeSubmission(request({ preparedTransaction: 'not base64!' })), {
      status: 400,
      plainText: "Invalid value for: body (Invalid base64 string at 'preparedTransaction')",
    });
    await rejectsWith(client.executeSubmission(request({ preparedTransaction: Buffer.from('hello').toString('base64') })), {
      code: 'INVALID_ARGUMENT',
      explanationMatches: /Cannot parse prepared_transaction/,
    });
    const two = request();
    two.partySignatures.signatures.push({ ...two.partySignatures.signatures[0], party: node.ledger.parties.Alice });
    // The node checks rights before the single-party rule: dana may not execute as Alice.
    await rejectsWith(client.executeSubmission(two), { kind: 'permissionDenied' });
    token = node.mintToken('executor');
    await rejectsWith(client.executeSubmission(two), { code: 'INVALID_ARGUMENT', explanationMatches: /single-party/ });
    token = node.mintToken('dana');
    await rejectsWith(client.executeSubmission(request({ submissionId: '' })), { code: 'MISSING_FIELD' });
    assert.equal(node.executed.length, 0);
  });

  it("needs executeAs rights for the party, and userId must be the token's user", async () => {
    token = node.mintToken('alice');
    await rejectsWith(client.executeSubmission(request()), {
      kind: 'permissionDenied',
      explanationMatches: /CanActAs or CanExecuteAs for the submitting party/,
    });
    token = node.mintToken('dana');
    await rejectsWith(client.executeSubmission(request({ userId: 'someone-else' })), { kind: 'permissionDenied' });
    assert.deepEqual(await client.executeSubmission(request({ userId: 'dana' })), {});
  });
});
