// Checking execute requests, and reviewing prepared transactions: real vectors and built ones.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkExecuteRequest, executeRequestTemplate, requestFilePath } from '../../../src/execute/executeRequestCheck';
import { reviewPreparedTransaction } from '../../../src/execute/preparedTransactionReview';
import { ALICE, BOB, INPUT_CONTRACT, transferTransaction } from '../../support/preparedTransactions';

// Real prepared transactions with the V2 hash a Ledger API returned for them; from the tests of
// @canton-network/core-tx-visualizer (canton-network/wallet, core/tx-visualizer/src/Tx.test.ts).
const vectors = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'prepared-transaction-vectors.json'), 'utf8'),
) as {
  name: string;
  hashingSchemeVersion: string;
  preparedTransaction: string;
  preparedTransactionHash: string;
}[];

const valid = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    preparedTransaction: vectors[0].preparedTransaction,
    preparedTransactionHash: vectors[0].preparedTransactionHash,
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    partySignatures: {
      signatures: [
        {
          party: ALICE,
          signatures: [
            {
              format: 'SIGNATURE_FORMAT_CONCAT',
              signature: Buffer.alloc(64, 1).toString('base64'),
              signedBy: `1220${'ab'.repeat(32)}`,
              signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
            },
          ],
        },
      ],
    },
    submissionId: '0b8f4b3e-7c1d-4f7e-9a53-2d6c1e0f9a11',
    deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } },
    minLedgerTime: { time: { MinLedgerTimeAbs: { value: '2026-11-21T10:00:00Z' } } },
    ...over,
  });

describe('execute requests: checks before sending', () => {
  it("accepts a valid request and strips Canton Lens's own hash field from what is sent", () => {
    const c = checkExecuteRequest(valid(), 'alice');
    assert.deepEqual(c.problems, []);
    assert.equal(c.party, ALICE);
    assert.equal(c.claimedHash, vectors[0].preparedTransactionHash);
    assert.ok(c.request && !('preparedTransactionHash' in c.request));
    assert.equal(c.request.submissionId, '0b8f4b3e-7c1d-4f7e-9a53-2d6c1e0f9a11');
  });

  it('lists every problem with its JSON path', () => {
    const c = checkExecuteRequest(
      valid({
        preparedTransaction: 'not base64!',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V9',
        submissionId: 'bad\nid',
        userId: 'bob',
        partySignatures: {
          signatures: [
            { party: 'Alice', signatures: [{ format: 'PEM', signature: '%%', signedBy: 'abc', signingAlgorithmSpec: 'RSA' }] },
            { party: BOB, signatures: [] },
          ],
        },
        deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 'ten' } }, Empty: {} },
        minLedgerTime: { time: { MinLedgerTimeAbs: { value: 'tomorrow' } } },
        preparedTransactionHash: 'short',
        submisionId: 'typo',
      }),
      'alice',
    );
    assert.equal(c.request, undefined, 'nothing is sent');
    const byPath = Object.fromEntries(c.problems.map((p) => [p.path, p.message]));
    assert.match(byPath['$.preparedTransaction'], /Not valid base64/);
    assert.match(
      byPath['$.hashingSchemeVersion'],
      /Must be one of HASHING_SCHEME_VERSION_UNSPECIFIED, HASHING_SCHEME_VERSION_V2, HASHING_SCHEME_VERSION_V3, not "HASHING_SCHEME_VERSION_V9"/,
    );
    assert.match(byPath['$.submissionId'], /Not a valid ledger string/);
    assert.match(byPath['$.userId'], /the node's token is for user "alice"/);
    assert.match(byPath['$.partySignatures.signatures'], /only single-party submissions/);
    assert.match(byPath['$.partySignatures.signatures[0].party'], /Not a party id/);
    assert.match(byPath['$.partySignatures.signatures[0].signatures[0].format'], /SIGNATURE_FORMAT_CONCAT/);
    assert.match(byPath['$.partySignatures.signatures[0].signatures[0].signingAlgorithmSpec'], /SIGNING_ALGORITHM_SPEC_ED25519/);
    assert.match(byPath['$.partySignatures.signatures[0].signatures[0].signature'], /base64/);
    assert.match(byPath['$.partySignatures.signatures[0].signatures[0].signedBy'], /fingerprint/);
    assert.match(byPath['$.partySignatures.signatures[1].signatures'], /at least one signature/);
    assert.match(byPath['$.deduplicationPeriod'], /exactly one of/);
    assert.match(byPath['$.minLedgerTime.time.MinLedgerTimeAbs.value'], /ISO instant/);
    assert.match(byPath['$.preparedTransactionHash'], /32-byte hash/);
    assert.match(byPath['$.submisionId'], /Unknown field/);
  });

  it('explains JSON syntax errors and missing fields', () => {
    assert.match(checkExecuteRequest('{ "a": ').problems[0].message, /Not valid JSON/);
    const paths = checkExecuteRequest('{}').problems.map((p) => p.path);
    assert.deepEqual(paths, ['$.preparedTransaction', '$.submissionId', '$.hashingSchemeVersion', '$.partySignatures', '$.deduplicationPeriod']);
    // Every node's decoder requires the deduplication period (the spec does not): the fix adds one.
    assert.deepEqual(checkExecuteRequest('{}').problems.at(-1)?.add, { deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } } });
  });

  it('names new request files *.execute.json exactly once', () => {
    assert.equal(requestFilePath('/w/submission.execute.json'), '/w/submission.execute.json');
    assert.equal(requestFilePath('/w/submission.execute.json.execute.json'), '/w/submission.execute.json');
    assert.equal(requestFilePath('/w/x'), '/w/x.execute.json');
    assert.equal(requestFilePath('/w/x.json'), '/w/x.execute.json');
  });

  it('writes a template with a fresh submission id that needs filling in', () => {
    const t = executeRequestTemplate('5b7c0e8e-4a0d-4f32-8c55-0f2b9d7c1a20');
    const c = checkExecuteRequest(t);
    assert.equal(JSON.parse(t).submissionId, '5b7c0e8e-4a0d-4f32-8c55-0f2b9d7c1a20');
    assert.ok(
      c.problems.some((p) => p.path === '$.preparedTransaction'),
      'the placeholders are not valid yet',
    );
  });
});

