// The unit tier stays pure, so a maintainer runs it in seconds while working: a test that needs a
// server (a fake node, an OpenID provider, any listening socket) belongs in test/server/, and the
// fake ledger's own tests live with it in fake-ledger/test/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SERVER_START = /FakeLedgerNode\.start\(|OidcTestProvider\.start\(|createServer\(|\.listen\(|new WebSocket\(|startDemoLedger\(/;

function testSources(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
}

describe('the test tiers', () => {
  it('the unit tier starts no server', () => {
    const files = testSources('test/unit');
    assert.ok(files.length > 30, 'the unit tier was found');
    const serving = files.filter((f) => SERVER_START.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepEqual(serving, [], 'move these to test/server/ (the same subfolder)');
  });

  it('the fake ledger’s own tests import nothing of the product', () => {
    const files = testSources('fake-ledger/test');
    assert.ok(files.length > 3, "the fake ledger's tests were found");
    // `../src/` is the fake ledger's own code; `../../src/` would be the product's.
    const reaching = files.filter((f) => /from '\.\.\/\.\.\/src\//.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepEqual(reaching, []);
  });
});
