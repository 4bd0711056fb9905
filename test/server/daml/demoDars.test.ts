// The demo workspace's built DARs (fake-ledger/src/demoDars.ts): real DARs that the extension's
// reader reads with the package ids the demo ledger runs, and that the fake node validates and
// takes on upload, on every version; written where `daml build` writes them, the same bytes each time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEMO_PACKAGES, demoDar, writeDemoDars } from '../../../fake-ledger/src/demo';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { readDar } from '../../../src/daml/darArchive';
import { builtDarPath } from '../../../src/daml/packageMatch';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { listAllVettedPackages, listPackageIds, ownVettingRequest, uploadDar, validateDar } from '../../../src/ledger/packageRequests';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';

const [holding, model] = DEMO_PACKAGES;

describe("the demo workspace's built DARs", () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-dars-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("are written where daml build writes them, the same bytes each time, and read with the ledger's package ids", () => {
    const folders = { 'canton-lens-demo-holding': 'daml-holding', 'canton-lens-demo-model': 'daml-model' };
    const written = writeDemoDars(dir, folders);
    assert.deepEqual(written, [path.join(dir, 'daml-holding', builtDarPath(holding)), path.join(dir, 'daml-model', builtDarPath(model))]);
    const first = fs.readFileSync(written[1]);
    writeDemoDars(dir, folders);
    assert.ok(first.equals(fs.readFileSync(written[1])), 'deterministic');
    const info = readDar(first);
    assert.equal(info.name, 'canton-lens-demo-model-1.0.0');
    assert.equal(info.dalfs.length, 2, 'the main DALF and the holding package it depends on');
    const ledger = new FakeLedgerNode({ bigTransactionEvents: 1 }).ledger;
    const iou = ledger.transactions.flatMap((t) => t.events).find((e) => e.kind === 'created' && e.event.templateId.endsWith(':Iou:Iou'));
    assert.ok(iou?.kind === 'created');
    assert.equal(info.packageId, iou.event.templateId.split(':')[0], "the main package is the one the demo ledger's Ious are of");
    assert.equal(readDar(fs.readFileSync(written[0])).name, 'canton-lens-demo-holding-1.0.0');
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: the fake node validates the model's DAR and takes it on upload, as the build of what it already runs`, async () => {
      const node = await FakeLedgerNode.start({ version, bigTransactionEvents: 1, checkResponses: true });
      const client = (user: string) => new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken(user) });
      const admin = client('participant_admin');
      try {
        const bytes = demoDar(model, [holding]);
        const id = readDar(Buffer.from(bytes)).packageId;
        const before = (await listPackageIds(admin)).packageIds;
        assert.ok(before.includes(id), 'the node runs the package the DAR holds');
        await validateDar(admin, bytes, { synchronizerId: node.ledger.synchronizerId });
        assert.deepEqual(await uploadDar(admin, bytes, { synchronizerId: node.ledger.synchronizerId }), {});
        assert.deepEqual((await listPackageIds(admin)).packageIds.sort(), before.sort(), 'nothing new: the same package');
        const vetted = (await listAllVettedPackages(admin, ownVettingRequest(node.ledger.participantId))).flatMap((v) => v.packages);
        assert.deepEqual(
          vetted.filter((p) => p.packageId === id).map((p) => [p.packageName, p.packageVersion]),
          [['canton-lens-demo-model', '1.0.0']],
        );
        assert.deepEqual(node.responseProblems, []);
      } finally {
        await admin.close();
        await node.close();
      }
    });
  }
});
