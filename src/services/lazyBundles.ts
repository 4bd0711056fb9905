// The one loader of the bundles that activation never pays for, each built by esbuild.mjs into dist/
// and loaded on first use: the heavy third-party code (http: undici; oidc: oauth4webapi; txReview:
// the transaction decoder; debugAdapter: @vscode/debugadapter; fakeNode: the demo ledger; damlLf:
// the Daml-LF decoder, on protobuf-ts), and three
// features of ours that most windows never open (ledgerHistory, ledgerCommandsLoop, executeReview, nodeAdministration), which
// would take the main bundle past its size bound. Everything else is in dist/main.js.
import * as path from 'node:path';

/** Every bundle this loader loads (test/package/ checks each is shipped). */
export const LAZY_BUNDLES = [
  'http',
  'oidc',
  'txReview',
  'debugAdapter',
  'fakeNode',
  'damlLf',
  'ledgerHistory',
  'ledgerCommandsLoop',
  'executeReview',
  'nodeAdministration',
] as const;

export type LazyBundle = (typeof LAZY_BUNDLES)[number];

/**
 * dist/<name>.js from `bundleDir` (the extension's dist/), typed by the caller as its entry module
 * (`typeof import(…)`). A bundle has its own copies of what it bundles: what it hands back is checked
 * by shape, never by instanceof.
 */
export function loadBundle<T>(bundleDir: string, name: LazyBundle): T {
  return require(path.join(bundleDir, `${name}.js`)) as T;
}
