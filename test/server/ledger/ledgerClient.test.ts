// The client against the fake node over real HTTP on 127.0.0.1: every operation and version.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, VERSION_STRINGS, type FakeVersion } from '../../../fake-ledger/src/testing';
import { LedgerClient, type RequestLogEntry } from '../../../src/ledger/ledgerClient';
import { eventFormatFor, transactionFormatFor, transactionQueryFor } from '../../../src/ledger/requestForms';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { rejectsWith } from '../../support/rejectsWith';

describe('LedgerClient against the fake node', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let token: string | undefined;
  let client: LedgerClient;
  let log: RequestLogEntry[];

  const makeClient = (url = node.url, extra: Partial<ConstructorParameters<typeof LedgerClient>[0]> = {}) =>
    new LedgerClient({
      baseUrl: url,
      transport: createUndiciTransport(),
      getToken: async () => token,
      userAgent: 'canton-lens/test',
      onRequest: (e) => log.push(e),
      ...extra,
    });

  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 300 });
  });
  after(() => node.close());
  beforeEach(() => {
    node.version = '3.5';
    node.clearFaults();
    node.requests.length = 0;
    token = node.mintToken('alice');
    log = [];
    client = makeClient();
  });
  afterEach(() => client.close());

  const s = () => node.ledger.samples;
  const alice = () => node.ledger.parties.Alice;

  describe('GET /v2/version', () => {
    for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
      it(`reads ${version}'s version and features without a token`, async () => {
        node.version = version;
        token = undefined;
        const v = await client.getVersion();
        assert.equal(v.version, VERSION_STRINGS[version]);
        assert.equal(v.features.userManagement.maxRightsPerUser, 1000);
        assert.deepEqual(v.features.offsetCheckpoint.maxOffsetCheckpointEmissionDelay, { seconds: 1, nanos: 500_000_000, unknownFields: { fields: {} } });
        assert.equal(node.requests[0].headers.authorization, undefined, 'the version endpoint is public: no token is sent');
        assert.equal(node.requests[0].headers['user-agent'], 'canton-lens/test');
      });
    }

    it('works under a path prefix', async () => {
      const prefixed = await FakeLedgerNode.start({ pathPrefix: '/api/json', bigTransactionEvents: 1 });
      const c = makeClient(`${prefixed.url}/`);
      try {
        assert.equal((await c.getVersion()).version, '3.5.10');
        assert.equal(prefixed.requests[0].path, '/v2/version');
        await rejectsWith(makeClient(prefixed.url.replace('/api/json', '')).getVersion(), {
          kind: 'notFound',
          routeMissing: true,
          explanationMatches: /path prefix/,
        });
      } finally {
        await c.close();
        await prefixed.close();
      }
    });

    it('keeps unknown extra fields (forward compatibility)', async () => {
      node.injectFault({
        path: '/v2/version',
        times: 1,
        fault: {
          type: 'reply',
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ version: '3.9.0', features: { experimental: {}, futureFeature: { x: 1 } }, newTopLevel: true }),
        },
      });
      const v = (await client.getVersion()) as unknown as Record<string, unknown>;
      assert.equal(v.newTopLevel, true);
      assert.deepEqual((v.features as Record<string, unknown>).futureFeature, { x: 1 });
    });

    it('refuses a JSON answer that is not a version response', async () => {
      node.injectFault({ path: '/v2/version', times: 1, fault: { type: 'reply', status: 200, contentType: 'application/json', body: '{"status":"ok"}' } });
      await rejectsWith(client.getVersion(), { kind: 'badResponse', explanationMatches: /not a version response: "\{"status":"ok"\}"/ });
    });

    it('reuses keep-alive connections for consecutive requests', async () => {
      for (let i = 0; i < 5; i++) {
        await client.getVersion();
        await client.getEventsByContractId({ contractId: s().activeContract, eventFormat: eventFormatFor([alice()]) });
      }
      const ports = new Set(node.requests.map((r) => r.remotePort));
      // undici may open a second socket while the first is being released, never one per request.
      assert.ok(ports.size <= 2, `10 requests used ${ports.size} connections`);
    });
  });

  describe('POST /v2/events/events-by-contract-id', () => {
    it('returns the create event of an active contract, as seen by the parties', async () => {
      const res = await client.getEventsByContractId({ contractId: s().activeContract, eventFormat: eventFormatFor([alice()]) });
      assert.equal(res.created?.createdEvent.contractId, s().activeContract);
      assert.deepEqual(res.created?.createdEvent.witnessParties, [alice()]);
      assert.equal(res.archived, undefined);
      assert.match(res.created.createdEvent.templateId, /^[0-9a-f]{64}:Iou:Iou$/);
      assert.ok(res.created.createdEvent.createdEventBlob, 'the blob was asked for');
      const sent = JSON.parse(node.requests.at(-1)!.body);
      assert.deepEqual(Object.keys(sent.eventFormat.filtersByParty), [alice()]);
      assert.equal(node.requests.at(-1)!.headers.authorization, `Bearer ${token}`);
    });

    it('returns create and archive events of an archived contract', async () => {
      const res = await client.getEventsByContractId({ contractId: s().archivedContract, eventFormat: eventFormatFor([alice()]) });
      assert.equal(res.archived?.archivedEvent.contractId, s().archivedContract);
      assert.ok(res.archived.archivedEvent.offset > res.created!.createdEvent.offset);
      assert.equal(res.archived.synchronizerId, node.ledger.synchronizerId);
    });

    it('reads as any party with filtersForAnyParty and CanReadAsAnyParty', async () => {
      token = node.mintToken('reader');
      const res = await client.getEventsByContractId({ contractId: s().bankOnlyContract, eventFormat: eventFormatFor(undefined) });
      assert.ok(res.created);
      assert.ok('filtersForAnyParty' in JSON.parse(node.requests.at(-1)!.body).eventFormat);
    });

    it('computes interface views only when an interface filter asks for them; 3.4 has no implementationPackageId', async () => {
      const first = node.ledger.transactions.find((t) => t.commandId === 'issue-iou-alice-1')!.events[0];
      assert.equal(first.kind, 'created');
      const interfaceId = (first as { views: { interfaceId: string }[] }).views[0].interfaceId;
      const plain = await client.getEventsByContractId({ contractId: s().activeContract, eventFormat: eventFormatFor([alice()]) });
      assert.deepEqual(plain.created!.createdEvent.interfaceViews, [], 'a wildcard filter computes no views');
      const eventFormat = {
        filtersByParty: { [alice()]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true } } } }] } },
      };
      for (const version of ['3.4', '3.5'] as FakeVersion[]) {
        node.version = version;
        const views = (await client.getEventsByContractId({ contractId: s().activeContract, eventFormat })).created!.createdEvent.interfaceViews!;
        assert.equal(views.length, 1);
        assert.equal(views[0].viewStatus.code, 0);
        assert.equal('implementationPackageId' in views[0], version !== '3.4');
      }
    });

    it('is 404 CONTRACT_EVENTS_NOT_FOUND for a contract the parties cannot see, as for one that never existed', async () => {
      for (const contractId of [s().bankOnlyContract, s().unknownContract]) {
        const e = await rejectsWith(client.getEventsByContractId({ contractId, eventFormat: eventFormatFor([alice()]) }), {
          kind: 'notFound',
          status: 404,
          code: 'CONTRACT_EVENTS_NOT_FOUND',
          routeMissing: false,
        });
        assert.deepEqual(e.cantonError?.resources, [['ErrorResource(CONTRACT_ID)', contractId]], '3.5 writes the key as ErrorResource(…)');
        assert.equal(e.cantonError?.errorCategory, 11);
        assert.match(e.explanation, /never existed on this node, is not visible to the parties queried, or was pruned/);
      }
    });

    it('is 400 INVALID_FIELD for a contract id the node cannot parse', async () => {
      await rejectsWith(client.getEventsByContractId({ contractId: 'not-a-contract-id', eventFormat: eventFormatFor([alice()]) }), {
        kind: 'invalidRequest',
        status: 400,
        code: 'INVALID_FIELD',
      });
    });

    it('is 400 MISSING_FIELD without an event format', async () => {
      await rejectsWith(client.getEventsByContractId({ contractId: s().activeContract } as never), {
        kind: 'invalidRequest',
        code: 'MISSING_FIELD',
        explanationMatches: /event_format/,
      });
    });
  });

  describe('authentication and rights', () => {
    const lookup = () => client.getEventsByContractId({ contractId: s().activeContract, eventFormat: eventFormatFor([alice()]) });

    it('no token: 401, redacted, explained', async () => {
      token = undefined;
      const e = await rejectsWith(lookup(), { kind: 'unauthenticated', status: 401, code: 'NA' });
      assert.equal(e.explanation, 'The node requires a token (401) and none was sent. Set a token for this node.');
    });

    it('no token, with the reason the caller gives for sending none', async () => {
      token = undefined;
      const hinted = makeClient(node.url, { noTokenHint: () => 'This node comes from an untrusted workspace.' });
      try {
        const e = await rejectsWith(hinted.getEventsByContractId({ contractId: s().activeContract, eventFormat: eventFormatFor([alice()]) }), {
          kind: 'unauthenticated',
          status: 401,
        });
        assert.equal(e.explanation, 'The node requires a token (401) and none was sent. This node comes from an untrusted workspace.');
      } finally {
        await hinted.close();
      }
    });

    it('expired token, wrong signature, an audience Canton cannot read: 401; another participant: 403', async () => {
      const bad = [
        node.mintToken('alice', { exp: Math.floor(Date.now() / 1000) - 10 }),
        `${node.mintToken('alice').slice(0, -4)}AAAA`,
        node.mintToken('alice', { aud: 'https://ledger.other.example/aud' }),
      ];
      for (const t of bad) {
        token = t;
        await rejectsWith(lookup(), { kind: 'unauthenticated', status: 401 });
      }
      // Claims.validForParticipant: read, then refused by the authorizer.
      token = node.mintToken('alice', { aud: 'https://daml.com/jwt/aud/participant/other' });
      await rejectsWith(lookup(), { kind: 'permissionDenied', status: 403 });
    });

    it('scope-based tokens are accepted', async () => {
      token = node.mintToken('alice', { aud: undefined, scope: 'daml_ledger_api' });
      assert.ok((await lookup()).created);
    });

    it('unknown user: 403 with the invalid-token context, explained', async () => {
      token = node.mintToken('mallory');
      const e = await rejectsWith(lookup(), { kind: 'permissionDenied', status: 403, code: 'NA' });
      assert.equal(e.cantonError?.context.ledger_api_error, 'invalid token');
      assert.match(e.explanation, /does not know the token's user/);
    });

    it('reading parties the user has no rights for: 403; ParticipantAdmin alone grants no reads', async () => {
      token = node.mintToken('bob');
      const e = await rejectsWith(lookup(), { kind: 'permissionDenied', status: 403 });
      assert.match(e.explanation, /CanReadAs or CanActAs for every party queried/);
      token = node.mintToken('participant_admin');
      await rejectsWith(lookup(), { kind: 'permissionDenied' });
      token = node.mintToken('alice');
      await rejectsWith(client.getEventsByContractId({ contractId: s().activeContract, eventFormat: eventFormatFor(undefined) }), { kind: 'permissionDenied' });
    });

    it('an empty bearer token is a 400 from the node', async () => {
      token = '';
      const c = makeClient(node.url, { getToken: async () => ' ' });
      try {
        await rejectsWith(c.getEventsByContractId({ contractId: s().activeContract, eventFormat: eventFormatFor([alice()]) }), {
          kind: 'invalidRequest',
          status: 400,
        });
      } finally {
        await c.close();
      }
    });
  });

  describe('transactions by update id', () => {
    it('transaction-by-id with requestingParties sends only that form', async () => {
      const res = await client.getTransactionById({ updateId: s().transferUpdate, requestingParties: [alice()] });
      assert.equal(res.transaction.updateId, s().transferUpdate);
      const kinds = res.transaction.events.map((e) => Object.keys(e)[0]);
      assert.deepEqual(kinds, ['ArchivedEvent'], "Alice sees the archive; the new Iou is Bob's only");
      const sent = JSON.parse(node.requests.at(-1)!.body);
      assert.deepEqual(Object.keys(sent).sort(), ['requestingParties', 'updateId']);
    });

    it('transaction-by-id with a transaction format (ledger effects shows the exercise)', async () => {
      token = node.mintToken('reader');
      const res = await client.getTransactionById({
        updateId: s().transferUpdate,
        transactionFormat: transactionFormatFor(undefined, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
      });
      assert.deepEqual(
        res.transaction.events.map((e) => Object.keys(e)[0]),
        ['ExercisedEvent', 'CreatedEvent'],
      );
      const sent = JSON.parse(node.requests.at(-1)!.body);
      assert.deepEqual(Object.keys(sent).sort(), ['transactionFormat', 'updateId']);
    });

    it('refuses to send both forms, or neither', async () => {
      await rejectsWith(
        client.getTransactionById({ updateId: s().transferUpdate, requestingParties: [alice()], transactionFormat: transactionFormatFor([alice()]) }),
        { kind: 'invalidRequest', explanationMatches: /exactly one/ },
      );
      await rejectsWith(client.getTransactionById({ updateId: s().transferUpdate }), { kind: 'invalidRequest' });
      assert.equal(node.requests.length, 0, 'nothing was sent');
    });

    it('update-by-id wraps the transaction in an Update', async () => {
      const res = await client.getUpdateById({ updateId: s().transferUpdate, updateFormat: { includeTransactions: transactionFormatFor([alice()]) } });
      assert.equal((res.update as { Transaction: { value: { updateId: string } } }).Transaction.value.updateId, s().transferUpdate);
    });

    it('lookupTransaction uses transaction-by-id on 3.4 and 3.5', async () => {
      for (const version of ['3.4', '3.5'] as FakeVersion[]) {
        node.version = version;
        node.requests.length = 0;
        const c = makeClient();
        const res = await c.lookupTransaction(s().bigUpdate, transactionQueryFor([alice()]));
        await c.close();
        assert.equal(res.route, 'transaction-by-id');
        assert.equal(res.transaction.events.length, 200, 'Alice owns two thirds of the 300 batch contracts');
        assert.deepEqual(
          node.requests.map((r) => r.path),
          ['/v2/version', '/v2/updates/transaction-by-id'],
        );
      }
    });

    it('lookupTransaction uses update-by-id on 3.6 without trying the removed route', async () => {
      node.version = '3.6';
      const res = await client.lookupTransaction(s().transferUpdate, transactionQueryFor([alice()]));
      assert.equal(res.route, 'update-by-id');
      assert.ok(res.transaction.transactionHash, '3.6 adds transactionHash');
      assert.deepEqual(
        node.requests.map((r) => r.path),
        ['/v2/version', '/v2/updates/update-by-id'],
      );
      const sent = JSON.parse(node.requests.at(-1)!.body);
      assert.equal(sent.updateFormat.includeTransactions.transactionShape, 'TRANSACTION_SHAPE_ACS_DELTA');
      assert.deepEqual(Object.keys(sent.updateFormat.includeTransactions.eventFormat.filtersByParty), [alice()]);
    });

    it('falls back to update-by-id when the route is missing and the version was unknown', async () => {
      node.version = '3.6';
      token = node.mintToken('reader');
      node.injectFault({ path: '/v2/version', times: 1, fault: { type: 'html500' } });
      const res = await client.lookupTransaction(s().transferUpdate, transactionQueryFor(undefined));
      assert.equal(res.route, 'update-by-id');
      assert.ok(
        node.requests.some((r) => r.path === '/v2/updates/transaction-by-id'),
        'it tried the old route first',
      );
      // Learned: the next lookup goes straight to update-by-id.
      node.requests.length = 0;
      await client.lookupTransaction(s().transferUpdate, transactionQueryFor(undefined));
      assert.deepEqual(
        node.requests.map((r) => r.path),
        ['/v2/updates/update-by-id'],
      );
    });

    it('tells UPDATE_NOT_FOUND from a missing route: no fallback on a real not-found', async () => {
      const e = await rejectsWith(client.lookupTransaction(s().unknownUpdate, transactionQueryFor([alice()])), {
        kind: 'notFound',
        code: 'UPDATE_NOT_FOUND',
        routeMissing: false,
      });
      assert.deepEqual(e.cantonError?.resources, [['ErrorResource(UPDATE_ID)', s().unknownUpdate]]);
      // Not a transaction: update-by-id is asked once, for the other kinds of update only.
      const asked = node.requests
        .filter((r) => r.path === '/v2/updates/update-by-id')
        .map((r) => JSON.parse(r.body) as { updateFormat: Record<string, unknown> });
      assert.equal(asked.length, 1);
      assert.deepEqual(Object.keys(asked[0].updateFormat).sort(), ['includeReassignments', 'includeTopologyEvents']);
      node.version = '3.6';
      await rejectsWith(client.getTransactionById({ updateId: s().transferUpdate, requestingParties: [alice()] }), {
        kind: 'notFound',
        routeMissing: true,
        status: 404,
      });
    });

    it("opens a reassignment's update id as a reassignment: one extra request where transaction-by-id is used, one request on 3.6", async () => {
      for (const version of ['3.5', '3.6'] as FakeVersion[]) {
        node.version = version;
        node.requests.length = 0;
        const c = makeClient();
        const found = await c.lookupUpdate(s().unassignUpdate, transactionQueryFor([alice()]));
        assert.equal(found.type, 'reassignment', version);
        assert.equal(found.route, 'update-by-id');
        const paths = node.requests.map((r) => r.path).filter((p) => p.startsWith('/v2/updates/'));
        assert.deepEqual(paths, version === '3.6' ? ['/v2/updates/update-by-id'] : ['/v2/updates/transaction-by-id', '/v2/updates/update-by-id'], version);
        await rejectsWith(c.lookupTransaction(s().unassignUpdate, transactionQueryFor([alice()])), {
          kind: 'notFound',
          explanationMatches: /is a reassignment, not a transaction/,
        });
        await c.close();
      }
      node.version = '3.5';
    });

    it('an update the parties cannot see is UPDATE_NOT_FOUND, on both routes', async () => {
      token = node.mintToken('bob');
      const bankOnly = node.ledger.transactions.find((t) => t.commandId === 'bank-internal-1')!.updateId;
      await rejectsWith(client.lookupTransaction(bankOnly, transactionQueryFor([node.ledger.parties.Bob])), { code: 'UPDATE_NOT_FOUND' });
      node.version = '3.6';
      const c = makeClient();
      await rejectsWith(c.lookupTransaction(bankOnly, transactionQueryFor([node.ledger.parties.Bob])), { code: 'UPDATE_NOT_FOUND' });
      await c.close();
    });

    it('an invalid update id is 400 INVALID_ARGUMENT', async () => {
      await rejectsWith(client.getUpdateById({ updateId: 'abc', updateFormat: { includeTransactions: transactionFormatFor([alice()]) } }), {
        kind: 'invalidRequest',
        code: 'INVALID_ARGUMENT',
      });
    });
  });

  describe('the request log', () => {
    it('records method, path, status, duration and never the token', async () => {
      await client.getVersion();
      await client.getEventsByContractId({ contractId: s().unknownContract, eventFormat: eventFormatFor([alice()]) }).catch(() => undefined);
      assert.equal(log.length, 2);
      assert.deepEqual(
        log.map((e) => [e.method, e.path, e.status]),
        [
          ['GET', '/v2/version', 200],
          ['POST', '/v2/events/events-by-contract-id', 404],
        ],
      );
      assert.equal(log[1].errorKind, 'notFound');
      assert.ok(log.every((e) => e.durationMs >= 0));
      assert.ok(!JSON.stringify(log).includes(token!));
    });
  });
});
