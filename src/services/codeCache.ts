// Runs a CommonJS bundle through V8's code cache, as VS Code does for its own code and as Node 22's
// module.enableCompileCache does (the extension host's Node 20 has neither for extensions): the
// bytecode V8 made for one activation is kept in a file and handed to the next compile, which then
// neither parses the bundle nor compiles the functions that activation ran. The file holds V8's
// bytecode of our bundle and nothing else; a missing, refused or unwritable cache costs a plain compile.
import * as buffer from 'node:buffer';
import type * as Crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** What became of the cache: read and taken by V8, absent, refused by V8, or not kept at all (no folder). */
export type CodeCacheState = 'used' | 'missing' | 'rejected' | 'off';

export interface CachedBundle<T> {
  /** The bundle's module.exports. */
  exports: T;
  state: CodeCacheState;
  /** The cache file (under the folder given), when there is a folder. */
  file?: string;
  /**
   * Writes the bytecode compiled so far for the next run, when this one could not use a cache;
   * call it after activation, so that the functions activation ran are in it. Never throws.
   */
  save(): void;
}

// The module wrapper on a line of its own (lineOffset -1): the bundle's lines and columns, and so its
// source map (the .map next to it, named by the bundle's last comment), stay as they are. The
// production build writes it into the bundle (esbuild.mjs), so that the source is one string, not two.
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
export const WRAPPER_TAIL = '\n})';

/**
 * Compiles and runs `bundlePath` as a CommonJS module with `requireFn` (the caller's, so that the
 * bundle requires what the caller would, `vscode` included), with the code cache kept in `cacheDir`.
 * `contentHash`, when the build knows it (16 hex digits of the bundle's bytes), spares hashing the
 * bundle at each activation.
 */
export function runCachedBundle<T>(bundlePath: string, cacheDir: string | undefined, requireFn: NodeJS.Require, contentHash?: string): CachedBundle<T> {
  const bytes = fs.readFileSync(bundlePath);
  const file = cacheDir === undefined ? undefined : path.join(cacheDir, cacheFileName(bundlePath, bytes, contentHash));
  const cachedData = file === undefined ? undefined : readIfThere(file);
  const text = sourceText(bytes);
  const wrapped = text.startsWith(WRAPPER_HEAD);
  const script = new vm.Script(wrapped ? text : WRAPPER_HEAD + text + WRAPPER_TAIL, { filename: bundlePath, lineOffset: wrapped ? 0 : -1, cachedData });
  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (exports: T, require: NodeJS.Require, module: { exports: T }, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, requireFn, module, bundlePath, path.dirname(bundlePath));
  const state: CodeCacheState = file === undefined ? 'off' : cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  let saved = false;
  return {
    exports: module.exports,
    state,
    file,
    save: () => {
      if (saved || file === undefined || state === 'used') return;
      saved = true;
      writeCache(file, script);
    },
  };
}

/**
 * The bundle's name, its size and a hash of its bytes, and the V8 that compiled it: V8 itself checks
 * only its version, its flags and the source's length, so the content is ours to check.
 */
export function cacheFileName(bundlePath: string, bytes: Buffer, contentHash?: string): string {
  const hash =
    contentHash === undefined
      ? (require('node:crypto') as typeof Crypto).createHash('sha256').update(bytes).update(process.versions.v8).update(process.arch).digest('hex').slice(0, 16)
      : fnv1a64(`${contentHash} ${process.versions.v8} ${process.arch}`);
  return `${path.basename(bundlePath, '.js')}-${bytes.length}-${hash}.v8cache`;
}

/** 64-bit FNV-1a of a short text, as 16 hex digits: mixes the build's hash with the V8 version without loading node:crypto. */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) hash = BigInt.asUintN(64, (hash ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n);
  return hash.toString(16).padStart(16, '0');
}

/** The bundle's text: an ASCII bundle (the production one) is read as one byte a character, as V8 holds it, without decoding UTF-8. */
function sourceText(bytes: Buffer): string {
  return typeof buffer.isAscii === 'function' && buffer.isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name and renamed (two windows may start at once); older caches of the bundle go. */
function writeCache(file: string, script: vm.Script): void {
  const dir = path.dirname(file);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, file);
    const prefix = path.basename(file).replace(/-\d+-[0-9a-f]+\.v8cache$/, '-');
    for (const old of fs.readdirSync(dir))
      if (old !== path.basename(file) && old.startsWith(prefix) && old.endsWith('.v8cache')) fs.rmSync(path.join(dir, old), { force: true });
  } catch {
    // An unwritable folder: the next activation compiles the bundle as this one did.
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}
