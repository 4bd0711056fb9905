// The fake node decodes a body as Canton's circe codecs do (useDefaults = true): a field whose case
// class gives it a default, or that belongs to a scalapb message, may be absent whatever the spec's
// `required` says; the validators after the rights then judge the default. Checked against the
// table of Canton's case classes (spec/canton-decoders-<version>.json) and on real cases over HTTP.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { ApiSchemas } from '../src/spec/apiSchemas';
import served from '../src/spec/servedSchemas.json';
import { send } from '../../test/support/specBodies';

type Json = Record<string, unknown>;
interface DecoderClass {
  fields: { name: string; type: string; default: boolean }[];
  decoderRequires: string[];
  codec: string;
}
const table = (version: FakeVersion) =>
  (
    JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'spec', `canton-decoders-${version}.json`), 'utf8')) as {
      classes: Record<string, DecoderClass>;
    }
  ).classes;

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`the fake node decodes with Canton's defaults (${version})`, function () {
    this.timeout(30_000);
    const spec = (served as unknown as Record<string, { decoderRequires: Record<string, string[]>; schemas: Record<string, { properties?: Json }> }>)[version];

    it("requires of each request schema exactly what its case class's decoder requires: no field with a default", () => {
      let checked = 0;
      for (const [key, c] of Object.entries(table(version))) {
        const name = key.slice(key.lastIndexOf('.') + 1);
        const requires = spec.decoderRequires[name];
        if (!requires || c.codec === 'not found') continue;
        checked++;
        assert.deepEqual(requires, c.codec === 'relaxed' ? [] : c.decoderRequires, key);
        for (const f of c.fields.filter((x) => x.default)) assert.ok(!requires.includes(f.name), `${key}.${f.name} has a default`);
      }
      assert.ok(checked >= 10, `${checked} case classes checked`);
      // Every other request schema is a scalapb message: at most a oneof case's `value` and enums.
      const classNames = new Set(Object.keys(table(version)).map((k) => k.slice(k.lastIndexOf('.') + 1)));
      for (const [name, requires] of Object.entries(spec.decoderRequires)) {
        if (classNames.has(name)) continue;
        for (const f of requires) {
          const p = spec.schemas[name].properties?.[f] as { enum?: unknown; $ref?: string } | undefined;
          assert.ok(f === 'value' || Array.isArray(p?.enum), `${name}.${f}`);
        }
      }
    });

    it('decodes a prefetched key without the fields its class defaults (3.4: templateId too), not without one it requires', () => {
      const schemas = ApiSchemas.for(version);
      const body = (key: Json) =>
        JSON.stringify({
          commands: {
            commandId: 'c',
            actAs: ['Alice::1220'],
            commands: [{ CreateCommand: { templateId: '#p:M:T', createArguments: {} } }],
            prefetchContractKeys: [key],
          },
        });
      const route = 'POST /v2/commands/submit-and-wait-for-transaction';
      // `limit` is an Option; PrefetchContractKey's templateId has a default on 3.4 only.
      const withoutTemplate = schemas.checkRequest(route, body({ contractKey: {} }));
      if (version === '3.4') assert.equal(withoutTemplate.ok, true, JSON.stringify(withoutTemplate));
      else assert.deepEqual(withoutTemplate, { ok: false, reason: 'Missing required field', at: 'commands.prefetchContractKeys[0].templateId' });
      assert.deepEqual(schemas.checkRequest(route, body({ templateId: '#p:M:T' })), {
        ok: false,
        reason: 'Missing required field',
        at: 'commands.prefetchContractKeys[0].contractKey',
      });
    });

    describe('over HTTP', () => {
      let node: FakeLedgerNode;
      const post = (p: string, body: unknown) => send(node, 'POST', p, JSON.stringify(body), { authorization: `Bearer ${node.mintToken('alice')}` });
      const eventFormat = () => ({
        filtersByParty: { [node.ledger.parties.Alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } },
      });
      const refused = (r: { status: number; json?: Json; text: string }, code: string, cause: RegExp) => {
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json?.code, code, r.text);
        assert.match(String(r.json?.cause), cause);
      };

      before(async () => {
        node = await FakeLedgerNode.start({ version, checkResponses: true });
      });
      after(() => node.close());
      afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

      it('a transaction format without its event format decodes; the validator names it', async () => {
        const r = await post('/v2/updates/update-by-id', {
          updateId: node.ledger.samples.transferUpdate,
          updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
        });
        refused(r, 'MISSING_FIELD', /event_format/);
      });

      it('a template or interface filter without its id decodes; FormatValidator names it', async () => {
        const byFilter = (identifierFilter: Json) =>
          post('/v2/state/active-contracts', {
            activeAtOffset: 0,
            eventFormat: { filtersByParty: { [node.ledger.parties.Alice]: { cumulative: [{ identifierFilter }] } } },
          });
        refused(await byFilter({ TemplateFilter: { value: {} } }), 'MISSING_FIELD', /: templateId$/);
        refused(await byFilter({ InterfaceFilter: { value: { includeInterfaceView: true } } }), 'MISSING_FIELD', /: interfaceId$/);
      });

      it('an absent offset of the relaxed legacy requests is 0, as if sent', async () => {
        const acs = await post('/v2/state/active-contracts', { eventFormat: eventFormat() });
        const zero = await post('/v2/state/active-contracts', { activeAtOffset: 0, eventFormat: eventFormat() });
        assert.equal(acs.status, 200, acs.text);
        assert.deepEqual(acs.json, zero.json);
      });

      it('a right without its party decodes (the party is ""); requireParty answers that it is empty', async () => {
        const r = await send(node, 'POST', '/v2/users/alice/rights', JSON.stringify({ userId: 'alice', rights: [{ kind: { CanActAs: { value: {} } } }] }), {
          authorization: `Bearer ${node.mintToken('participant_admin')}`,
        });
        refused(r, 'INVALID_ARGUMENT', /Daml-LF Party is empty$/);
      });

      it('a oneof case without its value is refused at decoding', async () => {
        const r = await post('/v2/state/active-contracts', {
          activeAtOffset: 0,
          eventFormat: { filtersByParty: { [node.ledger.parties.Alice]: { cumulative: [{ identifierFilter: { WildcardFilter: {} } }] } } },
        });
        assert.equal(r.status, 400, r.text);
        assert.match(r.text, /^Invalid value for: body \(Missing required field at '.*identifierFilter\.WildcardFilter\.value'\)$/);
      });
    });
  });
}
