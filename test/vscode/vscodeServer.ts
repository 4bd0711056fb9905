// A real VS Code for tests on machines without the desktop download: the VS Code Server inside
// code-server@4.100.3 from npm (VS Code 1.100.3, Node 20), driven by Debian's Chromium.
// Installed on first use into .cache/ (ignored by git, never in the .vsix).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const CACHE = path.join(PROJECT_ROOT, '.cache', 'vscode-server');
const CODE_SERVER_VERSION = '4.100.3';
const SERVER_MAIN = path.join(CACHE, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Installs code-server into the project's cache unless it is there already; returns server-main.js. */
export function ensureVsCodeServer(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  if (fs.existsSync(SERVER_MAIN)) return SERVER_MAIN;
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium package (see .ci/run).`);
  const rg = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => fs.existsSync(p));
  if (!rg) throw new Error("ripgrep is missing: install Debian's ripgrep package (see .ci/run).");
  log(`Installing the VS Code Server (code-server@${CODE_SERVER_VERSION}) into ${path.relative(PROJECT_ROOT, CACHE)} …`);
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(path.join(CACHE, 'package.json'), '{"name":"vscode-server-cache","private":true}\n');
  // @vscode/ripgrep downloads rg from GitHub unless its cache holds the archive: give it Debian's rg.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-rg-'));
  const rgCache = path.join(tmp, 'vscode-ripgrep-cache-1.15.11');
  fs.mkdirSync(rgCache);
  const tar = spawnSync('tar', ['-czf', path.join(rgCache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz'), '-C', path.dirname(rg), 'rg'], {
    stdio: 'inherit',
  });
  if (tar.status !== 0) throw new Error('Could not pack ripgrep for the VS Code Server install.');
  const npm = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: CACHE,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, TMPDIR: tmp, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' },
  });
  fs.rmSync(tmp, { recursive: true, force: true });
  if (npm.status !== 0 || !fs.existsSync(SERVER_MAIN)) throw new Error(`Installing code-server@${CODE_SERVER_VERSION} failed (npm exit ${npm.status}).`);
  return SERVER_MAIN;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** XDG and HOME folders of its own, so nothing is written to the real profile. */
export function isolatedEnv(root: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dirs = { HOME: 'home', XDG_CONFIG_HOME: 'config', XDG_DATA_HOME: 'data', XDG_CACHE_HOME: 'cache', XDG_STATE_HOME: 'state' };
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const [k, d] of Object.entries(dirs)) {
    env[k] = path.join(root, d);
    fs.mkdirSync(env[k], { recursive: true });
  }
  return env;
}

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): void;
}

export interface ServerOptions {
  userDataDir: string;
  extensionsDir: string;
  serverDataDir: string;
  env: NodeJS.ProcessEnv;
  /** Lines the server prints go here. */
  onOutput?: (text: string) => void;
  /** For extension tests: the workbench then runs the test payload (and refuses modal dialogs). */
  smokeTestDriver?: boolean;
  /** A fixed port; a free one when unset. */
  port?: number;
  /** Keep VS Code's workspace trust (off by default here, so tests are not asked). */
  workspaceTrust?: boolean;
}

export async function startVsCodeServer(opts: ServerOptions): Promise<RunningServer> {
  const serverMain = ensureVsCodeServer();
  const port = opts.port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [
      serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      ...(opts.smokeTestDriver ? ['--enable-smoke-test-driver'] : []),
      '--server-data-dir',
      opts.serverDataDir,
      '--user-data-dir',
      opts.userDataDir,
      '--extensions-dir',
      opts.extensionsDir,
      '--disable-telemetry',
      ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    ],
    {
      env: opts.env,
      detached: true, // its own process group, so its file watcher goes with it
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  child.stderr.on('data', (d: Buffer) => opts.onOutput?.(d.toString()));
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await answers(`${url}/version`))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      stop();
      throw new Error(`The VS Code Server did not start (exit ${child.exitCode}).`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, process: child, stop };
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2_000, () => req.destroy());
  });
}

/** Seeds settings that keep a test workbench quiet and offline. */
export function seedUserSettings(userDataDir: string, settings: Record<string, unknown> = {}): void {
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'workbench.enableExperiments': false,
        'security.workspace.trust.enabled': false,
        ...settings,
      },
      null,
      2,
    ),
  );
}