describe('prepared transaction review', () => {
  for (const v of vectors) {
    it(`recomputes the V2 hash of the real vector "${v.name}" exactly`, async () => {
      const r = await reviewPreparedTransaction(v.preparedTransaction, v.hashingSchemeVersion);
      assert.equal(r.computedHash, v.preparedTransactionHash);
      assert.equal(r.nodes[0].kind, 'create');
      assert.ok(r.submitters.length > 0 && r.synchronizerId.includes('::1220'));
    });
  }

  it('decodes a built transfer: submitters, the exercise and its argument, the create, input contracts, times', async () => {
    const r = await reviewPreparedTransaction(transferTransaction(), 'HASHING_SCHEME_VERSION_V2');
    assert.deepEqual(r.submitters, [ALICE]);
    assert.equal(r.commandId, 'transfer-7f3a');
    assert.deepEqual(r.roots, ['0']);
    const [exercise, create] = r.nodes;
    assert.deepEqual(
      {
        kind: exercise.kind,
        choice: exercise.choice,
        consuming: exercise.consuming,
        contractId: exercise.contractId,
        acting: exercise.actingParties,
        arg: exercise.argument,
      },
      { kind: 'exercise', choice: 'Iou_Transfer', consuming: true, contractId: INPUT_CONTRACT, acting: [ALICE], arg: { newOwner: BOB } },
    );
    assert.equal(create.templateId, `${'d'.repeat(64)}:Iou:Iou`);
    assert.deepEqual(create.argument, { issuer: `Bank::1220${'ba'.repeat(32)}`, owner: BOB, currency: 'USD', amount: '250.0000000000', note: '' });
    assert.deepEqual(
      r.inputContracts.map((c) => c.contractId),
      [INPUT_CONTRACT],
    );
    assert.equal(r.preparationTime, '2025-11-21T10:00:00.000000Z');
    assert.equal(r.minLedgerEffectiveTime, '2025-11-21T09:58:20.000000Z');
    assert.match(r.computedHash!, /^[A-Za-z0-9+/]{43}=$/);
    const v3 = await reviewPreparedTransaction(transferTransaction(), 'HASHING_SCHEME_VERSION_V3');
    assert.equal(v3.computedHash, undefined);
    assert.match(v3.hashNote, /only V2/);
  });

  it('a different transaction has a different hash', async () => {
    const a = await reviewPreparedTransaction(transferTransaction({ note: 'a' }), 'HASHING_SCHEME_VERSION_V2');
    const b = await reviewPreparedTransaction(transferTransaction({ note: 'b' }), 'HASHING_SCHEME_VERSION_V2');
    assert.notEqual(a.computedHash, b.computedHash);
  });

  it('reports bytes that are not a prepared transaction', async () => {
    await assert.rejects(reviewPreparedTransaction(Buffer.from('definitely not protobuf, just text').toString('base64'), 'HASHING_SCHEME_VERSION_V2'));
  });
});
