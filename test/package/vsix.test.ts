// The .vsix a marketplace user gets: what it holds, and that the VS Code Server installs it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as net from 'node:net';
import { useTranslator } from '../../src/l10n/l10n';
import { LAZY_BUNDLES } from '../../src/services/lazyBundles';
import { packagedVsix } from '../support/packagedVsix';
import type * as UndiciTransportModule from '../../src/ledger/undiciTransport';
import { PROJECT_ROOT, ensureVsCodeServer, isolatedEnv } from '../vscode/vscodeServer';

/** A loopback port nothing listens on. */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the packaged .vsix', function () {
  this.timeout(180_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-vsix-'));
  let vsix = '';
  let entries: string[] = [];

  before(async () => {
    vsix = await packagedVsix();
    entries = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('holds the bundles, manifest, translations, readme, changelog, license and icon', () => {
    for (const f of [
      'extension/package.json',
      'extension/dist/extension.js',
      'extension/dist/main.js',
      'extension/dist/http.js',
      'extension/dist/fakeNode.js',
      'extension/readme.md',
      'extension/changelog.md',
      'extension/LICENSE.txt',
      'extension/media/icon.png',
      'extension/package.nls.json',
      'extension/dist/txReview.js',
      'extension/media/panel.js',
      'extension/media/execute-request.schema.json',
      'extension/media/prepare-request.schema.json',
      'extension/media/walkthrough/add-node.md',
      'extension/l10n/bundle.l10n.json',
    ]) {
      assert.ok(
        entries.some((e) => e.toLowerCase() === f.toLowerCase()),
        `${f} is missing from ${entries.join(', ')}`,
      );
    }
  });

  it('leaves out the pseudo-locale, which only the tests use (they read it from the repository)', () => {
    // The files exist (npm run l10n:extract writes them), so their absence here is .vscodeignore's doing.
    for (const f of ['l10n/bundle.l10n.qps-ploc.json', 'package.nls.qps-ploc.json']) assert.ok(fs.existsSync(path.join(PROJECT_ROOT, f)), f);
    assert.deepEqual(
      entries.filter((e) => /qps-ploc/i.test(e)),
      [],
    );
  });

  it('holds every lazy bundle the extension loads (LAZY_BUNDLES, src/services/lazyBundles.ts)', () => {
    assert.ok(LAZY_BUNDLES.includes('oidc') && LAZY_BUNDLES.includes('http') && LAZY_BUNDLES.includes('ledgerCommandsLoop'), LAZY_BUNDLES.join(', '));
    for (const b of LAZY_BUNDLES) assert.ok(entries.includes(`extension/dist/${b}.js`), `dist/${b}.js is loaded lazily but not shipped`);
  });

  it("holds every media file a page loads (media('…') in src/)", () => {
    const read = (dir: string): string =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .map((e) => (e.isDirectory() ? read(path.join(dir, e.name)) : fs.readFileSync(path.join(dir, e.name), 'utf8')))
        .join('\n');
    const loaded = new Set([...read(path.join(PROJECT_ROOT, 'src')).matchAll(/media\('([^']+)'\)/g)].map((m) => m[1]));
    assert.ok(loaded.has('acs.js') && loaded.has('panel.js'));
    for (const f of loaded)
      assert.ok(
        entries.some((e) => e.toLowerCase() === `extension/media/${f}`.toLowerCase()),
        `media/${f} is loaded by a page but not shipped`,
      );
  });

  it('holds nothing that does not run: no sources, tests, maps or node_modules', () => {
    const stray = entries.filter((e) => /(^|\/)(src|test|node_modules|out|\.cache|\.ci)\//.test(e) || /\.(map|ts)$/.test(e));
    assert.deepEqual(stray, []);
  });

  it('keeps undici out of the bundle loaded at activation', () => {
    const dir = path.join(tmp, 'unpacked');
    execFileSync('unzip', ['-q', vsix, 'extension/dist/*', '-d', dir]);
    // Loaded at activation: the entry and the main bundle it runs (src/activation.ts).
    const activation = ['extension.js', 'main.js'].map((f) => fs.readFileSync(path.join(dir, 'extension', 'dist', f), 'utf8')).join('\n');
    // undici's diagnostics channel names survive minification: a marker of its code.
    const undiciMarker = /undici:request:create/;
    assert.ok(!undiciMarker.test(activation), 'extension.js or main.js holds undici: the HTTP library would load at activation');
    assert.ok(undiciMarker.test(fs.readFileSync(path.join(dir, 'extension', 'dist', 'http.js'), 'utf8')));
    // Only our own code loads at activation: every input of extension.js and main.js is a file of src/
    // (esbuild's metafile of the build the package came from). Libraries load lazily, in their own
    // bundles; so do the features of ours that would take it past its bound.
    const meta = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'dist', 'extension.meta.json'), 'utf8')) as {
      outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown> }>;
    };
    const outputs = Object.values(meta.outputs).filter((o) => o.entryPoint !== undefined);
    assert.deepEqual(outputs.map((o) => o.entryPoint).sort(), ['src/activation.ts', 'src/extension.ts']);
    const inputs = outputs.flatMap((o) => Object.keys(o.inputs));
    assert.deepEqual(
      inputs.filter((i) => !i.startsWith('src/')),
      [],
      'code from outside src/ in extension.js or main.js',
    );
    // ASCII only, so that V8 holds the source as a one-byte string (decoded and compiled faster at
    // activation): esbuild escapes other characters but in regular expressions and tagged templates.
    assert.equal(Buffer.byteLength(activation), activation.length, 'characters outside ASCII in extension.js or main.js');
    // And a bound on their size, as a second guard: our own code but the lazy bundles' (about 385 KB
    // minified; undici alone is ~530 KB).
    assert.ok(activation.length < 400 * 1024, `extension.js and main.js are ${activation.length} bytes`);
    // The entries of the lazy bundles of ours stay out of it (each would load at activation).
    for (const entry of ['src/commands/ledgerHistory.ts', 'src/commands/ledgerCommandsLoop.ts', 'src/panels/executeReviewPanel.ts'])
      assert.ok(!inputs.includes(entry), `${entry} is loaded at activation`);
  });

  it('shares the translator set at activation with the lazy HTTP bundle (its own copy of the l10n module)', async () => {
    const http = require(path.join(PROJECT_ROOT, 'dist', 'http.js')) as typeof UndiciTransportModule;
    const transport = http.createUndiciTransport();
    const closed = await unusedPort();
    useTranslator((message, args) => `«${message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]))}»`);
    try {
      const failed = await transport
        .send({ method: 'GET', url: new URL(`http://127.0.0.1:${closed}/v2/version`), headers: {}, timeoutMs: 5_000, maxResponseBytes: 1_000 })
        .then(
          () => undefined,
          (e: unknown) => e as { explanation: string },
        );
      assert.match(failed?.explanation ?? '', /^«Nothing is listening at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
    } finally {
      useTranslator(undefined);
      await transport.close();
    }
  });

  it('installs into the VS Code Server', () => {
    const serverMain = ensureVsCodeServer();
    const env = isolatedEnv(path.join(tmp, 'env'));
    const common = [
      '--extensions-dir',
      path.join(tmp, 'ext'),
      '--server-data-dir',
      path.join(tmp, 'sd'),
      '--user-data-dir',
      path.join(tmp, 'ud'),
      '--accept-server-license-terms',
    ];
    const installed = execFileSync(process.execPath, [serverMain, '--install-extension', vsix, ...common], { env, encoding: 'utf8' });
    assert.match(installed, /successfully installed/);
    const list = execFileSync(process.execPath, [serverMain, '--list-extensions', '--show-versions', ...common], { env, encoding: 'utf8' });
    const version = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    assert.match(list, new RegExp(`canton-lens\\.canton-lens@${version.replace(/\./g, '\\.')}`));
  });
});
