import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HASHING_SCHEME_VERSIONS, SIGNATURE_FORMATS, SIGNING_ALGORITHMS } from '../../../src/execute/executeRequestCheck';
import { reviewPreparedTransaction } from '../../../src/execute/preparedTransactionReview';
import { hashCheck, reviewBody, type ReviewView } from '../../../src/panels/html/reviewHtml';
import { EVIL } from '../../support/hostileLookups';
import { ALICE, transferTransaction } from '../../support/preparedTransactions';

const root = path.resolve(__dirname, '..', '..', '..', '..');

describe('execute review page', () => {
  const base = async (over: Partial<ReviewView> = {}): Promise<ReviewView> => {
    const preparedTransaction = transferTransaction({ note: EVIL });
    const review = await reviewPreparedTransaction(preparedTransaction, 'HASHING_SCHEME_VERSION_V2');
    return {
      fileName: 'a.execute.json',
      node: 'dev',
      party: ALICE,
      review,
      claimedHash: review.computedHash,
      findings: [],
      request: {
        preparedTransaction,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        deduplicationPeriod: { Empty: {} },
        submissionId: 's-1',
        partySignatures: {
          signatures: [
            {
              party: ALICE,
              signatures: [
                {
                  format: 'SIGNATURE_FORMAT_CONCAT',
                  signature: 'AA==',
                  signedBy: `1220${'ab'.repeat(32)}`,
                  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                },
              ],
            },
          ],
        },
      },
      ...over,
    };
  };

  it('shows the node, the party, what the transaction does, and a matching hash', async () => {
    const v = await base();
    assert.equal(hashCheck(v).state, 'match');
    const body = reviewBody(v).text;
    assert.ok(body.includes('Submit to dev as Alice…'));
    assert.match(body, /Exercise <bdi>Iou_Transfer<\/bdi> \(consuming\) on/);
    assert.ok(body.includes('&lt;img src=x'), 'argument strings escaped');
    assert.ok(!/<img/i.test(body));
    assert.ok(body.includes('data-open-id="00c7c7'), 'the input contract links to its panel');
  });

  it('offers no submit button when the hashes differ, and says why', async () => {
    const v = await base({ claimedHash: Buffer.alloc(32, 1).toString('base64') });
    assert.equal(hashCheck(v).state, 'mismatch');
    const body = reviewBody(v).text;
    assert.ok(!body.includes('data-action="submit"'));
    assert.match(body, /not the transaction that was signed/);
  });

  it('shows the outcome: accepted with the change id, or unknown after a timeout', async () => {
    const accepted = reviewBody(
      await base({
        outcome: {
          state: 'accepted',
          endpoint: 'execute',
          node: 'dev',
          at: '2026-11-21T10:00:00.000Z',
          submissionId: 's-1',
          commandId: 'transfer-7f3a',
          actAs: [ALICE],
        },
      }),
    ).text;
    assert.match(accepted, /Accepted by <bdi>dev<\/bdi> at 2026-11-21T10:00:00\.000Z/);
    assert.match(accepted, /transfer-7f3a/);
    assert.ok(!accepted.includes('data-action="submit"'), 'one submission per review');
    const unknown = reviewBody(await base({ outcome: { state: 'failed', explanation: 'No answer. The outcome is unknown', outcomeUnknown: true } })).text;
    assert.match(unknown, /Outcome unknown/);
    assert.ok(unknown.includes('data-action="submitAgain"'));
  });

  it('warns when the prepared transaction does not decode', async () => {
    const body = reviewBody(await base({ review: undefined, decodeError: EVIL })).text;
    assert.match(body, /does not decode/);
    assert.ok(!/<img/i.test(body));
  });

  it('the JSON schema and the checks agree on every enum', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(root, 'media', 'execute-request.schema.json'), 'utf8'));
    const sig = schema.properties.partySignatures.properties.signatures.items.properties.signatures.items.properties;
    assert.deepEqual(schema.properties.hashingSchemeVersion.enum, [...HASHING_SCHEME_VERSIONS]);
    assert.deepEqual(sig.format.enum, [...SIGNATURE_FORMATS]);
    assert.deepEqual(sig.signingAlgorithmSpec.enum, [...SIGNING_ALGORITHMS]);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.contributes.jsonValidation, [
      { fileMatch: '*.execute.json', url: './media/execute-request.schema.json' },
      { fileMatch: '*.prepare.json', url: './media/prepare-request.schema.json' },
      { fileMatch: '*.commands.json', url: './media/commands-request-3.6.schema.json' },
      { fileMatch: 'canton-setup.json', url: './media/canton-setup.schema.json' },
    ]);
  });
});
