// Bundles the extension. The HTTP layer (undici) is its own bundle, loaded on the first request,
// so activation loads only the extension's own code. `--watch` rebuilds on change; `--dev` skips minify.
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = !watch && !process.argv.includes('--dev');

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
};

const builds = [
  { ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { http: 'src/ledger/undiciTransport.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { fakeNode: 'fake-ledger/src/demo.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { txReview: 'src/execute/preparedTransactionReview.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { oidc: 'src/auth/oidcProtocol.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { commandsLoop: 'src/commands/commandsLoop.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { executeReview: 'src/panels/executeReviewPanel.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { externalSigning: 'src/commands/externalSigningCommands.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { admin: 'src/commands/adminCommands.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { commandFailure: 'src/execute/commandFailure.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { debugAdapter: 'src/bundles/debug.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { acrossTime: 'src/commands/acrossTime.ts' }, outdir: 'dist' },
  // What a window may never open, each loaded on first use (src/bundles/, through src/extensionContext.ts).
  { ...common, entryPoints: { lookups: 'src/bundles/lookups.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { lookupPanels: 'src/bundles/lookupPanels.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { browse: 'src/bundles/browse.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { daml: 'src/bundles/daml.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { agentTools: 'src/bundles/agentTools.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { execute: 'src/bundles/execute.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { demoLedger: 'fake-ledger/src/demoLedgerMain.ts' }, outdir: 'dist' },
  // The panels' page script (TypeScript in src/webview/), for the browser of the webview.
  { ...common, entryPoints: { panel: 'src/webview/panel.ts' }, outdir: 'media', platform: 'browser', format: 'iife', target: 'chrome120', sourcemap: false },
  // The Active Contracts and Follow Updates pages (src/webview/acs/, src/webview/tail/).
  ...['acs', 'tail'].map((page) => ({
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
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log('esbuild: watching src/ …');
} else {
  fs.rmSync('dist', { recursive: true, force: true });
  const results = await Promise.all(builds.map((options) => esbuild.build({ ...options, metafile: true })));
  // What went into the activation bundle, for the package test (not shipped: .vscodeignore is an allowlist).
  fs.writeFileSync('dist/extension.meta.json', JSON.stringify(results[0].metafile));
}
