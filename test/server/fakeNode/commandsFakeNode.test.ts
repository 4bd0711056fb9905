// Commands on the fake node, on every version, over real HTTP, every answer checked against the
// version's spec: a create and an exercise commit (ledger effects, the ledger end moves, the
// completion appears), and each refusal carries the code, category and context Canton sends.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { GeneratedLedger } from '../../../fake-ledger/src/generatedLedger';
import type { JsCommands } from '../../../src/ledger/apiTypes';
import { submitAndWaitForTransaction } from '../../../src/ledger/commandRequests';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { explainFailure, factsFromCantonError, factsFromStatus } from '../../../src/execute/commandFailure';
import { rejectsWith } from '../../support/rejectsWith';

const IOU = '#canton-lens-demo-model:Iou:Iou';

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`commands on a ${version} fake node`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    const clients: LedgerClient[] = [];
    const clientFor = (user: string) => {
      const c = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken(user) });
      clients.push(c);
      return c;
    };
    let parties: { Alice: string; Bob: string; Bank: string };
    let n = 0;
    const commands = (actAs: string[], list: unknown[], more: Partial<JsCommands> = {}): JsCommands =>
      ({ commandId: `cmd-${version}-${++n}`, actAs, commands: list, ...more }) as JsCommands;
    const issue = (amount: string) => ({
      CreateCommand: { templateId: IOU, createArguments: { issuer: parties.Bank, owner: parties.Alice, currency: 'USD', amount, observers: [] } },
    });

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, bigTransactionEvents: 1 });
      parties = node.ledger.parties;
    });
    after(async () => {
      for (const c of clients) await c.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('commits a create and an exercise with its children, as ledger effects, and moves the ledger end', async () => {
      const bank = clientFor('bank');
      const alice = clientFor('alice');
      const endBefore = (await bank.getLedgerEnd()).offset ?? 0;
      const created = (await submitAndWaitForTransaction(bank, commands([parties.Bank], [issue('100.0')]))).transaction;
      assert.ok(created.offset > endBefore);
      const event = (created.events[0] as { CreatedEvent: { contractId: string; signatories: string[] } }).CreatedEvent;
      assert.deepEqual(event.signatories, [parties.Bank]);
      const split = (
        await submitAndWaitForTransaction(
          alice,
          commands(
            [parties.Alice],
            [{ ExerciseCommand: { templateId: IOU, contractId: event.contractId, choice: 'Iou_Split', choiceArgument: { splitAmount: '30.0' } } }],
          ),
        )
      ).transaction;
      const kinds = split.events.map((e) => Object.keys(e)[0]);
      assert.deepEqual(kinds, ['ExercisedEvent', 'CreatedEvent', 'CreatedEvent'], 'the exercise and the two creates under it');
      const exercised = (split.events[0] as { ExercisedEvent: { lastDescendantNodeId: number; consuming: boolean; exerciseResult: { _1: string } } })
        .ExercisedEvent;
      assert.equal(exercised.lastDescendantNodeId, 2);
      assert.equal(exercised.consuming, true);
      assert.equal(exercised.exerciseResult._1, (split.events[1] as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId);
      // The archived contract is gone: exercising it again is CONTRACT_NOT_FOUND (resources as the version writes them).
      const e = await rejectsWith(
        submitAndWaitForTransaction(
          alice,
          commands(
            [parties.Alice],
            [{ ExerciseCommand: { templateId: IOU, contractId: event.contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: parties.Bob } } }],
          ),
        ),
        { status: 404, code: 'CONTRACT_NOT_FOUND' },
      );
      assert.deepEqual(e.cantonError?.resources, [[version === '3.6' ? 'CONTRACT_ID' : 'ErrorResource(CONTRACT_ID)', event.contractId]]);
      assert.equal(explainFailure(factsFromCantonError(e.cantonError)).places[0]?.contractId, event.contractId);
    });

    it('a failed assertion is DAML_FAILURE with its error id and exercise trace, explained down to the choice', async () => {
      const bank = clientFor('bank');
      const alice = clientFor('alice');
      const cid = (
        (await submitAndWaitForTransaction(bank, commands([parties.Bank], [issue('10.0')]))).transaction.events[0] as { CreatedEvent: { contractId: string } }
      ).CreatedEvent.contractId;
      const e = await rejectsWith(
        submitAndWaitForTransaction(
          alice,
          commands([parties.Alice], [{ ExerciseCommand: { templateId: IOU, contractId: cid, choice: 'Iou_Split', choiceArgument: { splitAmount: '50.0' } } }]),
        ),
        { status: 400, code: 'DAML_FAILURE' },
      );
      assert.equal(e.cantonError?.errorCategory, 9);
      const why = explainFailure(factsFromCantonError(e.cantonError));
      assert.equal(why.errorId, 'UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed');
      assert.equal(why.userMessage, 'the split amount must be more than 0 and less than the amount');
      assert.equal(why.definite, true);
      assert.equal(why.places[0].choice, 'Iou_Split');
      assert.match(why.places[0].templateId, /^[0-9a-f]{8}:Iou:Iou$/);
      assert.equal(why.places[0].contractId, cid.slice(0, 10));
      assert.equal(why.places[0].nodeId, 0);
    });

    it('a seeded contract consumed by a commit leaves the active contracts at that offset', async () => {
      const alice = clientFor('alice');
      const active = node.ledger.samples.activeContract;
      const listed = async (at: number) =>
        (
          await alice.getActiveContracts({
            activeAtOffset: at,
            eventFormat: { filtersByParty: { [parties.Alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } }, verbose: false },
          })
        ).some(
          (r) => (r.contractEntry as { JsActiveContract?: { createdEvent?: { contractId?: string } } }).JsActiveContract?.createdEvent?.contractId === active,
        );
      const before = (await alice.getLedgerEnd()).offset ?? 0;
      assert.equal(await listed(before), true);
      const t = (
        await submitAndWaitForTransaction(
          alice,
          commands(
            [parties.Alice],
            [{ ExerciseCommand: { templateId: IOU, contractId: active, choice: 'Iou_Transfer', choiceArgument: { newOwner: parties.Bob } } }],
          ),
        )
      ).transaction;
      assert.equal(await listed(t.offset), false);
      assert.equal(await listed(before), true, 'still active at the earlier offset');
    });

    it('refuses as Canton does: authorization, precondition, unknown template and choice, arguments, rights, duplicates', async () => {
      const bank = clientFor('bank');
      const alice = clientFor('alice');
      await rejectsWith(submitAndWaitForTransaction(alice, commands([parties.Alice], [issue('5.0')])), { status: 400, code: 'DAML_AUTHORIZATION_ERROR' });
      await rejectsWith(submitAndWaitForTransaction(bank, commands([parties.Bank], [issue('0.0')])), { status: 400, code: 'TEMPLATE_PRECONDITION_VIOLATED' });
      await rejectsWith(
        submitAndWaitForTransaction(
          bank,
          commands([parties.Bank], [{ CreateCommand: { templateId: '#canton-lens-demo-model:Iou:Nope', createArguments: {} } }]),
        ),
        { status: 404, code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND' },
      );
      await rejectsWith(
        submitAndWaitForTransaction(bank, commands([parties.Bank], [{ CreateCommand: { templateId: '#no-such-package:Iou:Iou', createArguments: {} } }])),
        { status: 400, code: 'JSON_API_PACKAGE_SELECTION_FAILED' },
      );
      const missing = await rejectsWith(
        submitAndWaitForTransaction(bank, commands([parties.Bank], [{ CreateCommand: { templateId: IOU, createArguments: { issuer: parties.Bank } } }])),
        { status: 400, code: 'COMMAND_PREPROCESSING_FAILED' },
      );
      assert.match(
        missing.cantonError!.cause,
        version === '3.4' ? /^Missing non-optional field: owner$/ : /^Missing non-optional fields: owner, currency, amount, observers$/,
      );
      await rejectsWith(
        submitAndWaitForTransaction(
          alice,
          commands(
            [parties.Alice],
            [{ ExerciseCommand: { templateId: IOU, contractId: node.ledger.samples.activeContract, choice: 'Iou_Nope', choiceArgument: {} } }],
          ),
        ),
        { status: 400, code: 'INVALID_ARGUMENT' },
      );
      // Acting as a party the user may not act as: redacted 403, after the JSON layer's checks.
      await rejectsWith(submitAndWaitForTransaction(alice, commands([parties.Bank], [issue('5.0')])), { status: 403, code: 'NA' });
      // The same change id again: DUPLICATE_COMMAND, definite, and a failed completion for it.
      const once = commands([parties.Bank], [issue('7.0')]);
      await submitAndWaitForTransaction(bank, once);
      const dup = await rejectsWith(submitAndWaitForTransaction(bank, once), { status: 409, code: 'DUPLICATE_COMMAND' });
      assert.equal(dup.cantonError?.context?.definite_answer, 'true');
      const completions = await bank.getCompletions({ parties: [parties.Bank], beginExclusive: 0 }, { limit: 1000, streamIdleTimeoutMs: 100 });
      const failed = completions
        .map(
          (c) =>
            (c.completionResponse as { Completion?: { value: { commandId: string; status?: { code: number; message: string; details: unknown[] } } } })
              .Completion?.value,
        )
        .filter((c) => c?.commandId === once.commandId && c.status?.code !== 0);
      assert.equal(failed.length, 1);
      const facts = factsFromStatus(failed[0]!.status);
      assert.equal(facts.code, 'DUPLICATE_COMMAND');
      assert.equal(facts.category, 10);
      assert.equal(facts.context.completion_offset !== undefined, true, 'the ErrorInfo detail decodes');
    });
  });
}

