// Values drawn with their Daml-LF types: a field's type on hover, contract ids that say their
// template, enums and variants named with their type; what the signatures do not know as before.
import * as assert from 'node:assert/strict';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import { valueTree } from '../../../src/panels/html/ledgerValues';
import { answerBody, typedPackageOf } from '../../../src/panels/lookupContent';
import { hostileContract } from '../../support/hostileLookups';
import { createArgumentTree } from '../../../src/panels/html/typedValues';
import { PARTNER_PACKAGE, partnerDalf } from '../../../fake-ledger/src/partnerPackage';

const sigs = [decodeArchive(partnerDalf())];
const TOKEN = `${PARTNER_PACKAGE}:Partner.Token:Token`;
const CID = `00${'ab'.repeat(32)}ca1220${'cd'.repeat(32)}`;
const ALICE = `Alice::1220${'ef'.repeat(32)}`;

const token = (over: Record<string, unknown> = {}) => ({
  issuer: ALICE,
  owner: ALICE,
  amount: '10.5000000000',
  decimals: '2',
  tags: ['<b>bold</b>'],
  meta: { values: { k: 'v' }, extra: 'more' },
  locks: [[ALICE, '2026-01-01']],
  kind: 'Escrow',
  settlement: { tag: 'Deferred', value: '2026-02-01' },
  previous: CID,
  active: true,
  ...over,
});

describe('values drawn with their Daml-LF types', () => {
  it("puts each field's declared type on hover, with the type arguments put in", () => {
    const out = createArgumentTree(token(), TOKEN, sigs).toString();
    assert.match(out, /<span class="v-key" title="Numeric 10"><bdi>amount<\/bdi><\/span>/);
    assert.match(out, /<span class="v-key" title="Map Party Date"><bdi>locks<\/bdi><\/span>/);
    assert.match(out, /<span class="v-key" title="Optional \(ContractId Token\)"><bdi>previous<\/bdi><\/span>/);
    assert.match(out, /<span class="v-key" title="Optional Text"><bdi>extra<\/bdi><\/span>/, "Meta's parameter is Text here");
    assert.match(out, /<span class="v-key" title="Text"><bdi>k<\/bdi><\/span>/, "a TextMap's values");
  });

  it('shows a ContractId T as the contract link, saying which template it points to', () => {
    const out = createArgumentTree(token(), TOKEN, sigs).toString();
    assert.ok(out.includes(`data-open-id="${CID}" data-kind="contract"`), 'the link keeps its action');
    assert.ok(out.includes(`title="A contract of ${TOKEN}"><bdi>Token</bdi></span>`), out);
  });

  it('names enums and variants with their type; a constructor carrying a value shows it typed', () => {
    const out = createArgumentTree(token(), TOKEN, sigs).toString();
    assert.match(
      out,
      /class="v-enum" title="Escrow, an enum of [0-9a-f]{64}:Partner\.Types:TransferKind"><span class="muted"><bdi>TransferKind<\/bdi>\.<\/span><bdi>Escrow/,
    );
    assert.match(
      out,
      /class="v-variant" title="Deferred, a constructor of [^"]*:Partner\.Types:Settlement"><span class="muted"><bdi>Settlement<\/bdi>\.<\/span><bdi>Deferred<\/bdi><\/span> <span class="v-str">"<bdi>2026-02-01/,
    );
    const immediate = createArgumentTree(token({ settlement: { tag: 'Immediate', value: {} } }), TOKEN, sigs).toString();
    assert.match(immediate, /Settlement<\/bdi>\.<\/span><bdi>Immediate<\/bdi><\/span><\/li>/, 'a constructor of () shows no value');
  });

  it('escapes ledger strings as everywhere', () => {
    const out = createArgumentTree(token({ kind: '<img src=x>' }), TOKEN, sigs).toString();
    assert.ok(!out.includes('<b>bold'));
    assert.ok(!out.includes('<img'));
    assert.ok(out.includes('&lt;b&gt;bold'));
  });

  it('draws what the signatures do not know as before: another template, a field or constructor they lack', () => {
    const v = token();
    assert.equal(createArgumentTree(v, `${'0'.repeat(64)}:Partner.Token:Token`, sigs).toString(), valueTree(v).toString());
    assert.equal(createArgumentTree(v, TOKEN, []).toString(), valueTree(v).toString());
    const odd = createArgumentTree(token({ surprise: 1, settlement: { tag: 'Unknown', value: 1 } }), TOKEN, sigs).toString();
    assert.match(odd, /<span class="v-key"><bdi>surprise<\/bdi><\/span>/);
    assert.ok(!odd.includes('Settlement</bdi>.'), 'an unknown constructor is not named');
  });

  it("a contract panel's body: untyped first, typed when the signatures are given; the package to read is the template's", () => {
    const l = hostileContract(token());
    const created = l.found ? l.response.created : undefined;
    assert.ok(created);
    created.createdEvent.templateId = TOKEN;
    const target = { kind: 'contract' as const, id: l.contractId, node: 'n' };
    assert.equal(typedPackageOf(l), PARTNER_PACKAGE);
    const untyped = answerBody(l, target).toString();
    const typed = answerBody(l, target, sigs).toString();
    assert.ok(!untyped.includes('v-enum'));
    assert.ok(typed.includes('class="v-enum"') && typed.includes('title="Numeric 10"'));
    assert.ok(typed.includes(`data-open-id="${CID}"`));
  });
});
