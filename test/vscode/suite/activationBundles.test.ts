// What activation loads: dist/extension.js (which runs dist/main.js itself, not through require),
// none of the lazy bundles (each loads with its first use, src/services/lazyBundles.ts); and the
// lookup panels, which are in the main bundle and revive through a serializer registered at
// activation, told among the tabs by their view type.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LAZY_BUNDLES } from '../../../src/services/lazyBundles';
import { cantonLens, resetNodes, until } from './testApi';

/** The bundles of dist/ this extension host has loaded (one process: the tests share its module cache). */
const loadedBundles = () =>
  Object.keys(require.cache)
    .filter((f) => path.basename(path.dirname(f)) === 'dist' && f.endsWith('.js'))
    .map((f) => path.basename(f, '.js'));

const CONTRACT_ID = `00${'a'.repeat(64)}ca101220${'b'.repeat(64)}`;

describe('Lazy bundles', function () {
  this.timeout(60_000);
  after(resetNodes);

  it('loads none of them at activation', async () => {
    await cantonLens();
    const loaded = loadedBundles();
    assert.ok(loaded.includes('extension'), `loaded: ${loaded.join(', ')}`);
    // The HTTP layer loads with the first request (a node's check may have run), the demo ledger with
    // the tests' set-up; the rest with their feature.
    assert.deepEqual(
      loaded.filter((b) => b !== 'http' && b !== 'fakeNode' && (LAZY_BUNDLES as readonly string[]).includes(b)),
      [],
    );
  });

  it('keeps the main bundle’s code cache in the extension’s global storage, after activation', async () => {
    await cantonLens();
    // The extension host's user data (test/vscode/codeServerShim.ts); the global storage is below it.
    const userData = process.env.CANTON_LENS_USER_DATA_DIR;
    assert.ok(userData, 'the tests name the user data folder');
    const caches = () =>
      fs
        .readdirSync(userData, { recursive: true, encoding: 'utf8' })
        .filter((f) => path.basename(path.dirname(f)) === 'v8-code-cache' && /^main-\d+-[0-9a-f]{16}\.v8cache$/.test(path.basename(f)));
    // One file: a cache of an older bundle goes when the new one is written.
    const found = await until('the code cache', () => (caches().length === 1 ? caches() : undefined));
    assert.match(found[0], /canton-lens\.canton-lens/);
    assert.ok(fs.statSync(path.join(userData, found[0])).size > 0);
  });

  it('opens a lookup panel from the main bundle, whose tab names its view type', async () => {
    const api = await cantonLens();
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name: 'lazy', url: 'http://127.0.0.1:9' }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('lazy'));
    const before = loadedBundles();
    await vscode.commands.executeCommand('cantonLens.showContract', CONTRACT_ID, 'lazy');
    assert.deepEqual(
      loadedBundles().filter((b) => b !== 'http' && !before.includes(b)),
      [],
    );
    // VS Code prefixes the view type of an extension's webview ("mainThreadWebview-…"), or may not.
    const tab = await until('the panel’s tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && /(^|-)cantonLens\.ledgerPanel$/.test(t.input.viewType)),
    );
    await vscode.window.tabGroups.close(tab);
  });
});
