// The fake node judges requests as a Canton node does: the spec's schema first, then rights,
// then semantics; it never dies of bad input, and every answer is one the spec allows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { ApiSchemas } from '../src/spec/apiSchemas';
import { SPEC_ROUTES } from '../src/spec/specRoutes';
import { SERVED_SCHEMAS_FILE, extractAll } from '../../test/support/apiSpecExtract';
import { send, USER_FOR, validBodies, wildcard, type RawReply } from '../../test/support/specBodies';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

describe("the fake node's schemas", () => {
  it('are those of the vendored OpenAPI files (npm run spec:extract after changing SPEC_ROUTES)', () => {
    assert.deepEqual(JSON.parse(fs.readFileSync(SERVED_SCHEMAS_FILE, 'utf8')), JSON.parse(JSON.stringify(extractAll())));
  });

  it('cover each served route, per version (transaction-by-id is gone in 3.6; health checks, the paged ACS and updates and command-completions are new in 3.5; completion-by-hash and update-by-hash in 3.6; the GET vetting list, deprecated in 3.4.12 and 3.5, is gone in 3.6)', () => {
    for (const v of VERSIONS) {
      const present = SPEC_ROUTES.filter((r) => ApiSchemas.for(v).route(r));
      const expected = SPEC_ROUTES.filter(
        (r) =>
          !(v === '3.6' && (r.includes('transaction-by-id') || r === 'GET /v2/package-vetting')) &&
          !(v === '3.4' && /livez|readyz|active-contracts-page|get-updates-page|command-completions/.test(r)) &&
          !(v !== '3.6' && /-by-hash$/.test(r)),
      );
      assert.deepEqual(present, expected, v);
    }
  });

  it('find a wrong response: a missing required field, a wrong type, an undeclared status', () => {
    const s = ApiSchemas.for('3.5');
    assert.equal(
      s.checkResponse('GET /v2/version', 200, 'application/json', JSON.stringify({ version: '3.5.10' })),
      "/ must have required property 'features'",
    );
    assert.match(
      s.checkResponse(
        'POST /v2/events/events-by-contract-id',
        404,
        'application/json',
        JSON.stringify({ code: 1, cause: 'c', context: {}, errorCategory: 11 }),
      ) ?? '',
      /\/code must be string/,
    );
    assert.match(
      s.checkResponse('POST /v2/events/events-by-contract-id', 400, 'text/html', '<h1>Bad</h1>') ?? '',
      /content type text\/html, the spec says text\/plain or application\/json/,
    );
    assert.equal(s.checkResponse('GET /livez', 200, 'text/plain', ''), undefined);
    assert.match(s.checkResponse('GET /livez', 200, 'text/plain', 'OK') ?? '', /the spec says no body/);
  });
});

