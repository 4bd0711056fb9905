// The .vsix, packaged once per test process in a child process whose output is kept back (vsce
// prints the prepublish build and the whole file list): shown only when packaging fails.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
let built: Promise<string> | undefined;

/** The path of a .vsix of the project as it is now; the same file for every caller in this process. */
export function packagedVsix(): Promise<string> {
  built ??= new Promise<string>((resolve, reject) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-vsix-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const vsix = path.join(dir, 'canton-lens.vsix');
    const script =
      "require('@vscode/vsce').createVSIX({ cwd: process.cwd(), packagePath: process.argv[1], dependencies: false }).catch((e) => { console.error(e); process.exit(1); })";
    execFile(process.execPath, ['-e', script, vsix], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`Packaging the .vsix failed:\n${stdout}${stderr}`));
      else resolve(vsix);
    });
  });
  return built;
}
