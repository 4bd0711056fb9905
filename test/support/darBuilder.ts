// Builds DARs for tests: a zip (stored or deflated entries) with a JAR manifest naming the main
// DALF, and DALFs that are real `Archive` messages (hash_function 1, payload 3, hash 4).
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}

const lengthDelimited = (field: number, bytes: Buffer) => Buffer.concat([varint(field * 8 + 2), varint(bytes.length), bytes]);

/** A DALF whose payload is `payload`; `statedHash` overrides the hash it states (a tampered one). */
export function dalf(payload: Buffer, statedHash?: string): Buffer {
  const hash = statedHash ?? createHash('sha256').update(payload).digest('hex');
  return Buffer.concat([varint(1 * 8 + 0), varint(0), lengthDelimited(3, payload), lengthDelimited(4, Buffer.from(hash, 'utf8'))]);
}

export const packageIdOf = (payload: Buffer) => createHash('sha256').update(payload).digest('hex');

export function zip(files: { name: string; data: Buffer; store?: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    const body = f.store ? f.data : deflateRawSync(f.data);
    const crc = crc32(f.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(f.store ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(f.store ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** A DAR of one main package (and optional dependencies), as `daml build` lays it out. */
export function dar(o: { name: string; payload: Buffer; deps?: { name: string; payload: Buffer }[]; manifest?: string }): Buffer {
  const main = `${o.name}-${packageIdOf(o.payload)}/${o.name}-${packageIdOf(o.payload)}.dalf`;
  const deps = (o.deps ?? []).map((d) => ({ name: `${o.name}-${packageIdOf(o.payload)}/${d.name}-${packageIdOf(d.payload)}.dalf`, data: dalf(d.payload) }));
  // JAR manifests wrap lines at 72 bytes, continuing with one space.
  const wrap = (line: string) => line.match(/.{1,70}/g)!.join('\r\n ');
  const manifest =
    o.manifest ??
    [
      'Manifest-Version: 1.0',
      'Created-By: damlc',
      wrap(`Name: ${o.name}`),
      'Sdk-Version: 3.4.0',
      wrap(`Main-Dalf: ${main}`),
      wrap(`Dalfs: ${[main, ...deps.map((d) => d.name)].join(', ')}`),
      'Format: daml-lf',
      'Encryption: non-encrypted',
      '',
    ].join('\r\n');
  return zip([{ name: 'META-INF/MANIFEST.MF', data: Buffer.from(manifest, 'utf8') }, { name: main, data: dalf(o.payload) }, ...deps.map((d) => ({ ...d }))]);
}
