// The prepared transaction is built from the commands as the JSON layer resolved them, as Canton
// builds it: nodes carry the package id the node chose for a `#name` reference, the package name,
// and an interface's choice carries the interface id on the exercise of the contract's template
// (with the choice's own consuming flag). Its hash is the official library's over those nodes, and
// what commits is what was prepared. Over HTTP.
import * as assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { FakeLedgerNode } from '../src/testing';
import { decodePrepared, keyFingerprint, preparedTransactionHash } from '../src/cantonHashes';
import { knowExternalParty } from '../src/interactiveSubmissions';
import { MODEL_PACKAGE_V2 } from '../src/demoLedgerHistory';
import { PARTNER_PACKAGE } from '../src/partnerPackage';
import { createPartner, PARTNER_TOKEN, tokenArgument, vetPartnerApp } from '../../test/support/partnerContracts';
import { send } from '../../test/support/specBodies';

type Json = Record<string, unknown>;
type Id = { packageId: string; moduleName: string; entityName: string } | undefined;
const HOLDING = `${PARTNER_PACKAGE}:Partner.Token:Holding`;
const idOf = (t: Id) => (t ? `${t.packageId}:${t.moduleName}:${t.entityName}` : undefined);

describe('the prepared transaction as Canton builds it from the resolved commands', function () {
  this.timeout(30_000);
  let node: FakeLedgerNode;
  let n = 0;

  before(async () => {
    node = await FakeLedgerNode.start({ checkResponses: true, bigTransactionEvents: 1 });
    await vetPartnerApp(node);
  });
  after(() => node.close());
  afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

  const prepare = (actAs: string, commands: Json[], user = 'wallet') =>
    send(
      node,
      'POST',
      '/v2/interactive-submission/prepare',
      JSON.stringify({ commandId: `prep-${n++}`, actAs: [actAs], synchronizerId: '', packageIdSelectionPreference: [], commands }),
      {
        authorization: `Bearer ${node.mintToken(user)}`,
      },
    );
  /** The nodes of a prepared answer, after checking its hash is the official one over them. */
  const nodesOf = async (r: { status: number; text: string; json?: Json }) => {
    assert.equal(r.status, 200, r.text);
    const base64 = r.json!.preparedTransaction as string;
    assert.equal(await preparedTransactionHash(base64), r.json!.preparedTransactionHash, 'the hash is over the nodes as built');
    return (decodePrepared(base64)?.transaction?.nodes ?? []).map((x): Json => {
      const type = (x.versionedNode as { v1?: { nodeType?: { oneofKind?: string; [k: string]: unknown } } }).v1?.nodeType;
      return { kind: type?.oneofKind, ...(type?.[type.oneofKind ?? ''] as Json) };
    });
  };
  const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: Json = {}) => ({
    ExerciseCommand: { templateId, contractId, choice, choiceArgument },
  });

  it('writes the package id a `#name` reference resolved to, never the reference, in a create and its exercise', async () => {
    const { Alice } = node.ledger.parties;
    const note = { author: Alice, reader: Alice, title: 'resolved', body: '', tags: [] };
    const nodes = await nodesOf(
      await prepare(Alice, [
        { CreateCommand: { templateId: '#canton-lens-demo-model:Notes:Note', createArguments: note } },
        { CreateAndExerciseCommand: { templateId: '#canton-lens-demo-model:Notes:Note', createArguments: note, choice: 'Archive', choiceArgument: {} } },
      ]),
    );
    assert.deepEqual(
      nodes.map((x) => [x.kind, idOf(x.templateId as Id), x.packageName]),
      [
        ['create', `${MODEL_PACKAGE_V2}:Notes:Note`, 'canton-lens-demo-model'],
        ['create', `${MODEL_PACKAGE_V2}:Notes:Note`, 'canton-lens-demo-model'],
        ['exercise', `${MODEL_PACKAGE_V2}:Notes:Note`, 'canton-lens-demo-model'],
      ],
    );
    assert.equal(nodes[2].interfaceId, undefined, "a template's choice names no interface");
  });

  it("runs a template's choice on the package the command chose, the contract as created an input", async () => {
    const { Alice, Bob } = node.ledger.parties;
    const s = node.ledger.samples;
    const r = await prepare(Alice, [exercise('#canton-lens-demo-model:Iou:Iou', s.activeContract, 'Iou_Transfer', { newOwner: Bob })]);
    const [x] = await nodesOf(r);
    assert.equal(idOf(x.templateId as Id), `${MODEL_PACKAGE_V2}:Iou:Iou`);
    const input = decodePrepared(r.json!.preparedTransaction as string)?.metadata?.inputContracts[0].contract as { v1?: { templateId?: Id } };
    assert.equal(idOf(input.v1?.templateId), node.generated.template(0).templateId, 'the input contract keeps its own package');
  });

  it("writes an interface's choice as the exercise of the contract's template with the interface id, and commits it so", async () => {
    const { Alice } = node.ledger.parties;
    // An external party that owns a Token, signs and executes.
    const key = generateKeyPairSync('ed25519');
    const spki = key.publicKey.export({ format: 'der', type: 'spki' });
    const fingerprint = await keyFingerprint(spki);
    const erin = `Erin-ext::${fingerprint}`;
    knowExternalParty(node.ledger, erin, spki);
    const token = await createPartner(node, 'alice', Alice, PARTNER_TOKEN, tokenArgument(Alice, erin, '3.0'));
    const describe = await nodesOf(await prepare(erin, [exercise('#canton-lens-partner-app:Partner.Token:Holding', token, 'Holding_Describe')]));
    assert.equal(idOf(describe[0].templateId as Id), PARTNER_TOKEN);
    assert.equal(idOf(describe[0].interfaceId as Id), HOLDING);
    assert.equal(describe[0].packageName, 'canton-lens-partner-app');
    assert.equal(describe[0].consuming, false, "Holding_Describe does not consume, as the interface's choice says");
    const r = await prepare(erin, [exercise(HOLDING, token, 'Holding_Lock', { until: '2030-01-01T00:00:00Z' })]);
    const [lock] = await nodesOf(r);
    assert.equal(idOf(lock.interfaceId as Id), HOLDING);
    assert.equal(lock.consuming, true);
    const signature = sign(null, Buffer.from(r.json!.preparedTransactionHash as string, 'base64'), key.privateKey).toString('base64');
    const executed = await send(
      node,
      'POST',
      '/v2/interactive-submission/executeAndWait',
      JSON.stringify({
        preparedTransaction: r.json!.preparedTransaction,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        submissionId: `lock-${n++}`,
        deduplicationPeriod: { Empty: {} },
        partySignatures: {
          signatures: [
            {
              party: erin,
              signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: fingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
            },
          ],
        },
      }),
      { authorization: `Bearer ${node.mintToken('wallet')}` },
    );
    assert.equal(executed.status, 200, executed.text);
    const committed = await send(
      node,
      'POST',
      '/v2/updates/update-by-id',
      JSON.stringify({
        updateId: executed.json!.updateId,
        updateFormat: {
          includeTransactions: {
            eventFormat: { filtersByParty: { [erin]: { cumulative: [] } }, verbose: true },
            transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          },
        },
      }),
      { authorization: `Bearer ${node.mintToken('reader')}` },
    );
    assert.equal(committed.status, 200, committed.text);
    const events = ((committed.json!.update as Json).Transaction as { value: { events: Json[] } }).value.events;
    const exercised = events[0].ExercisedEvent as Json;
    assert.equal(exercised.interfaceId, HOLDING);
    assert.equal(exercised.templateId, PARTNER_TOKEN);
    assert.equal(exercised.packageName, 'canton-lens-partner-app');
    assert.equal(exercised.consuming, true);
  });

  it("refuses what Canton's engine refuses: a contract not implementing the interface, one archived, one no reading party sees", async () => {
    const { Alice, Bob } = node.ledger.parties;
    const s = node.ledger.samples;
    const iou = await prepare(Alice, [exercise(HOLDING, s.activeContract, 'Holding_Describe')]);
    assert.equal(iou.status, 400, iou.text);
    assert.match(iou.text, /CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE/);
    const archived = await prepare(Alice, [exercise(node.generated.template(0).templateId, s.archivedContract, 'Archive')]);
    assert.equal(archived.status, 404, archived.text);
    assert.match(archived.text, /CONTRACT_NOT_FOUND/);
    // The bank's own Iou: Bob is no stakeholder of it.
    const unseen = await prepare(Bob, [exercise(node.generated.template(0).templateId, s.bankOnlyContract, 'Archive')]);
    assert.equal(unseen.status, 404, unseen.text);
    assert.match(unseen.text, /CONTRACT_NOT_FOUND/);
  });
});
