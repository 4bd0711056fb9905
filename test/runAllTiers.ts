// `npm test`: lint, tier 1 (plain mocha over the pure modules), tier 1b (the modules against a fake
// node on loopback), the fake ledger's own tests, tier 2 (mocha inside a real VS Code), the package
// and the UI, then one plain summary line, `N passed, N failed`, totalled over all.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import Mocha from 'mocha';
import { ensureVsCodeServer } from './vscode/vscodeServer';

const ROOT = path.resolve(__dirname, '..', '..');
// Every temporary folder of the run (tests', VS Code's, Chromium's) goes under one folder, removed
// at the end, pass or fail: a run leaves nothing in the system's temporary folder.
const RUN_TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-test-'));
for (const k of ['TMPDIR', 'TMP', 'TEMP']) process.env[k] = RUN_TMP;
process.on('exit', () => fs.rmSync(RUN_TMP, { recursive: true, force: true, maxRetries: 3 }));
const OUT_TEST = path.join(ROOT, 'out', 'test');

interface Tally {
  passed: number;
  failed: number;
}

function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(dir, f));
}

async function runMochaTier(title: string, folder: string): Promise<Tally> {
  console.log(`\n== ${title} ==`);
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 20_000 });
  if (folder === 'ui' || folder === 'package') ensureVsCodeServer();
  // The fake ledger's own tests live with it; the product's under test/.
  const dir = folder === 'fake-ledger' ? path.join(ROOT, 'out', 'fake-ledger', 'test') : path.join(OUT_TEST, folder);
  for (const f of testFiles(dir)) mocha.addFile(f);
  let unhandled = 0;
  const onUnhandled = (e: unknown) => {
    unhandled++;
    console.error(`Unhandled rejection during "${title}":`, e);
  };
  process.on('unhandledRejection', onUnhandled);
  const tally = await new Promise<Tally>((resolve) => {
    const runner = mocha.run((failures) => resolve({ passed: runner.stats?.passes ?? 0, failed: failures }));
  });
  process.off('unhandledRejection', onUnhandled);
  return { passed: tally.passed, failed: tally.failed + unhandled };
}

async function runVsCodeTier(): Promise<Tally> {
  console.log('\n== Tier 2: inside a real VS Code (@vscode/test-electron + mocha) ==');
  const resultsFile = path.join(RUN_TMP, 'vscode-results.json');
  const desktop = process.env.CANTON_LENS_VSCODE === 'desktop';
  try {
    if (!desktop) ensureVsCodeServer();
    await runTests({
      // Offline machines: the VS Code Server through a shim; with internet, the desktop download.
      vscodeExecutablePath: desktop ? undefined : path.join(ROOT, 'test', 'vscode', 'code-server-shim.sh'),
      version: desktop ? '1.100.3' : undefined,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: path.join(OUT_TEST, 'vscode', 'suite', 'index'),
      extensionTestsEnv: { CANTON_LENS_RESULTS_FILE: resultsFile },
      launchArgs: [path.join(ROOT, 'test', 'fixtures', 'workspace')],
    });
  } catch (e) {
    console.error(`Tier 2 run failed: ${(e as Error).message}`);
  }
  if (!fs.existsSync(resultsFile)) {
    console.error('Tier 2 reported no results: VS Code or the extension did not start. Counted as one failure.');
    return { passed: 0, failed: 1 };
  }
  return JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Tally;
}

/** ESLint, Prettier and the fake ledger compiled alone, each one check: its findings are printed, not counted one by one. */
function runLint(): Tally {
  console.log('\n== Lint: ESLint (typescript-eslint, type-checked), Prettier, the fake ledger compiled alone ==');
  const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
  let passed = 0;
  let failed = 0;
  for (const [name, args] of [
    ['eslint', ['.']],
    ['prettier', ['--check', '--log-level', 'warn', '.']],
    // The fake ledger compiled alone: an import of the product fails it (fake-ledger/tsconfig.json).
    ['tsc', ['-p', 'fake-ledger']],
  ] as const) {
    const r = spawnSync(bin(name), [...args], { cwd: ROOT, stdio: 'inherit' });
    if (r.status === 0) {
      passed++;
      console.log(`  ✔ ${name}`);
    } else {
      failed++;
      console.log(`  ✖ ${name}: fix the findings above (npm run format fixes the formatting and what ESLint can)`);
    }
  }
  return { passed, failed };
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--tier');
  const only = i >= 0 ? process.argv[i + 1] : undefined;
  const tallies: (Tally & { tier: string })[] = [];
  const run = async (tier: string, t: Promise<Tally>) => {
    const tally = { tier, ...(await t) };
    tallies.push(tally);
    console.log(`\n${tier}: ${tally.passed} passed, ${tally.failed} failed`);
  };
  if (!only || only === 'lint') await run('Lint', Promise.resolve(runLint()));
  if (!only || only === 'unit') await run('Tier 1 (pure modules)', runMochaTier('Tier 1: pure modules (plain mocha)', 'unit'));
  if (!only || only === 'server')
    await run('Tier 1b (against a fake node)', runMochaTier('Tier 1b: the modules against a fake node on loopback (plain mocha)', 'server'));
  if (!only || only === 'fake-ledger') await run('Fake ledger', runMochaTier('Fake ledger: its own tests (fake-ledger/test)', 'fake-ledger'));
  if (!only || only === 'vscode') await run('Tier 2 (inside VS Code)', runVsCodeTier());
  if (!only || only === 'package') await run('Package (.vsix)', runMochaTier('Package: the .vsix and its install into the VS Code Server', 'package'));
  if (!only || only === 'ui') await run('UI (Chromium)', runMochaTier('UI: the packaged extension in the VS Code Server, driven through Chromium', 'ui'));
  const passed = tallies.reduce((n, t) => n + t.passed, 0);
  const failed = tallies.reduce((n, t) => n + t.failed, 0);
  if (tallies.length > 1) {
    console.log('\n== Results ==');
    for (const t of tallies) console.log(`${t.tier}: ${t.passed} passed, ${t.failed} failed`);
  }
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

void main();