describe('the demo ledger: a believable ledger of now', () => {
  it('takes the wall clock where tests take a deterministic one', async () => {
    const times: string[] = [];
    for (const wallClock of [false, true]) {
      const node = await FakeLedgerNode.start({ wallClock, bigTransactionEvents: 1 });
      const bank = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('bank') });
      try {
        const before = Date.now();
        const create = {
          CreateCommand: {
            templateId: IOU,
            createArguments: { issuer: node.ledger.parties.Bank, owner: node.ledger.parties.Alice, currency: 'USD', amount: '1.0', observers: [] },
          },
        };
        const t = (await submitAndWaitForTransaction(bank, { commandId: `clock-${wallClock}`, actAs: [node.ledger.parties.Bank], commands: [create] }))
          .transaction;
        const at = Date.parse(t.effectiveAt);
        if (wallClock) assert.ok(at >= before - 1 && at <= Date.now() + 1, `${t.effectiveAt} is now`);
        times.push(t.effectiveAt);
      } finally {
        await bank.close();
        await node.close();
      }
    }
    assert.ok(Date.parse(times[0]) < Date.parse('2026-11-03T00:00:00Z'), 'tests keep the deterministic clock of 2 Nov 2026');
  });

  it("shows believable packages: the hostile template names are the tests' only", () => {
    const names = (g: GeneratedLedger) => Array.from({ length: g.templateCount }, (_, t) => g.template(t).packageName);
    assert.ok(
      names(new GeneratedLedger()).some((n) => n.startsWith('acs-hostile')),
      'tests keep them',
    );
    const demo = names(new GeneratedLedger({ hostile: false }));
    assert.equal(demo.length, 20);
    assert.deepEqual(
      demo.filter((n) => !/^[a-z0-9-]+$/.test(n)),
      [],
      'every package name of the demo is one a Daml project could have',
    );
  });
});
