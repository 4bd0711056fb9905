import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BinaryWriter, WireType } from '@protobuf-ts/runtime';
import { zipEntries, zipEntryBytes } from '../../../src/daml/darArchive';
import { decodeArchive, LfError } from '../../../src/daml/lf/lfDecode';
import { decodeDar, SignatureCache } from '../../../src/daml/lf/lfPackages';
import { dataType, showType, type LfModule, type PackageSignature } from '../../../src/daml/lf/lfSignatures';

const root = path.resolve(__dirname, '..', '..', '..', '..');
// A DAR built by the real compiler, from Canton's own tests (test/fixtures/dars/README.md).
const darBytes = () => fs.readFileSync(path.join(root, 'test', 'fixtures', 'dars', 'DamlDefinitionsServiceMain.dar'));
const MAIN_ID = '14f62ac81f5802d0a02aaf6516ac066a96b0ccb170bd64d271cc69ff4bd92da8';
const DEP_ID = '8647afd5a9d03559ca543929fd840e28dfe8c76cd495f049d9df781c5ac387ee';

function dalfOf(id: string): Buffer {
  const bytes = darBytes();
  const e = zipEntries(bytes).find((x) => x.name.endsWith(`-${id}.dalf`));
  assert.ok(e, `the DAR holds ${id}`);
  return zipEntryBytes(bytes, e);
}

const mod = (p: PackageSignature, name: string): LfModule => {
  const m = p.modules.find((x) => x.name === name);
  assert.ok(m, `module ${name}`);
  return m;
};

const fieldsOf = (p: PackageSignature, module: string, name: string) => {
  const d = dataType(p, module, name);
  assert.ok(d && d.kind === 'record', `${name} is a record`);
  return d.fields.map((f) => `${f.name}: ${showType(f.type)}`);
};

/** An Archive around `payload` (daml_lf.proto), stating `hash` (its own when not given). */
function archive(payload: Uint8Array, hash?: string): Uint8Array {
  return new BinaryWriter()
    .tag(1, WireType.Varint)
    .int32(0)
    .tag(3, WireType.LengthDelimited)
    .bytes(payload)
    .tag(4, WireType.LengthDelimited)
    .string(hash ?? createHash('sha256').update(payload).digest('hex'))
    .finish();
}

/** An ArchivePayload of LF `major`.`minor` around `pkg`. */
const payloadOf = (minor: string, pkg: Uint8Array, major = 2) =>
  new BinaryWriter()
    .tag(3, WireType.LengthDelimited)
    .string(minor)
    .tag(major === 2 ? 4 : 2, WireType.LengthDelimited)
    .bytes(pkg)
    .finish();

