// Runs inside the extension host (loaded by VS Code through --extensionTestsPath).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // CANTON_LENS_TEST_GREP runs only the tests whose title matches (one area while working on it).
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec', grep: process.env.CANTON_LENS_TEST_GREP || undefined });
  for (const f of fs
    .readdirSync(__dirname)
    .filter((n) => n.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(__dirname, f));
  // A rejection nobody handled is a failure, even when every test passed.
  // (A Set: the extension host may report the same rejection twice.)
  const unhandled = new Set<unknown>();
  const onUnhandled = (reason: unknown) => unhandled.add(reason);
  process.on('unhandledRejection', onUnhandled);
  return new Promise((resolve, reject) => {
    const runner = mocha.run((testFailures) => {
      process.off('unhandledRejection', onUnhandled);
      for (const r of unhandled) console.error('Unhandled rejection in the extension host:', r instanceof Error ? r.stack : r);
      const failures = testFailures + unhandled.size;
      const file = process.env.CANTON_LENS_RESULTS_FILE;
      if (file) fs.writeFileSync(file, JSON.stringify({ passed: runner.stats?.passes ?? 0, failed: failures }));
      if (failures > 0) reject(new Error(`${failures} extension test(s) failed.`));
      else resolve();
    });
  });
}
