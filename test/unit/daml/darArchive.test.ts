// Reading a DAR: the manifest's main DALF and its package id, and a clear error for everything
// that is not a DAR (not a zip, damaged, no manifest, no Main-Dalf, a tampered DALF, too large).
import * as assert from 'node:assert/strict';
import { DarError, dalfPackageId, parseManifest, readDar, zipEntries } from '../../../src/daml/darArchive';
import { dalf, dar, packageIdOf, zip } from '../../support/darBuilder';

describe('reading a DAR', () => {
  const payload = Buffer.from('the main package payload '.repeat(50));
  const depPayload = Buffer.from('daml-prim');

  it('finds the main DALF through the manifest (lines wrapped at 72 bytes) and its package id', () => {
    const info = readDar(
      dar({ name: 'my-app-1.0.0-with-a-long-name-so-that-manifest-lines-wrap', payload, deps: [{ name: 'daml-prim', payload: depPayload }] }),
    );
    assert.equal(info.packageId, packageIdOf(payload));
    assert.match(info.mainDalf, /\.dalf$/);
    assert.equal(info.name, 'my-app-1.0.0-with-a-long-name-so-that-manifest-lines-wrap');
    assert.equal(info.sdkVersion, '3.4.0');
    assert.equal(info.dalfs.length, 2);
    assert.equal(info.dalfs[0], info.mainDalf);
    assert.equal(info.entries[0], 'META-INF/MANIFEST.MF');
  });

  it('reads stored and deflated entries alike', () => {
    const main = 'p/main.dalf';
    const manifest = Buffer.from(`Manifest-Version: 1.0\nMain-Dalf: ${main}\n\n`);
    for (const store of [true, false]) {
      const bytes = zip([
        { name: 'META-INF/MANIFEST.MF', data: manifest, store },
        { name: main, data: dalf(payload), store },
      ]);
      assert.equal(readDar(bytes).packageId, packageIdOf(payload));
    }
  });

  const refused = (bytes: Buffer, pattern: RegExp) =>
    assert.throws(
      () => readDar(bytes),
      (e: unknown) => e instanceof DarError && pattern.test(e.message),
    );

  it('says why a file is not a DAR, and never throws anything but a DarError', () => {
    refused(Buffer.from('not a zip at all, just text'), /not a zip archive/);
    refused(Buffer.alloc(0), /not a zip archive/);
    const good = dar({ name: 'x', payload });
    refused(good.subarray(0, good.length - 30), /cut short or damaged|damaged/);
    refused(zip([{ name: 'readme.txt', data: Buffer.from('hi') }]), /no META-INF\/MANIFEST\.MF/);
    refused(zip([{ name: 'META-INF/MANIFEST.MF', data: Buffer.from('Manifest-Version: 1.0\n') }]), /no Main-Dalf/);
    refused(zip([{ name: 'META-INF/MANIFEST.MF', data: Buffer.from('Main-Dalf: gone.dalf\n') }]), /does not hold/);
    refused(
      zip([
        { name: 'META-INF/MANIFEST.MF', data: Buffer.from('Main-Dalf: m.dalf\n') },
        { name: 'm.dalf', data: dalf(payload, 'ab'.repeat(32)) },
      ]),
      /does not hash to the package id/,
    );
    refused(
      zip([
        { name: 'META-INF/MANIFEST.MF', data: Buffer.from('Main-Dalf: m.dalf\n') },
        { name: 'm.dalf', data: Buffer.from([0xff, 0xff, 0xff]) },
      ]),
      /not a Daml archive/,
    );
  });

  it('survives random damage: every byte flipped in turn gives a DarError or a package id', () => {
    const good = dar({ name: 'fuzz', payload: Buffer.from('small') });
    for (let i = 0; i < good.length; i++) {
      const bad = Buffer.from(good);
      bad[i] ^= 0x5a;
      try {
        const info = readDar(bad);
        assert.match(info.packageId, /^[0-9a-f]{64}$/);
      } catch (e) {
        assert.ok(e instanceof DarError, `byte ${i}: ${String(e)}`);
      }
    }
  });

  it('parses a manifest: continuation lines, CRLF, only the main section', () => {
    const m = parseManifest('A: 1\r\nLong: abc\r\n def\r\n\r\nName: other-section\r\n');
    assert.equal(m.get('Long'), 'abcdef');
    assert.equal(m.get('Name'), undefined);
    assert.equal(zipEntries(dar({ name: 'n', payload })).length, 2);
    assert.equal(dalfPackageId(dalf(payload)), packageIdOf(payload));
  });
});
