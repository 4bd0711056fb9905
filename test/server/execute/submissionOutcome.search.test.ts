// After execute: the outcome found through completions (3.4, 3.5) or completion-by-hash (3.6),
// the committed transaction findable by id and by hash, executeAndWaitForTransaction, and an
// external party allocated for a development key; every answer checked against the version's spec.
import * as assert from 'node:assert/strict';
import { compareCommitted } from '../../../src/execute/committedComparison';
import { watchCompletions } from '../../../src/execute/completionWatch';
import { findOutcome, hasCompletionByHash } from '../../../src/execute/outcomeFinder';
import { streamChannel } from '../../../src/ledger/ledgerChannels';
import { cantonFingerprint, generateDevKey, signHash } from '../../../src/execute/signingKeys';
import type { FakeLedgerNode, FakeVersion } from '../../../fake-ledger/src/testing';
import { interactiveState } from '../../../fake-ledger/src/interactiveSubmissions';
import type { JsExecuteSubmissionRequest } from '../../../src/ledger/apiTypes';
import type { LedgerClient } from '../../../src/ledger/ledgerClient';
import { transactionQueryFor } from '../../../src/ledger/requestForms';
import { externalParty, startExternalPartyNode, type ExternalPartyNode } from '../../support/externalPartyNode';
import { rejectsWith } from '../../support/rejectsWith';
import { noteCreate } from '../../support/demoCommands';

