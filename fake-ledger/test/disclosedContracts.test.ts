// Explicit disclosure on the fake node, per version over real HTTP: the partner app (once its DAR is
// uploaded and vetted) runs its choices; a contract the submitter does not see is CONTRACT_NOT_FOUND
// unless disclosed; disclosed contracts are checked as ValidateDisclosedContracts checks them, in
// submit and in prepare. Every answer checked against the version's spec.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { PARTNER_PACKAGE, PARTNER_PAYLOAD } from '../src/partnerPackage';
import { dar } from '../../test/support/darBuilder';
import { send } from '../../test/support/specBodies';
import { tokenArgument } from '../../test/support/partnerContracts';

type Json = Record<string, unknown>;

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`explicit disclosure on the fake node (${version})`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    const post = (path: string, body: unknown, user = 'alice') =>
      send(node, 'POST', path, JSON.stringify(body), { authorization: `Bearer ${node.mintToken(user)}` });
    const OFFER = `${PARTNER_PACKAGE}:Partner.Token:TransferOffer`;
    let offer = '';
    let blob = '';
    let n = 0;
    const submit = (party: string, user: string, command: Json, disclosedContracts?: unknown) =>
      post(
        '/v2/commands/submit-and-wait-for-transaction',
        { commands: { commandId: `dc-${version}-${n++}`, actAs: [party], commands: [command], ...(disclosedContracts ? { disclosedContracts } : {}) } },
        user,
      );
    const accept = () => ({ ExerciseCommand: { templateId: OFFER, contractId: offer, choice: 'Accept', choiceArgument: {} } });
    const refused = (r: { status: number; json?: Json; text: string }, status: number, code: string, cause?: RegExp) => {
      assert.equal(r.status, status, r.text);
      assert.equal(r.json?.code, code, r.text);
      if (cause) assert.match(String(r.json?.cause), cause);
    };

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, bigTransactionEvents: 1 });
      const upload = await fetch(`${node.url}/v2/dars?synchronizerId=${encodeURIComponent(node.ledger.synchronizerId)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${node.mintToken('participant_admin')}` },
        body: new Uint8Array(dar({ name: 'canton-lens-partner-app-1.0.0', payload: Buffer.from(PARTNER_PAYLOAD) })),
      });
      assert.equal(upload.status, 200, await upload.text());
      const { Alice, Bob } = node.ledger.parties;
      const created = await submit(Alice, 'alice', {
        CreateCommand: {
          templateId: '#canton-lens-partner-app:Partner.Token:TransferOffer',
          createArguments: { sender: Alice, receiver: Bob, token: `00${'ab'.repeat(32)}`, memo: null, settlement: { tag: 'Immediate', value: {} } },
        },
      });
      assert.equal(created.status, 200, created.text);
      offer = ((created.json?.transaction as Json).events as { CreatedEvent: { contractId: string } }[])[0].CreatedEvent.contractId;
      const read = await post('/v2/events/events-by-contract-id', {
        contractId: offer,
        eventFormat: {
          filtersByParty: { [Alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } },
          verbose: true,
        },
      });
      assert.equal(read.status, 200, read.text);
      blob = ((read.json?.created as Json).createdEvent as Json).createdEventBlob as string;
      assert.ok(blob.length > 0, 'the node gives the blob when asked');
    });
    after(() => node.close());
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('a contract the submitter does not see is CONTRACT_NOT_FOUND; disclosed, the exercise commits', async () => {
      const { Bob } = node.ledger.parties;
      refused(await submit(Bob, 'bob', accept()), 404, 'CONTRACT_NOT_FOUND', new RegExp(offer));
      const ok = await submit(Bob, 'bob', accept(), [
        { contractId: offer, templateId: OFFER, createdEventBlob: blob, synchronizerId: node.ledger.synchronizerId },
      ]);
      assert.equal(ok.status, 200, ok.text);
      // Consumed: disclosing it again does not bring it back.
      refused(await submit(Bob, 'bob', accept(), [{ contractId: offer, createdEventBlob: blob }]), 404, 'CONTRACT_NOT_FOUND');
    });

    it('refuses a disclosed contract without its blob, with a blob that does not decode, or with ids that are not the blob’s', async () => {
      const { Bob } = node.ledger.parties;
      // Canton's relaxed codec reads an absent blob as empty, which its validator then names.
      refused(await submit(Bob, 'bob', accept(), [{ contractId: offer, createdEventBlob: '' }]), 400, 'MISSING_FIELD', /DisclosedContract\.createdEventBlob/);
      refused(
        await submit(Bob, 'bob', accept(), [{ createdEventBlob: 'bm90IGEgYmxvYg==' }]),
        400,
        'INVALID_ARGUMENT',
        /Unable to decode disclosed contract event payload/,
      );
      refused(
        await submit(Bob, 'bob', accept(), [{ contractId: `00${'cd'.repeat(32)}`, createdEventBlob: blob }]),
        400,
        'INVALID_ARGUMENT',
        /Mismatch between DisclosedContract\.contract_id/,
      );
      refused(
        await submit(Bob, 'bob', accept(), [{ contractId: offer, templateId: `${PARTNER_PACKAGE}:Partner.Token:Token`, createdEventBlob: blob }]),
        400,
        'INVALID_ARGUMENT',
        /Mismatch between DisclosedContract\.template_id/,
      );
      refused(
        await submit(Bob, 'bob', accept(), [{ createdEventBlob: blob, synchronizerId: 'nope' }]),
        400,
        'INVALID_FIELD',
        /DisclosedContract\.synchronizer_id/,
      );
    });

    it('decodes a disclosed contract without its blob (the codec fills it in) and answers MISSING_FIELD, in submit and in prepare', async () => {
      const { Bob } = node.ledger.parties;
      const without = [{ contractId: offer, templateId: OFFER, synchronizerId: node.ledger.synchronizerId }];
      const cause = /^The submitted command is missing a mandatory field: DisclosedContract\.createdEventBlob$/;
      refused(await submit(Bob, 'bob', accept(), without), 400, 'MISSING_FIELD', /DisclosedContract\.createdEventBlob/);
      const prepared = await post(
        '/v2/interactive-submission/prepare',
        {
          commandId: `dc-${version}-${n++}`,
          actAs: [Bob],
          commands: [accept()],
          disclosedContracts: without,
          synchronizerId: node.ledger.synchronizerId,
          packageIdSelectionPreference: [],
        },
        'bob',
      );
      refused(prepared, 400, 'MISSING_FIELD');
      assert.match(String(prepared.json?.cause), cause);
      assert.equal(prepared.json?.errorCategory, 8);
    });

    it("runs the partner app's choices once it is vetted: a choice it lacks is refused", async () => {
      const { Alice } = node.ledger.parties;
      const token = await submit(Alice, 'alice', {
        CreateCommand: { templateId: `${PARTNER_PACKAGE}:Partner.Token:Token`, createArguments: tokenArgument(Alice, Alice) },
      });
      assert.equal(token.status, 200, token.text);
      const id = ((token.json?.transaction as Json).events as { CreatedEvent: { contractId: string } }[])[0].CreatedEvent.contractId;
      const transfer = await submit(Alice, 'alice', {
        ExerciseCommand: {
          templateId: '#canton-lens-partner-app:Partner.Token:Token',
          contractId: id,
          choice: 'Transfer',
          choiceArgument: { newOwner: Alice, amount: '4.0', kind: 'Direct' },
        },
      });
      assert.equal(transfer.status, 200, transfer.text);
      const events = (transfer.json?.transaction as Json).events as Json[];
      assert.deepEqual(
        events.map((e) => Object.keys(e)[0]),
        ['ArchivedEvent', 'CreatedEvent'],
      );
      refused(
        await submit(Alice, 'alice', {
          ExerciseCommand: { templateId: `${PARTNER_PACKAGE}:Partner.Token:Token`, contractId: id, choice: 'Nope', choiceArgument: {} },
        }),
        400,
        'INVALID_ARGUMENT',
        /Invalid template:.* or choice:Nope/,
      );
    });
  });
}
