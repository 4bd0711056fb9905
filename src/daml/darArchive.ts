// Reads a DAR (a Daml build): a zip whose `META-INF/MANIFEST.MF` names the main DALF, and that
// DALF's package id. A DALF is a serialized `Archive` (daml_lf.proto: hash_function = 1, payload =
// 3, hash = 4); its package id is the hex SHA-256 of `payload`, which the archive also carries in
// `hash`. Both are read and compared, so a tampered DALF is told apart. Nothing is decompressed
// but the manifest and the main DALF. No `vscode` import.
import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';

/** The largest DAR read (Canton's default gRPC message limit for uploads is far below this). */
export const MAX_DAR_BYTES = 256 * 1024 * 1024;

export interface DarInfo {
  /** Every entry's name, in the zip's order. */
  entries: string[];
  /** The manifest's `Main-Dalf`. */
  mainDalf: string;
  /** The main package's id (lowercase hex SHA-256 of the archive payload). */
  packageId: string;
  /** The manifest's `Name` (the build's `name-version`), when present. */
  name?: string;
  sdkVersion?: string;
  /** The DALFs the manifest lists (`Dalfs`), main first. */
  dalfs: string[];
}

export class DarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DarError';
  }
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The zip's central directory: every entry, or why the bytes are not a zip. */
export function zipEntries(bytes: Buffer): ZipEntry[] {
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== LOCAL) throw new DarError(l10n.t('The file is not a zip archive, so not a DAR.'));
  // The end record is within the last 64 KiB + 22 bytes (its comment is at most 65,535 bytes).
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new DarError(l10n.t('The zip archive is cut short or damaged: its directory is missing.'));
  const count = bytes.readUInt16LE(eocd + 10);
  const dirSize = bytes.readUInt32LE(eocd + 12);
  const dirOffset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw new DarError(l10n.t('The zip archive is in the ZIP64 format, which a DAR never needs.'));
  if (dirOffset + dirSize > eocd) throw new DarError(l10n.t('The zip archive is damaged: its directory points outside the file.'));
  const entries: ZipEntry[] = [];
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || bytes.readUInt32LE(p) !== CENTRAL)
      throw new DarError(l10n.t('The zip archive is damaged: entry {0} of its directory is unreadable.', i + 1));
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    entries.push({
      method: bytes.readUInt16LE(p + 10),
      compressedSize: bytes.readUInt32LE(p + 20),
      size: bytes.readUInt32LE(p + 24),
      name: bytes.toString('utf8', p + 46, p + 46 + nameLength),
      localHeader: bytes.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One entry's bytes (stored or deflated), bounded by `maxSize`. */
export function zipEntryBytes(bytes: Buffer, e: ZipEntry, maxSize = MAX_DAR_BYTES): Buffer {
  const h = e.localHeader;
  if (h + 30 > bytes.length || bytes.readUInt32LE(h) !== LOCAL) throw new DarError(l10n.t('The zip archive is damaged: "{0}" cannot be found.', e.name));
  const start = h + 30 + bytes.readUInt16LE(h + 26) + bytes.readUInt16LE(h + 28);
  const end = start + e.compressedSize;
  if (end > bytes.length) throw new DarError(l10n.t('The zip archive is cut short: "{0}" ends after the file does.', e.name));
  if (e.size > maxSize) throw new DarError(l10n.t('"{0}" is too large to read ({1} bytes).', e.name, formatCount(e.size)));
  const raw = bytes.subarray(start, end);
  if (e.method === 0) return raw;
  if (e.method !== 8) throw new DarError(l10n.t('"{0}" is compressed with method {1}, which a DAR does not use.', e.name, e.method));
  try {
    // One output chunk of the size the zip states: without it zlib collects 16 KB chunks and
    // concatenates them, holding the entry twice (a 20 MB DALF cost 40 MB). Never more than deflate
    // can expand to (1,032:1), so a size that lies allocates nothing large.
    const chunkSize = Math.max(64, Math.min(e.size + 1, e.compressedSize * 1032 + 64));
    return inflateRawSync(raw, { maxOutputLength: Math.max(e.size, 1), chunkSize });
  } catch {
    throw new DarError(l10n.t('The zip archive is damaged: "{0}" does not decompress.', e.name));
  }
}

/** A JAR manifest's main section as a map (continuation lines start with one space). */
export function parseManifest(text: string): Map<string, string> {
  const lines: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.startsWith(' ') && lines.length > 0) lines[lines.length - 1] += line.slice(1);
    else if (line === '') break;
    else lines.push(line);
  }
  const out = new Map<string, string>();
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) out.set(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  return out;
}

/** Protobuf fields of one message, by number: varints as numbers, length-delimited as bytes. */
function protoFields(buf: Buffer): Map<number, number | Buffer> {
  const out = new Map<number, number | Buffer>();
  let p = 0;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (p >= buf.length || shift > 49) throw new DarError(l10n.t('The main DALF is not a Daml archive.'));
      const b = buf[p++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  while (p < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) out.set(field, varint());
    else if (wire === 2) {
      const n = varint();
      if (p + n > buf.length) throw new DarError(l10n.t('The main DALF is not a Daml archive.'));
      out.set(field, buf.subarray(p, p + n));
      p += n;
    } else if (wire === 1) p += 8;
    else if (wire === 5) p += 4;
    else throw new DarError(l10n.t('The main DALF is not a Daml archive.'));
  }
  return out;
}

/** The package id of a DALF: SHA-256 of its payload, checked against the hash it states. */
export function dalfPackageId(dalf: Buffer): string {
  const fields = protoFields(dalf);
  const payload = fields.get(3);
  const stated = fields.get(4);
  if (!Buffer.isBuffer(payload)) throw new DarError(l10n.t('The main DALF is not a Daml archive: it has no payload.'));
  const id = createHash('sha256').update(payload).digest('hex');
  if (Buffer.isBuffer(stated) && stated.toString('utf8') !== id)
    throw new DarError(l10n.t('The main DALF is damaged: its payload does not hash to the package id it states.'));
  return id;
}

/** Reads a DAR's manifest and main package id; a clear DarError for anything that is not a DAR. */
export function readDar(bytes: Buffer): DarInfo {
  if (bytes.length > MAX_DAR_BYTES)
    throw new DarError(l10n.t('The file is {0} bytes; a DAR of more than {1} bytes is not read.', formatCount(bytes.length), formatCount(MAX_DAR_BYTES)));
  const entries = zipEntries(bytes);
  const manifestEntry = entries.find((e) => e.name === 'META-INF/MANIFEST.MF');
  if (!manifestEntry) throw new DarError(l10n.t('The zip archive has no META-INF/MANIFEST.MF, so it is not a DAR.'));
  const manifest = parseManifest(zipEntryBytes(bytes, manifestEntry, 1024 * 1024).toString('utf8'));
  const mainDalf = manifest.get('Main-Dalf');
  if (!mainDalf) throw new DarError(l10n.t('The manifest names no Main-Dalf, so the zip archive is not a DAR.'));
  const main = entries.find((e) => e.name === mainDalf);
  if (!main) throw new DarError(l10n.t('The manifest names the main DALF "{0}", which the archive does not hold.', mainDalf));
  const dalfs = (manifest.get('Dalfs') ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  return {
    entries: entries.map((e) => e.name),
    mainDalf,
    packageId: dalfPackageId(zipEntryBytes(bytes, main)),
    name: manifest.get('Name'),
    sdkVersion: manifest.get('Sdk-Version'),
    dalfs: [mainDalf, ...dalfs.filter((d) => d !== mainDalf)],
  };
}
