// Copy as cURL: the command line a shell reads back as exactly the request, with no token in it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { curlCommand, requestUrl, shellQuote } from '../../../src/ledger/curlCommand';
import { LedgerClient, type RequestLogEntry } from '../../../src/ledger/ledgerClient';
import { MAX_KEPT_BODY, RequestHistory } from '../../../src/ledger/httpRequestLog';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { lookupContract, lookupTransaction } from '../../../src/lookups/ledgerLookups';
import { lookupRequest } from '../../../src/lookups/lookupRequest';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2VjcmV0LXNpZ25hdHVyZQ';
const OPAQUE = 'opaque-secret-token-1234567890';

/** The words a POSIX shell makes of the command, with `curl` replaced by a function printing them. */
function shellWords(command: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`;
  const out = execFileSync('/bin/sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('Copy as cURL', () => {
  const hostile = [
    `{"contractId":"00ab'; rm -rf ~; echo '"}`,
    '{"a":"$(touch /tmp/pwned-curl)","b":"`id`","c":"$HOME","d":"\\\\ \\n"}',
    `{"x":"line one\nline two\r\n\t'\\''"}`,
    `{"emoji":"💥","quote":"'''","dq":"\\"\\"","bang":"!!","semi":";&|<>*?[]{}~#"}`,
  ];

  for (const [i, body] of hostile.entries()) {
    it(`quotes a hostile body so a POSIX shell reads it back unchanged (${i + 1})`, () => {
      const cmd = curlCommand({ method: 'POST', url: 'http://localhost:7575/api/json/v2/events/events-by-contract-id', body, authenticated: true });
      const words = shellWords(cmd, { TOKEN: 'from-the-shell' });
      assert.deepEqual(words, [
        '-sS',
        '-X',
        'POST',
        'http://localhost:7575/api/json/v2/events/events-by-contract-id',
        '-H',
        'Accept: application/json',
        '-H',
        'Content-Type: application/json',
        '-H',
        'Authorization: Bearer from-the-shell',
        '--data-raw',
        body,
      ]);
    });
  }

  it('writes a GET without a body, and no Authorization header when no token was sent', () => {
    const cmd = curlCommand({ method: 'GET', url: 'https://node.example/v2/version', authenticated: false });
    assert.equal(cmd, `curl -sS 'https://node.example/v2/version' \\\n  -H 'Accept: application/json'`);
    assert.deepEqual(shellWords(cmd), ['-sS', 'https://node.example/v2/version', '-H', 'Accept: application/json']);
  });

  it("never holds a token: not the node's, not a JWT, not a Bearer header, even in a hostile body or URL", () => {
    const body = JSON.stringify({ contractId: `x ${OPAQUE} y`, note: `Bearer ${OPAQUE}`, jwt: TOKEN, other: 'Authorization: Bearer abc.def' });
    const cmd = curlCommand({ method: 'POST', url: `http://h/v2/parties?party=${OPAQUE}`, body, authenticated: true }, [OPAQUE, undefined, 'short']);
    assert.ok(!cmd.includes(OPAQUE));
    assert.ok(!cmd.includes(TOKEN));
    assert.ok(!cmd.includes('eyJ'));
    assert.ok(!/Bearer abc/.test(cmd));
    assert.ok(cmd.includes('"Authorization: Bearer $TOKEN"'));
    assert.match(cmd, /^# Canton Lens replaced what looked like a credential with \[token\]/);
    // Still one valid shell command after the comment.
    const words = shellWords(cmd, { TOKEN: 't' });
    assert.equal(words.at(-2), '--data-raw');
    assert.ok(JSON.parse(words.at(-1)!));
  });

  it('keeps an ordinary body exact (no comment, nothing replaced)', () => {
    const body = JSON.stringify({ contractId: '00' + 'ab'.repeat(33), eventFormat: { verbose: true } });
    const cmd = curlCommand({ method: 'POST', url: 'http://h/v2/x', body, authenticated: true }, [OPAQUE]);
    assert.ok(!cmd.startsWith('#'));
    assert.equal(shellWords(cmd, { TOKEN: 't' }).at(-1), body);
  });

  it('quotes single quotes and NUL', () => {
    assert.equal(shellQuote(`it's`), `'it'\\''s'`);
    assert.equal(shellQuote('a\0b'), `'a\\u0000b'`);
  });

  it("puts the path after the node's path prefix, as the client does", () => {
    assert.equal(requestUrl('https://host/api/json', '/v2/version'), 'https://host/api/json/v2/version');
    assert.equal(requestUrl('https://host/api/json/', '/v2/version'), 'https://host/api/json/v2/version');
    assert.equal(requestUrl('http://localhost:7575', '/v2/parties?pageSize=5'), 'http://localhost:7575/v2/parties?pageSize=5');
  });
});

