// Canton's Daml definitions service on the fake node, on every version, over real HTTP: off by
// default (its paths are unknown: 404), on when asked. What it answers of a package equals what
// the decoder reads from the same package's archive, as far as the service says (not: the LF
// version, data types that are not serializable, interfaces required, TextMap apart from Map).
// The extension reads signatures through it where it is on, and asks a node without it once; a
// package with a map keyed by Text (TextMap or Map Text v: the service does not tell them apart)
// is read from its archive.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { PARTNER_PACKAGE } from '../../../fake-ledger/src/partnerPackage';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { getPackagePayload } from '../../../src/ledger/packageRequests';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { SignatureCache } from '../../../src/daml/lf/lfPackages';
import { nodeSignatures } from '../../../src/daml/lf/nodeSignatures';
import { definitionsOff, hasTextKeyedMap, NodeDefinitions } from '../../../src/daml/lf/nodeDefinitions';
import { signatureFromDefinitions, type DefAllTemplates, type DefTemplateDefinition, type DefTypeSig } from '../../../src/daml/lf/lfDefinitions';
import { uploadDar } from '../../../src/ledger/packageRequests';
import { thingPackage } from '../../support/thingPackage';
import type { LfType, PackageSignature } from '../../../src/daml/lf/lfSignatures';

