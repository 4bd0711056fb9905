// Accepts the command line that @vscode/test-electron's runTests gives desktop VS Code, runs the
// same extension tests in the VS Code Server through Chromium, and exits with their exit code.
// Started by code-server-shim.sh (runTests needs an executable).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { format } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, isolatedEnv, seedUserSettings, startVsCodeServer } from './vscodeServer';

const TEST_TIMEOUT_MS = 15 * 60_000;
// Harmless workbench chatter on an offline machine (see the offline VS Code guide).
const WORKBENCH_NOISE =
  /open-vsx\.org|\[Service Worker\]|connection token|Creating a socket|builtin extensions cache|ChatSessionStore|vsda|Extension host .* started|Started local extension host|Loading development extension/;

function flag(args: string[], name: string): string | undefined {
  const prefix = `--${name}=`;
  return args.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const devPath = flag(args, 'extensionDevelopmentPath');
  const testsPath = flag(args, 'extensionTestsPath');
  if (!devPath || !testsPath) throw new Error('Need --extensionDevelopmentPath= and --extensionTestsPath=.');
  const folder = args.find((a) => !a.startsWith('-'));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-vscode-'));
  // Always a fresh profile: runTests proposes .vscode-test/ in the project, whose state would
  // carry over from one run to the next.
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  seedUserSettings(userDataDir, JSON.parse(process.env.CANTON_LENS_TEST_SETTINGS ?? '{}'));
  // The tests read the user settings file to check that no token was written there.
  const env = isolatedEnv(root, { CANTON_LENS_USER_DATA_DIR: userDataDir });
  const verbose = process.env.CANTON_LENS_TEST_VERBOSE === '1';
  const server = await startVsCodeServer({
    userDataDir,
    extensionsDir,
    serverDataDir: path.join(root, 'server-data'),
    env,
    smokeTestDriver: true,
    onOutput: (t) => verbose && process.stderr.write(`[server] ${t}`),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, env: env });
  try {
    const page = await browser.newPage();
    const exitCode = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
      setTimeout(() => {
        process.stderr.write('Extension tests timed out.\n');
        resolve(1);
      }, TEST_TIMEOUT_MS).unref();
    });
    await page.exposeFunction('codeAutomationLog', (type: string, logArgs: unknown[]) => {
      const text = format(...(Array.isArray(logArgs) ? logArgs : [logArgs]));
      if (!verbose && WORKBENCH_NOISE.test(text)) return;
      (type === 'error' ? process.stderr : process.stdout).write(`${text}\n`);
    });
    if (verbose) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
    const remote = (p: string) => `vscode-remote://127.0.0.1:${server.port}${path.resolve(p)}`;
    const payload = [
      ['extensionDevelopmentPath', remote(devPath)],
      ['extensionTestsPath', remote(testsPath.replace(/\.js$/, ''))],
      ['skipWelcome', 'true'],
    ];
    const query = new URLSearchParams({ payload: JSON.stringify(payload) });
    if (folder) query.set('folder', path.resolve(folder));
    await page.goto(`${server.url}/?${query.toString()}`);
    return await exitCode;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    process.stderr.write(`${e.stack ?? e.message}\n`);
    process.exit(1);
  },
);