describe('the request history', () => {
  const entry = (over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
    method: 'POST',
    path: '/v2/x',
    url: 'http://h/v2/x',
    body: '{}',
    authenticated: true,
    durationMs: 1,
    status: 200,
    ...over,
  });

  it('keeps the last requests, newest first, bounded', () => {
    const h = new RequestHistory(3);
    for (let i = 0; i < 5; i++) h.record('n', entry({ path: `/v2/${i}` }));
    assert.deepEqual(
      h.all().map((r) => r.path),
      ['/v2/4', '/v2/3', '/v2/2'],
    );
    assert.equal(h.get(1), undefined);
    assert.equal(h.get(5)?.path, '/v2/4');
  });

  it('holds no header and no token: only whether one was sent', () => {
    const h = new RequestHistory();
    const r = h.record('n', { ...entry(), ...{ headers: { authorization: `Bearer ${TOKEN}` }, token: TOKEN } })!;
    assert.ok(!JSON.stringify(r).includes(TOKEN));
    assert.equal(r.authenticated, true);
  });

  it('drops a body too large to keep, and says so', () => {
    const h = new RequestHistory();
    const r = h.record('n', entry({ body: 'x'.repeat(MAX_KEPT_BODY + 1) }))!;
    assert.equal(r.body, undefined);
    assert.equal(r.bodyOmitted, true);
  });
});

describe("a lookup's request, rebuilt for Copy as cURL", function () {
  this.timeout(10_000);
  for (const version of ['3.4', '3.6'] as const) {
    it(`is exactly what the client sent (${version}: contract, transaction, not found)`, async () => {
      const node = await FakeLedgerNode.start({ version });
      const sent: RequestLogEntry[] = [];
      const token = node.mintToken('alice');
      const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, onRequest: (e) => sent.push(e) });
      try {
        const ctx = {
          nodeName: 'dev',
          parties: [node.ledger.parties.Alice],
          user: 'alice',
          credentials: { token, identity: { key: 'user:alice', kind: 'user' as const, user: 'alice' } },
        };
        const lookups = [
          await lookupContract(client, node.ledger.samples.activeContract, ctx),
          await lookupContract(client, node.ledger.samples.unknownContract, ctx),
          await lookupTransaction(client, node.ledger.samples.transferUpdate, ctx),
          await lookupTransaction(client, node.ledger.samples.transferUpdate, { ...ctx, shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }),
        ];
        for (const l of lookups) {
          const r = lookupRequest(l);
          const match = sent.find((e) => e.path === r.path && e.body === r.body);
          assert.ok(match, `${r.path} ${r.body} was not sent (sent: ${sent.map((e) => e.path).join(', ')})`);
          assert.equal(match.url, requestUrl(node.url, r.path));
          assert.equal(r.authenticated, true);
          assert.equal(match.authenticated, true);
          const cmd = curlCommand({ method: r.method, url: match.url, body: r.body, authenticated: r.authenticated }, [token]);
          assert.ok(!cmd.includes(token));
        }
        assert.ok(
          sent.every((e) => !JSON.stringify(e).includes(token)),
          'a log entry holds the token',
        );
      } finally {
        await client.close();
        await node.close();
      }
    });
  }
});
