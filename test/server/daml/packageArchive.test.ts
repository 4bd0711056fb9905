// A package's archive from the node (`GET /v2/packages/{package-id}`), on every version, over real
// HTTP, every answer checked against the version's spec: the bytes decode to the package's
// signature under the id asked for; an uploaded DAR's package comes back as uploaded; an id the
// node does not have is PACKAGE_NOT_FOUND; a package refused or not decoding is left out with why.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { PARTNER_PACKAGE } from '../../../fake-ledger/src/partnerPackage';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { getPackagePayload, listPackageIds, uploadDar } from '../../../src/ledger/packageRequests';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { SignatureCache } from '../../../src/daml/lf/lfPackages';
import { nodeSignatures } from '../../../src/daml/lf/nodeSignatures';
import { showType, templatesOf, unreadSummary } from '../../../src/daml/lf/lfSignatures';
import { redacted } from '../../../fake-ledger/src/cantonErrorBodies';
import { thingPackage } from '../../support/thingPackage';
import { rejectsWith } from '../../support/rejectsWith';

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`package archives on ${version}`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    let admin: LedgerClient;
    let alice: LedgerClient;

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true });
      const client = (user: string) => new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken(user) });
      admin = client('participant_admin');
      alice = client('alice');
    });
    after(async () => {
      await admin.close();
      await alice.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it("answers a listed package's archive, which decodes to its signature", async () => {
      assert.ok((await listPackageIds(alice)).packageIds?.includes(PARTNER_PACKAGE));
      const cache = new SignatureCache();
      const sig = cache.decodePayload(await getPackagePayload(alice, PARTNER_PACKAGE), PARTNER_PACKAGE);
      assert.equal(sig.name, 'canton-lens-partner-app');
      assert.deepEqual(
        templatesOf(sig).map(({ template }) => template.name),
        ['Token', 'LockedToken', 'TransferOffer'],
      );
    });

    it('answers an uploaded package as it was uploaded', async () => {
      const { id, dar } = thingPackage(`uploaded-${version}`, 'Up');
      await uploadDar(admin, dar, { synchronizerId: node.ledger.synchronizerId });
      const sig = new SignatureCache().decodePayload(await getPackagePayload(alice, id), id);
      const [{ template }] = templatesOf(sig);
      assert.equal(template.name, 'Thing');
      const thing = sig.modules[0].dataTypes.find((d) => d.name === 'Thing');
      assert.ok(thing?.kind === 'record');
      assert.deepEqual(
        thing.fields.map((f) => showType(f.type)),
        ['Party', 'Numeric 4'],
      );
    });

    it("reads every package of the node once: those it will not give are left out with the node's reason", async () => {
      const asked: string[] = [];
      const client = new LedgerClient({
        baseUrl: node.url,
        transport: createUndiciTransport(),
        getToken: async () => node.mintToken('alice'),
        onRequest: (r) => asked.push(r.path),
      });
      try {
        const cache = new SignatureCache();
        const first = await nodeSignatures(client, undefined, cache);
        assert.ok(first.packages.some((p) => p.packageId === PARTNER_PACKAGE));
        assert.ok(
          first.missing.length > 0 && first.missing.every((m) => /PACKAGE_NOT_FOUND|Could not find package/.test(m.reason)),
          JSON.stringify(first.missing),
        );
        const downloads = asked.filter((p) => p === `/v2/packages/${PARTNER_PACKAGE}`).length;
        assert.equal(downloads, 1);
        const again = await nodeSignatures(client, undefined, cache);
        assert.equal(asked.filter((p) => p === `/v2/packages/${PARTNER_PACKAGE}`).length, 1, 'a package id decoded once is not downloaded again');
        assert.equal(
          again.packages.find((p) => p.packageId === PARTNER_PACKAGE),
          first.packages.find((p) => p.packageId === PARTNER_PACKAGE),
        );
      } finally {
        await client.close();
      }
    });

    it('keeps why a package was not read: refused (403), an archive that does not decode, a list refused', async () => {
      const path = `/v2/packages/${PARTNER_PACKAGE}`;
      node.injectFault({ path, fault: { type: 'reply', ...redacted(403) }, times: 1 });
      let sigs = await nodeSignatures(alice, undefined, new SignatureCache());
      assert.ok(!sigs.packages.some((p) => p.packageId === PARTNER_PACKAGE));
      assert.match(sigs.missing.find((m) => m.packageId === PARTNER_PACKAGE)?.reason ?? '', /refused it \(403\)/);
      node.injectFault({ path, fault: { type: 'reply', status: 200, contentType: 'application/octet-stream', body: 'not an archive' }, times: 1 });
      sigs = await nodeSignatures(alice, undefined, new SignatureCache());
      assert.match(sigs.missing.find((m) => m.packageId === PARTNER_PACKAGE)?.reason ?? '', /archive does not decode: .*not package/);
      node.injectFault({ path: '/v2/packages', fault: { type: 'reply', ...redacted(403) }, times: 1 });
      sigs = await nodeSignatures(alice, undefined, new SignatureCache());
      assert.deepEqual(sigs.packages, []);
      assert.match(sigs.refused ?? '', /refused it \(403\)/);
      assert.ok(unreadSummary('n', sigs)?.includes("completion uses the workspace's Daml"));
      // Drained: the node gives the package again.
      sigs = await nodeSignatures(alice, undefined, new SignatureCache());
      assert.ok(sigs.packages.some((p) => p.packageId === PARTNER_PACKAGE));
    });

    it('refuses an id it does not have with PACKAGE_NOT_FOUND', async () => {
      await rejectsWith(getPackagePayload(alice, 'e'.repeat(64)), { status: 404, code: 'PACKAGE_NOT_FOUND' });
    });
  });
}
