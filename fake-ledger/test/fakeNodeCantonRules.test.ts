// The fake node refuses what Canton's JSON API refuses, as its sources do (docs/fake-node.md lists
// each rule with its source): the legacy stream arguments beside the new formats, the offset
// validators, the list limit, pruning, and filters naming templates the node's packages lack.
// Per version, over real HTTP, every answer checked against the version's spec.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { send, wildcard } from '../../test/support/specBodies';

type Json = Record<string, unknown>;

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`the fake node judges requests as Canton ${version} does`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    const post = (path: string, body: unknown, user = 'alice') =>
      send(node, 'POST', path, JSON.stringify(body), { authorization: `Bearer ${node.mintToken(user)}` });
    const alice = () => node.ledger.parties.Alice;
    const bob = () => node.ledger.parties.Bob;
    const byParty = (p: string, filters: unknown = wildcard) => ({ filtersByParty: { [p]: filters } });
    const updatesFormat = (p: string) => ({ includeTransactions: { eventFormat: byParty(p), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } });
    const updates = (body: Json, user?: string) =>
      post('/v2/updates?limit=3&stream_idle_timeout_ms=10', { beginExclusive: node.generated.ledgerEnd() - 3, ...body }, user);
    const acs = (body: Json, q = '?limit=3', user?: string) =>
      post(`/v2/state/active-contracts${q}`, { activeAtOffset: node.generated.ledgerEnd(), ...body }, user);
    const refused = (r: { status: number; json?: Json; text: string }, status: number, code: string, cause?: RegExp) => {
      assert.equal(r.status, status, r.text);
      assert.equal(r.json?.code, code, r.text);
      if (cause) assert.match(String(r.json?.cause), cause);
    };

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { contracts: 400, listLimit: 200, rate: 0 } });
    });
    after(() => node.close());
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('/v2/updates: updateFormat excludes filter and verbose, one of them is required, and the legacy filter is converted (JsUpdateService)', async () => {
      const both = /Please use either backwards compatible arguments \(filter and verbose\) or update_format, but not both\.$/;
      refused(
        await updates({ updateFormat: updatesFormat(alice()), filter: byParty(alice()) }),
        400,
        'INVALID_ARGUMENT',
        /Both update_format and filter are set/,
      );
      refused(await updates({ updateFormat: updatesFormat(alice()), verbose: true }), 400, 'INVALID_ARGUMENT', both);
      refused(await updates({}), 400, 'INVALID_ARGUMENT', /Either filter\/verbose or update_format is required/);
      // Before the rights: alice may not read Bob, but the conversion refuses first.
      refused(await updates({ updateFormat: updatesFormat(bob()), verbose: true }), 400, 'INVALID_ARGUMENT', both);
      const legacy = await updates({ filter: byParty(alice()), verbose: true });
      assert.equal(legacy.status, 200, legacy.text);
      const list = JSON.parse(legacy.text) as { update: Json }[];
      assert.ok(list.length > 0);
      // The legacy form reads ledger effects, and is judged by the rights like the new one.
      assert.equal((await updates({ filter: byParty(bob()) })).status, 403);
      assert.equal((await updates({ updateFormat: updatesFormat(alice()), verbose: false })).status, 200);
    });

    it('/v2/state/active-contracts: eventFormat excludes filter and verbose, one is required, the legacy filter is converted (JsStateService)', async () => {
      refused(await acs({ eventFormat: byParty(alice()), filter: byParty(alice()) }), 400, 'INVALID_ARGUMENT', /Both event_format and filter are set/);
      refused(await acs({ eventFormat: byParty(alice()), verbose: true }), 400, 'INVALID_ARGUMENT', /Both event_format and verbose are set/);
      refused(await acs({}), 400, 'INVALID_ARGUMENT', /Either filter\/verbose or event_format is required/);
      const legacy = await acs({ filter: byParty(alice()), verbose: true });
      assert.equal(legacy.status, 200, legacy.text);
      assert.equal((JSON.parse(legacy.text) as unknown[]).length, 3);
    });

    it('offsets: negative ones and a non-positive end refused by the validators; ends past the ledger end; the earliest offset of a pruned start in context', async () => {
      refused(
        await updates({ updateFormat: updatesFormat(alice()), beginExclusive: -1 }),
        400,
        'NEGATIVE_OFFSET',
        /^Offset -1 in begin_exclusive is a negative integer/,
      );
      refused(
        await updates({ updateFormat: updatesFormat(alice()), beginExclusive: 0, endInclusive: 0 }),
        400,
        'NON_POSITIVE_OFFSET',
        /^Offset 0 in end_inclusive is not a positive integer/,
      );
      refused(await acs({ eventFormat: byParty(alice()), activeAtOffset: -5 }), 400, 'NEGATIVE_OFFSET', /active_at_offset/);
      const end = node.generated.ledgerEnd();
      refused(
        await acs({ eventFormat: byParty(alice()), activeAtOffset: end + 7 }),
        400,
        'OFFSET_AFTER_LEDGER_END',
        new RegExp(`^active_at_offset offset \\(${end + 7}\\) is after ledger end \\(${end}\\)$`),
      );
      refused(await updates({ updateFormat: updatesFormat(alice()), beginExclusive: end + 1 }), 400, 'OFFSET_AFTER_LEDGER_END', /^Begin offset/);
      refused(await updates({ updateFormat: updatesFormat(alice()), beginExclusive: 1, endInclusive: end + 2 }), 400, 'OFFSET_AFTER_LEDGER_END', /^End offset/);
      const before = node.generated.prunedUpTo;
      node.generated.prunedUpTo = 12;
      try {
        const pruned = await updates({ updateFormat: updatesFormat(alice()), beginExclusive: 4 });
        refused(pruned, 400, 'PARTICIPANT_PRUNED_DATA_ACCESSED', /^Updates request from 5 to \d+ precedes pruned offset 12$/);
        assert.equal((pruned.json?.context as Json).earliest_offset, '12');
        const prunedAcs = await acs({ eventFormat: byParty(alice()), activeAtOffset: 5 });
        refused(prunedAcs, 400, 'PARTICIPANT_PRUNED_DATA_ACCESSED', /^Active contracts request at offset 5 precedes pruned offset 12$/);
      } finally {
        node.generated.prunedUpTo = before;
      }
    });

    it("a list past http-list-max-elements-limit: 413 naming the limit; a limit at the node's is served (Endpoints.asList)", async () => {
      const tooMany = await acs({ eventFormat: { filtersForAnyParty: wildcard } }, '', 'reader');
      refused(
        tooMany,
        413,
        'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
        /^The number of matching elements \(201\) is greater than the node limit \(200\)\.$/,
      );
      assert.equal(tooMany.json?.errorCategory, 2);
      const atLimit = await acs({ eventFormat: { filtersForAnyParty: wildcard } }, '?limit=200', 'reader');
      assert.equal((JSON.parse(atLimit.text) as unknown[]).length, 200);
    });

    it('filters: both forms empty refused as FormatValidator words it', async () => {
      refused(
        await acs({ eventFormat: { filtersByParty: {} } }),
        400,
        'INVALID_ARGUMENT',
        /filtersByParty and filtersForAnyParty cannot be empty simultaneously/,
      );
    });

    it('filters naming templates or interfaces the packages lack: 404, package names first, then pairs, then ids (IndexServiceImpl)', async () => {
      const known = node.generated.template(0);
      const template = (templateId: string) => ({
        cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: false } } } }],
      });
      const iface = (interfaceId: string) => ({
        cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: false, includeCreatedEventBlob: false } } } }],
      });
      const ask = (filters: unknown) => acs({ eventFormat: byParty(alice(), filters) });
      assert.equal((await ask(template(`#${known.packageName}:${known.module}:${known.entity}`))).status, 200);
      assert.equal((await ask(template(known.templateId))).status, 200);
      refused(await ask(template('#no-such-package:M:T')), 404, 'PACKAGE_NAMES_NOT_FOUND', /\[no-such-package\]\.$/);
      refused(
        await ask(template(`#${known.packageName}:${known.module}:Missing`)),
        404,
        'NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME',
        new RegExp(`\\[\\(${known.packageName},${known.module}:Missing\\)\\]\\.$`),
      );
      refused(await ask(iface(`#${known.packageName}:${known.module}:NoInterface`)), 404, 'NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME');
      const missingId = `${'ab'.repeat(32)}:M:T`;
      const byId = await ask(template(missingId));
      refused(byId, 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND', /^Templates do not exist: \[/);
      assert.deepEqual(byId.json?.resources, [[version === '3.6' ? 'TEMPLATE_ID' : 'ErrorResource(TEMPLATE_ID)', missingId]]);
      // The same on the update stream, after the offset checks.
      refused(
        await updates({
          updateFormat: { includeTransactions: { eventFormat: byParty(alice(), template('#nope:A:B')), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
        }),
        404,
        'PACKAGE_NAMES_NOT_FOUND',
      );
    });

    it("/v2/commands/completions: the offset, then the ledger end, then the parties; an empty user id is the token's (CompletionServiceRequestValidator)", async () => {
      const completions = (body: Json, user?: string) => post('/v2/commands/completions?limit=5&stream_idle_timeout_ms=10', body, user);
      const end = node.generated.ledgerEnd();
      refused(await completions({ parties: [], beginExclusive: -1 }), 400, 'NEGATIVE_OFFSET', /^Offset -1 in begin_exclusive is a negative integer/);
      refused(
        await completions({ parties: [alice()], beginExclusive: end + 5 }),
        400,
        'OFFSET_AFTER_LEDGER_END',
        new RegExp(`^Begin offset \\(${end + 5}\\) is after ledger end \\(${end}\\)$`),
      );
      refused(await completions({ parties: [], beginExclusive: 0 }), 400, 'MISSING_FIELD', /parties/);
      assert.equal((await completions({ parties: [alice()], beginExclusive: end })).status, 200);
      assert.equal((await completions({ userId: '', parties: [alice()], beginExclusive: end })).status, 200);
      assert.equal((await completions({ userId: 'bob', parties: [alice()], beginExclusive: end })).status, 403, 'MatchUserId');
      assert.equal((await completions({ parties: [bob()], beginExclusive: end })).status, 403, 'ReadAs each party');
    });
  });
}
