// The fake node's Daml-LF packages, written by its own encoder, read by the product's decoder:
// every type form the Canton Network's packages use comes back as the fake described it.
import * as assert from 'node:assert/strict';
import { decodeArchive, decodePayload, LfError } from '../../../src/daml/lf/lfDecode';
import { dataType, interfacesOf, showType, templatesOf, type PackageSignature } from '../../../src/daml/lf/lfSignatures';
import { PARTNER_PACKAGE, PARTNER_PAYLOAD, partnerDalf } from '../../../fake-ledger/src/partnerPackage';
import { lfPayload, packageIdOfPayload, T } from '../../../fake-ledger/src/lfEncode';

const fields = (p: PackageSignature, module: string, name: string) => {
  const d = dataType(p, module, name);
  assert.ok(d?.kind === 'record', `${module}:${name} is a record`);
  return d.fields.map((f) => `${f.name}: ${showType(f.type)}`);
};

describe('Daml-LF packages the fake node writes', () => {
  const sig = decodeArchive(partnerDalf());

  it('decode as a DALF and as the payload the node serves, to the same signature under the same id', () => {
    assert.equal(sig.packageId, PARTNER_PACKAGE);
    assert.deepEqual(decodePayload(PARTNER_PAYLOAD, PARTNER_PACKAGE), sig);
    assert.deepEqual([sig.name, sig.version, sig.lfVersion], ['canton-lens-partner-app', '1.0.0', '2.1']);
    assert.throws(() => decodePayload(PARTNER_PAYLOAD, 'a'.repeat(64)), LfError);
  });

  it('records with Numeric n, ContractId T, Optional, lists, TextMap, Map, enums, variants and type parameters', () => {
    assert.deepEqual(fields(sig, 'Partner.Token', 'Token'), [
      'issuer: Party',
      'owner: Party',
      'amount: Numeric 10',
      'decimals: Int64',
      'tags: [Text]',
      'meta: Meta Text',
      'locks: Map Party Date',
      'kind: TransferKind',
      'settlement: Settlement',
      'previous: Optional (ContractId Token)',
      'active: Bool',
    ]);
    const meta = dataType(sig, 'Partner.Types', 'Meta');
    assert.ok(meta?.kind === 'record');
    assert.deepEqual(meta.params, ['a']);
    assert.deepEqual(fields(sig, 'Partner.Types', 'Meta'), ['values: TextMap Text', 'extra: Optional a']);
    const kind = dataType(sig, 'Partner.Types', 'TransferKind');
    assert.ok(kind?.kind === 'enum');
    assert.deepEqual(kind.values, ['Direct', 'Escrow', 'Burn']);
    const settlement = dataType(sig, 'Partner.Types', 'Settlement');
    assert.ok(settlement?.kind === 'variant');
    assert.deepEqual(
      settlement.constructors.map((c) => `${c.name} ${showType(c.type)}`),
      ['Immediate ()', 'Deferred Date', 'Netted Netting'],
    );
    const token = dataType(sig, 'Partner.Token', 'Token');
    assert.ok(token?.kind === 'record');
    const previous = token.fields.find((f) => f.name === 'previous')!.type;
    assert.ok(previous.kind === 'builtin' && previous.args[0].kind === 'builtin' && previous.args[0].args[0].kind === 'con');
    assert.deepEqual(
      previous.args[0].args[0].ref,
      { packageId: PARTNER_PACKAGE, module: 'Partner.Token', name: 'Token' },
      "the package's reference to itself carries its id",
    );
  });

  it('templates with a key, the interface they implement, and choices with and without arguments', () => {
    assert.deepEqual(
      templatesOf(sig).map(({ module, template: t }) => [module, t.name, t.keyType && showType(t.keyType), t.implements.map((i) => i.name)]),
      [
        ['Partner.Token', 'Token', 'Party', ['Holding']],
        ['Partner.Token', 'LockedToken', undefined, ['Holding']],
        ['Partner.Token', 'TransferOffer', undefined, []],
      ],
    );
    const token = templatesOf(sig)[0].template;
    assert.deepEqual(
      token.choices.map((c) => [c.name, c.consuming, showType(c.returnType)]),
      [
        ['Archive', true, '()'],
        ['Transfer', true, 'ContractId Token'],
        ['Token_Split', true, '[ContractId Token]'],
        ['Token_Peek', false, 'Numeric 10'],
      ],
    );
    assert.deepEqual(fields(sig, 'Partner.Token', 'Transfer'), ['newOwner: Party', 'amount: Numeric 10', 'kind: TransferKind']);
    assert.deepEqual(fields(sig, 'Partner.Token', 'Token_Peek'), []);
  });

  it('an interface with its view and its choices', () => {
    const [{ module, iface }] = interfacesOf(sig);
    assert.deepEqual([module, iface.name, showType(iface.viewType)], ['Partner.Token', 'Holding', 'HoldingView']);
    assert.deepEqual(fields(sig, 'Partner.Token', 'HoldingView'), ['owner: Party', 'amount: Numeric 10', 'instrument: Text']);
    assert.deepEqual(
      iface.choices.map((c) => [c.name, c.consuming, showType(c.argType), showType(c.returnType)]),
      [
        ['Holding_Lock', true, 'Holding_Lock', 'ContractId Holding'],
        ['Holding_Describe', false, 'Holding_Describe', 'Text'],
      ],
    );
  });

  it('a reference to another package by its id', () => {
    const other = lfPayload({
      name: 'uses-partner',
      version: '0.1.0',
      modules: [{ name: 'Uses', records: [{ name: 'Wrap', fields: [['token', T.cid(T.con(`${PARTNER_PACKAGE}:Partner.Token:Token`))]] }] }],
    });
    const wrap = dataType(decodePayload(other, packageIdOfPayload(other)), 'Uses', 'Wrap');
    assert.ok(wrap?.kind === 'record');
    const cid = wrap.fields[0].type;
    assert.ok(cid.kind === 'builtin' && cid.args[0].kind === 'con');
    assert.equal(cid.args[0].ref.packageId, PARTNER_PACKAGE);
  });
});
