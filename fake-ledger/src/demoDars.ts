// The demo ledger's packages as `daml build` lays them out: a zip with a JAR manifest naming the
// main DALF, and DALFs that are `Archive` messages (daml_lf.proto: hash_function = 1, payload = 3,
// hash = 4). A package's payload is the seed its id hashes (demoLedgerData.ts), so the built DAR's
// main package id is the one the ledger runs: the demo workspace's projects read as built and on
// the node. The fake cannot compile Daml: the payload is no Daml-LF.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BinaryWriter, WireType } from '@protobuf-ts/runtime';
import { zipSync } from 'fflate';

export interface DemoPackage {
  name: string;
  version: string;
}

/** The demo ledger's packages, in dependency order: the model data-depends on the holding interface. */
export const DEMO_PACKAGES: readonly DemoPackage[] = [
  { name: 'canton-lens-demo-holding', version: '1.0.0' },
  { name: 'canton-lens-demo-model', version: '1.0.0' },
];

const payloadOf = (p: DemoPackage) => Buffer.from(`package:${p.name}-${p.version}`, 'utf8');

/** The package id the ledger gives `p`: the hex SHA-256 of its payload. */
export const demoPackageId = (p: DemoPackage) => createHash('sha256').update(payloadOf(p)).digest('hex');

function dalf(p: DemoPackage): Uint8Array {
  return new BinaryWriter()
    .tag(1, WireType.Varint)
    .int32(0)
    .tag(3, WireType.LengthDelimited)
    .bytes(payloadOf(p))
    .tag(4, WireType.LengthDelimited)
    .string(demoPackageId(p))
    .finish();
}

/** A JAR manifest line, wrapped at 72 bytes with continuation lines that start with one space. */
const wrap = (line: string) => line.match(/.{1,70}/g)!.join('\r\n ');

/** The DAR `daml build` writes for `main`, holding `deps` as dependency DALFs. */
export function demoDar(main: DemoPackage, deps: readonly DemoPackage[] = []): Uint8Array {
  const dir = `${main.name}-${main.version}-${demoPackageId(main)}`;
  const entry = (p: DemoPackage) => `${dir}/${p.name}-${p.version}-${demoPackageId(p)}.dalf`;
  const manifest = [
    'Manifest-Version: 1.0',
    'Created-By: damlc',
    wrap(`Name: ${main.name}-${main.version}`),
    'Sdk-Version: 3.4.0',
    wrap(`Main-Dalf: ${entry(main)}`),
    wrap(`Dalfs: ${[main, ...deps].map(entry).join(', ')}`),
    'Format: daml-lf',
    'Encryption: non-encrypted',
    '',
  ].join('\r\n');
  // A fixed time: the same bytes on every run.
  const mtime = new Date('2026-11-01T00:00:00Z');
  return zipSync(
    {
      'META-INF/MANIFEST.MF': [Buffer.from(manifest, 'utf8'), { mtime }],
      ...Object.fromEntries([main, ...deps].map((p) => [entry(p), [dalf(p), { mtime }]])),
    },
    { level: 6 },
  );
}

/**
 * Writes each demo package's DAR where `daml build` would, into `<root>/<folder>/.daml/dist/<name>-<version>.dar`:
 * `folders` maps a package name to its project's folder under `root`. The model's DAR holds the
 * holding package, on which it depends. Returns the paths written.
 */
export function writeDemoDars(root: string, folders: Record<string, string>): string[] {
  const written: string[] = [];
  DEMO_PACKAGES.forEach((p, i) => {
    const folder = folders[p.name];
    if (!folder) return;
    const file = path.join(root, folder, '.daml', 'dist', `${p.name}-${p.version}.dar`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, demoDar(p, DEMO_PACKAGES.slice(0, i)));
    written.push(file);
  });
  return written;
}
