// The prepared transaction's times at execute, against the fake node on 3.4, 3.5 and 3.6: the node
// accepts the execute, then rejects what its times rule out with Canton's code in the completion
// (executeAndWait answers it), and commits what they allow; the review's warning names the same
// code, judged at the node's time.
import * as assert from 'node:assert/strict';
import type { FakeLedgerNode, FakeVersion } from '../../../fake-ledger/src/testing';
import { interactiveState } from '../../../fake-ledger/src/interactiveSubmissions';
import { executeTimeWarning } from '../../../src/execute/executeTimeWarnings';
import { reviewPreparedTransaction } from '../../../src/execute/preparedTransactionReview';
import { cantonFingerprint, signHash } from '../../../src/execute/signingKeys';
import type { JsExecuteSubmissionRequest } from '../../../src/ledger/apiTypes';
import type { LedgerClient } from '../../../src/ledger/ledgerClient';
import { externalParty, startExternalPartyNode, type ExternalPartyNode } from '../../support/externalPartyNode';
import { rejectsWith } from '../../support/rejectsWith';
import { noteCreate } from '../../support/demoCommands';

const HOUR = 3600n * 1_000_000n;

describe("a prepared transaction's times at execute, against the fake node", function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  let started: ExternalPartyNode;
  const external = externalParty('Tess-ext');
  const { key, party } = external;
  let n = 0;

  before(async () => {
    started = await startExternalPartyNode(external);
    ({ node, client } = started);
  });
  after(() => started.close());
  afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

  const clock = () => interactiveState(node.ledger).clockMicros;
  const advance = (micros: bigint) => (interactiveState(node.ledger).clockMicros += micros);

  /** Prepares a note as the external party, and the signed execute request (two submission ids: execute, executeAndWait). */
  const prepared = async (over: Record<string, unknown> = {}) => {
    n += 1;
    const p = await client.prepareSubmission({
      commandId: `times-${n}`,
      actAs: [party],
      synchronizerId: '',
      packageIdSelectionPreference: [],
      commands: [noteCreate(node, party, `note ${n}`)],
      ...over,
    });
    const signature = signHash(key.privateKey, p.preparedTransactionHash);
    const request = (submissionId: string): JsExecuteSubmissionRequest => ({
      preparedTransaction: p.preparedTransaction,
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      deduplicationPeriod: { Empty: {} },
      submissionId,
      partySignatures: {
        signatures: [
          {
            party,
            signatures: [
              {
                format: 'SIGNATURE_FORMAT_CONCAT',
                signature,
                signedBy: cantonFingerprint(Buffer.from(key.publicKey, 'base64')),
                signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
              },
            ],
          },
        ],
      },
    });
    return { review: await reviewPreparedTransaction(p.preparedTransaction, p.hashingSchemeVersion), request };
  };

  /** The completion the node recorded for a submission id. */
  const completion = (submissionId: string) => interactiveState(node.ledger).submissions.find((s) => s.submissionId === submissionId);

  /** Executes (accepted at once), then executeAndWait; both are rejected for `code`, nothing commits, and the warning said so at the node's time. */
  const refusedFor = async (code: string, p: Awaited<ReturnType<typeof prepared>>, version: string) => {
    const warning = executeTimeWarning({ ...p.review, nodeVersion: `${version}.0` }, Number((clock() + 1_000_000n) / 1000n));
    assert.equal(warning?.code, code, 'the review warns of what the node does');
    const id = `${code.toLowerCase()}-${n}`;
    assert.deepEqual(await client.executeSubmission(p.request(`${id}-a`)), {}, 'the execute is accepted');
    const done = completion(`${id}-a`);
    assert.ok(done, 'a completion');
    assert.equal(done.transaction, undefined, 'nothing commits');
    assert.equal(done.status?.code, 10, 'ABORTED');
    assert.match(done.status?.message ?? '', new RegExp(`^${code}\\(2,`));
    await rejectsWith(client.executeSubmissionAndWait(p.request(`${id}-b`)), { code, status: 409 });
  };

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: prepared more than 24 h before the node's time: LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND; within 24 h, it commits`, async () => {
      node.version = version;
      const fresh = await prepared();
      advance(23n * HOUR);
      assert.equal(executeTimeWarning(fresh.review, Number((clock() + 1_000_000n) / 1000n)), undefined, 'no warning within the tolerance');
      const waited = await client.executeSubmissionAndWait(fresh.request(`fresh-${version}`));
      assert.match(waited.updateId, /^1220[0-9a-f]{64}$/);

      const stale = await prepared();
      advance(24n * HOUR);
      await refusedFor('LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND', stale, version);
    });

    const late = version === '3.4' ? 'NOT_SEQUENCED_TIMEOUT' : 'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED';
    it(`${version}: executed after its max record time: ${late}; before it, it commits`, async () => {
      node.version = version;
      const maxRecordTime = () => new Date(Number((clock() + 10_000_000n) / 1000n)).toISOString();
      const inTime = await prepared({ maxRecordTime: maxRecordTime() });
      assert.ok(inTime.review.maxRecordTime, 'the prepared transaction carries its max record time');
      assert.match((await client.executeSubmissionAndWait(inTime.request(`in-time-${version}`))).updateId, /^1220/);

      const tooLate = await prepared({ maxRecordTime: maxRecordTime() });
      advance(30_000_000n);
      await refusedFor(late, tooLate, version);
    });
  }
});
