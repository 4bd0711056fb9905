// The external signing loop against the fake node: prepare (a real PreparedTransaction with its
// true V2 hash), the local review and hash, a development key's signature, execute and
// executeAndWait with the node verifying the signature; on 3.4, 3.5 and 3.6.
import * as assert from 'node:assert/strict';
import { compareHashingDetails } from '../../src/execute/hashingDetails';
import { reviewPreparedTransaction } from '../../src/execute/preparedTransactionReview';
import { reviewBody } from '../../src/panels/html/reviewHtml';
import { cantonFingerprint, generateDevKey, signHash } from '../../src/execute/signingKeys';
import { FakeLedgerNode, type FakeVersion } from '../../src/fakeNode/fakeLedgerNode';
import { knowExternalParty } from '../../src/fakeNode/interactiveSubmissions';
import type { JsExecuteSubmissionRequest } from '../../src/ledger/apiTypes';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { rejectsWith } from '../support/rejectsWith';

describe('prepare, sign, execute against the fake node', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  const key = generateDevKey();
  const party = `Erin-ext::${key.fingerprint}`;

  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 1, checkResponses: true });
    knowExternalParty(node.ledger, party, Buffer.from(key.publicKey, 'base64'));
    client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('executor') });
  });
  after(async () => {
    await client.close();
    await node.close();
  });

  const prepareRequest = (over: Record<string, unknown> = {}) => ({
    commandId: 'create-note-1', actAs: [party], verboseHashing: true,
    commands: [{ CreateCommand: { templateId: `${'d'.repeat(64)}:Notes:Note`, createArguments: { owner: party, text: 'hello', amount: '1.5000000000' } } }],
    ...over,
  }) as never;

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: the prepared transaction decodes, its hash recomputes, and a signature by the key executes`, async () => {
      node.version = version;
      const prepared = await client.prepareSubmission(prepareRequest());
      assert.equal(prepared.hashingSchemeVersion, 'HASHING_SCHEME_VERSION_V2');
      assert.match(prepared.hashingDetails ?? '', /# Prepared Transaction Hash/);
      const review = await reviewPreparedTransaction(prepared.preparedTransaction, prepared.hashingSchemeVersion);
      assert.equal(review.computedHash, prepared.preparedTransactionHash);
      assert.deepEqual(review.submitters, [party]);
      assert.equal(review.nodes[0]!.kind, 'create');
      const request = (signature: string, submissionId: string): JsExecuteSubmissionRequest => ({
        preparedTransaction: prepared.preparedTransaction, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2', submissionId,
        partySignatures: { signatures: [{ party, signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: cantonFingerprint(Buffer.from(key.publicKey, 'base64')), signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }] }] },
      });
      const signature = signHash(key.privateKey, prepared.preparedTransactionHash);
      assert.deepEqual(await client.executeSubmission(request(signature, `s-${version}-1`)), {});
      const waited = await client.executeSubmissionAndWait(request(signature, `s-${version}-2`));
      assert.match(waited.updateId, /^1220[0-9a-f]{64}$/);
      assert.ok(waited.completionOffset > 0);
      // A signature over another hash is refused as a node refuses it.
      const wrong = signHash(key.privateKey, Buffer.alloc(32, 1).toString('base64'));
      await rejectsWith(client.executeSubmission(request(wrong, `s-${version}-3`)), { code: 'INVALID_ARGUMENT', explanationMatches: /0 valid signatures/ });
      await rejectsWith(client.executeSubmissionAndWait(request(wrong, `s-${version}-4`)), { code: 'INVALID_ARGUMENT' });
    });
  }

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: verbose hashing: the node's hashingDetails are spec-valid and hold every input hashed locally`, async () => {
      node.version = version;
      const prepared = await client.prepareSubmission(prepareRequest({ commands: [
        { CreateCommand: { templateId: `${'d'.repeat(64)}:Notes:Note`, createArguments: { owner: party } } },
        { CreateAndExerciseCommand: { templateId: `${'d'.repeat(64)}:Notes:Note`, createArguments: { owner: party }, choice: 'Archive', choiceArgument: {} } },
      ] }));
      assert.deepEqual(node.responseProblems, []);
      const review = await reviewPreparedTransaction(prepared.preparedTransaction, prepared.hashingSchemeVersion);
      const same = compareHashingDetails(review, prepared.preparedTransactionHash, prepared.hashingDetails!);
      assert.deepEqual(same.inputs.filter((i) => !i.inNodeDetails), []);
      assert.ok(same.inputs.some((i) => i.label === 'node 2: exercise template') && same.inputs.some((i) => i.label === 'node 2: choice' && i.value === 'Archive'));
      assert.match(same.summary, /equals the node's/);
      // Without verboseHashing: no details.
      assert.equal((await client.prepareSubmission(prepareRequest({ verboseHashing: false }))).hashingDetails, undefined);
    });
  }

  it('verbose hashing: a mismatch names the inputs the node hashed differently; hostile details stay text', async () => {
    const prepared = await client.prepareSubmission(prepareRequest());
    const review = await reviewPreparedTransaction(prepared.preparedTransaction, prepared.hashingSchemeVersion);
    const micros = review.preparationTimeMicros!;
    // The node hashed another preparation time (a clock or encoding difference): the hashes differ.
    const details = `${prepared.hashingDetails!.replace(`'${micros}'`, `'${BigInt(micros) + 1n}'`)}\n<img src=x onerror=alert(1)>\u202e`;
    const other = Buffer.alloc(32, 7).toString('base64');
    const cmp = compareHashingDetails(review, other, details);
    assert.deepEqual(cmp.inputs.filter((i) => !i.inNodeDetails).map((i) => i.label), ['preparation_time (µs)']);
    assert.match(cmp.summary, new RegExp(`Not in the node's hashing details: preparation_time \\(µs\\) ${micros}`));
    const page = reviewBody({ fileName: 'a.execute.json', node: 'n', party, request: { preparedTransaction: prepared.preparedTransaction, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2', submissionId: 's', partySignatures: { signatures: [{ party, signatures: [] }] } } as never, claimedHash: other, review, findings: [], hashing: cmp }).text;
    assert.ok(!page.includes('<img'), 'the node\'s text is escaped');
    assert.match(page, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(page, /class="input-missing"/);
    // A very long trace is cut, and says so.
    assert.ok(compareHashingDetails(review, other, 'x'.repeat(300_000)).truncated);
  });

  it('refuses what a node refuses: unknown party, unknown contract, no rights, a bad template id', async () => {
    node.version = '3.5';
    await rejectsWith(client.prepareSubmission(prepareRequest({ actAs: [`Nobody::1220${'0'.repeat(64)}`] })), { code: 'PARTY_NOT_KNOWN_ON_LEDGER' });
    await rejectsWith(client.prepareSubmission(prepareRequest({ commands: [{ ExerciseCommand: { templateId: 'a:b:c', contractId: `00${'1'.repeat(64)}`, choice: 'Archive', choiceArgument: {} } }] })), { code: 'CONTRACT_NOT_FOUND' });
    await rejectsWith(client.prepareSubmission(prepareRequest({ commands: [{ CreateCommand: { templateId: 'nocolons', createArguments: {} } }] })), { code: 'INVALID_ARGUMENT' });
    await rejectsWith(client.prepareSubmission(prepareRequest({ commands: [] })), { code: 'MISSING_FIELD' });
    const alice = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice') });
    try {
      await rejectsWith(alice.prepareSubmission(prepareRequest()), { kind: 'permissionDenied' });
    } finally {
      await alice.close();
    }
  });

  it('exercises a contract of the ledger, with it as an input contract', async () => {
    node.version = '3.6';
    const s = node.ledger.samples;
    const prepared = await client.prepareSubmission(prepareRequest({ actAs: [node.ledger.parties.Alice], commands: [{ ExerciseCommand: { templateId: 'x:Iou:Iou', contractId: s.activeContract, choice: 'Iou_Transfer', choiceArgument: { newOwner: node.ledger.parties.Bob } } }] }));
    const review = await reviewPreparedTransaction(prepared.preparedTransaction, 'HASHING_SCHEME_VERSION_V2');
    assert.equal(review.computedHash, prepared.preparedTransactionHash);
    assert.equal(review.inputContracts[0]!.contractId, s.activeContract);
    assert.equal(review.nodes[0]!.choice, 'Iou_Transfer');
  });
});
