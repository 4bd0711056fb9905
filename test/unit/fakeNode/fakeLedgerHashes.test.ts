// The fake ledger computes Canton's hashes and reads DARs with libraries of its own (the official
// core-tx-visualizer, fflate, protobuf-ts), not the product's code: checked here against the
// vectors of real nodes and against the product, so each checks the other.
import * as assert from 'node:assert/strict';
import { keyFingerprint, preparedTransactionHash, rawEd25519Key, topologyMultiHash } from '../../../fake-ledger/src/cantonHashes';
import { NotADar, readUploadedDar } from '../../../fake-ledger/src/darFiles';
import { cantonFingerprint, generateDevKey } from '../../../src/execute/signingKeys';
import { readDar } from '../../../src/daml/darArchive';
import { dar, dalf, packageIdOf, zip } from '../../support/darBuilder';

describe("the fake ledger's own hashes and DAR reader", () => {
  it('gives a key the fingerprint real nodes give it (generate-topology vectors), raw or SPKI DER', async () => {
    assert.equal(
      await keyFingerprint(Buffer.from('MCowBQYDK2VwAyEA3AB+vSMlgXW4HPdc0ZyLBauZTbXf8JRYDU+L4Q4+2Rk=', 'base64')),
      '1220676c8aac018d37ec757ef601f395444e4ce4a46d11f76ed0c1c53c971f8fe1d3',
    );
    assert.equal(
      await keyFingerprint(Buffer.from('AvC9tFfulOw6L9riF2ixaLyc9hQAfL/w/aBLia/V+xc=', 'base64')),
      '1220d6f2bfc0efae700e421a5f0a5dd454243cf11be318913b0106d6b8648e13ce80',
    );
    const k = generateDevKey();
    assert.equal(await keyFingerprint(Buffer.from(k.publicKey, 'base64')), cantonFingerprint(Buffer.from(k.publicKey, 'base64')));
    assert.throws(() => rawEd25519Key(Buffer.alloc(31)));
  });

  it('makes the multi-hash of topology transactions independent of their order', async () => {
    const a = Buffer.from('one');
    const b = Buffer.from('two');
    const h = await topologyMultiHash([a, b]);
    assert.equal(await topologyMultiHash([b, a]), h);
    assert.equal(Buffer.from(h, 'base64').length, 34);
    assert.notEqual(await topologyMultiHash([a]), h);
  });

  it('hashes nothing that is not a prepared transaction', async () => {
    assert.equal(await preparedTransactionHash('not base64 protobuf!'), undefined);
  });

  it('reads the main package id of a DAR as the product does, and refuses what is not one', () => {
    const payload = Buffer.from('a Daml-LF payload');
    const bytes = dar({ name: 'iou-1.0.0', payload, deps: [{ name: 'stdlib', payload: Buffer.from('dep') }] });
    const read = readUploadedDar(bytes);
    assert.equal(read.packageId, packageIdOf(payload));
    assert.equal(read.packageId, readDar(bytes).packageId);
    assert.equal(read.name, readDar(bytes).name);
    const kind = (f: () => unknown) => {
      try {
        f();
        return 'read';
      } catch (e) {
        return e instanceof NotADar ? e.kind : 'other';
      }
    };
    assert.equal(
      kind(() => readUploadedDar(Buffer.from('plain text'))),
      'zip',
    );
    assert.equal(
      kind(() => readUploadedDar(zip([{ name: 'x.dalf', data: dalf(payload) }]))),
      'manifest',
    );
    const tampered = zip([
      { name: 'META-INF/MANIFEST.MF', data: Buffer.from('Manifest-Version: 1.0\nMain-Dalf: m.dalf\n') },
      { name: 'm.dalf', data: dalf(payload, 'f'.repeat(64)) },
    ]);
    assert.equal(
      kind(() => readUploadedDar(tampered)),
      'dalf',
    );
  });
});
