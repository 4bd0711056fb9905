// What activation loads: dist/extension.js, none of the lazy bundles (each loads with its first
// use); and how a lookup panel is told among the tabs, which is what loads its bundle at activation
// when a reload left one open (its serializer registers with the bundle).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cantonLens, resetNodes, until } from './testApi';

/** The bundles of src/services/lazyBundles.ts but the HTTP layer and the demo ledger; and the administration commands'. */
const LAZY = [
  'lookups',
  'lookupPanels',
  'browse',
  'daml',
  'agentTools',
  'execute',
  'executeReview',
  'externalSigning',
  'debugAdapter',
  'acrossTime',
  'commandsLoop',
  'commandFailure',
  'txReview',
  'oidc',
  'admin',
];

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
    assert.deepEqual(
      loaded.filter((b) => LAZY.includes(b)),
      [],
    );
  });

  it('loads the lookup panels with the first panel, whose tab names their view type', async () => {
    const api = await cantonLens();
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name: 'lazy', url: 'http://127.0.0.1:9' }], vscode.ConfigurationTarget.Global);
    await until('the node', () => api.nodes.find('lazy'));
    await vscode.commands.executeCommand('cantonLens.showContract', CONTRACT_ID, 'lazy');
    assert.ok(loadedBundles().includes('lookupPanels'));
    // VS Code prefixes the view type of an extension's webview ("mainThreadWebview-…"), or may not.
    const tab = await until('the panel’s tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && /(^|-)cantonLens\.ledgerPanel$/.test(t.input.viewType)),
    );
    await vscode.window.tabGroups.close(tab);
  });
});
