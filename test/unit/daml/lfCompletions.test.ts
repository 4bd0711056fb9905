import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import { decodeDar } from '../../../src/daml/lf/lfPackages';
import { lfArgumentFields, lfArgumentSkeleton, lfChoiceCandidates, lfTemplateCandidates, resolveEntity } from '../../../src/daml/lf/lfCompletions';
import type { PackageSignature } from '../../../src/daml/lf/lfSignatures';
import { PARTNER_PACKAGE, partnerDalf } from '../../../fake-ledger/src/partnerPackage';

const ALICE = 'Alice::1220aa';
const partner = [decodeArchive(partnerDalf())];

describe('completion from Daml-LF signatures', () => {
  it('lists templates and interfaces by package name and by package id', () => {
    const labels = lfTemplateCandidates(partner).map((c) => `${c.label} ${c.kind}`);
    assert.deepEqual(labels, [
      '#canton-lens-partner-app:Partner.Token:Holding interface',
      '#canton-lens-partner-app:Partner.Token:LockedToken template',
      '#canton-lens-partner-app:Partner.Token:Token template',
      '#canton-lens-partner-app:Partner.Token:TransferOffer template',
      `${PARTNER_PACKAGE}:Partner.Token:Holding interface`,
      `${PARTNER_PACKAGE}:Partner.Token:LockedToken template`,
      `${PARTNER_PACKAGE}:Partner.Token:Token template`,
      `${PARTNER_PACKAGE}:Partner.Token:TransferOffer template`,
    ]);
  });

  it('lists many packages in label order: the latest version of each name, each id once', () => {
    const sig = (name: string, version: string, id: string, mods: [string, string[]][]): PackageSignature => ({
      packageId: id.repeat(64),
      name,
      version,
      lfVersion: '2.1',
      modules: mods.map(([m, ts]) => ({ name: m, dataTypes: [], interfaces: [], templates: ts.map((t) => ({ name: t, choices: [], implements: [] })) })),
    });
    const sigs = [
      sig('a', '1.0.0', 'c', [
        ['Z', ['T']],
        ['A.B', ['U', 'T']],
      ]),
      sig('a-b', '1.0.0', '0', [['M', ['X']]]),
      sig('a', '2.0.0', '9', [['Y', ['V']]]),
      sig('a', '2.0.0', '9', [['Y', ['V']]]),
      sig('B', '1.0.0', 'f', [['M', ['X', 'Aa', 'a']]]),
    ];
    const labels = lfTemplateCandidates(sigs).map((c) => c.label);
    assert.deepEqual(labels, [...labels].sort(), 'in code-unit order');
    assert.deepEqual(
      labels.filter((l) => l.startsWith('#')),
      ['#B:M:Aa', '#B:M:X', '#B:M:a', '#a-b:M:X', '#a:Y:V'],
    );
    assert.equal(labels.filter((l) => !l.startsWith('#')).length, 8);
    assert.equal(lfTemplateCandidates(sigs), lfTemplateCandidates(sigs), 'one list per list of signatures');
  });

  it("lists a template's and an interface's choices with their arguments and results", () => {
    assert.deepEqual(
      lfChoiceCandidates(partner, '#canton-lens-partner-app:Partner.Token:Token').map((c) => `${c.label}: ${c.detail}`),
      [
        'Archive: () → ()',
        'Transfer: newOwner : Party, amount : Numeric 10, kind : TransferKind → ContractId Token',
        'Token_Split: amounts : [Numeric 10] → [ContractId Token]',
        'Token_Peek: nonconsuming · () → Numeric 10',
      ],
    );
    assert.deepEqual(
      lfChoiceCandidates(partner, `${PARTNER_PACKAGE}:Partner.Token:Holding`).map((c) => c.label),
      ['Holding_Lock', 'Holding_Describe'],
    );
    assert.deepEqual(lfChoiceCandidates(partner, '#other:Partner.Token:Token'), [], 'another package name knows nothing');
    assert.deepEqual(lfArgumentFields(partner, '#canton-lens-partner-app:Partner.Token:TransferOffer', undefined), [
      { name: 'sender', type: 'Party' },
      { name: 'receiver', type: 'Party' },
      { name: 'token', type: 'ContractId Token' },
      { name: 'memo', type: 'Optional Text' },
      { name: 'settlement', type: 'Settlement' },
    ]);
  });

  it('writes a skeleton in the JSON forms: records expanded, a variant first with the others named, enums, Optional null, numbers and dates as text', () => {
    const create = lfArgumentSkeleton(partner, '#canton-lens-partner-app:Partner.Token:Token', undefined, ALICE);
    assert.deepEqual(create?.value, {
      issuer: ALICE,
      owner: ALICE,
      amount: '0.0',
      decimals: '0',
      tags: [],
      meta: { values: {}, extra: null },
      locks: [],
      kind: 'Direct',
      settlement: { tag: 'Immediate', value: {} },
      previous: null,
      active: false,
    });
    assert.deepEqual(create?.notes, ['TransferKind: Direct (also Escrow, Burn)', 'Settlement: Immediate (also Deferred, Netted)']);
    assert.deepEqual(lfArgumentSkeleton(partner, '#canton-lens-partner-app:Partner.Token:Holding', 'Holding_Lock', ALICE)?.value, {
      until: '1970-01-01T00:00:00Z',
    });
    assert.deepEqual(lfArgumentSkeleton(partner, '#canton-lens-partner-app:Partner.Token:Token', 'Token_Peek', ALICE)?.value, {}, 'a choice without arguments');
    assert.equal(lfArgumentSkeleton(partner, '#canton-lens-partner-app:Partner.Token:Nope', undefined, ALICE), undefined);
  });

  it('puts type arguments in, across packages, on the real DAR', () => {
    const dar = decodeDar(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'dars', 'DamlDefinitionsServiceMain.dar')));
    assert.ok(resolveEntity(dar.packages, '#DamlDefinitionsServiceDep:ExternalDep:TemplateFoo')?.template);
    const foo = lfArgumentSkeleton(dar.packages, '#DamlDefinitionsServiceDep:ExternalDep:TemplateFoo', undefined, ALICE);
    assert.deepEqual(foo?.value, {
      someParty: ALICE,
      someRecordField: { tag: 'SomeVariant', value: '0' },
      someRecordTyped: { foo: { tag: 'SomeVariant', value: '0' } },
      someOptionalRecField: null,
    });
    assert.deepEqual(lfArgumentFields(dar.packages, '#DamlDefinitionsServiceDep:ExternalDep:TemplateFoo', 'SourceTemplate_Args_RetRecord'), [
      { name: 'choiceArg', type: 'SomeParamRecord Timestamp' },
    ]);
    assert.deepEqual(lfArgumentSkeleton(dar.packages, '#DamlDefinitionsServiceMain:MainApp:MainTemplate', undefined, ALICE)?.value, {
      owner: ALICE,
      externalRecord: { tag: 'SomeVariant', value: '0' },
      externalInterface: '<contract id>',
      someList: [],
      someMap: [],
    });
  });
});
