// The demo ledger shows a believable ledger: none of the tests' hostile text (markup, script
// URLs, template injection, bidi controls, control characters) in what it seeds or generates,
// while the tests' ledger keeps all of it.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../src/testing';
import { HOSTILE_STRINGS } from '../src/demoLedgerData';
import { wildcard } from '../../test/support/specBodies';

/** Markup-like text, or a character that reorders or hides text: what a renderer must never trust. */
const SUSPICIOUS =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /<\/?[a-z!][^>]*>?|javascript:|\{\{|\bon[a-z]+\s*=|[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/i;

/** Every string in `value` (keys too), with where it is. */
function strings(value: unknown, at: string, out: { at: string; text: string }[] = []): { at: string; text: string }[] {
  if (typeof value === 'string') out.push({ at, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${at}[${i}]`, out));
  else if (value instanceof Map) [...value.entries()].forEach(([k, v]) => strings([k, v], `${at}{}`, out));
  else if (value instanceof Set) strings([...value], `${at}{}`, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push({ at: `${at}.${k} (key)`, text: k });
      strings(v, `${at}.${k}`, out);
    }
  return out;
}

/** What a ledger seeds and generates: its stored ledger, the generated templates, contracts and live transactions. */
function everything(node: FakeLedgerNode): { at: string; text: string }[] {
  const g = node.generated;
  g.advance(300);
  const format = { filtersByParty: {}, filtersForAnyParty: wildcard, verbose: true } as never;
  const generated = [];
  for (let offset = 1; offset <= g.ledgerEnd(); offset++) {
    for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']) {
      const t = g.transactionAt(offset, format, shape);
      if (t) generated.push(t);
    }
  }
  return [
    ...strings(node.ledger, 'ledger'),
    ...strings(
      Array.from({ length: g.templateCount }, (_, t) => g.template(t)),
      'templates',
    ),
    ...strings(g.catalog(), 'catalog'),
    ...strings(generated, 'generated'),
  ];
}

describe("the demo ledger's data", function () {
  this.timeout(60_000);
  const nodes: FakeLedgerNode[] = [];
  after(() => Promise.all(nodes.map((n) => n.close())));

  it('holds no markup-like or bidi-control text, as the demo starts it (generated: { hostile: false })', async () => {
    const demo = await FakeLedgerNode.start({ wallClock: true, generated: { hostile: false, contracts: 500 } });
    nodes.push(demo);
    const found = everything(demo).filter((s) => SUSPICIOUS.test(s.text));
    assert.deepEqual(
      found.slice(0, 5).map((s) => `${s.at}: ${JSON.stringify(s.text.slice(0, 80))}`),
      [],
    );
  });

  it("keeps every hostile string in the tests' ledger, at the same ids", async () => {
    const tests = await FakeLedgerNode.start({ generated: { contracts: 500 } });
    const demo = await FakeLedgerNode.start({ generated: { hostile: false } });
    nodes.push(tests, demo);
    const texts = everything(tests).map((s) => s.text);
    for (const h of HOSTILE_STRINGS) assert.ok(texts.includes(h), `the tests' ledger holds ${JSON.stringify(h)}`);
    assert.ok(
      texts.some((t) => t.startsWith('acs-hostile')),
      'and the hostile package names',
    );
    assert.deepEqual(demo.ledger.samples, tests.ledger.samples, 'the same sample ids: the demo workspace and the tests name the same contracts');
  });
});