describe('Daml-LF signatures from a real DAR', () => {
  let dar: ReturnType<typeof decodeDar>;
  let dep: PackageSignature;
  before(() => {
    dar = decodeDar(darBytes());
    const d = dar.packages.find((p) => p.packageId === DEP_ID);
    assert.ok(d);
    dep = d;
  });

  it('decodes every package of the DAR, the main one first, with its name, version and LF version', () => {
    assert.deepEqual(dar.refused, []);
    assert.equal(dar.packages.length, 31);
    assert.deepEqual([dar.main.packageId, dar.main.name, dar.main.version, dar.main.lfVersion], [MAIN_ID, 'DamlDefinitionsServiceMain', '3.4.0', '2.dev']);
    assert.deepEqual([dep.name, dep.version], ['DamlDefinitionsServiceDep', '3.4.0']);
    assert.ok(dar.packages.some((p) => p.name === 'daml-stdlib'));
  });

  it("reads a template's fields with every builtin form: Numeric n, ContractId T, lists, maps, a type from another package", () => {
    assert.deepEqual(fieldsOf(dar.main, 'MainApp', 'AllBuiltinTypesTemplate'), [
      'someParty: Party',
      'someInt: Int64',
      'someDecimal: Numeric 10',
      'someNumeric7: Numeric 7',
      'someText: Text',
      'someBool: Bool',
      'someDate: Date',
      'someTime: Timestamp',
      'relTime: RelTime',
    ]);
    assert.deepEqual(fieldsOf(dar.main, 'MainApp', 'MainTemplate'), [
      'owner: Party',
      'externalRecord: SomeVariant',
      'externalInterface: ContractId MyInterface',
      'someList: [AnotherRecord]',
      'someMap: Map Text AnotherRecord',
    ]);
    const main = dataType(dar.main, 'MainApp', 'MainTemplate');
    assert.ok(main?.kind === 'record');
    const cid = main.fields[2].type;
    assert.ok(cid.kind === 'builtin' && cid.args[0].kind === 'con');
    assert.deepEqual(
      cid.args[0].ref,
      { packageId: DEP_ID, module: 'ExternalDep', name: 'MyInterface' },
      "a reference to another package carries that package's id",
    );
  });

  it('reads records with type parameters, variants, an enum and Optional', () => {
    const list = dataType(dep, 'ExternalDep', 'MyList');
    assert.ok(list?.kind === 'variant');
    assert.deepEqual(list.params, ['t']);
    assert.deepEqual(
      list.constructors.map((c) => `${c.name} ${showType(c.type)}`),
      ['Nil ()', 'MyCons MyList.MyCons t'],
    );
    assert.deepEqual(fieldsOf(dep, 'ExternalDep', 'MyList.MyCons'), ['head: t', 'tail: MyList t']);
    const e = dataType(dep, 'ExternalDep', 'SomeEnum');
    assert.ok(e?.kind === 'enum');
    assert.deepEqual(e.values, ['One', 'Two']);
    assert.deepEqual(fieldsOf(dep, 'ExternalDep', 'TemplateFoo'), [
      'someParty: Party',
      'someRecordField: SomeVariant',
      'someRecordTyped: SomeParamRecord SomeVariant',
      'someOptionalRecField: Optional (MyList Text)',
    ]);
    assert.equal(dataType(dep, 'ExternalDep', 'MyInterface')?.kind, 'interface');
  });

  it('reads templates: keys, choices consuming or not with their argument and return types, interfaces implemented', () => {
    const m = mod(dep, 'ExternalDep');
    const foo = m.templates.find((t) => t.name === 'TemplateFoo');
    assert.ok(foo?.keyType);
    assert.equal(showType(foo.keyType), 'Party');
    assert.deepEqual(
      foo.choices.map((c) => [c.name, c.consuming, showType(c.argType), showType(c.returnType)]),
      [
        ['Archive', true, 'Archive', '()'],
        ['TemplateFoo_NoArgs_RetUnit', false, 'TemplateFoo_NoArgs_RetUnit', '()'],
        ['SourceTemplate_Args_RetRecord', true, 'SourceTemplate_Args_RetRecord', 'AnotherRecord'],
      ],
    );
    assert.deepEqual(fieldsOf(dep, 'ExternalDep', 'SourceTemplate_Args_RetRecord'), ['choiceArg: SomeParamRecord Timestamp']);
    assert.deepEqual(fieldsOf(dep, 'ExternalDep', 'TemplateFoo_NoArgs_RetUnit'), [], 'a choice without arguments takes an empty record');
    const bar = m.templates.find((t) => t.name === 'TemplateBar');
    assert.ok(bar?.keyType);
    assert.equal(showType(bar.keyType), 'Tuple2 Party (SomeParamRecord Int64)');
    assert.deepEqual(bar.implements, [{ packageId: DEP_ID, module: 'ExternalDep', name: 'MyInterface' }]);
  });

  it('reads an interface: its view type and its choices', () => {
    const i = mod(dep, 'ExternalDep').interfaces.find((x) => x.name === 'MyInterface');
    assert.ok(i);
    assert.equal(showType(i.viewType), 'MyInterfaceViewType');
    assert.deepEqual(fieldsOf(dep, 'ExternalDep', 'MyInterfaceViewType'), ['name: Text', 'value: Int64']);
    assert.deepEqual(
      i.choices.map((c) => [c.name, c.consuming, showType(c.returnType)]),
      [
        ['MyNonConsumingChoice', false, 'Int64'],
        ['MyChoice', true, 'Tuple2 (ContractId MyInterface) Int64'],
        ['Archive', true, '()'],
      ],
    );
  });

  it('decodes one archive as `GET /v2/packages/{id}` answers it, checked against the id asked for', () => {
    const sig = decodeArchive(dalfOf(DEP_ID), DEP_ID);
    assert.equal(sig.packageId, DEP_ID);
    assert.throws(
      () => decodeArchive(dalfOf(DEP_ID), MAIN_ID),
      (e: Error) => e instanceof LfError && e.message.includes(`not package ${MAIN_ID}`),
    );
  });
});

describe('Daml-LF archives that do not decode', () => {
  const refuses = (bytes: Uint8Array, words: RegExp) =>
    assert.throws(
      () => decodeArchive(bytes),
      (e: Error) => e instanceof LfError && words.test(e.message),
    );

  it('a truncated archive', () => {
    const dalf = dalfOf(DEP_ID);
    refuses(dalf.subarray(0, dalf.length - 100), /truncated or is not a Daml-LF archive/);
    refuses(dalf.subarray(0, 20), /truncated|no payload/);
  });

  it('bytes that are no archive', () => {
    refuses(Buffer.from('PK\x03\x04 this is a zip, not a DALF', 'latin1'), /truncated or is not a Daml-LF archive|no payload/);
    refuses(new Uint8Array(0), /no payload/);
  });

  it('a payload that does not hash to the id the archive states', () => {
    const dalf = Buffer.from(dalfOf(DEP_ID));
    dalf[dalf.length - 200] ^= 0xff;
    refuses(dalf, /does not hash to the package id it states/);
  });

  it('an LF version that is not supported: LF 1, and an LF 2 minor this reader does not know', () => {
    refuses(archive(payloadOf('15', new Uint8Array([0x0a, 0x00]), 1)), /Daml-LF 1\.15/);
    refuses(archive(payloadOf('99', new Uint8Array(0))), /Daml-LF 2\.99, a version this reader does not know/);
  });

  it('a package that refers to an interned string it does not have', () => {
    // Package { metadata { name_interned_str: 5 } } with no interned strings.
    const pkg = new BinaryWriter().tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int32(5).join().finish();
    refuses(archive(payloadOf('2', pkg)), /interned string 5/);
  });
});

describe('the signature cache', () => {
  it('decodes a package id once, and keeps a refusal as well', () => {
    const cache = new SignatureCache();
    const dalf = dalfOf(DEP_ID);
    const first = cache.decode(dalf, DEP_ID);
    assert.equal(cache.decode(new Uint8Array(0), DEP_ID), first, 'the id is not decoded again');
    assert.equal(cache.get(DEP_ID), first);
    const bad = 'f'.repeat(64);
    assert.throws(() => cache.decode(dalf, bad), LfError);
    assert.ok(cache.refusal(bad)?.message.includes('not package'));
    assert.throws(() => cache.decode(dalfOf(DEP_ID), bad), LfError);
  });
});