for (const version of VERSIONS) {
  describe(`the fake node on ${version} judges requests as a node does`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    const internalErrors: unknown[] = [];
    const post = (path: string, body: unknown, user = 'alice') =>
      send(node, 'POST', path, typeof body === 'string' ? body : JSON.stringify(body), { authorization: `Bearer ${node.mintToken(user)}` });
    const contractBody = (eventFormat: unknown, contractId: string = node.ledger.samples.activeContract) => ({ contractId, eventFormat });
    const lookupPath = '/v2/events/events-by-contract-id';

    before(async () => {
      node = await FakeLedgerNode.start({ version, bigTransactionEvents: 10, checkResponses: true, onInternalError: (e) => internalErrors.push(e) });
    });
    after(() => node.close());
    afterEach(() => {
      assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows');
    });

    const assertPlain400 = (r: RawReply, at: RegExp) => {
      assert.equal(r.status, 400, r.text);
      assert.match(r.contentType, /^text\/plain/);
      assert.match(r.text, /^Invalid value for: body \(/);
      assert.match(r.text, at);
    };

    it('answers the valid body of each route with 200', async () => {
      for (const [route, body] of Object.entries(validBodies(node))) {
        if (!ApiSchemas.for(version).route(route)) continue;
        const r = await post(route.split(' ')[1], body, USER_FOR[route]);
        assert.equal(r.status, 200, `${route}: ${r.text}`);
      }
    });

    it('refuses malformed filters as undecodable (it used to die of cumulative: "wildcard")', async () => {
      const alice = node.ledger.parties.Alice;
      assertPlain400(await post(lookupPath, contractBody({ filtersByParty: { [alice]: { cumulative: 'wildcard' } } })), /cumulative/);
      assertPlain400(await post(lookupPath, contractBody({ filtersByParty: { [alice]: { cumulative: [null] } } })), /cumulative\[0\]/);
      assertPlain400(await post(lookupPath, contractBody({ filtersByParty: { [alice]: 'all' } })), /filtersByParty/);
      assertPlain400(
        await post(lookupPath, contractBody({ filtersByParty: { [alice]: wildcard }, verbose: 'yes' })),
        /expecting boolean at 'eventFormat\.verbose'/,
      );
      assertPlain400(
        await post(lookupPath, contractBody({ filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { WildcardFilter: {} } }] } } })),
        /identifierFilter/,
      );
      assert.deepEqual(internalErrors, []);
      assert.equal((await send(node, 'GET', '/v2/version')).status, 200, 'still alive');
    });

    it('refuses a missing, unspecified or unknown transaction shape', async () => {
      const eventFormat = { filtersByParty: { [node.ledger.parties.Alice]: wildcard } };
      const byId = (shape: unknown) =>
        post('/v2/updates/update-by-id', {
          updateId: node.ledger.samples.transferUpdate,
          updateFormat: { includeTransactions: { eventFormat, ...(shape === undefined ? {} : { transactionShape: shape }) } },
        });
      assertPlain400(await byId(undefined), /transactionShape/);
      assertPlain400(await byId('TRANSACTION_SHAPE_FLAT'), /Unknown enum value "TRANSACTION_SHAPE_FLAT"/);
      const unspecified = await byId('TRANSACTION_SHAPE_UNSPECIFIED');
      assert.equal(unspecified.status, 400);
      assert.equal(unspecified.json?.code, 'INVALID_FIELD');
      assert.equal((await byId('TRANSACTION_SHAPE_LEDGER_EFFECTS')).status, 200);
    });

    it('says MISSING_FIELD for a missing required top-level field, after the rights check', async () => {
      const r = await post(lookupPath, { contractId: node.ledger.samples.activeContract });
      assert.equal(r.status, 400);
      assert.equal(r.json?.code, 'MISSING_FIELD');
      assert.match(String(r.json?.cause), /event_format/);
    });

    it("refuses a body without a field Canton's case class requires before the rights, as text: the spec does not decide", async () => {
      // hashingSchemeVersion and deduplicationPeriod have no default in JsExecuteSubmissionRequest.
      for (const field of ['hashingSchemeVersion', 'deduplicationPeriod']) {
        const { [field]: _dropped, ...body } = validBodies(node)['POST /v2/interactive-submission/execute'];
        const executedBefore = node.executed.length;
        for (const user of ['dana', 'alice']) {
          const e = await post('/v2/interactive-submission/execute', body, user);
          assertPlain400(e, new RegExp(`^Invalid value for: body \\(Missing required field at '${field}'\\)$`));
        }
        assert.equal(node.executed.length, executedBefore, 'nothing executed');
      }
    });

    it('checks rights before ids, parties and shapes: a user without rights gets 403, not 400', async () => {
      const bob = node.ledger.parties.Bob;
      const malformedId = await post(lookupPath, contractBody({ filtersByParty: { [bob]: wildcard } }, 'not-a-contract-id'));
      assert.equal(malformedId.status, 403);
      const noNamespace = await post(lookupPath, contractBody({ filtersByParty: { Mallory: wildcard } }));
      assert.equal(noNamespace.status, 403);
      const anyParty = await post(lookupPath, contractBody({ filtersForAnyParty: wildcard }, 'zz'));
      assert.equal(anyParty.status, 403);
      // With the rights, the same malformed id is the semantic error.
      const asReader = await post(lookupPath, contractBody({ filtersForAnyParty: wildcard }, 'zz'), 'reader');
      assert.equal(asReader.json?.code, 'INVALID_FIELD');
    });

    it('answers a wrong method with 405, an unknown path with 404', async () => {
      const wrong = await send(node, 'GET', lookupPath);
      assert.equal(wrong.status, 405);
      assert.match(wrong.text, /POST/);
      assert.equal((await send(node, 'POST', '/v2/version', '{}')).status, 405);
      assert.equal((await send(node, 'GET', '/v2/nothing-here')).status, 404);
    });

    it('answers a tampered, unknown-user or non-Bearer token with 401/403 naming the token problem', async () => {
      const token = node.mintToken('alice');
      const tampered = `${token.slice(0, -4)}AAAA`;
      const body = JSON.stringify(validBodies(node)['POST /v2/events/events-by-contract-id']);
      const t = await send(node, 'POST', lookupPath, body, { authorization: `Bearer ${tampered}` });
      assert.equal(t.status, 401);
      assert.deepEqual(t.json?.context, { ledger_api_error: 'invalid token' });
      const basic = await send(node, 'POST', lookupPath, body, { authorization: 'Basic YWxpY2U6c2VjcmV0' });
      assert.equal(basic.status, 401);
      const unknown = await send(node, 'POST', lookupPath, body, { authorization: `Bearer ${node.mintToken('nobody')}` });
      assert.equal(unknown.status, 403);
      assert.deepEqual(unknown.json?.context, { ledger_api_error: 'invalid token' });
      const none = await send(node, 'POST', lookupPath, body);
      assert.equal(none.status, 401);
    });

    it('serves the health checks as the spec declares them', async () => {
      if (version === '3.4') {
        assert.equal((await send(node, 'GET', '/livez')).status, 404, 'not in the 3.4 spec');
        return;
      }
      const live = await send(node, 'GET', '/livez');
      assert.equal(live.status, 200);
      assert.equal(live.text, '', '/livez declares no body');
      const ready = await send(node, 'GET', '/readyz');
      assert.equal(ready.status, 200);
      assert.match(ready.contentType, /^text\/plain/);
    });

    it('answers a handler that throws with a 500 JsCantonError and stays up', async () => {
      // Reach into the node to make one lookup fail as a bug would.
      const queries = (node as unknown as { queries: { eventsByContractId: () => unknown } }).queries;
      const original = queries.eventsByContractId;
      queries.eventsByContractId = () => {
        throw new TypeError('boom');
      };
      try {
        const r = await post(lookupPath, validBodies(node)['POST /v2/events/events-by-contract-id']);
        assert.equal(r.status, 500);
        assert.equal(r.json?.code, 'LEDGER_API_INTERNAL_ERROR');
        assert.equal(internalErrors.length, 1);
        internalErrors.length = 0;
      } finally {
        queries.eventsByContractId = original;
      }
      assert.equal((await post(lookupPath, validBodies(node)['POST /v2/events/events-by-contract-id'])).status, 200);
    });
  });
}

describe("the fake node's request record", () => {
  it('is a bounded ring: the latest requests are kept, the oldest go, and 0 keeps none', async () => {
    const small = await FakeLedgerNode.start({ requestLog: 8 });
    const none = await FakeLedgerNode.start({ requestLog: 0 });
    try {
      for (let i = 0; i < 50; i++) {
        await send(small, 'GET', '/v2/version');
        await send(none, 'GET', '/v2/version');
      }
      await send(small, 'GET', '/livez');
      assert.ok(small.requests.length >= 8 && small.requests.length <= 10, `kept ${small.requests.length}`);
      assert.equal(small.requests.at(-1)!.path, '/livez', 'the latest is kept');
      assert.equal(none.requests.length, 0);
      assert.equal((await send(none, 'GET', '/v2/version')).status, 200);
    } finally {
      await small.close();
      await none.close();
    }
  });
});
