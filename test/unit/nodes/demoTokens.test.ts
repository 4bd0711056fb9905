// `npm run demo` hands tokens to the extension host: only well-formed ones, only for this machine.
import * as assert from 'node:assert/strict';
import { demoNodeName, demoTokensFrom, isLoopbackUrl } from '../../../src/nodes/demoTokens';

describe('demo tokens from the environment', () => {
  it('reads a JSON object of node names and tokens, ignoring anything else', () => {
    assert.deepEqual([...demoTokensFrom('{"Demo Ledger":"t1","x":42,"y":""}')!], [['Demo Ledger', 't1']]);
    for (const bad of [undefined, '', 'not json', '[]', 'null', '"t"']) assert.equal(demoTokensFrom(bad), undefined, String(bad));
  });

  it('gives tokens only to nodes on this machine', () => {
    for (const ok of ['http://127.0.0.1:7575', 'http://localhost:7575/api/json', 'https://[::1]:8443']) assert.ok(isLoopbackUrl(ok), ok);
    for (const no of ['https://ledger.example.com', 'http://127.0.0.1.example.com', 'http://10.0.0.1:7575', 'not a url']) assert.ok(!isLoopbackUrl(no), no);
  });

  it('saves a started demo ledger under its own node, never re-pointing a node of another ledger', () => {
    const url = 'http://127.0.0.1:4000';
    assert.deepEqual(demoNodeName('Demo Ledger', [], url), { name: 'Demo Ledger', existing: false });
    assert.deepEqual(demoNodeName('Demo Ledger', [{ name: 'Demo Ledger', url }], url), { name: 'Demo Ledger', existing: true });
    const other = { name: 'Demo Ledger', url: 'http://127.0.0.1:35161' };
    assert.deepEqual(demoNodeName('Demo Ledger', [other], url), { name: 'Demo Ledger 2', existing: false });
    assert.deepEqual(demoNodeName('Demo Ledger', [other, { name: 'Demo Ledger 2', url: 'http://x' }, { name: 'Demo Ledger 3', url }], url), {
      name: 'Demo Ledger 3',
      existing: true,
    });
  });
});
