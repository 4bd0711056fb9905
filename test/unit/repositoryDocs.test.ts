// The repository explains itself: comments and docs cite facts inside it (docs/ledger-api.md and the
// public sources named there), never a file a fresh clone lacks; the README's layout names every
// folder of src/ and test/, and its commands for one test of each tier point at real files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** Files under a folder of the repository, as paths relative to its root. */
function filesUnder(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((rel) => !skip(rel));
}

/** The text of a README section, from its heading to the next heading of any level. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has no "${heading}" section`);
  const next = readme.slice(start + heading.length + 2).search(/^#{1,6} /m);
  return next < 0 ? readme.slice(start) : readme.slice(start, start + heading.length + 2 + next);
}

describe('the repository cites only what it holds', () => {
  // Built from parts, so that this file does not name what it looks for.
  const outside = [
    new RegExp(`\\b${'NO'}TES\\b`), // the reference notes kept beside the worktrees, not in the repository
    new RegExp(`\\.\\./${'sha'}red\\b`),
    new RegExp(`${'sha'}red/(reference|guides)/`),
  ];

  it('has no comment or doc in src/, test/ (but its fixtures), docs/ or the README that points outside the repository', () => {
    const files = [...filesUnder('src'), ...filesUnder('test', (rel) => rel.startsWith('test/fixtures/')), ...filesUnder('docs'), 'README.md'];
    assert.ok(files.length > 100, `only ${files.length} files read`);
    const hits: string[] = [];
    for (const rel of files) {
      if (/\.(png|jpe?g|gif|pem|key)$/.test(rel)) continue;
      fs.readFileSync(path.join(root, rel), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (outside.some((re) => re.test(line))) hits.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(hits, [], 'cite docs/ledger-api.md (or another file of the repository) and the public source instead');
  });

  it('links every docs/ledger-api.md#<section> a comment names to a heading of that file', () => {
    const doc = fs.readFileSync(path.join(root, 'docs', 'ledger-api.md'), 'utf8');
    // GitHub's anchors: the heading in lower case, spaces as dashes, punctuation dropped.
    const anchors = new Set(
      [...doc.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
        m[1]
          .toLowerCase()
          .replace(/[^\w\s-]/g, '')
          .trim()
          .replace(/\s/g, '-'),
      ),
    );
    const cited = new Set<string>();
    for (const rel of [...filesUnder('src'), ...filesUnder('test')]) {
      if (!/\.(ts|js|mjs)$/.test(rel)) continue;
      const text = fs.readFileSync(path.join(root, rel), 'utf8');
      for (const m of text.matchAll(/ledger-api\.md#([\w-]+)((?:,? (?:and )?#[\w-]+)*)/g)) {
        cited.add(m[1]);
        for (const more of (m[2] ?? '').matchAll(/#([\w-]+)/g)) cited.add(more[1]);
      }
    }
    assert.ok(cited.size >= 4, `only ${[...cited].join(', ')} cited`);
    for (const a of cited) assert.ok(anchors.has(a), `docs/ledger-api.md has no section #${a} (it has ${[...anchors].join(', ')})`);
  });

  it("lists docs/ledger-api.md among the README's docs", () => {
    assert.match(readme, /\[docs\/ledger-api\.md\]\(docs\/ledger-api\.md\)/);
  });
});

describe("the README's layout", () => {
  const layout = section('### Layout');

  it('names every folder of src/ and test/ (two levels deep)', () => {
    const folders: string[] = [];
    for (const top of ['src', 'test']) {
      for (const e of fs.readdirSync(path.join(root, top), { withFileTypes: true })) {
        if (!e.isDirectory()) continue;
        folders.push(`${top}/${e.name}`);
        for (const sub of fs.readdirSync(path.join(root, top, e.name), { withFileTypes: true })) {
          if (sub.isDirectory()) folders.push(`${top}/${e.name}/${sub.name}`);
        }
      }
    }
    assert.ok(folders.includes('src/ledger') && folders.includes('test/fixtures/tls'));
    assert.deepEqual(
      folders.filter((f) => !layout.includes(`\`${f}/\``)),
      [],
      "name each as `folder/` in the README's Layout section",
    );
  });

  it('says how to run one test of each tier, with files and titles that exist', () => {
    const howTo = section('### One test at a time');
    for (const tier of ['unit', 'server', 'package', 'ui']) {
      const cmd = new RegExp(`npx mocha (?:--timeout \\d+ )?out/test/${tier}/([\\w./]+)\\.js`).exec(howTo);
      assert.ok(cmd, `no command for one test of test/${tier}/`);
      assert.ok(fs.existsSync(path.join(root, 'test', tier, `${cmd[1]}.ts`)), `test/${tier}/${cmd[1]}.ts does not exist`);
    }
    // Tier 2 runs in the extension host: a title filter through the environment, read by its mocha.
    const grep = /CANTON_LENS_TEST_GREP='([^']+)' npm run test:vscode/.exec(howTo);
    assert.ok(grep, 'no command for one area of tier 2');
    assert.match(fs.readFileSync(path.join(root, 'test', 'vscode', 'suite', 'index.ts'), 'utf8'), /grep: process\.env\.CANTON_LENS_TEST_GREP/);
    const suite = filesUnder('test/vscode/suite')
      .map((rel) => fs.readFileSync(path.join(root, rel), 'utf8'))
      .join('\n');
    assert.ok(suite.includes(`describe('${grep[1]}'`), `no describe('${grep[1]}') in test/vscode/suite/`);
  });
});
