// The workspace's Daml projects against the node's packages: each state, from the package ids and
// the vetting list (hostile and missing fields included).
import * as assert from 'node:assert/strict';
import { builtDarPath, nodePackages, otherVetters, projectOnNode } from '../../../src/daml/packageMatch';
import type { VettedPackages } from '../../../src/ledger/apiTypes';

const id = (c: string) => c.repeat(64);
const vetted = (sync: string, packages: VettedPackages['packages']): VettedPackages => ({
  participantId: 'p::1220',
  synchronizerId: sync,
  topologySerial: 1,
  packages,
});

describe('packages on the node against the workspace', () => {
  const packages = nodePackages(
    [id('a'), id('b'), id('c'), id('d')],
    [
      vetted('da1::1220', [
        { packageId: id('a'), packageName: 'my-app', packageVersion: '1.0.0', validFromInclusive: '2026-01-01T00:00:00Z' },
        { packageId: id('b'), packageName: 'my-app', packageVersion: '1.10.0' },
        // A real node may send null for an optional field.
        { packageId: id('e'), packageName: 'lib', packageVersion: '2.0.0', validUntilExclusive: null as unknown as undefined },
      ]),
      vetted('global::1220', [{ packageId: id('a'), packageName: 'my-app', packageVersion: '1.0.0' }]),
    ],
  );

  it('joins ids and vetting, sorted by name and numeric version, unnamed last', () => {
    assert.deepEqual(
      packages.map((p) => [p.name, p.version, p.packageId[0]]),
      [
        ['lib', '2.0.0', 'e'],
        ['my-app', '1.0.0', 'a'],
        ['my-app', '1.10.0', 'b'],
        [undefined, undefined, 'c'],
        [undefined, undefined, 'd'],
      ],
    );
    assert.deepEqual(
      packages.find((p) => p.packageId === id('a'))!.vetting.map((v) => v.synchronizerId),
      ['da1::1220', 'global::1220'],
    );
    assert.equal(packages.find((p) => p.packageId === id('e'))!.vetting[0].validUntil, undefined);
  });

  it('tells each state of a project', () => {
    assert.deepEqual(projectOnNode({ name: 'my-app', version: '1.0.0', packageId: id('a') }, packages), {
      state: 'vetted',
      synchronizers: ['da1::1220', 'global::1220'],
    });
    assert.deepEqual(projectOnNode({ name: 'x', version: '1.0.0', packageId: id('c') }, packages), { state: 'uploadedNotVetted' });
    assert.deepEqual(projectOnNode({ name: 'my-app', version: '1.0.0', packageId: id('f') }, packages), {
      state: 'otherBuild',
      packageIds: [id('a')],
      vetted: true,
    });
    assert.deepEqual(projectOnNode({ name: 'my-app', version: '1.0.0' }, packages), { state: 'onNodeNotBuilt', packageIds: [id('a')] });
    assert.deepEqual(projectOnNode({ name: 'new', version: '0.1.0', packageId: id('9') }, packages), { state: 'notUploaded' });
    assert.deepEqual(projectOnNode({ name: 'new', version: '0.1.0' }, []), { state: 'notUploaded' });
    assert.equal(builtDarPath({ name: 'my-app', version: '1.0.0' }), '.daml/dist/my-app-1.0.0.dar');
  });

  it("keeps other participants' vetting apart: it neither vets a package here nor adds one the node does not have", () => {
    const mine = (sync: string, ids: string[]): VettedPackages => ({
      ...vetted(
        sync,
        ids.map((packageId) => ({ packageId })),
      ),
      participantId: 'me::1220',
    });
    const theirs = (who: string, ids: string[]): VettedPackages => ({
      ...vetted(
        'da1::1220',
        ids.map((packageId) => ({ packageId, packageName: 'their-app', packageVersion: '2.0.0' })),
      ),
      participantId: who,
    });
    const merged = nodePackages(
      [id('a'), id('b')],
      [mine('da1::1220', [id('a')]), theirs('p2::1220', [id('a'), id('b'), id('z')]), theirs('p3::1220', [id('b')])],
      'me::1220',
    );
    assert.deepEqual(
      merged.map((p) => [p.packageId[0], p.vetting.length, otherVetters(p)]),
      [
        ['a', 1, 1],
        ['b', 0, 2],
      ],
    );
    // Named from the others' list; still not vetted here.
    assert.equal(merged.find((p) => p.packageId === id('b'))!.name, 'their-app');
    assert.deepEqual(projectOnNode({ name: 'their-app', version: '2.0.0', packageId: id('b') }, merged), { state: 'uploadedNotVetted' });
  });
});
