// A contract in a pick list reads as the fields people tell contracts apart by, not as raw JSON
// that starts with the issuer's full party id; hostile text stays plain.
import * as assert from 'node:assert/strict';
import { contractPickText, pickSafe } from '../../../src/browse/contractPickText';

const ALICE = `alice::1220${'ab'.repeat(32)}`;
const BANK = `bank::1220${'cd'.repeat(32)}`;
const CID = `00${'12'.repeat(32)}ca111220${'34'.repeat(32)}`;

describe('a contract in a pick list', () => {
  it('shows its scalar fields in the label, its parties shortened, its id shortened', () => {
    const t = contractPickText({
      contractId: CID,
      offset: 42,
      createArgument: { issuer: BANK, owner: ALICE, currency: 'USD', amount: '1500.0', observers: [ALICE], lock: { until: '2026-01-01', by: BANK } },
    });
    assert.equal(t.label, 'currency USD · amount 1500.0 · lock.until 2026-01-01');
    assert.equal(t.description, 'issuer bank::1220cd… · owner alice::1220ab… · lock.by bank::1220cd…');
    assert.match(t.detail, /^0012121212…343434 · created at offset 42$/);
    assert.doesNotMatch(t.label + t.description, /1220abababababab/, 'no full party id');
  });

  it('falls back to the short id when the contract has no scalar field', () => {
    const t = contractPickText({ contractId: CID, createArgument: { owner: ALICE } });
    assert.equal(t.label, '0012121212…343434');
    assert.equal(t.detail, '0012121212…343434');
  });

  it('keeps hostile ledger text plain: no icons, no bidi override, one short line', () => {
    const t = contractPickText({ contractId: CID, createArgument: { note: '$(alert) evil\u202Egnp.exe\nnext', big: 'x'.repeat(500) } });
    assert.doesNotMatch(t.label, /\$\(/);
    assert.doesNotMatch(t.label, /[\u202E\n]/);
    assert.ok(t.label.length < 120, t.label);
    assert.equal(pickSafe('abc'), 'abc');
  });
});
