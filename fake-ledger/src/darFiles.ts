// What the fake node reads of an uploaded DAR, with libraries of its own (fflate for the zip,
// protobuf-ts for the DALF), not the product's reader: the manifest's main DALF and its package id,
// the hex SHA-256 of the Archive's payload (daml_lf.proto: payload = 3, hash = 4), checked
// against the hash the archive states.
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { BinaryReader, WireType } from '@protobuf-ts/runtime';

export interface UploadedDar {
  mainDalf: string;
  packageId: string;
  /** The manifest's `Name` (`name-version`), when present. */
  name?: string;
  /** The main DALF's bytes. */
  main: Uint8Array;
  /** Its ArchivePayload, whose hash is the package id. */
  payload: Uint8Array;
  /** The manifest's other DALFs (`Dalfs`): the packages the main one depends on. */
  dependencies: { dalf: string; packageId: string; payload: Uint8Array }[];
}

/** Why the upload is not a DAR: no zip, a zip without a manifest, or a DALF that does not parse. */
export class NotADar extends Error {
  constructor(
    readonly kind: 'zip' | 'manifest' | 'dalf',
    message: string,
  ) {
    super(message);
  }
}

/** A JAR manifest's main section (continuation lines start with one space). */
function manifestFields(text: string): Map<string, string> {
  const lines: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.startsWith(' ') && lines.length > 0) lines[lines.length - 1] += line.slice(1);
    else if (line === '') break;
    else lines.push(line);
  }
  return new Map(lines.filter((l) => l.indexOf(':') > 0).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
}

function packageIdOf(dalf: Uint8Array): { id: string; payload: Uint8Array } {
  let payload: Uint8Array | undefined;
  let stated: string | undefined;
  try {
    const reader = new BinaryReader(dalf);
    while (reader.pos < reader.len) {
      const [field, wire] = reader.tag();
      if (field === 3 && wire === WireType.LengthDelimited) payload = reader.bytes();
      else if (field === 4 && wire === WireType.LengthDelimited) stated = reader.string();
      else reader.skip(wire);
    }
  } catch (e) {
    throw new NotADar('dalf', `the main DALF is not a Daml archive (${(e as Error).message})`);
  }
  if (!payload) throw new NotADar('dalf', 'the main DALF is not a Daml archive: it has no payload');
  const id = createHash('sha256').update(payload).digest('hex');
  if (stated !== undefined && stated !== id) throw new NotADar('dalf', 'the main DALF is damaged: its payload does not hash to the package id it states');
  return { id, payload };
}

/** The largest upload read, and the largest entry inflated: the demo ledger runs in the extension host. */
const MAX_DAR_BYTES = 256 * 1024 * 1024;
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** Inflates the one entry `name` (none else), refusing one larger than `max` once inflated. */
function entry(bytes: Uint8Array, name: string, max: number): Uint8Array | undefined {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => f.name === name && f.originalSize <= max });
  } catch (e) {
    throw new NotADar('zip', `not a zip archive (${(e as Error).message})`);
  }
  return files[name];
}

export function readUploadedDar(bytes: Uint8Array): UploadedDar {
  if (bytes.length > MAX_DAR_BYTES) throw new NotADar('zip', `larger than ${MAX_DAR_BYTES} bytes`);
  const manifest = entry(bytes, 'META-INF/MANIFEST.MF', MAX_MANIFEST_BYTES);
  if (!manifest) throw new NotADar('manifest', 'the zip archive has no META-INF/MANIFEST.MF');
  const fields = manifestFields(Buffer.from(manifest).toString('utf8'));
  const mainDalf = fields.get('Main-Dalf');
  if (!mainDalf) throw new NotADar('manifest', 'the manifest names no Main-Dalf');
  const main = entry(bytes, mainDalf, MAX_DAR_BYTES);
  // A manifest naming a DALF the archive lacks: refused as the legacy layout, as the fake always has (not checked against Canton).
  if (!main) throw new NotADar('manifest', `the manifest names the main DALF "${mainDalf}", which the archive does not hold`);
  const { id, payload } = packageIdOf(main);
  const dependencies = (fields.get('Dalfs') ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '' && d !== mainDalf)
    .flatMap((dalf) => {
      const data = entry(bytes, dalf, MAX_DAR_BYTES);
      if (!data) return [];
      const dep = packageIdOf(data);
      return [{ dalf, packageId: dep.id, payload: dep.payload }];
    });
  return { mainDalf, packageId: id, name: fields.get('Name'), main, payload, dependencies };
}