/** What both say, in one order: the service keys its answers by id, with no order. */
function comparable(sig: PackageSignature) {
  const type = (t: LfType): LfType => {
    if (t.kind === 'builtin' && t.builtin === 'TextMap')
      return { kind: 'builtin', builtin: 'GenMap', args: [{ kind: 'builtin', builtin: 'Text', args: [] }, ...t.args.map(type)] };
    if (t.kind === 'var' || t.kind === 'con' || t.kind === 'builtin' || t.kind === 'syn') return { ...t, args: t.args.map(type) };
    return t;
  };
  const byName = <T extends { name: string }>(xs: T[]) => [...xs].sort((a, b) => a.name.localeCompare(b.name));
  const choice = (c: PackageSignature['modules'][number]['templates'][number]['choices'][number]) => ({
    ...c,
    argType: type(c.argType),
    returnType: type(c.returnType),
  });
  return {
    packageId: sig.packageId,
    name: sig.name,
    version: sig.version,
    modules: byName(sig.modules)
      .map((m) => ({
        name: m.name,
        dataTypes: byName(m.dataTypes.filter((d) => d.serializable && d.kind !== 'interface')).map((d) =>
          d.kind === 'record'
            ? { ...d, fields: d.fields.map((f) => ({ ...f, type: type(f.type) })) }
            : d.kind === 'variant'
              ? { ...d, constructors: d.constructors.map((f) => ({ ...f, type: type(f.type) })) }
              : d,
        ),
        templates: byName(m.templates).map((t) => ({
          ...t,
          choices: byName(t.choices).map(choice),
          implements: [...t.implements].sort((a, b) => a.name.localeCompare(b.name)),
        })),
        interfaces: byName(m.interfaces).map((i) => ({ ...i, viewType: type(i.viewType), choices: byName(i.choices).map(choice), requires: [] })),
      }))
      .filter((m) => m.dataTypes.length + m.templates.length + m.interfaces.length > 0),
  };
}

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`the Daml definitions service on ${version}`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    let alice: LedgerClient;
    const get = async (path: string) => {
      const res = await fetch(node.url + path, { headers: { authorization: `Bearer ${node.mintToken('alice')}` } });
      return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
    };

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, definitionsService: true });
      alice = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice') });
    });
    after(async () => {
      await alice.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, []));

    it("answers a package's signature equal to what its archive decodes to", async () => {
      const decoded = new SignatureCache().decodePayload(await getPackagePayload(alice, PARTNER_PACKAGE), PARTNER_PACKAGE);
      const answer = JSON.parse((await get(`/v2/definitions/packages/${PARTNER_PACKAGE}`)).body) as DefTypeSig;
      const defined = signatureFromDefinitions(PARTNER_PACKAGE, decoded.name, decoded.version, answer);
      assert.equal(defined.lfVersion, '');
      assert.deepEqual(comparable(defined), comparable(decoded));
      assert.ok(
        comparable(decoded).modules.some((m) => m.interfaces.length > 0 && m.templates.some((t) => t.keyType)),
        'the package has interfaces and keys to compare',
      );
    });

    it('a package with a map keyed by Text is read from its archive: the service answers TextMap and Map Text v alike', async () => {
      const answer = JSON.parse((await get(`/v2/definitions/packages/${PARTNER_PACKAGE}`)).body) as DefTypeSig;
      assert.ok(hasTextKeyedMap(answer), "the partner Token's metadata is a TextMap");
      assert.equal(await new NodeDefinitions(alice).signature(PARTNER_PACKAGE), undefined);
      assert.equal(hasTextKeyedMap({ GenMap: { k: { Party: {} }, v: { Text: {} } } }), false);
    });

    it('lists every template, and answers one with the definitions its arguments and choices use', async () => {
      const all = JSON.parse((await get('/v2/definitions/templates')).body) as DefAllTemplates;
      const token = `${PARTNER_PACKAGE}:Partner.Token:Token`;
      assert.ok(all.templates.includes(token));
      const res = await get(`/v2/definitions/templates/${token}`);
      assert.equal(res.status, 200);
      const def = JSON.parse(res.body) as DefTemplateDefinition;
      assert.deepEqual(Object.keys(def).sort(), ['arguments', 'choices', 'definitions', 'implements', 'key']);
      assert.deepEqual(def.key, { Party: {} });
      assert.ok('Archive' in def.choices && def.choices.Archive.consuming);
      assert.deepEqual(def.definitions[`${PARTNER_PACKAGE}:Partner.Types:TransferKind`], { EnumSig: { constructor: ['Direct', 'Escrow', 'Burn'] } });
    });

    it("answers null for a package or template it does not have, and Canton's 500 for an id that is none", async () => {
      assert.deepEqual(await get(`/v2/definitions/packages/${'a'.repeat(64)}`), { status: 200, type: 'application/json', body: 'null' });
      assert.equal((await get(`/v2/definitions/templates/${'a'.repeat(64)}:M:T`)).body, 'null');
      const bad = await get('/v2/definitions/packages/not%20a%20package!');
      assert.equal(bad.status, 500);
      assert.match(bad.body, /LEDGER_API_INTERNAL_ERROR/);
      assert.equal((await get('/v2/definitions/templates')).status, 200);
      const anonymous = await fetch(`${node.url}/v2/definitions/templates`);
      assert.equal(anonymous.status, 401, 'a token is needed, no right');
    });

    it('is off by default: its paths are unknown, and the extension asks such a node once, then reads archives', async () => {
      const plain = await FakeLedgerNode.start({ version });
      const client = new LedgerClient({ baseUrl: plain.url, transport: createUndiciTransport(), getToken: async () => plain.mintToken('alice') });
      try {
        const res = await fetch(`${plain.url}/v2/definitions/packages/${PARTNER_PACKAGE}`, {
          headers: { authorization: `Bearer ${plain.mintToken('alice')}` },
        });
        assert.equal(res.status, 404);
        assert.equal(await res.text(), 'The requested resource could not be found.');
        const first = await nodeSignatures(client, undefined, new SignatureCache());
        assert.ok(definitionsOff(client));
        assert.ok(
          first.packages.some((p) => p.packageId === PARTNER_PACKAGE && p.lfVersion !== ''),
          'read from the archive',
        );
        await nodeSignatures(client, undefined, new SignatureCache());
        const asked = plain.requests.filter((r) => r.path.startsWith('/v2/definitions/') && String(r.headers['user-agent']).startsWith('canton-lens'));
        assert.equal(asked.length, 1, 'the extension asked once');
      } finally {
        await client.close();
        await plain.close();
      }
    });

    it('where it is on, the extension reads packages through it and downloads no archive of theirs', async () => {
      const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice') });
      const admin = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('participant_admin') });
      try {
        const name = `defined-${version}`;
        const { id, dar } = thingPackage(name, 'Def');
        await uploadDar(admin, dar, { synchronizerId: node.ledger.synchronizerId });
        const since = node.requests.length;
        const read = await nodeSignatures(client, undefined, new SignatureCache());
        const paths = node.requests.slice(since).map((r) => r.path);
        const defined = read.packages.find((p) => p.packageId === id);
        assert.ok(defined && defined.lfVersion === '' && defined.name === name, 'read through the service');
        assert.ok(paths.includes(`/v2/definitions/packages/${id}`));
        assert.ok(!paths.includes(`/v2/packages/${id}`), 'its archive was not downloaded');
        const partner = read.packages.find((p) => p.packageId === PARTNER_PACKAGE);
        assert.ok(partner && partner.lfVersion !== '', 'the partner package, which has a TextMap, from its archive');
        assert.ok(!definitionsOff(client));
      } finally {
        await client.close();
        await admin.close();
      }
    });
  });
}
