// Every way a node can fail gives one LedgerApiError with a clear explanation; nothing crashes.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { LedgerClient, type RequestLogEntry } from '../../../src/ledger/ledgerClient';
import { eventFormatFor } from '../../../src/ledger/requestForms';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { rejectsWith } from '../../support/rejectsWith';

describe('LedgerClient faults', function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  let client: LedgerClient;
  let token: string;

  before(async () => {
    node = await FakeLedgerNode.start({ bigTransactionEvents: 10 });
  });
  after(() => node.close());
  beforeEach(() => {
    node.clearFaults();
    node.requests.length = 0;
    token = node.mintToken('alice');
    client = new LedgerClient({
      baseUrl: node.url,
      transport: createUndiciTransport(),
      getToken: async () => token,
      timeoutMs: 1_000,
      maxResponseBytes: 1024 * 1024,
    });
  });
  afterEach(() => client.close());

  const lookup = (opts = {}) =>
    client.getEventsByContractId({ contractId: node.ledger.samples.activeContract, eventFormat: eventFormatFor([node.ledger.parties.Alice]) }, opts);

  it('a node that is down: network, with what to do', async () => {
    const down = createServer();
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    const port = (down.address() as AddressInfo).port;
    await new Promise<void>((r) => down.close(() => r()));
    const c = new LedgerClient({ baseUrl: `http://127.0.0.1:${port}`, transport: createUndiciTransport() });
    await rejectsWith(c.getVersion(), { kind: 'network', explanationMatches: /Nothing is listening at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/ });
    await c.close();
  });

  it('a slow node: timeout after the configured time, and the log entry says timeout', async () => {
    node.injectFault({ fault: { type: 'latency', ms: 3_000 }, times: 1 });
    const logged: RequestLogEntry[] = [];
    const c = new LedgerClient({
      baseUrl: node.url,
      transport: createUndiciTransport(),
      getToken: async () => token,
      timeoutMs: 1_000,
      onRequest: (e) => logged.push(e),
    });
    try {
      await rejectsWith(c.getEventsByContractId({ contractId: node.ledger.samples.activeContract, eventFormat: eventFormatFor([node.ledger.parties.Alice]) }), {
        kind: 'timeout',
        explanationMatches: /within 1 s/,
      });
    } finally {
      await c.close();
    }
    assert.equal(logged.length, 1);
    assert.equal(logged[0].errorKind, 'timeout');
    assert.equal(logged[0].status, undefined);
  });

  it('cancellation by the caller', async () => {
    node.injectFault({ fault: { type: 'latency', ms: 3_000 }, times: 1 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await rejectsWith(lookup({ signal: ac.signal }), { kind: 'cancelled' });
    const already = new AbortController();
    already.abort();
    await rejectsWith(client.getVersion({ signal: already.signal }), { kind: 'cancelled' });
  });

  it('connection reset before the headers: network', async () => {
    node.injectFault({ fault: { type: 'resetBeforeHeaders' }, times: 1 });
    await rejectsWith(client.getVersion(), { kind: 'network', explanationMatches: /reset|Could not reach/ });
  });

  it('connection reset mid-body: bad response with the first bytes', async () => {
    node.injectFault({ fault: { type: 'resetMidBody' }, times: 1 });
    const e = await rejectsWith(client.getVersion(), { kind: 'badResponse', status: 200, explanationMatches: /cut off after \d+ bytes/ });
    assert.match(e.bodyPreview ?? '', /^\{"version":"3\.5\.10"/);
  });

  it('an HTML 500 page: bad response with its first bytes', async () => {
    node.injectFault({ fault: { type: 'html500' }, times: 1 });
    const e = await rejectsWith(lookup(), { kind: 'badResponse', status: 500, explanationMatches: /HTML page/ });
    assert.match(e.bodyPreview ?? '', /^<!DOCTYPE html><html><head><title>500 Internal Server Error/);
  });

  it('an HTML page with status 200 (a web UI or login proxy at the URL)', async () => {
    node.injectFault({ fault: { type: 'reply', status: 200, contentType: 'text/html', body: '<html><body>Sign in</body></html>' }, times: 1 });
    await rejectsWith(client.getVersion(), { kind: 'badResponse', explanationMatches: /HTML page instead of JSON/ });
  });

  it('a text/plain 400: invalid request with the text', async () => {
    node.injectFault({ fault: { type: 'plainText400', text: "Unknown enum value at 'hashingSchemeVersion'" }, times: 1 });
    const e = await rejectsWith(lookup(), { kind: 'invalidRequest', status: 400 });
    assert.equal(e.plainText, "Invalid value for: body (Unknown enum value at 'hashingSchemeVersion' at '')");
    assert.match(e.explanation, /could not decode the request/);
  });

  it('a real text/plain 400 from the node for an undecodable body', async () => {
    // Sent on purpose: not counted as a body Canton Lens builds (test/support/specConformance.ts).
    const raw = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, userAgent: 'a test' });
    const e = await rejectsWith(raw.getEventsByContractId({ contractId: 42 } as never), { kind: 'invalidRequest', status: 400 });
    assert.match(e.plainText ?? '', /^Invalid value for: body \(Got value with wrong type, expecting string at 'contractId'\)$/);
    await raw.close();
  });

  it('invalid JSON: bad response, never a crash', async () => {
    node.injectFault({ fault: { type: 'invalidJson' }, times: 1 });
    await rejectsWith(client.getVersion(), { kind: 'badResponse', explanationMatches: /not valid JSON/ });
  });

  it('a 50 MB body: refused at the size cap, declared or not', async () => {
    node.injectFault({ fault: { type: 'hugeBody', bytes: 50 * 1024 * 1024, declareLength: true }, times: 1 });
    await rejectsWith(client.getVersion(), { kind: 'badResponse', explanationMatches: /larger than the 1\.0 MB limit \(50\.0 MB declared\)/ });
    node.injectFault({ fault: { type: 'hugeBody', bytes: 50 * 1024 * 1024 }, times: 1 });
    await rejectsWith(client.getVersion(), { kind: 'badResponse', explanationMatches: /larger than the 1\.0 MB limit \(more than 1\.0 MB received\)/ });
    assert.equal((await client.getVersion()).version, '3.5.10', 'the client still works');
  });

  it('a redirect to another origin: not followed, so the token does not travel', async () => {
    const other = await FakeLedgerNode.start({ bigTransactionEvents: 1 });
    try {
      node.injectFault({ fault: { type: 'redirect', location: `${other.url}/v2/events/events-by-contract-id`, status: 307 }, times: 1 });
      await rejectsWith(lookup(), { kind: 'badResponse', status: 307, explanationMatches: /does not follow redirects/ });
      assert.equal(other.requests.length, 0);
    } finally {
      await other.close();
    }
  });

  it('503 and 429 are "unavailable", 504 a timeout', async () => {
    const body = JSON.stringify({
      code: 'SERVICE_NOT_RUNNING',
      cause: 'Ledger API server is shutting down',
      context: {},
      errorCategory: 1,
      correlationId: null,
      traceId: 'abc',
    });
    node.injectFault({ fault: { type: 'reply', status: 503, contentType: 'application/json', body }, times: 1 });
    await rejectsWith(lookup(), { kind: 'unavailable', code: 'SERVICE_NOT_RUNNING', explanationMatches: /Try again in a moment/ });
    node.injectFault({ fault: { type: 'reply', status: 429, contentType: 'text/plain', body: 'Too many requests' }, times: 1 });
    await rejectsWith(lookup(), { kind: 'unavailable' });
    node.injectFault({ fault: { type: 'reply', status: 504, contentType: 'text/html', body: '<html>Gateway Timeout</html>' }, times: 1 });
    await rejectsWith(lookup(), { kind: 'timeout' });
  });

  it("a 409 is a conflict, with the code's advice", async () => {
    const body = JSON.stringify({
      code: 'DUPLICATE_COMMAND',
      cause: 'A command with the given command id has already been successfully processed',
      context: {},
      errorCategory: 10,
      correlationId: 'sub-1',
      traceId: 't',
      definiteAnswer: false,
    });
    node.injectFault({ fault: { type: 'reply', status: 409, contentType: 'application/json', body }, times: 1 });
    const e = await rejectsWith(lookup(), { kind: 'conflict', code: 'DUPLICATE_COMMAND' });
    assert.equal(e.cantonError?.definiteAnswer, false);
    assert.match(e.explanation, /use a new submission id/);
  });

  it('a 500 JsCantonError: server error with code and correlation id', async () => {
    const body = JSON.stringify({ code: 'LEDGER_API_INTERNAL_ERROR', cause: 'boom', context: {}, errorCategory: 4, correlationId: 'corr-77', traceId: 't' });
    node.injectFault({ fault: { type: 'reply', status: 500, contentType: 'application/json', body }, times: 1 });
    const e = await rejectsWith(lookup(), { kind: 'serverError', code: 'LEDGER_API_INTERNAL_ERROR', correlationId: 'corr-77' });
    assert.match(e.explanation, /correlation id corr-77/);
  });

  it('a token echoed back by a node or proxy never reaches the error text', async () => {
    node.injectFault({
      fault: { type: 'reply', status: 502, contentType: 'text/plain', body: `bad gateway; request had Authorization: Bearer ${token}` },
      times: 1,
    });
    const e = await rejectsWith(lookup(), { kind: 'unavailable' });
    const everything = JSON.stringify({ ...e, message: e.message });
    assert.ok(!everything.includes(token.slice(0, 24)), everything);
    assert.match(e.explanation, /Bearer \[token\]/);
  });

  it('a token cut off by the preview is still scrubbed, in text/plain 400s too', async () => {
    node.injectFault({ fault: { type: 'reply', status: 400, contentType: 'text/plain', body: `${'x'.repeat(150)} token=${token}` }, times: 1 });
    const e = await rejectsWith(lookup(), { kind: 'invalidRequest' });
    assert.ok(!JSON.stringify({ ...e, message: e.message }).includes(token.slice(0, 12)));
  });

  it('bad base URLs are refused up front, with what a URL looks like', () => {
    assert.throws(() => new LedgerClient({ baseUrl: 'localhost:7575', transport: createUndiciTransport() }), /must start with http:\/\/ or https:\/\//);
    assert.throws(() => new LedgerClient({ baseUrl: 'not a url', transport: createUndiciTransport() }), /is not a URL/);
    assert.throws(() => new LedgerClient({ baseUrl: 'http://user:pw@host', transport: createUndiciTransport() }), /must not hold a user name or password/);
  });
});
