// `CANTON_LENS_BENCH_ONLY=packages npm run bench`: the Packages section of a node with 2,000
// packages (the answers joined and matched to the workspace's projects, against parsing the
// answers), and a 20 MB DAR read and uploaded (the uploading process's memory growth against the
// file's size; the node runs in a process of its own, as a real one does).
import { createHash } from 'node:crypto';
import { readDar } from '../../src/daml/darArchive';
import { nodePackages, projectOnNode } from '../../src/daml/packageMatch';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { uploadDar, validateDar } from '../../src/ledger/packageRequests';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { dar } from '../support/darBuilder';
import type { BenchRow } from './browseBench';
import { lfCompletionBench, lfDecodeBench } from './lfBench';
import { demoLedgerUrl, spawnDemoLedger } from './soak';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gc = () => (globalThis as { gc?: () => void }).gc?.();

function packagesSection(add: (r: BenchRow) => void): void {
  const hex = (s: string) => createHash('sha256').update(s).digest('hex');
  const ids = Array.from({ length: 2_000 }, (_, i) => hex(`pkg${i}`));
  const listText = JSON.stringify({ packageIds: ids });
  const vettedText = JSON.stringify({
    vettedPackages: [
      {
        participantId: 'participant1::1220',
        synchronizerId: 'da1::1220',
        topologySerial: 7,
        packages: ids.map((id, i) => ({
          packageId: id,
          packageName: `pkg-${i % 400}`,
          packageVersion: `1.${Math.floor(i / 400)}.0`,
          validFromInclusive: '2026-01-01T00:00:00Z',
        })),
      },
    ],
    nextPageToken: '',
  });
  const projects = Array.from({ length: 50 }, (_, i) => ({ name: `pkg-${i * 7}`, version: '1.2.0', packageId: i % 3 ? ids[i * 7 + 800] : hex(`other${i}`) }));
  const floor: number[] = [];
  const section: number[] = [];
  for (let run = 0; run < 21; run++) {
    let t = performance.now();
    const list = JSON.parse(listText) as { packageIds: string[] };
    const vetted = JSON.parse(vettedText) as { vettedPackages: Parameters<typeof nodePackages>[1] };
    floor.push(performance.now() - t);
    t = performance.now();
    const pkgs = nodePackages(list.packageIds, vetted.vettedPackages);
    const states = projects.map((p) => projectOnNode(p, pkgs));
    // The rows' texts, as the tree makes them.
    const rows = pkgs.map(
      (p) => `${p.name ?? p.packageId.slice(0, 8)} ${p.version ?? ''} vetted on ${p.vetting.map((v) => v.synchronizerId.split('::')[0]).join(', ')}`,
    );
    if (rows.length !== 2_000 || states.length !== 50) throw new Error('bench: wrong package rows');
    section.push(performance.now() - t);
  }
  const value = median(section);
  add({
    area: 'packages',
    measure: 'Packages of a node with 2,000 packages and 50 workspace projects: rows ready after the answers (baseline: parsing the two answers)',
    value,
    unit: 'ms',
    baseline: median(floor),
    target: '≤ 300 ms',
    ok: value <= 300,
  });
}

async function darUpload(add: (r: BenchRow) => void): Promise<void> {
  const child = spawnDemoLedger();
  const transport = createUndiciTransport();
  try {
    const url = await demoLedgerUrl(child);
    // Same seed, same secret: a node that is never started mints the demo ledger's tokens.
    const twin = new FakeLedgerNode({ version: '3.5' });
    const admin = new LedgerClient({ baseUrl: url, transport: async () => transport, getToken: async () => twin.mintToken('participant_admin') });
    // 20 MB of DALF payload that does not compress (stored entries: a DAR's DALFs mostly are).
    const size = 20 * 1024 * 1024;
    const payload = Buffer.alloc(size);
    for (let i = 0; i < size; i += 32) createHash('sha256').update(String(i)).digest().copy(payload, i);
    const file = dar({ name: 'big-app-1.0.0', payload });
    gc();
    const memory = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = memory();
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, memory())), 5);
    // As the command does: the file's bytes (already in memory here), read as a DAR, validated, uploaded.
    readDar(file);
    // The demo ledger has two synchronizers: Canton cannot pick one for the DAR, as the command asks.
    const synchronizerId = (await admin.getConnectedSynchronizers(undefined)).connectedSynchronizers?.[0]?.synchronizerId;
    await validateDar(admin, file, { synchronizerId });
    await uploadDar(admin, file, { synchronizerId });
    peak = Math.max(peak, memory());
    clearInterval(timer);
    const growth = (peak - before) / file.length;
    add({
      area: 'packages',
      measure: `Validate and upload of a ${(file.length / 1024 / 1024).toFixed(0)} MB DAR: memory growth of the uploading process, per byte of the file`,
      value: growth,
      unit: '×',
      target: '≤ 2×',
      ok: growth <= 2,
    });
  } finally {
    // The node first: a child left running would keep the bench (and its caller's pipe) open.
    child.kill();
    await transport.close().catch(() => undefined);
  }
}

export async function packagesBench(add: (r: BenchRow) => void): Promise<void> {
  packagesSection(add);
  lfDecodeBench(add);
  lfCompletionBench(add);
  await darUpload(add);
}
