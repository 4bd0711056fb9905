// The fake node vets and unvets packages on a synchronizer as Canton does (docs/fake-node.md):
// POST /v2/package-vetting/update, a ParticipantAdmin only; a dry run changes nothing; a reference
// that matches no package is UNRESOLVED_VETTING_REFERENCE when vetting and ignored when unvetting;
// one that matches several versions is AMBIGUOUS_VETTING_REFERENCE when vetting; a change whose
// operation is Empty or a reference with only a version is a deserialization failure; a node connected to
// two synchronizers needs the synchronizer's id. Per version, every answer checked against its spec.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { PARTNER_PACKAGE } from '../src/packageRoutes';
import { send } from '../../test/support/specBodies';
import { dar, packageIdOf } from '../../test/support/darBuilder';

type Json = Record<string, unknown>;
const vet = (...packages: Json[]) => ({ operation: { Vet: { value: { packages } } } });
const unvet = (...packages: Json[]) => ({ operation: { Unvet: { value: { packages } } } });

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`the fake node vets and unvets packages as Canton ${version} does`, function () {
    this.timeout(30_000);
    let node: FakeLedgerNode;
    const call = (body: unknown, user = 'participant_admin') =>
      send(node, 'POST', '/v2/package-vetting/update', JSON.stringify(body), { authorization: `Bearer ${node.mintToken(user)}` });
    const vettedIds = (r: { json?: Json }, which: 'newVettedPackages' | 'pastVettedPackages') =>
      (((r.json?.[which] ?? {}) as Json).packages as { packageId: string }[] | undefined)?.map((p) => p.packageId) ?? [];
    const sync = () => ({ synchronizerId: node.ledger.synchronizerId });

    beforeEach(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, singleSynchronizer: true });
    });
    afterEach(async () => {
      assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows');
      await node.close();
    });

    it('vets a package by id, then unvets it by name; a dry run changes nothing (UpdateVettedPackagesOpts, PackageService.updateVettedPackages)', async () => {
      const dry = await call({ changes: [vet({ packageId: PARTNER_PACKAGE })], dryRun: true });
      assert.equal(dry.status, 200, dry.text);
      assert.ok(vettedIds(dry, 'newVettedPackages').includes(PARTNER_PACKAGE));
      assert.ok(!vettedIds(dry, 'pastVettedPackages').includes(PARTNER_PACKAGE));
      const still = await call({ changes: [vet({ packageId: PARTNER_PACKAGE })], dryRun: true });
      assert.ok(!vettedIds(still, 'pastVettedPackages').includes(PARTNER_PACKAGE), 'the dry run vetted nothing');

      const vetted = await call({ changes: [vet({ packageId: PARTNER_PACKAGE })], ...sync() });
      assert.equal(vetted.status, 200, vetted.text);
      assert.ok(vettedIds(vetted, 'newVettedPackages').includes(PARTNER_PACKAGE));
      const serial = ((vetted.json?.newVettedPackages ?? {}) as Json).topologySerial as number;
      assert.ok(serial > (((vetted.json?.pastVettedPackages ?? {}) as Json).topologySerial as number));

      const unvetted = await call({ changes: [unvet({ packageName: 'canton-lens-partner-app' })] });
      assert.equal(unvetted.status, 200, unvetted.text);
      assert.ok(vettedIds(unvetted, 'pastVettedPackages').includes(PARTNER_PACKAGE));
      assert.ok(!vettedIds(unvetted, 'newVettedPackages').includes(PARTNER_PACKAGE));
    });

    it('refuses what Canton refuses: no ParticipantAdmin (403), an unresolved or ambiguous vetting reference, a change with no operation, a bad reference', async () => {
      assert.equal((await call({ changes: [vet({ packageId: PARTNER_PACKAGE })] }, 'alice')).status, 403);
      const unknown = await call({ changes: [vet({ packageId: 'f'.repeat(64) })] });
      assert.equal(unknown.status, 404, unknown.text);
      assert.equal(unknown.json?.code, 'UNRESOLVED_VETTING_REFERENCE');
      assert.match(String(unknown.json?.cause), /package-id: 'f+' does not match any package in the package store\. Reason: No packages with package ID f+/);
      // Unvetting what matches nothing is no error (an old package unvetted "just in case").
      assert.equal((await call({ changes: [unvet({ packageName: 'no-such-package' })] })).status, 200);
      const twoVersions = await call({ changes: [vet({ packageName: 'canton-lens-demo-model' })] });
      if (twoVersions.status !== 200) {
        assert.equal(twoVersions.json?.code, 'AMBIGUOUS_VETTING_REFERENCE', twoVersions.text);
        assert.match(String(twoVersions.json?.cause), /matches multiple packages/);
      }
      // No operation: the JSON decoder's 400 (the oneOf needs one of its keys); Empty: FieldNotSet(operation).
      const none = await call({ changes: [{ operation: {} }] });
      assert.equal(none.status, 400, none.text);
      const empty = await call({ changes: [{ operation: { Empty: {} } }] });
      assert.equal(empty.json?.code, 'PROTO_DESERIALIZATION_FAILURE', empty.text);
      const onlyVersion = await call({ changes: [vet({ packageVersion: '1.0.0' })] });
      assert.equal(onlyVersion.json?.code, 'PROTO_DESERIALIZATION_FAILURE', onlyVersion.text);
      const elsewhere = await call({ changes: [vet({ packageId: PARTNER_PACKAGE })], synchronizerId: 'other::1220ab' });
      assert.equal(elsewhere.json?.code, 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER', elsewhere.text);
    });

    it('checks expectedTopologySerial against the vetting transaction before any change, in a dry run too (PackageOps.checkCurrentSerial)', async () => {
      const serialOf = (r: { json?: Json }, which: 'newVettedPackages' | 'pastVettedPackages') => ((r.json?.[which] ?? {}) as Json).topologySerial as number;
      const probe = await call({ changes: [], dryRun: true, ...sync() });
      const current = serialOf(probe, 'newVettedPackages');
      const prior = (value: number) => ({ serial: { Prior: { value } } });
      const vetted = await call({ changes: [vet({ packageId: PARTNER_PACKAGE })], expectedTopologySerial: prior(current), ...sync() });
      assert.equal(vetted.status, 200, vetted.text);
      assert.equal(serialOf(vetted, 'newVettedPackages'), current + 1);
      for (const [expected, shown] of [
        [prior(current), `Some(${current})`],
        [{ serial: { NoPrior: {} } }, 'None'],
      ] as const) {
        for (const dryRun of [false, true]) {
          const stale = await call({ changes: [unvet({ packageId: PARTNER_PACKAGE })], expectedTopologySerial: expected, dryRun, ...sync() });
          assert.equal(stale.status, 400, stale.text);
          assert.equal(stale.json?.code, 'TOPOLOGY_SERIAL_MISMATCH');
          assert.equal(stale.json?.cause, `The provided serial Some(${current + 1}) did not match the expected serial ${shown}.`);
          assert.equal(stale.json?.errorCategory, 9);
        }
      }
      const unchanged = await call({ changes: [], dryRun: true, ...sync() });
      assert.equal(serialOf(unchanged, 'newVettedPackages'), current + 1, 'nothing was applied');
      assert.ok(vettedIds(unchanged, 'newVettedPackages').includes(PARTNER_PACKAGE));
      const zero = await call({ changes: [], expectedTopologySerial: prior(0), ...sync() });
      assert.equal(zero.json?.code, 'PROTO_DESERIALIZATION_FAILURE', zero.text);
      assert.match(String((zero.json?.context as Json).reason), /^InvariantViolation\(expected_topology_serial,Received the non-positive 0/);
      // Without the field, or with an empty serial, nothing is checked.
      assert.equal((await call({ changes: [], expectedTopologySerial: { serial: { Empty: {} } }, ...sync() })).status, 200);
    });

    it('on 3.4, a package vets only with its dependencies and a dependency unvets only with its dependents; from 3.5 (protocol version 35) both may go alone', async () => {
      const mainPayload = Buffer.from(`vetting-main-${version}`);
      const depPayload = Buffer.from(`vetting-dep-${version}`);
      const [main, dep] = [packageIdOf(mainPayload), packageIdOf(depPayload)];
      const upload = await fetch(`${node.url}/v2/dars?vetAllPackages=false`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${node.mintToken('participant_admin')}` },
        body: new Uint8Array(dar({ name: 'vetting-main-1.0.0', payload: mainPayload, deps: [{ name: 'vetting-dep-1.0.0', payload: depPayload }] })),
      });
      assert.equal(upload.status, 200, await upload.text());
      const notVetted = (r: { status: number; json?: Json; text: string }, id: string) => {
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json?.code, 'TOPOLOGY_DEPENDENCIES_NOT_VETTED');
        assert.equal(r.json?.cause, 'Package vetting failed due to dependencies not being vetted');
        assert.equal(r.json?.errorCategory, 9);
        assert.equal((r.json?.context as Json).unvetted, `Set(${id})`);
      };
      const alone = (dryRun: boolean) => call({ changes: [vet({ packageId: main })], dryRun, ...sync() });
      if (version === '3.4') {
        notVetted(await alone(true), dep);
        notVetted(await alone(false), dep);
        const both = await call({ changes: [vet({ packageId: main }, { packageId: dep })], ...sync() });
        assert.equal(both.status, 200, both.text);
        notVetted(await call({ changes: [unvet({ packageId: dep })], ...sync() }), dep);
        const gone = await call({ changes: [unvet({ packageId: main }, { packageId: dep })], ...sync() });
        assert.equal(gone.status, 200, gone.text);
        assert.ok(!vettedIds(gone, 'newVettedPackages').includes(dep));
      } else {
        const vetted = await alone(false);
        assert.equal(vetted.status, 200, vetted.text);
        assert.ok(vettedIds(vetted, 'newVettedPackages').includes(main));
        assert.ok(!vettedIds(vetted, 'newVettedPackages').includes(dep));
      }
    });
  });
}
