// The extension's entry, dist/extension.js (a few KB): it runs the main bundle, dist/main.js (built
// from src/extension.ts), through V8's code cache kept in the extension's global storage
// (src/services/codeCache.ts), so that an activation after the first skips most of compiling it.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { CantonLensApi } from './extension';
import { runCachedBundle } from './services/codeCache';

type MainBundle = typeof import('./extension');

// The main bundle's content hash, written in by the build (esbuild.mjs); absent from a watch build,
// whose main bundle changes under it: then the bundle is hashed at activation.
declare const MAIN_BUNDLE_HASH: string | undefined;
const mainBundleHash = typeof MAIN_BUNDLE_HASH === 'string' ? MAIN_BUNDLE_HASH : undefined;

let main: MainBundle | undefined;

export function activate(context: vscode.ExtensionContext): CantonLensApi {
  const storage = context.globalStorageUri;
  const cacheDir = storage?.scheme === 'file' ? path.join(storage.fsPath, 'v8-code-cache') : undefined;
  const bundle = runCachedBundle<MainBundle>(path.join(__dirname, 'main.js'), cacheDir, require, mainBundleHash);
  main = bundle.exports;
  const api = main.activate(context);
  // After activation, so that the functions it ran are in the cache; not on activation's clock.
  setImmediate(() => bundle.save());
  return api;
}

export function deactivate(): void {
  main?.deactivate();
}