describe('the outcome of a submission, executeAndWaitForTransaction, external parties', function () {
  this.timeout(30_000);
  const external = externalParty('Erin-ext');
  const { key, party } = external;
  let node: FakeLedgerNode;
  let erin: LedgerClient;
  let admin: LedgerClient;
  let started: ExternalPartyNode;

  before(async () => {
    started = await startExternalPartyNode(external, { extraUsers: { erin: [{ canActAs: party }] } });
    node = started.node;
    erin = started.clientAs('erin');
    admin = started.clientAs('participant_admin');
  });
  after(() => started.close());
  afterEach(() => {
    interactiveState(node.ledger).holdCompletions = false;
    assert.deepEqual(node.responseProblems, []);
  });

  let n = 0;
  const preparedAndSigned = async (actAs = party, signer = key) => {
    const prepared = await erin.prepareSubmission({
      commandId: `cmd-${++n}`,
      actAs: [actAs],
      synchronizerId: '',
      packageIdSelectionPreference: [],
      commands: [
        {
          CreateAndExerciseCommand: {
            ...noteCreate(node, actAs, `note ${n}`).CreateCommand,
            choice: 'Note_Close',
            choiceArgument: { reason: 'done' },
          },
        },
      ],
    });
    const request: JsExecuteSubmissionRequest = {
      preparedTransaction: prepared.preparedTransaction,
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      deduplicationPeriod: { Empty: {} },
      submissionId: `sub-${n}`,
      partySignatures: {
        signatures: [
          {
            party: actAs,
            signatures: [
              {
                format: 'SIGNATURE_FORMAT_CONCAT',
                signature: signHash(signer.privateKey, prepared.preparedTransactionHash),
                signedBy: cantonFingerprint(Buffer.from(signer.publicKey, 'base64')),
                signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
              },
            ],
          },
        ],
      },
    };
    return { prepared, request };
  };

  it('knows which versions have completion-by-hash', () => {
    assert.equal(hasCompletionByHash('3.6.0-SNAPSHOT'), true);
    assert.equal(hasCompletionByHash('3.5.10'), false);
    assert.equal(hasCompletionByHash('3.4.12'), false);
    assert.equal(hasCompletionByHash(undefined), false);
  });

  const executed = async () => {
    const { request } = await preparedAndSigned();
    assert.deepEqual(await erin.executeSubmission(request), {});
    return request.submissionId;
  };
  const completionPosts = (from: number) => node.requests.slice(from).filter((r) => r.path.startsWith('/v2/commands/completions')).length;

  for (const version of ['3.4', '3.5'] as FakeVersion[]) {
    it(`${version}: watches the completions over the websocket, the token in the subprotocol only`, async () => {
      node.version = version;
      const end = (await erin.getLedgerEnd()).offset ?? 0;
      const before = node.requests.length;
      const upgrades = node.channels.upgrades.length;
      const submissionId = await executed();
      const progress: string[] = [];
      const found = await findOutcome(
        erin,
        { submissionId, userId: 'erin', parties: [party], beginExclusive: end },
        { timeoutMs: 5_000, onProgress: (m) => progress.push(m) },
      );
      assert.equal(found.kind, 'committed');
      assert.equal(completionPosts(before), 0, 'no completions read over HTTP');
      const upgrade = node.channels.upgrades.slice(upgrades).find((u) => u.url.startsWith('/v2/commands/completions'));
      assert.ok(upgrade, 'the completions channel was opened');
      assert.equal(upgrade.url, '/v2/commands/completions');
      assert.match(upgrade.protocols, /^jwt\.token\.eyJ[^,]+, daml\.ws\.auth$/);
      assert.match(progress[0], /^Watching the completions after offset \d+ over a websocket…$/);
    });
  }

  it('a completion stream that breaks resumes after its last offset: nothing missed, nothing twice', async () => {
    node.version = '3.5';
    const end = (await erin.getLedgerEnd()).offset ?? 0;
    const ids = [await executed(), await executed(), await executed(), await executed()];
    const expected = interactiveState(node.ledger)
      .submissions.filter((r) => r.completionOffset > end)
      .map((r) => r.completionOffset);
    node.channels.faults.breakAfterFrames = 2;
    const seen: number[] = [];
    const progress: string[] = [];
    const found = await watchCompletions(
      erin,
      {
        userId: 'erin',
        parties: [party],
        beginExclusive: end,
        deadline: Date.now() + 10_000,
        onOffset: (o) => seen.push(o),
        onProgress: (m) => progress.push(m),
      },
      (c) => c.submissionId === ids[3],
    );
    assert.equal(found?.submissionId, ids[3]);
    assert.deepEqual(seen, expected);
    assert.ok(
      progress.some((m) => /^The completion stream broke \(The stream was cut without a close.*\); resuming after offset \d+…$/.test(m)),
      progress.join(' | '),
    );
  });

  it('a refused upgrade (a proxy) is said, and the completions are read over HTTP instead', async () => {
    node.version = '3.4';
    const end = (await erin.getLedgerEnd()).offset ?? 0;
    const submissionId = await executed();
    const before = node.requests.length;
    node.channels.faults.refuseUpgrades = 502;
    try {
      const progress: string[] = [];
      const found = await findOutcome(
        erin,
        { submissionId, userId: 'erin', parties: [party], beginExclusive: end },
        { timeoutMs: 5_000, onProgress: (m) => progress.push(m) },
      );
      assert.equal(found.kind, 'committed');
      assert.ok(completionPosts(before) >= 1);
      assert.ok(
        progress.some((m) =>
          /^The websocket was refused \(The websocket connection to \/v2\/commands\/completions was refused \(no upgrade\).*\); reading the completions over HTTP instead\.$/.test(
            m,
          ),
        ),
        progress.join(' | '),
      );
    } finally {
      node.channels.faults.refuseUpgrades = undefined;
    }
  });

  it("the completions channel refuses what the node refuses: no parties, another user's parties", async () => {
    node.version = '3.5';
    const stream = (request: unknown, client = erin) => streamChannel(client, '/v2/commands/completions', request, {})[Symbol.asyncIterator]().next();
    await rejectsWith(stream({ userId: 'erin', parties: [], beginExclusive: 0 }), { kind: 'invalidRequest', explanationMatches: /parties/ });
    await rejectsWith(stream({ userId: 'erin', parties: [node.ledger.parties.Bob], beginExclusive: 0 }), { kind: 'permissionDenied' });
    await rejectsWith(stream({ userId: 'alice', parties: [party], beginExclusive: 0 }), { kind: 'permissionDenied' });
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: finds the outcome of a plain execute, and the committed transaction by its id`, async () => {
      node.version = version;
      const { prepared, request } = await preparedAndSigned();
      const end = (await erin.getLedgerEnd()).offset ?? 0;
      const before = node.requests.length;
      assert.deepEqual(await erin.executeSubmission(request), {});
      const found = await findOutcome(
        erin,
        { submissionId: request.submissionId, userId: 'erin', parties: [party], transactionHash: prepared.preparedTransactionHash, beginExclusive: end },
        { timeoutMs: 3_000, pollMs: 50 },
      );
      assert.equal(found.kind, 'committed');
      if (found.kind !== 'committed') return;
      assert.equal(found.via, version === '3.6' ? 'completion-by-hash' : 'completions');
      assert.ok(found.offset > end);
      assert.equal(found.completion.userId, 'erin');
      // Reads only after the one POST of execute.
      const posts = node.requests.slice(before).filter((r) => /interactive-submission/.test(r.path));
      assert.equal(posts.length, 1);
      const lookup = await erin.lookupTransaction(found.updateId!, transactionQueryFor([party], 'TRANSACTION_SHAPE_LEDGER_EFFECTS'));
      const kinds = (lookup.transaction.events as Record<string, unknown>[]).map((e) => Object.keys(e)[0]);
      assert.ok(kinds.includes('CreatedEvent') || kinds.includes('ArchivedEvent'), kinds.join());
      if (version === '3.6') {
        const byHash = await erin.getUpdateByHash({
          transactionHash: prepared.preparedTransactionHash,
          updateFormat: {
            includeTransactions: {
              eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: false },
              transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
            },
          },
        } as never);
        assert.equal((byHash.update as { Transaction: { value: { updateId: string } } }).Transaction.value.updateId, found.updateId);
      } else {
        await rejectsWith(erin.getCompletionByHash(prepared.preparedTransactionHash), { kind: 'notFound' });
      }
    });

    it(`${version}: nothing in time is "unknown", with a reason; cancelling stops the search`, async () => {
      node.version = version;
      interactiveState(node.ledger).holdCompletions = true;
      const { prepared, request } = await preparedAndSigned();
      const end = (await erin.getLedgerEnd()).offset ?? 0;
      await erin.executeSubmission(request);
      const q = {
        submissionId: request.submissionId,
        userId: 'erin',
        parties: [party],
        transactionHash: prepared.preparedTransactionHash,
        beginExclusive: end,
      };
      const started = Date.now();
      const found = await findOutcome(erin, q, { timeoutMs: 600, pollMs: 50 });
      assert.equal(found.kind, 'unknown');
      assert.ok(Date.now() - started < 8_000);
      assert.match((found as { reason: string }).reason, /No completion for submission/);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const stopped = await findOutcome(erin, q, { timeoutMs: 20_000, pollMs: 50, signal: ac.signal });
      assert.deepEqual([stopped.kind, (stopped as { cancelled: boolean }).cancelled], ['unknown', true]);
    });

    it(`${version}: executeAndWaitForTransaction answers with the committed transaction`, async () => {
      node.version = version;
      const { request } = await preparedAndSigned();
      const answer = await erin.executeSubmissionAndWaitForTransaction(request);
      assert.match(answer.transaction.updateId, /^1220[0-9a-f]{64}$/);
      const again = await erin.lookupTransaction(answer.transaction.updateId, transactionQueryFor([party], 'TRANSACTION_SHAPE_LEDGER_EFFECTS'));
      assert.equal(again.transaction.offset, answer.transaction.offset);
    });

    it(`${version}: allocates an external party for a development key, which then signs and executes`, async () => {
      node.version = version;
      const k = generateDevKey();
      const topology = await admin.generateExternalPartyTopology({
        synchronizer: node.ledger.synchronizerId,
        partyHint: `dev-${version.replace('.', '-')}`,
        publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: k.publicKeyRaw, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
      });
      assert.equal(topology.publicKeyFingerprint, k.fingerprint);
      assert.equal(topology.partyId, `dev-${version.replace('.', '-')}::${k.fingerprint}`);
      const onboardingTransactions = topology.topologyTransactions.map((transaction) => ({ transaction }));
      const sig = (privateKey: string) => [
        {
          format: 'SIGNATURE_FORMAT_CONCAT',
          signature: signHash(privateKey, topology.multiHash),
          signedBy: k.fingerprint,
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
        },
      ];
      // A signature by another key is refused; nothing is allocated.
      await rejectsWith(
        admin.allocateExternalParty({
          synchronizer: node.ledger.synchronizerId,
          onboardingTransactions,
          multiHashSignatures: sig(generateDevKey().privateKey),
        }),
        { code: 'INVALID_ARGUMENT' },
      );
      const allocated = await admin.allocateExternalParty({
        synchronizer: node.ledger.synchronizerId,
        onboardingTransactions,
        multiHashSignatures: sig(k.privateKey),
        ...(version === '3.4' ? {} : { userId: 'erin' }),
      });
      assert.equal(allocated.partyId, topology.partyId);
      if (version === '3.4') node.ledger.users.erin.push({ canActAs: allocated.partyId });
      const { request } = await preparedAndSigned(allocated.partyId, k);
      assert.deepEqual(await erin.executeSubmission(request), {});
      // Not an admin: refused.
      await rejectsWith(
        erin.generateExternalPartyTopology({
          synchronizer: node.ledger.synchronizerId,
          partyHint: 'x',
          publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: k.publicKeyRaw, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' },
        }),
        { kind: 'permissionDenied' },
      );
    });
  }
});

describe('what was committed against what was prepared', () => {
  const review = (nodes: unknown[]) => ({ nodes }) as never;
  const tx = (events: unknown[]) => ({ events }) as never;
  const T = 'pkg:Notes:Note';

  it('is silent when the creates and exercises are the same (a contract created here gets its id at commit)', () => {
    assert.deepEqual(
      compareCommitted(
        review([
          { kind: 'create', templateId: T, contractId: 'local' },
          { kind: 'exercise', templateId: T, choice: 'Close', contractId: 'local' },
        ]),
        tx([{ CreatedEvent: { templateId: '#notes:Notes:Note' } }, { ExercisedEvent: { templateId: T, choice: 'Close', contractId: '00ab' } }]),
      ),
      [],
    );
  });

  it('names each difference: another choice, a missing and an extra action', () => {
    const d = compareCommitted(
      review([
        { kind: 'exercise', templateId: T, choice: 'Close', contractId: '00aa' },
        { kind: 'create', templateId: T },
      ]),
      tx([{ ExercisedEvent: { templateId: T, choice: 'Archive', contractId: '00aa' } }]),
    );
    assert.equal(d.length, 2);
    assert.match(d[0], /Action 1: prepared exercise Close .* committed exercise Archive/);
    assert.match(d[1], /Prepared but not committed: create of pkg:Notes:Note/);
    assert.match(compareCommitted(review([]), tx([{ CreatedEvent: { templateId: T } }]))[0], /Committed but not prepared/);
  });
});
