// The .vsix a marketplace user gets: what it holds, and that the VS Code Server installs it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createVSIX } from '@vscode/vsce';
import { PROJECT_ROOT, ensureVsCodeServer, isolatedEnv } from '../vscode/vscodeServer';

describe('the packaged .vsix', function () {
  this.timeout(180_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-vsix-'));
  const vsix = path.join(tmp, 'canton-lens.vsix');
  let entries: string[] = [];

  before(async () => {
    await createVSIX({ cwd: PROJECT_ROOT, packagePath: vsix, dependencies: false });
    entries = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('holds the bundles, manifest, readme, changelog, license and icon', () => {
    for (const f of ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/http.js', 'extension/dist/fakeNode.js',
      'extension/readme.md', 'extension/changelog.md', 'extension/LICENSE.txt', 'extension/media/icon.png', 'extension/package.nls.json',
      'extension/dist/txReview.js', 'extension/media/panel.js', 'extension/media/execute-request.schema.json', 'extension/media/walkthrough/add-node.md']) {
      assert.ok(entries.some((e) => e.toLowerCase() === f.toLowerCase()), `${f} is missing from ${entries.join(', ')}`);
    }
  });

  it('holds nothing that does not run: no sources, tests, maps or node_modules', () => {
    const stray = entries.filter((e) => /(^|\/)(src|test|node_modules|out|\.cache|\.ci)\//.test(e) || /\.(map|ts)$/.test(e));
    assert.deepEqual(stray, []);
  });

  it('keeps undici out of the bundle loaded at activation', () => {
    const dir = path.join(tmp, 'unpacked');
    execFileSync('unzip', ['-q', vsix, 'extension/dist/*', '-d', dir]);
    const activation = fs.readFileSync(path.join(dir, 'extension', 'dist', 'extension.js'), 'utf8');
    // undici's diagnostics channel names survive minification: a marker of its code.
    const undiciMarker = /undici:request:create/;
    assert.ok(!undiciMarker.test(activation), 'extension.js holds undici: the HTTP library would load at activation');
    assert.ok(undiciMarker.test(fs.readFileSync(path.join(dir, 'extension', 'dist', 'http.js'), 'utf8')));
    assert.ok(activation.length < 100 * 1024, `extension.js is ${activation.length} bytes`);
  });

  it('installs into the VS Code Server', () => {
    const serverMain = ensureVsCodeServer();
    const env = isolatedEnv(path.join(tmp, 'env'));
    const common = ['--extensions-dir', path.join(tmp, 'ext'), '--server-data-dir', path.join(tmp, 'sd'), '--user-data-dir', path.join(tmp, 'ud'), '--accept-server-license-terms'];
    const installed = execFileSync(process.execPath, [serverMain, '--install-extension', vsix, ...common], { env, encoding: 'utf8' });
    assert.match(installed, /successfully installed/);
    const list = execFileSync(process.execPath, [serverMain, '--list-extensions', '--show-versions', ...common], { env, encoding: 'utf8' });
    const version = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    assert.match(list, new RegExp(`canton-lens\\.canton-lens@${version.replace(/\./g, '\\.')}`));
  });
});
