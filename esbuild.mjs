// Bundles the extension: dist/extension.js (the entry) and dist/main.js (the main bundle), and the
// bundles loaded on first use (each entry but the first two and the pages, loaded by
// src/services/lazyBundles.ts): heavy third-party code, and features of ours too large for the main
// bundle. `--watch` rebuilds on change; `--dev` skips minify.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = !watch && !process.argv.includes('--dev');

/**
 * Every `vscode` import of a Node bundle resolves to src/bundles/vscodeApi.ts, whose own import is
 * the external module: the API's namespace object is made once per bundle, not once per module.
 * @type {esbuild.Plugin}
 */
const oneVscodeNamespace = {
  name: 'one-vscode-namespace',
  setup(build) {
    const shim = path.resolve('src/bundles/vscodeApi.ts');
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.importer === shim ? { path: 'vscode', external: true } : { path: shim }));
  },
};

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [oneVscodeNamespace],
};

// The main bundle is run by the entry through V8's code cache (src/services/codeCache.ts): it is
// written already inside the module wrapper the entry would add, so that its source is one string.
const mainBundle = {
  ...common,
  entryPoints: { main: 'src/extension.ts' },
  outdir: 'dist',
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '})' },
};
/** The entry (a few KB), given the main bundle's hash (undefined in a watch build, where the bundle changes). */
const entryBundle = (mainBundleHash) => ({
  ...common,
  entryPoints: { extension: 'src/activation.ts' },
  outdir: 'dist',
  define: { MAIN_BUNDLE_HASH: JSON.stringify(mainBundleHash) ?? 'undefined' },
});

const builds = [
  // Third-party: undici, oauth4webapi, the transaction decoder, @vscode/debugadapter, the demo ledger.
  { ...common, entryPoints: { http: 'src/ledger/undiciTransport.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { oidc: 'src/auth/oidcProtocol.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { txReview: 'src/execute/preparedTransactionReview.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { debugAdapter: 'src/bundles/debug.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { fakeNode: 'fake-ledger/src/demo.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { damlLf: 'src/daml/lf/nodeSignatures.ts' }, outdir: 'dist' },
  // Ours, too large to fold in: the ledger history, the ledger commands loop, the execute review.
  { ...common, entryPoints: { ledgerHistory: 'src/commands/ledgerHistory.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { nodeAdministration: 'src/commands/adminCommands.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { ledgerCommandsLoop: 'src/commands/ledgerCommandsLoop.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { executeReview: 'src/panels/executeReviewPanel.ts' }, outdir: 'dist' },
  // The demo ledger as a process of its own (npm run demo).
  { ...common, entryPoints: { demoLedger: 'fake-ledger/src/demoLedgerMain.ts' }, outdir: 'dist' },
  // The panels' page script (TypeScript in src/webview/), for the browser of the webview.
  { ...common, entryPoints: { panel: 'src/webview/panel.ts' }, outdir: 'media', platform: 'browser', format: 'iife', target: 'chrome120', sourcemap: false },
  // The Active Contracts and Follow Updates pages (src/webview/acs/, src/webview/updates/).
  ...['acs', 'updates'].map((page) => ({
    ...common,
    entryPoints: { [page]: `src/webview/${page}/${page}Page.ts` },
    outdir: 'media',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    sourcemap: false,
  })),
];

if (watch) {
  for (const options of [entryBundle(undefined), mainBundle, ...builds]) await (await esbuild.context(options)).watch();
  console.log('esbuild: watching src/ …');
} else {
  fs.rmSync('dist', { recursive: true, force: true });
  const others = Promise.all(builds.map((options) => esbuild.build(options)));
  const main = (await esbuild.build({ ...mainBundle, metafile: true })).metafile;
  const mainHash = crypto.createHash('sha256').update(fs.readFileSync('dist/main.js')).digest('hex').slice(0, 16);
  const entry = (await esbuild.build({ ...entryBundle(mainHash), metafile: true })).metafile;
  await others;
  // What went into the bundles loaded at activation (the entry and the main bundle), for the package
  // test (not shipped: .vscodeignore is an allowlist).
  const activation = { inputs: { ...entry.inputs, ...main.inputs }, outputs: { ...entry.outputs, ...main.outputs } };
  fs.writeFileSync('dist/extension.meta.json', JSON.stringify(activation));
}
