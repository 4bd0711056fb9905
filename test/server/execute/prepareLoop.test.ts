// The external signing loop against the fake node: prepare (a real PreparedTransaction with its
// true V2 hash), the local review and hash, a development key's signature, execute and
// executeAndWait with the node verifying the signature; on 3.4, 3.5 and 3.6.
import * as assert from 'node:assert/strict';
import { compareHashingDetails } from '../../../src/execute/hashingDetails';
import { reviewPreparedTransaction } from '../../../src/execute/preparedTransactionReview';
import { reviewBody } from '../../../src/panels/html/reviewHtml';
import { cantonFingerprint, signHash } from '../../../src/execute/signingKeys';
import type { FakeLedgerNode, FakeVersion } from '../../../fake-ledger/src/testing';
import type { JsExecuteSubmissionRequest } from '../../../src/ledger/apiTypes';
import type { LedgerClient } from '../../../src/ledger/ledgerClient';
import { externalParty, startExternalPartyNode, type ExternalPartyNode } from '../../support/externalPartyNode';
import { rejectsWith } from '../../support/rejectsWith';
import { noteCreate, noteTemplateId } from '../../support/demoCommands';

describe('prepare, sign, execute against the fake node', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  let started: ExternalPartyNode;
  const external = externalParty('Erin-ext');
  const { key, party } = external;

  before(async () => {
    started = await startExternalPartyNode(external);
    ({ node, client } = started);
  });
  after(() => started.close());

  const prepareRequest = (over: Record<string, unknown> = {}) =>
    ({
      commandId: 'create-note-1',
      actAs: [party],
      synchronizerId: '',
      packageIdSelectionPreference: [],
      verboseHashing: true,
      commands: [noteCreate(node, party, 'hello')],
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
      assert.equal(review.nodes[0].kind, 'create');
      const request = (signature: string, submissionId: string): JsExecuteSubmissionRequest => ({
        preparedTransaction: prepared.preparedTransaction,
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

  it('commits what was sent and signed, not what was prepared, and nothing of what does not decode', async () => {
    node.version = '3.5';
    const prepared = await client.prepareSubmission(prepareRequest());
    // The note's text changed in the bytes: another transaction, hashed and signed as it now is (as Canton, the fake commits it).
    const bytes = Buffer.from(prepared.preparedTransaction, 'base64');
    const at = bytes.indexOf(Buffer.from('hello'));
    assert.ok(at > 0);
    bytes.write('jello', at);
    const changed = bytes.toString('base64');
    const review = await reviewPreparedTransaction(changed, 'HASHING_SCHEME_VERSION_V2');
    assert.notEqual(review.computedHash, prepared.preparedTransactionHash);
    const signature = signHash(key.privateKey, review.computedHash!);
    const body: JsExecuteSubmissionRequest = {
      preparedTransaction: changed,
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      deduplicationPeriod: { Empty: {} },
      submissionId: 's-changed',
      partySignatures: {
        signatures: [
          {
            party,
            signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: key.fingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
          },
        ],
      },
    };
    const done = await client.executeSubmissionAndWait(body);
    const reader = started.clientAs('reader');
    const committed = await reader.lookupUpdate(done.updateId, { requestingParties: [party] });
    await reader.close();
    assert.match(JSON.stringify(committed), /"title":"jello"/);
    assert.doesNotMatch(JSON.stringify(committed), /"title":"hello"/);
    const end = (await client.getLedgerEnd()).offset;
    await rejectsWith(
      client.executeSubmission({ ...body, submissionId: 's-garbage', preparedTransaction: Buffer.from([0x0a, 0xff, 0xff]).toString('base64') }),
      { code: 'INVALID_ARGUMENT' },
    );
    assert.equal((await client.getLedgerEnd()).offset, end, 'nothing committed');
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: verbose hashing: the node's hashingDetails are spec-valid and hold every input hashed locally`, async () => {
      node.version = version;
      const prepared = await client.prepareSubmission(
        prepareRequest({
          commands: [
            noteCreate(node, party, 'first'),
            {
              CreateAndExerciseCommand: {
                ...noteCreate(node, party, 'second').CreateCommand,
                choice: 'Archive',
                choiceArgument: {},
              },
            },
          ],
        }),
      );
      assert.deepEqual(node.responseProblems, []);
      const review = await reviewPreparedTransaction(prepared.preparedTransaction, prepared.hashingSchemeVersion);
      const same = compareHashingDetails(review, prepared.preparedTransactionHash, prepared.hashingDetails!);
      assert.deepEqual(
        same.inputs.filter((i) => !i.inNodeDetails),
        [],
      );
      assert.ok(
        same.inputs.some((i) => i.label === 'node 2: exercise template') && same.inputs.some((i) => i.label === 'node 2: choice' && i.value === 'Archive'),
      );
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
    const other = Buffer.alloc(32, 7).toString('base64');
    // …so its details end with its own hash, not the one recomputed here.
    const ownHex = Buffer.from(prepared.preparedTransactionHash, 'base64').toString('hex');
    const details = `${prepared.hashingDetails!.replace(`'${micros}'`, `'${BigInt(micros) + 1n}'`).replace(ownHex, Buffer.from(other, 'base64').toString('hex'))}\n<img src=x onerror=alert(1)>\u202e`;
    assert.ok(!details.includes(ownHex));
    const cmp = compareHashingDetails(review, other, details);
    assert.deepEqual(
      cmp.inputs.filter((i) => !i.inNodeDetails).map((i) => i.label),
      ['preparation_time (µs)'],
    );
    assert.match(cmp.summary, new RegExp(`Not in the node's hashing details: preparation_time \\(µs\\) ${micros}`));
    const page = reviewBody({
      fileName: 'a.execute.json',
      node: 'n',
      party,
      request: {
        preparedTransaction: prepared.preparedTransaction,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        submissionId: 's',
        partySignatures: { signatures: [{ party, signatures: [] }] },
      } as never,
      claimedHash: other,
      review,
      findings: [],
      hashing: cmp,
    }).text;
    assert.ok(!page.includes('<img'), "the node's text is escaped");
    assert.match(page, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(page, /class="input-missing"/);
    // A time written as the hash encodes it (8-byte big-endian hex, as Canton's tracer prints bytes) is found.
    const asHex = prepared.hashingDetails!.replace(`'${micros}'`, `'${BigInt(micros).toString(16).padStart(16, '0')}'`);
    assert.ok(!asHex.includes(`'${micros}'`));
    assert.deepEqual(
      compareHashingDetails(review, prepared.preparedTransactionHash, asHex).inputs.filter((i) => !i.inNodeDetails),
      [],
    );
    // A very long trace is cut, and says so.
    assert.ok(compareHashingDetails(review, other, 'x'.repeat(300_000)).truncated);
  });

  it('refuses what a node refuses: unknown party, unknown contract, no rights, a bad template id', async () => {
    node.version = '3.5';
    await rejectsWith(client.prepareSubmission(prepareRequest({ actAs: [`Nobody::1220${'0'.repeat(64)}`] })), { code: 'PARTY_NOT_KNOWN_ON_LEDGER' });
    await rejectsWith(
      client.prepareSubmission(
        prepareRequest({
          commands: [{ ExerciseCommand: { templateId: noteTemplateId(node), contractId: `00${'1'.repeat(64)}`, choice: 'Archive', choiceArgument: {} } }],
        }),
      ),
      { code: 'CONTRACT_NOT_FOUND' },
    );
    // The JSON layer transcodes the commands before anything else, as it does a submission's.
    await rejectsWith(
      client.prepareSubmission(
        prepareRequest({ commands: [{ ExerciseCommand: { templateId: 'a:b:c', contractId: `00${'1'.repeat(64)}`, choice: 'Archive', choiceArgument: {} } }] }),
      ),
      { code: 'INVALID_ARGUMENT', explanationMatches: /package-id or package-name/ },
    );
    await rejectsWith(
      client.prepareSubmission(prepareRequest({ commands: [{ CreateCommand: { templateId: `${'d'.repeat(64)}:Notes:Note`, createArguments: {} } }] })),
      { code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND' },
    );
    await rejectsWith(
      client.prepareSubmission(prepareRequest({ commands: [{ CreateCommand: { templateId: noteTemplateId(node), createArguments: { author: party } } }] })),
      { code: 'COMMAND_PREPROCESSING_FAILED' },
    );
    await rejectsWith(client.prepareSubmission(prepareRequest({ commands: [{ CreateCommand: { templateId: 'nocolons', createArguments: {} } }] })), {
      status: 400,
      explanationMatches: /Invalid identifier/,
    });
    await rejectsWith(client.prepareSubmission(prepareRequest({ commands: [] })), { code: 'MISSING_FIELD' });
    const alice = started.clientAs('alice');
    try {
      await rejectsWith(alice.prepareSubmission(prepareRequest()), { kind: 'permissionDenied' });
    } finally {
      await alice.close();
    }
  });

  it('exercises a contract of the ledger, with it as an input contract', async () => {
    node.version = '3.6';
    const s = node.ledger.samples;
    const prepared = await client.prepareSubmission(
      prepareRequest({
        actAs: [node.ledger.parties.Alice],
        commands: [
          {
            ExerciseCommand: {
              templateId: node.generated.template(0).templateId,
              contractId: s.activeContract,
              choice: 'Iou_Transfer',
              choiceArgument: { newOwner: node.ledger.parties.Bob },
            },
          },
        ],
      }),
    );
    const review = await reviewPreparedTransaction(prepared.preparedTransaction, 'HASHING_SCHEME_VERSION_V2');
    assert.equal(review.computedHash, prepared.preparedTransactionHash);
    assert.equal(review.inputContracts[0].contractId, s.activeContract);
    assert.equal(review.nodes[0].choice, 'Iou_Transfer');
  });
});

describe("the fake node's ledger end counts signed commits", function () {
  this.timeout(20_000);
  const external = externalParty('Lena-ext');
  const { key, party } = external;

  for (const version of ['3.4', '3.6'] as FakeVersion[]) {
    it(`${version}: ledger-end, /v2/updates and update-by-offset see each commit, between live updates, without a gap or a shared offset`, async () => {
      const started = await startExternalPartyNode(external, { version, generated: { contracts: 5, rate: 0 } });
      const { node, client } = started;
      const call = async (method: string, path: string, body?: unknown, user = 'reader') => {
        const r = await fetch(`${node.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${node.mintToken(user)}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
        return r.json() as Promise<Record<string, unknown>>;
      };
      const ledgerEnd = async () => (await call('GET', '/v2/state/ledger-end')).offset as number;
      const signed = async (submissionId: string): Promise<JsExecuteSubmissionRequest> => {
        const prepared = await client.prepareSubmission({
          commandId: submissionId,
          actAs: [party],
          synchronizerId: '',
          packageIdSelectionPreference: [],
          commands: [noteCreate(node, party, submissionId)],
        });
        return {
          preparedTransaction: prepared.preparedTransaction,
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
                    signature: signHash(key.privateKey, prepared.preparedTransactionHash),
                    signedBy: key.fingerprint,
                    signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                  },
                ],
              },
            ],
          },
        };
      };
      try {
        const start = await ledgerEnd();
        const first = await client.executeSubmissionAndWait(await signed('le-1'));
        assert.equal(first.completionOffset, start + 1);
        assert.equal(await ledgerEnd(), start + 1, 'the ledger end counts the commit');
        node.generated.advance(2);
        await client.executeSubmission(await signed('le-2'));
        const second = await client.executeSubmissionAndWait(await signed('le-3'));
        assert.equal(second.completionOffset, start + 5, 'two live updates and the plain execute came before it');
        assert.equal(await ledgerEnd(), start + 5);
        node.generated.advance(1);
        assert.equal(await ledgerEnd(), start + 6);

        // Following updates from the end before: every offset once, the commits among the live updates.
        const anyParty = {
          filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] },
          verbose: true,
        };
        const updateFormat = { includeTransactions: { eventFormat: anyParty, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
        const list = (await call('POST', '/v2/updates?stream_idle_timeout_ms=100', {
          beginExclusive: start,
          endInclusive: start + 6,
          updateFormat,
        })) as unknown as { update: { Transaction?: { value: { offset: number; updateId: string; commandId: string } } } }[];
        const txs = list.flatMap((u) => (u.update.Transaction ? [u.update.Transaction.value] : []));
        assert.deepEqual(
          txs.map((t) => t.offset),
          [1, 2, 3, 4, 5, 6].map((i) => start + i),
        );
        assert.deepEqual(
          txs.map((t) => t.commandId).filter((c) => c.startsWith('le-')),
          ['le-1', 'le-2', 'le-3'],
        );
        assert.equal(txs[0].updateId, first.updateId);
        assert.equal(txs[4].updateId, second.updateId);
        assert.equal(new Set(txs.map((t) => t.updateId)).size, 6);
        // Looked up by offset.
        const byOffset = (await call('POST', '/v2/updates/update-by-offset', { offset: second.completionOffset, updateFormat })) as {
          update: { Transaction: { value: { updateId: string } } };
        };
        assert.equal(byOffset.update.Transaction.value.updateId, second.updateId);
        assert.deepEqual(node.responseProblems, []);
      } finally {
        await started.close();
      }
    });
  }
});
