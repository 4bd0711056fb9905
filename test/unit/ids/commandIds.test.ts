// One table names every command: the ids package.json contributes are exactly the table's, and the
// extension's code refers to a command through the table, never by a literal id of its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND } from '../../../src/ids/commandIds';

const root = path.resolve(__dirname, '..', '..', '..', '..');

describe('the command table', () => {
  it('holds exactly the commands package.json contributes, each under the name after its prefix', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(Object.values(COMMAND).sort(), contributed);
    for (const [name, id] of Object.entries(COMMAND)) assert.equal(id, `cantonLens.${name}`);
  });

  it('is the only place in src that spells a command id as a literal', () => {
    const ids = new Set<string>(Object.values(COMMAND));
    const spelled: string[] = [];
    for (const entry of fs.readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (file.endsWith(path.join('ids', 'commandIds.ts'))) continue;
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/['"](cantonLens\.\w+)['"]/g))
        if (ids.has(m[1])) spelled.push(`${path.relative(root, file)}: ${m[1]}`);
    }
    assert.deepEqual(spelled, []);
  });
});
