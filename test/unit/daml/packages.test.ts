// The package endpoints against the fake node, on every version, over real HTTP, every answer
// checked against the version's spec: the package ids, the vetting list in pages, DAR upload and
// validation with Canton's refusals (rights, a file that is not a DAR, a second build of a name and
// version already vetted).
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { listAllVettedPackages, listPackageIds, listVettedPackages, uploadDar, validateDar } from '../../../src/ledger/packageRequests';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { dar, packageIdOf, zip } from '../../support/darBuilder';
import { upgradeErrorNames } from '../../../src/daml/upgradeErrorPlaces';
import { rejectsWith } from '../../support/rejectsWith';

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`packages and DARs on ${version}`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    let admin: LedgerClient;
    let alice: LedgerClient;
    const clients: LedgerClient[] = [];
    const clientFor = (user: string) => {
      const c = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken(user) });
      clients.push(c);
      return c;
    };
    const payload = (seed: string) => Buffer.from(`daml-lf package ${seed} ${version}`);

    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true });
      admin = clientFor('participant_admin');
      alice = clientFor('alice');
    });
    after(async () => {
      for (const c of clients) await c.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it('lists the package ids and what is vetted, to any user with a valid token', async () => {
      const ids = (await listPackageIds(alice)).packageIds;
      assert.ok(ids.length >= 2);
      const vetted = await listAllVettedPackages(alice);
      assert.equal(vetted.length, 1);
      assert.equal(vetted[0].synchronizerId, node.ledger.synchronizerId);
      assert.equal(vetted[0].participantId, node.ledger.participantId);
      const names = vetted[0].packages.map((p) => p.packageName);
      assert.ok(names.includes('canton-lens-demo-model'), names.join());
      assert.deepEqual(
        names,
        [...names].sort((a, b) => (a ?? '').localeCompare(b ?? '')),
      );
      for (const p of vetted[0].packages) assert.ok(ids.includes(p.packageId));
      const byPrefix = await listVettedPackages(alice, { packageMetadataFilter: { packageIds: [], packageNamePrefixes: ['canton-lens-demo-m'] } });
      // The demo model in two versions: its Iou template was upgraded (demoLedgerHistory.ts).
      assert.deepEqual(
        byPrefix.vettedPackages?.[0].packages.map((p) => [p.packageName, p.packageVersion]),
        [
          ['canton-lens-demo-model', '1.0.0'],
          ['canton-lens-demo-model', '2.0.0'],
        ],
      );
    });

    it('uploads a DAR as ParticipantAdmin: its package is listed and vetted under its name and version', async () => {
      const bytes = dar({ name: 'my-app-1.2.0', payload: payload('my-app') });
      await rejectsWith(uploadDar(alice, bytes), { kind: 'permissionDenied', status: 403 });
      assert.deepEqual(await uploadDar(admin, bytes), {});
      const id = packageIdOf(payload('my-app'));
      assert.ok((await listPackageIds(alice)).packageIds.includes(id));
      const vetted = (await listAllVettedPackages(alice))[0].packages.find((p) => p.packageId === id);
      assert.deepEqual([vetted?.packageName, vetted?.packageVersion], ['my-app', '1.2.0']);
      assert.ok(vetted?.validFromInclusive);
      // Uploading the same build again changes nothing.
      assert.deepEqual(await uploadDar(admin, bytes), {});
      const upload = node.requests.filter((r) => r.path === '/v2/dars').at(-1)!;
      assert.equal(upload.headers['content-type'], 'application/octet-stream');
    });

    it('uploads without vetting, and on another synchronizer; the vetting list pages by synchronizer', async () => {
      await uploadDar(admin, dar({ name: 'unvetted-0.1.0', payload: payload('unvetted') }), { vetAllPackages: false });
      const id = packageIdOf(payload('unvetted'));
      assert.ok((await listPackageIds(alice)).packageIds.includes(id));
      assert.ok(!(await listAllVettedPackages(alice)).some((v) => v.packages.some((p) => p.packageId === id)));
      await uploadDar(admin, dar({ name: 'elsewhere-1.0.0', payload: payload('elsewhere') }), { synchronizerId: node.ledger.otherSynchronizerId });
      const first = await listVettedPackages(alice, { pageSize: 1 });
      assert.equal(first.vettedPackages?.length, 1);
      assert.ok(first.nextPageToken);
      const second = await listVettedPackages(alice, { pageSize: 1, pageToken: first.nextPageToken });
      assert.equal(second.vettedPackages?.length, 1);
      assert.equal(second.nextPageToken, '');
      assert.notEqual(first.vettedPackages?.[0].synchronizerId, second.vettedPackages?.[0].synchronizerId);
      assert.equal((await listAllVettedPackages(alice, { pageSize: 1 })).length, 2);
    });

    it('validates a DAR without changing anything, and refuses what is not one, as the package service does', async () => {
      const bytes = dar({ name: 'checked-2.0.0', payload: payload('checked') });
      assert.equal(await validateDar(admin, bytes), undefined);
      assert.ok(!(await listPackageIds(alice)).packageIds.includes(packageIdOf(payload('checked'))), 'validation persists nothing');
      await rejectsWith(validateDar(alice, bytes), { kind: 'permissionDenied' });
      const e = await rejectsWith(validateDar(admin, Buffer.from('not a zip at all')), { kind: 'invalidRequest', status: 400 });
      assert.equal(e.code, 'INVALID_DAR');
      const legacy = await rejectsWith(uploadDar(admin, zip([{ name: 'a.dalf', data: Buffer.from('x') }])), { kind: 'invalidRequest' });
      assert.equal(legacy.code, 'INVALID_LEGACY_DAR');
    });

    it('refuses a new version that fails the upgrade checks (NOT_VALID_UPGRADE_PACKAGE), naming the old and the new package', async () => {
      await uploadDar(admin, dar({ name: 'upg-1.0.0', payload: payload('upg-1') }));
      const reason = 'The upgraded input type of choice Iou_Split on template Iou has changed the types of some of its original fields.';
      const next = dar({ name: 'upg-1.1.0', payload: Buffer.from(`daml-lf ${version} canton-lens-fake:not-valid-upgrade:${reason}`) });
      const e = await rejectsWith(validateDar(admin, next), { kind: 'invalidRequest', status: 400 });
      assert.equal(e.code, 'NOT_VALID_UPGRADE_PACKAGE');
      assert.match(
        e.cantonError?.cause ?? '',
        /^Upgrade checks indicate that [0-9a-f]{64} \(upg v1\.1\.0\) cannot be an upgrade of [0-9a-f]{64} \(upg v1\.0\.0\)\. Reason: The upgraded input type/,
      );
      assert.deepEqual(upgradeErrorNames(e.cantonError!.cause), [{ kind: 'choice', name: 'Iou_Split', template: 'Iou' }]);
      // Without an earlier vetted version there is nothing to upgrade: accepted.
      assert.equal(await validateDar(admin, dar({ name: 'fresh-1.1.0', payload: Buffer.from(`canton-lens-fake:not-valid-upgrade:${reason}`) })), undefined);
    });

    it('refuses another build of a name and version already vetted (KNOWN_PACKAGE_VERSION)', async () => {
      await uploadDar(admin, dar({ name: 'twice-1.0.0', payload: payload('twice-a') }));
      const other = dar({ name: 'twice-1.0.0', payload: payload('twice-b') });
      for (const attempt of [validateDar(admin, other), uploadDar(admin, other)]) {
        const e = await rejectsWith(attempt, { kind: 'invalidRequest', status: 400 });
        assert.equal(e.code, 'KNOWN_PACKAGE_VERSION');
        assert.match(
          e.cantonError?.cause ?? '',
          new RegExp(
            `^Tried to vet two packages with the same name and version: ${packageIdOf(payload('twice-a'))} \\(twice v1\\.0\\.0\\) and ${packageIdOf(payload('twice-b'))} \\(twice v1\\.0\\.0\\)\\.$`,
          ),
        );
      }
      assert.ok(!(await listPackageIds(alice)).packageIds.includes(packageIdOf(payload('twice-b'))));
    });
  });
}
