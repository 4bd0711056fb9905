import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { BinaryWriter, WireType, type IBinaryWriter } from '@protobuf-ts/runtime';
import { decodePayload, LfError } from '../../../src/daml/lf/lfDecode';
import { dataType, showType } from '../../../src/daml/lf/lfSignatures';

// Packages written field by field, in the forms the reader steps through in place: packed and
// unpacked repeated ints, expressions it steps over, a type written inline after an interned one.
type Build = (w: IBinaryWriter) => void;
const msg = (w: IBinaryWriter, field: number, body: Build) => {
  w.tag(field, WireType.LengthDelimited).fork();
  body(w);
  w.join();
};
const int = (w: IBinaryWriter, field: number, v: number) => w.tag(field, WireType.Varint).int32(v);
const packed = (w: IBinaryWriter, field: number, vs: number[]) => msg(w, field, (p) => vs.forEach((v) => p.int32(v)));

const STRINGS = ['pkg', '1.0.0', 'Main', 'Color', 'Red', 'Green', 'R', 'owner', 'note'];

/** A Package with module Main: enum Color (Red, Green) and record R { owner: Party, note: Text }. */
function pkg(opts: { values?: Uint8Array; typeBody?: Build; extra?: Build } = {}): Uint8Array {
  const w = new BinaryWriter();
  for (const s of STRINGS) w.tag(2, WireType.LengthDelimited).string(s);
  msg(w, 3, (d) => packed(d, 1, [2])); // dname 0: Main (packed)
  msg(w, 3, (d) => int(d, 1, 3)); // dname 1: Color (unpacked)
  msg(w, 3, (d) => int(d, 1, 6)); // dname 2: R
  msg(w, 5, (t) => msg(t, 3, (b) => int(b, 1, 6))); // interned type 0: Party
  msg(w, 4, (m) => int(int(m, 1, 0), 2, 1));
  msg(w, 1, (m) => {
    int(m, 1, 0);
    msg(m, 4, (d) => {
      int(d, 2, 1);
      msg(d, 7, (e) => packed(e, 2, [4, 5]));
    });
    msg(m, 4, (d) => {
      int(d, 2, 2);
      msg(d, 5, (fs) => {
        msg(fs, 1, (f) => msg(int(f, 3, 7), 2, (t) => int(t, 8, 0)));
        msg(fs, 1, (f) => msg(int(f, 3, 8), 2, opts.typeBody ?? ((t) => msg(t, 3, (b) => int(b, 1, 7)))));
      });
    });
    if (opts.values) m.tag(5, WireType.LengthDelimited).bytes(opts.values);
    opts.extra?.(m);
  });
  return w.finish();
}

const payload = (p: Uint8Array) => new BinaryWriter().tag(3, WireType.LengthDelimited).string('2').tag(4, WireType.LengthDelimited).bytes(p).finish();
const decode = (p: Uint8Array) => {
  const bytes = payload(p);
  return decodePayload(bytes, createHash('sha256').update(bytes).digest('hex'));
};
const refuses = (p: Uint8Array, words: RegExp) =>
  assert.throws(
    () => decode(p),
    (e: Error) => e instanceof LfError && words.test(e.message),
  );

describe('reading a Daml-LF package in place', () => {
  it('reads packed and unpacked names and enum values, and steps over expressions without reading them', () => {
    // Not a valid message at all: the reader must only step over it.
    const sig = decode(pkg({ values: new Uint8Array([0xff, 0xff, 0xff, 0x07, 0x00, 0x13]) }));
    assert.equal(sig.name, 'pkg');
    assert.equal(sig.version, '1.0.0');
    assert.deepEqual(dataType(sig, 'Main', 'Color'), { kind: 'enum', name: 'Color', params: [], serializable: false, values: ['Red', 'Green'] });
    const r = dataType(sig, 'Main', 'R');
    assert.ok(r && r.kind === 'record');
    assert.deepEqual(
      r.fields.map((f) => `${f.name}: ${showType(f.type)}`),
      ['owner: Party', 'note: Text'],
    );
  });

  it('reads a type that starts as an interned one and goes on', () => {
    // Type { interned = 0, builtin = Text }: the last of a oneof wins, as protobuf reads it.
    const sig = decode(pkg({ typeBody: (t) => msg(int(t, 8, 0), 3, (b) => int(b, 1, 7)) }));
    const r = dataType(sig, 'Main', 'R');
    assert.ok(r && r.kind === 'record');
    assert.equal(showType(r.fields[1].type), 'Text');
  });

  it('a message longer than the one that holds it', () => {
    // A data type whose record says it is 100 bytes long inside a module that ends sooner.
    const extra: Build = (m) =>
      m
        .tag(4, WireType.LengthDelimited)
        .uint32(100)
        .raw(new Uint8Array([0x10, 0x01]));
    refuses(pkg({ extra }), /truncated or is not a Daml-LF archive/);
  });

  it('a message field written with another wire type', () => {
    refuses(pkg({ extra: (m) => int(m, 4, 3) }), /wrong wire type/);
  });

  it('an interned type that refers to itself', () => {
    const w = new BinaryWriter();
    for (const s of STRINGS) w.tag(2, WireType.LengthDelimited).string(s);
    msg(w, 3, (d) => packed(d, 1, [2]));
    msg(w, 3, (d) => int(d, 1, 6));
    // interned type 0: Optional of interned type 0.
    msg(w, 5, (t) => msg(t, 3, (b) => msg(int(b, 1, 9), 2, (a) => int(a, 8, 0))));
    msg(w, 4, (m) => int(int(m, 1, 0), 2, 1));
    msg(w, 1, (m) => {
      int(m, 1, 0);
      msg(m, 4, (d) => {
        int(d, 2, 1);
        msg(d, 5, (fs) => msg(fs, 1, (f) => msg(int(f, 3, 7), 2, (t) => int(t, 8, 0))));
      });
    });
    refuses(w.finish(), /interned type 0/);
  });
});

describe("a package's modules, built on first use", () => {
  it('refuses a damaged module at decode, before any module is asked for', () => {
    // The damage is in the last module: nothing of the package is used before the refusal.
    const damaged: Build = (m) => msg(m, 6, (t) => int(t, 1, 99));
    assert.throws(
      () => decode(pkg({ extra: damaged })),
      (e: Error) => e instanceof LfError && /interned name 99/.test(e.message),
    );
  });

  it('answers the same definitions however they are first asked for, and clones and serializes as plain data', () => {
    const a = decode(pkg());
    const b = decode(pkg());
    const [ma] = a.modules;
    assert.equal(ma.templates, ma.templates, 'built once');
    assert.deepEqual(structuredClone(b), JSON.parse(JSON.stringify(a)));
    assert.deepEqual(a, b);
    assert.deepEqual(Object.keys(ma), ['name', 'dataTypes', 'templates', 'interfaces']);
  });
});
