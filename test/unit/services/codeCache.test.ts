// The main bundle's code cache: written after a run without one, taken by the next process, a
// refused cache ignored and written again, an unwritable folder harmless, and the bundle's lines
// kept (its source map applies). Each "next activation" is a child process, as VS Code starts one:
// within one process V8 would find the script in its own compilation cache.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fnv1a64, runCachedBundle, WRAPPER_HEAD, WRAPPER_TAIL, type CodeCacheState } from '../../../src/services/codeCache';

const CODE_CACHE = path.resolve(__dirname, '../../../src/services/codeCache.js');

let tmp: string;
let bundle: string;
let cacheDir: string;

/** A CommonJS bundle that uses its wrapper's arguments and has functions to compile. */
function writeBundle(marker: string): void {
  const lines = [
    `// ${marker}`,
    "const path = require('node:path');",
    'exports.where = () => new Error(`here`).stack;',
    'exports.file = () => [path.basename(__filename), __dirname, module.exports === exports];',
    ...Array.from({ length: 200 }, (_, i) => `exports.f${i} = (x) => [x, ${i}].map((y) => y * 2).join('-');`),
    'exports.activate = () => { let s = 0; for (let i = 0; i < 200; i++) s += exports[`f${i}`](i).length; return s; };',
  ];
  fs.writeFileSync(bundle, lines.join('\n'));
}

/** One activation in a fresh process: run the bundle, activate, save; what became of the cache. */
function activateInChild(contentHash?: string): { state: CodeCacheState; activated: number } {
  const script = `
    const { runCachedBundle } = require(${JSON.stringify(CODE_CACHE)});
    const b = runCachedBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)}, require, ${JSON.stringify(contentHash)});
    const activated = b.exports.activate();
    b.save();
    process.stdout.write(JSON.stringify({ state: b.state, activated }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { state: CodeCacheState; activated: number };
}

const cacheFiles = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []);

describe('code cache of the main bundle', function () {
  this.timeout(30_000);

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
    bundle = path.join(tmp, 'main.js');
    cacheDir = path.join(tmp, 'storage', 'v8-code-cache');
    writeBundle(`bundle ${Math.random()}`);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('runs the bundle as a CommonJS module of its own path, with the caller’s require', () => {
    const b = runCachedBundle<{ file: () => unknown[]; activate: () => number }>(bundle, undefined, require);
    assert.equal(b.state, 'off');
    assert.deepEqual(b.exports.file(), ['main.js', tmp, true]);
    assert.ok(b.exports.activate() > 0);
    b.save();
    assert.deepEqual(cacheFiles(), []);
  });

  it('reads a bundle that is not ASCII (a development build keeps its comments) as UTF-8', () => {
    fs.writeFileSync(bundle, '// “quoted”\nexports.text = () => "…→é";\n');
    assert.equal(runCachedBundle<{ text: () => string }>(bundle, undefined, require).exports.text(), '…→é');
  });

  it('keeps the bundle’s lines, so that its source map applies', () => {
    const b = runCachedBundle<{ where: () => string }>(bundle, cacheDir, require);
    assert.match(b.exports.where(), new RegExp(`${bundle.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:3:`));
  });

  it('runs a bundle the build wrote inside its module wrapper as it is, its lines kept', () => {
    fs.writeFileSync(bundle, `${WRAPPER_HEAD}${fs.readFileSync(bundle, 'utf8')}${WRAPPER_TAIL}`);
    const b = runCachedBundle<{ where: () => string; file: () => unknown[] }>(bundle, cacheDir, require);
    assert.deepEqual(b.exports.file(), ['main.js', tmp, true]);
    // Line 3 of the unwrapped bundle is line 4 of this file.
    assert.match(b.exports.where(), new RegExp(`${bundle.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:4:`));
    assert.equal(activateInChild().state, 'missing');
    assert.equal(activateInChild().state, 'used');
  });

  it('names the cache by the content hash the build gives, without hashing the bundle, and by the V8 that runs it', () => {
    const first = activateInChild('0123456789abcdef');
    assert.equal(first.state, 'missing');
    const size = fs.statSync(bundle).size;
    assert.deepEqual(cacheFiles(), [`main-${size}-${fnv1a64(`0123456789abcdef ${process.versions.v8} ${process.arch}`)}.v8cache`]);
    assert.equal(activateInChild('0123456789abcdef').state, 'used');
    // Another build's hash: compiled afresh, and the old cache goes.
    assert.equal(activateInChild('fedcba9876543210').state, 'missing');
    assert.equal(cacheFiles().length, 1);
    assert.notEqual(cacheFiles()[0], `main-${size}-${fnv1a64(`0123456789abcdef ${process.versions.v8} ${process.arch}`)}.v8cache`);
  });

  it('hashes a short text with 64-bit FNV-1a', () => {
    // The published test vectors of FNV-1a 64.
    assert.equal(fnv1a64(''), 'cbf29ce484222325');
    assert.equal(fnv1a64('a'), 'af63dc4c8601ec8c');
    assert.equal(fnv1a64('foobar'), '85944171f73967e8');
  });

  it('writes the cache after a run without one, and the next activation takes it', () => {
    const first = activateInChild();
    assert.equal(first.state, 'missing');
    assert.equal(cacheFiles().length, 1);
    assert.match(cacheFiles()[0], /^main-\d+-[0-9a-f]{16}\.v8cache$/);
    const written = fs.readFileSync(path.join(cacheDir, cacheFiles()[0]));
    assert.ok(written.length > 0);
    const second = activateInChild();
    assert.deepEqual(second, { state: 'used', activated: first.activated });
    // A used cache is not written again.
    assert.deepEqual(fs.readFileSync(path.join(cacheDir, cacheFiles()[0])), written);
  });

  it('ignores a cache V8 refuses, runs the bundle all the same and writes a good one', () => {
    activateInChild();
    const file = path.join(cacheDir, cacheFiles()[0]);
    fs.writeFileSync(file, Buffer.from('not bytecode at all, and of the wrong length'));
    const refused = activateInChild();
    assert.equal(refused.state, 'rejected');
    assert.ok(refused.activated > 0);
    assert.notEqual(fs.readFileSync(file).toString('latin1'), 'not bytecode at all, and of the wrong length');
    assert.equal(activateInChild().state, 'used');
  });

  it('keys the cache by the bundle’s content: a changed bundle of the same size is compiled afresh, and its old cache goes', () => {
    activateInChild();
    const before = cacheFiles();
    const text = fs.readFileSync(bundle, 'utf8');
    fs.writeFileSync(bundle, text.replace('here', 'HERE'));
    assert.equal(activateInChild().state, 'missing');
    assert.equal(cacheFiles().length, 1);
    assert.notDeepEqual(cacheFiles(), before);
  });

  it('is harmless when the storage cannot be written', () => {
    // A file where the folder should be: neither root nor anyone else can make the folder.
    const blocked = path.join(tmp, 'blocked');
    fs.writeFileSync(blocked, '');
    const dir = path.join(blocked, 'v8-code-cache');
    const b = runCachedBundle<{ activate: () => number }>(bundle, dir, require);
    assert.equal(b.state, 'missing');
    assert.ok(b.exports.activate() > 0);
    assert.doesNotThrow(() => b.save());
    assert.deepEqual(fs.readdirSync(tmp).sort(), ['blocked', 'main.js']);
  });
});
