// The package endpoints against the fake node, on every version, over real HTTP, every answer
// checked against the version's spec: the package ids, the vetting list in pages (this
// participant's and the others'), DAR upload and validation with Canton's refusals (rights, no
// synchronizer named on a node with two, a file that is not a DAR, a second build of a name and
// version already vetted), and a 3.4 node before 3.4.12 with its older vetting list.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import {
  hasVettingList,
  listAllVettedPackages,
  listPackageIds,
  listVettedPackages,
  ownVettingRequest,
  uploadDar,
  validateDar,
} from '../../../src/ledger/packageRequests';
import { parseLedgerVersion } from '../../../src/ledger/ledgerVersion';
import { nodePackages, otherVetters } from '../../../src/daml/packageMatch';
import { OTHER_PARTICIPANT, PARTNER_PACKAGE } from '../../../fake-ledger/src/packageRoutes';
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
    /** The node has two synchronizers: validating and vetting name one. */
    const da1 = () => ({ synchronizerId: node.ledger.synchronizerId });
    const own = () => ownVettingRequest(node.ledger.participantId);

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
      const vetted = await listAllVettedPackages(alice, own());
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
      const byPrefix = await listVettedPackages(alice, { ...own(), packageMetadataFilter: { packageIds: [], packageNamePrefixes: ['canton-lens-demo-m'] } });
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
      await rejectsWith(uploadDar(alice, bytes, da1()), { kind: 'permissionDenied', status: 403 });
      assert.deepEqual(await uploadDar(admin, bytes, da1()), {});
      const id = packageIdOf(payload('my-app'));
      assert.ok((await listPackageIds(alice)).packageIds.includes(id));
      const vetted = (await listAllVettedPackages(alice, own()))[0].packages.find((p) => p.packageId === id);
      assert.deepEqual([vetted?.packageName, vetted?.packageVersion], ['my-app', '1.2.0']);
      assert.ok(vetted?.validFromInclusive);
      // Uploading the same build again changes nothing.
      assert.deepEqual(await uploadDar(admin, bytes, da1()), {});
      const upload = node.requests.filter((r) => r.path === '/v2/dars').at(-1)!;
      assert.equal(upload.headers['content-type'], 'application/octet-stream');
    });

    it('uploads without vetting, and on another synchronizer; the vetting list pages by synchronizer', async () => {
      await uploadDar(admin, dar({ name: 'unvetted-0.1.0', payload: payload('unvetted') }), { vetAllPackages: false });
      const id = packageIdOf(payload('unvetted'));
      assert.ok((await listPackageIds(alice)).packageIds.includes(id));
      assert.ok(!(await listAllVettedPackages(alice, own())).some((v) => v.packages.some((p) => p.packageId === id)));
      await uploadDar(admin, dar({ name: 'elsewhere-1.0.0', payload: payload('elsewhere') }), { synchronizerId: node.ledger.otherSynchronizerId });
      const first = await listVettedPackages(alice, { ...own(), pageSize: 1 });
      assert.equal(first.vettedPackages?.length, 1);
      assert.ok(first.nextPageToken);
      const second = await listVettedPackages(alice, { ...own(), pageSize: 1, pageToken: first.nextPageToken });
      assert.equal(second.vettedPackages?.length, 1);
      assert.equal(second.nextPageToken, '');
      assert.notEqual(first.vettedPackages?.[0].synchronizerId, second.vettedPackages?.[0].synchronizerId);
      assert.equal((await listAllVettedPackages(alice, { ...own(), pageSize: 1 })).length, 2);
      // Unfiltered, the other participant's vetting on da1 comes between: by synchronizer, then participant.
      const all = await listAllVettedPackages(alice, { pageSize: 1 });
      assert.deepEqual(
        all.map((v) => [v.synchronizerId, v.participantId]),
        [
          [node.ledger.synchronizerId, node.ledger.participantId],
          [node.ledger.synchronizerId, OTHER_PARTICIPANT],
          [node.ledger.otherSynchronizerId, node.ledger.participantId],
        ].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1])),
      );
    });

    it('validates a DAR without changing anything, and refuses what is not one, as the package service does', async () => {
      const bytes = dar({ name: 'checked-2.0.0', payload: payload('checked') });
      assert.equal(await validateDar(admin, bytes, da1()), undefined);
      assert.ok(!(await listPackageIds(alice)).packageIds.includes(packageIdOf(payload('checked'))), 'validation persists nothing');
      await rejectsWith(validateDar(alice, bytes, da1()), { kind: 'permissionDenied' });
      const e = await rejectsWith(validateDar(admin, Buffer.from('not a zip at all'), da1()), { kind: 'invalidRequest', status: 400 });
      assert.equal(e.code, 'INVALID_DAR');
      const legacy = await rejectsWith(uploadDar(admin, zip([{ name: 'a.dalf', data: Buffer.from('x') }]), da1()), { kind: 'invalidRequest' });
      assert.equal(legacy.code, 'INVALID_LEGACY_DAR');
    });

    it('refuses a new version that fails the upgrade checks (NOT_VALID_UPGRADE_PACKAGE), naming the old and the new package', async () => {
      await uploadDar(admin, dar({ name: 'upg-1.0.0', payload: payload('upg-1') }), da1());
      const reason = 'The upgraded input type of choice Iou_Split on template Iou has changed the types of some of its original fields.';
      const next = dar({ name: 'upg-1.1.0', payload: Buffer.from(`daml-lf ${version} canton-lens-fake:not-valid-upgrade:${reason}`) });
      const e = await rejectsWith(validateDar(admin, next, da1()), { kind: 'invalidRequest', status: 400 });
      assert.equal(e.code, 'NOT_VALID_UPGRADE_PACKAGE');
      assert.match(
        e.cantonError?.cause ?? '',
        /^Upgrade checks indicate that [0-9a-f]{64} \(upg v1\.1\.0\) cannot be an upgrade of [0-9a-f]{64} \(upg v1\.0\.0\)\. Reason: The upgraded input type/,
      );
      assert.deepEqual(upgradeErrorNames(e.cantonError!.cause), [{ kind: 'choice', name: 'Iou_Split', template: 'Iou' }]);
      // Without an earlier vetted version there is nothing to upgrade: accepted.
      assert.equal(
        await validateDar(admin, dar({ name: 'fresh-1.1.0', payload: Buffer.from(`canton-lens-fake:not-valid-upgrade:${reason}`) }), da1()),
        undefined,
      );
    });

    it('refuses another build of a name and version already vetted (KNOWN_PACKAGE_VERSION)', async () => {
      await uploadDar(admin, dar({ name: 'twice-1.0.0', payload: payload('twice-a') }), da1());
      const other = dar({ name: 'twice-1.0.0', payload: payload('twice-b') });
      for (const attempt of [validateDar(admin, other, da1()), uploadDar(admin, other, da1())]) {
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

    it('refuses to validate, or to vet, without a synchronizer on a node with two, and a synchronizer it is not on, as CantonSyncService does', async () => {
      const bytes = dar({ name: 'where-1.0.0', payload: payload('where') });
      const shown = [node.ledger.synchronizerId, node.ledger.otherSynchronizerId].map((id) => id.replace(/::(.{12}).+$/, '::$1...')).join(', ');
      // Before the DAR is read: a file that is not one is refused for the synchronizer first.
      for (const attempt of [validateDar(admin, bytes), uploadDar(admin, bytes), validateDar(admin, Buffer.from('not a zip'))]) {
        const e = await rejectsWith(attempt, { kind: 'invalidRequest', status: 400 });
        assert.equal(e.code, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
        assert.equal(e.cantonError?.errorCategory, 9);
        assert.equal(e.cantonError?.grpcCodeValue, 9);
        assert.equal(e.cantonError?.cause, `Cannot autodetect synchronizer: currently connected synchronizers ${shown}`);
      }
      const unknown = `elsewhere::1220${'ab'.repeat(32)}`;
      const e = await rejectsWith(validateDar(admin, bytes, { synchronizerId: unknown }), { kind: 'invalidRequest', status: 400 });
      assert.equal(e.code, 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER');
      assert.equal(e.cantonError?.cause, `Cannot upload a dar because the participant is not connected to synchronizer '${unknown}'.`);
      assert.ok(!(await listPackageIds(alice)).packageIds.includes(packageIdOf(payload('where'))), 'nothing uploaded');
      // An id that is not one is refused first, vetting or not.
      for (const attempt of [validateDar(admin, bytes, { synchronizerId: 'da1' }), uploadDar(admin, bytes, { vetAllPackages: false, synchronizerId: 'da1' })]) {
        const bad = await rejectsWith(attempt, { kind: 'invalidRequest', status: 400 });
        assert.equal(bad.code, 'PROTO_DESERIALIZATION_FAILURE');
        assert.equal(bad.cantonError?.context.reason, 'ValueConversionError(synchronizer_id,Invalid unique identifier `da1` with missing namespace.)');
      }
      // Without vetting no synchronizer is needed (nor read).
      assert.deepEqual(await uploadDar(admin, bytes, { vetAllPackages: false, synchronizerId: unknown }), {});
      assert.ok((await listPackageIds(alice)).packageIds.includes(packageIdOf(payload('where'))));
    });

    it("answers other participants' vetting too, and only this participant's when asked by its id", async () => {
      const all = await listAllVettedPackages(alice);
      const theirs = all.filter((v) => v.participantId === OTHER_PARTICIPANT);
      assert.equal(theirs.length, 1);
      assert.ok(theirs[0].packages.some((p) => p.packageId === PARTNER_PACKAGE && p.packageName === 'canton-lens-partner-app'));
      const mine = await listAllVettedPackages(alice, own());
      assert.ok(mine.length > 0 && mine.every((v) => v.participantId === node.ledger.participantId));
      assert.ok(!mine.some((v) => v.packages.some((p) => p.packageId === PARTNER_PACKAGE)), 'this participant has not vetted it');
      // The product's merge: the partner app is on this node, not vetted here, vetted by one other participant.
      const ids = (await listPackageIds(alice)).packageIds;
      const partner = nodePackages(ids, all, node.ledger.participantId).find((p) => p.packageId === PARTNER_PACKAGE)!;
      assert.deepEqual([partner.name, partner.vetting.length, otherVetters(partner)], ['canton-lens-partner-app', 0, 1]);
      const model = nodePackages(ids, all, node.ledger.participantId).find((p) => p.name === 'canton-lens-demo-model' && p.version === '1.0.0')!;
      assert.deepEqual([model.vetting.map((v) => v.synchronizerId), otherVetters(model)], [[node.ledger.synchronizerId], 1]);
    });
  });
}

describe('packages on a node with one synchronizer, and on 3.4.9', function () {
  this.timeout(20_000);
  const nodes: FakeLedgerNode[] = [];
  const clients: LedgerClient[] = [];
  const start = async (options: ConstructorParameters<typeof FakeLedgerNode>[0]) => {
    const node = await FakeLedgerNode.start({ checkResponses: true, ...options });
    nodes.push(node);
    const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('participant_admin') });
    clients.push(client);
    return { node, client };
  };
  after(async () => {
    for (const c of clients) await c.close();
    for (const n of nodes) await n.close();
  });
  afterEach(() => {
    for (const n of nodes) assert.deepEqual(n.responseProblems, []);
  });

  it('validates and vets on the only synchronizer without naming it', async () => {
    const { node, client } = await start({ version: '3.5', singleSynchronizer: true });
    const synchronizers = await client.getConnectedSynchronizers(undefined);
    assert.deepEqual(
      synchronizers.connectedSynchronizers?.map((c) => c.synchronizerAlias),
      ['da1'],
    );
    const bytes = dar({ name: 'solo-1.0.0', payload: Buffer.from('solo') });
    assert.equal(await validateDar(client, bytes), undefined);
    assert.deepEqual(await uploadDar(client, bytes), {});
    const mine = await listAllVettedPackages(client, ownVettingRequest(node.ledger.participantId));
    assert.ok(mine.some((v) => v.synchronizerId === node.ledger.synchronizerId && v.packages.some((p) => p.packageId === packageIdOf(Buffer.from('solo')))));
  });

  it('3.4.9 has no POST /v2/package-vetting/list (404) and lists vetting with GET /v2/package-vetting', async () => {
    const { node, client } = await start({ version: '3.4', versionString: '3.4.9' });
    const version = parseLedgerVersion((await client.getVersion()).version);
    assert.equal(version?.raw, '3.4.9');
    assert.equal(hasVettingList(version), false);
    await rejectsWith(listVettedPackages(client, {}), { status: 404 });
    const legacy = await listAllVettedPackages(client, ownVettingRequest(node.ledger.participantId), {}, 10, { legacy: true });
    assert.ok(legacy.length > 0 && legacy.every((v) => v.participantId === node.ledger.participantId));
    const sent = node.requests.filter((r) => r.path === '/v2/package-vetting').at(-1)!;
    assert.equal(sent.method, 'GET');
    assert.deepEqual(JSON.parse(sent.body), { topologyStateFilter: { participantIds: [node.ledger.participantId], synchronizerIds: [] } });
  });

  it('tells which vetting list a version has', () => {
    const v = (s: string) => parseLedgerVersion(s);
    assert.deepEqual(
      ['3.4.9', '3.4.11', '3.4.12', '3.4.0-snapshot.20251003', '3.5.1', '3.6.0-SNAPSHOT'].map((s) => hasVettingList(v(s))),
      [false, false, true, false, true, true],
    );
    assert.equal(hasVettingList(undefined), true);
  });
});
