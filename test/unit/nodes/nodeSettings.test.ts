import * as assert from 'node:assert/strict';
import { clientSecretKey, mayUseStoredToken, parseNodeSettings, tokenSecretKey, urlProblem } from '../../../src/nodes/nodeSettings';

const alice = 'Alice::1220ceff195fd59bbc357415ce25d7a6edb95475b134b1bbb6d70c8fa3dd3f8f32ad';

describe('cantonLens.nodes settings', () => {
  it('reads good entries and normalises their URLs', () => {
    const r = parseNodeSettings(
      [
        { name: 'dev', url: 'http://localhost:7575/', parties: [alice], userId: 'alice' },
        { name: 'prod', url: 'https://host/api/json?x=1#y' },
      ],
      undefined,
    );
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.nodes, [
      { name: 'dev', url: 'http://localhost:7575', parties: [alice], userId: 'alice', scope: 'user' },
      { name: 'prod', url: 'https://host/api/json', scope: 'user' },
    ]);
  });

  it('reports bad entries once each, skips them, and keeps the rest', () => {
    const r = parseNodeSettings(
      [
        { name: 'ok', url: 'http://127.0.0.1:7575' },
        { name: 'bad-url', url: 'localhost:7575' },
        { name: 'ok', url: 'http://other:1' },
        { url: 'http://x' },
        'nonsense',
        { name: 'creds', url: 'http://u:p@host' },
        { name: 'ftp', url: 'ftp://host' },
        { name: 'parties', url: 'http://h', parties: ['Alice', alice] },
      ],
      undefined,
    );
    assert.deepEqual(
      r.nodes.map((n) => n.name),
      ['ok', 'parties'],
    );
    assert.deepEqual(r.nodes[1].parties, [alice]);
    assert.equal(r.problems.length, 7);
    assert.match(
      r.problems[0],
      /Node "bad-url" in user settings has a URL without http:\/\/ or https:\/\/ \("localhost:7575"; did you mean http:\/\/localhost:7575\?\); it is skipped\./,
    );
    assert.match(r.problems[1], /Node "ok" in user settings is listed twice/);
    assert.match(r.problems[2], /cantonLens.nodes\[3\] \(user settings\) has no name/);
    assert.match(r.problems[3], /cantonLens.nodes\[4\] \(user settings\) is not an object/);
    assert.match(r.problems[4], /user name or password/);
    assert.match(r.problems[5], /unsupported scheme "ftp:"/);
    assert.match(r.problems[6], /parties that are not party ids/);
  });

  it('lets workspace entries override user entries of the same name, and marks their scope', () => {
    const r = parseNodeSettings(
      [{ name: 'dev', url: 'http://a:1' }],
      [
        { name: 'dev', url: 'http://b:2' },
        { name: 'team', url: 'http://c:3' },
      ],
    );
    assert.deepEqual(
      r.nodes.map((n) => [n.name, n.url, n.scope]),
      [
        ['dev', 'http://b:2', 'workspace'],
        ['team', 'http://c:3', 'workspace'],
      ],
    );
    assert.match(parseNodeSettings({ name: 'x' }, undefined).problems[0], /not a list/);
  });

  it('reads OAuth2 client credentials, and falls back to a pasted token when they are incomplete', () => {
    const r = parseNodeSettings(
      [
        {
          name: 'kc',
          url: 'https://p',
          auth: { type: 'clientCredentials', tokenUrl: 'https://kc/realms/x/token', clientId: 'lens', scope: 'daml_ledger_api' },
        },
        { name: 'broken', url: 'https://p', auth: { type: 'password' } },
      ],
      undefined,
    );
    assert.deepEqual(r.nodes[0].auth, {
      type: 'clientCredentials',
      tokenUrl: 'https://kc/realms/x/token',
      clientId: 'lens',
      audience: undefined,
      scope: 'daml_ledger_api',
    });
    assert.equal(r.nodes[1].auth, undefined);
    assert.match(r.problems[0], /unknown auth type "password".*pasted token/);
  });

  it('binds token keys to the node name and URL origin, so an edited URL never reuses a token', () => {
    const a = tokenSecretKey({ name: 'dev', url: 'http://localhost:7575/api' });
    assert.equal(a, tokenSecretKey({ name: 'dev', url: 'http://localhost:7575/other' }), 'same origin, same token');
    assert.notEqual(a, tokenSecretKey({ name: 'dev', url: 'http://evil.example:7575/api' }));
    assert.notEqual(a, tokenSecretKey({ name: 'dev', url: 'https://localhost:7575/api' }));
    assert.notEqual(a, tokenSecretKey({ name: 'dev2', url: 'http://localhost:7575/api' }));
    const auth = { type: 'clientCredentials' as const, tokenUrl: 'https://kc/t', clientId: 'lens' };
    assert.notEqual(clientSecretKey({ name: 'dev' }, auth), clientSecretKey({ name: 'dev' }, { ...auth, tokenUrl: 'https://evil/t' }));
  });

  it('sends stored tokens to workspace-defined nodes only in a trusted workspace', () => {
    assert.equal(mayUseStoredToken({ scope: 'user' }, false), true);
    assert.equal(mayUseStoredToken({ scope: 'workspace' }, true), true);
    assert.equal(mayUseStoredToken({ scope: 'workspace' }, false), false);
  });

  it('explains URL problems', () => {
    assert.equal(urlProblem('http://localhost:7575'), undefined);
    assert.match(urlProblem('')!, /no URL/);
    assert.match(urlProblem('not a url')!, /did you mean/);
    assert.match(urlProblem('http://exa mple.com')!, /invalid URL/);
  });
});
