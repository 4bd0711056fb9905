// The import graph of src/: every import goes to its own floor or below (the layer order of
// eslint.config.mjs, which `npm run lint` enforces file by file), and no module imports itself
// back through others (no circle), type-only imports included.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');
/** The fake ledger's package: beside src/, never importing it. */
const FAKE_LEDGER = path.join(ROOT, 'fake-ledger', 'src');

function sources(dir = SRC): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)) {
    const target = path.resolve(path.dirname(file), m[1]);
    const candidates = [`${target}.ts`, path.join(target, 'index.ts'), target];
    const hit = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
    if (hit && hit.endsWith('.ts')) out.push(hit);
  }
  return out;
}

const folderOf = (file: string) => {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel.length > 1 ? rel[0] : 'extension';
};

describe('the layers of src/', () => {
  it('every import goes to its own floor or below, as eslint.config.mjs orders them', async () => {
    const { LAYERS } = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href)) as { LAYERS: string[][] };
    const floor = new Map<string, number>(LAYERS.flatMap((f, i) => f.map((folder) => [folder, i] as [string, number])));
    floor.set('extension', LAYERS.length);
    const folders = new Set(sources().map(folderOf));
    assert.deepEqual(
      [...folders].filter((f) => !floor.has(f)),
      [],
      'every folder of src/ has a floor',
    );
    const upward: string[] = [];
    for (const file of sources())
      for (const target of importsOf(file))
        if (floor.get(folderOf(target))! > floor.get(folderOf(file))!) upward.push(`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`);
    assert.deepEqual(upward, []);
  });

  it('a page imports only the protocol and the modules a page may use (no host code)', async () => {
    const { PAGE_REFUSES } = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href)) as { PAGE_REFUSES: string[] };
    assert.ok(PAGE_REFUSES.includes('ledger'));
    const pages = sources().filter((f) => folderOf(f) === 'webview');
    assert.ok(pages.length > 5, 'the pages were found');
    const reaching = pages.flatMap((f) =>
      importsOf(f)
        .filter((t) => PAGE_REFUSES.includes(folderOf(t)))
        .map((t) => `${path.relative(SRC, f)} → ${path.relative(SRC, t)}`),
    );
    assert.deepEqual(reaching, []);
    assert.ok(
      pages.some((f) => importsOf(f).some((t) => folderOf(t) === 'protocol')),
      'the pages read their messages from src/protocol/',
    );
  });

  it('has no file over 500 lines, in src/, test/ or the fake ledger: one job each', () => {
    const tests = fs
      .readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.includes('fixtures'))
      .map((f) => path.join(ROOT, 'test', f));
    const fakeTests = fs
      .readdirSync(path.join(ROOT, 'fake-ledger', 'test'), { encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(ROOT, 'fake-ledger', 'test', f));
    const long = [...sources(), ...sources(FAKE_LEDGER), ...tests, ...fakeTests]
      .map((f) => [path.relative(ROOT, f), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > 500);
    assert.deepEqual(long, []);
  });

  it('keeps the fake ledger a package of its own: it imports nothing of src/, and src/ only its demo entry', () => {
    const outward = sources(FAKE_LEDGER).flatMap((f) =>
      importsOf(f)
        .filter((t) => !t.startsWith(FAKE_LEDGER))
        .map((t) => `${path.relative(ROOT, f)} → ${path.relative(ROOT, t)}`),
    );
    assert.deepEqual(outward, []);
    const inward = sources().flatMap((f) =>
      importsOf(f)
        .filter((t) => t.startsWith(FAKE_LEDGER) && t !== path.join(FAKE_LEDGER, 'demo.ts'))
        .map((t) => `${path.relative(ROOT, f)} → ${path.relative(ROOT, t)}`),
    );
    assert.deepEqual(inward, []);
  });

  it('has no import circle', () => {
    const graph = new Map([...sources(), ...sources(FAKE_LEDGER)].map((f) => [f, importsOf(f)]));
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (f: string, trail: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        circles.push([...trail.slice(trail.indexOf(f)), f].map((x) => path.relative(SRC, x)).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) visit(t, [...trail, f]);
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f, []);
    assert.deepEqual(circles, []);
  });
});
