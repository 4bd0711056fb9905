// The fake node's ledger beyond plain transactions: ledger effects with nested exercises,
// reassignments, topology transactions, update-by-offset and pruning, on each version. Every
// answer is also checked against the version's spec (test/support/specConformance.ts).
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { send, wildcard } from '../../test/support/specBodies';

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`the fake node's ledger on ${version}`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    const post = async (path: string, body: unknown, user = 'alice') => {
      const r = await send(node, 'POST', path, JSON.stringify(body), { authorization: `Bearer ${node.mintToken(user)}` });
      return r;
    };
    const asAlice = () => ({ filtersByParty: { [node.ledger.parties.Alice]: wildcard }, verbose: true });
    const effects = () => ({ includeTransactions: { eventFormat: asAlice(), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } });

    before(async () => {
      node = await FakeLedgerNode.start({ version, bigTransactionEvents: 3, bigTreeNodes: 250 });
    });
    after(() => node.close());

    it('answers ledger effects as a tree: nested exercises by nodeId and lastDescendantNodeId, one through an interface', async () => {
      const r = await post('/v2/updates/update-by-id', { updateId: node.ledger.samples.settlementUpdate, updateFormat: effects() });
      assert.equal(r.status, 200, r.text);
      const events = (r.json!.update as { Transaction: { value: { events: Record<string, Record<string, unknown>>[] } } }).Transaction.value.events;
      const kinds = events.map((e) => Object.keys(e)[0]);
      assert.deepEqual(kinds, ['ExercisedEvent', 'ExercisedEvent', 'CreatedEvent', 'ExercisedEvent', 'CreatedEvent', 'CreatedEvent', 'ExercisedEvent']);
      const root = events[0].ExercisedEvent;
      assert.equal(root.lastDescendantNodeId, 6);
      assert.equal(events[3].ExercisedEvent.interfaceId !== undefined, true, 'a choice exercised through an interface names it');
      assert.equal(events[6].ExercisedEvent.consuming, false);
      // The ACS delta of the same transaction: creates and archives only.
      const delta = await post('/v2/updates/update-by-id', {
        updateId: node.ledger.samples.settlementUpdate,
        updateFormat: { includeTransactions: { eventFormat: asAlice(), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
      });
      const deltaKinds = (delta.json!.update as { Transaction: { value: { events: object[] } } }).Transaction.value.events.map((e) => Object.keys(e)[0]);
      assert.ok(
        deltaKinds.every((k) => k === 'CreatedEvent' || k === 'ArchivedEvent'),
        deltaKinds.join(),
      );
    });

    it('generates a call tree of the size asked', async () => {
      const r = await post('/v2/updates/update-by-id', { updateId: node.ledger.samples.bigTreeUpdate, updateFormat: effects() });
      assert.equal((r.json!.update as { Transaction: { value: { events: object[] } } }).Transaction.value.events.length, 250);
    });

    it('answers a reassignment update as a Reassignment when asked for reassignments, else not found', async () => {
      const { unassignUpdate, assignUpdate, reassignedContract } = node.ledger.samples;
      const asked = await post('/v2/updates/update-by-id', { updateId: unassignUpdate, updateFormat: { includeReassignments: asAlice(), ...effects() } });
      assert.equal(asked.status, 200, asked.text);
      const value = (asked.json!.update as { Reassignment: { value: { events: { JsUnassignedEvent: { value: Record<string, unknown> } }[] } } }).Reassignment
        .value;
      const unassigned = value.events[0].JsUnassignedEvent.value;
      assert.equal(unassigned.contractId, reassignedContract);
      assert.equal(unassigned.target, node.ledger.otherSynchronizerId);
      const assign = await post('/v2/updates/update-by-id', { updateId: assignUpdate, updateFormat: { includeReassignments: asAlice() } });
      assert.ok('JsAssignmentEvent' in (assign.json!.update as { Reassignment: { value: { events: object[] } } }).Reassignment.value.events[0]);
      const transactionsOnly = await post('/v2/updates/update-by-id', { updateId: unassignUpdate, updateFormat: effects() });
      assert.equal(transactionsOnly.status, 404);
      if (version !== '3.6') {
        const byTransactionId = await post('/v2/updates/transaction-by-id', { updateId: unassignUpdate, requestingParties: [node.ledger.parties.Alice] });
        assert.equal(byTransactionId.json?.code, 'UPDATE_NOT_FOUND');
      }
    });

    it('answers a topology transaction to who may read it', async () => {
      const updateFormat = { includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } };
      const r = await post('/v2/updates/update-by-id', { updateId: node.ledger.samples.topologyUpdate, updateFormat }, 'reader');
      assert.equal(r.status, 200, r.text);
      assert.ok('TopologyTransaction' in (r.json!.update as object));
      assert.equal(
        (await post('/v2/updates/update-by-id', { updateId: node.ledger.samples.topologyUpdate, updateFormat }, 'alice')).status,
        403,
        "every party's topology needs the any-party right",
      );
    });

    it('finds an update by offset as by id', async () => {
      const transfer = node.ledger.transactions.find((t) => t.updateId === node.ledger.samples.transferUpdate)!;
      const r = await post('/v2/updates/update-by-offset', { offset: transfer.offset, updateFormat: effects() });
      assert.equal(r.status, 200, r.text);
      assert.equal((r.json!.update as { Transaction: { value: { updateId: string } } }).Transaction.value.updateId, transfer.updateId);
      assert.equal((await post('/v2/updates/update-by-offset', { offset: 999_999, updateFormat: effects() })).status, 404);
      // An absent offset decodes as 0, which ParticipantOffsetValidator.validatePositive refuses.
      for (const offset of [undefined, 0, -3]) {
        const refused = await post('/v2/updates/update-by-offset', { offset, updateFormat: effects() });
        assert.equal(refused.json?.code, 'NON_POSITIVE_OFFSET', refused.text);
        assert.equal(refused.json?.cause, `Offset ${offset ?? 0} in offset is not a positive integer: the offset has to be a positive integer (>0)`);
      }
    });

    it('has pruned below its pruning offset: the transaction is gone, an archived contract keeps only its archive', async () => {
      const contract = await post('/v2/events/events-by-contract-id', { contractId: node.ledger.samples.prunedCreateContract, eventFormat: asAlice() });
      assert.equal(contract.status, 200, contract.text);
      assert.equal(contract.json!.created, undefined);
      assert.ok(contract.json!.archived);
      const update = await post('/v2/updates/update-by-id', { updateId: node.ledger.samples.prunedUpdate, updateFormat: effects() });
      assert.equal(update.json?.code, 'UPDATE_NOT_FOUND');
      const active = await post('/v2/events/events-by-contract-id', { contractId: node.ledger.samples.activeContract, eventFormat: asAlice() });
      assert.ok(active.json!.created, 'active contracts stay');
    });
  });
}
