// The repository explains itself: comments and docs cite facts inside it (docs/ledger-api.md and the
// public sources named there), never a file a fresh clone lacks, and every link of the docs resolves.
// The README is for users: it documents every command and setting and keeps its two set-up commands;
// CONTRIBUTING.md says how to run one test of each tier, with files that exist; docs/architecture.md
// names every folder of src/ and test/, draws the floors in lint's order, and names only files that exist.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '..', '..', '..');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const readme = read('README.md');
const contributing = read('CONTRIBUTING.md');
const architecture = read('docs/architecture.md');

/** Files under a folder of the repository, as paths relative to its root. */
function filesUnder(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((rel) => !skip(rel));
}

/** The Markdown files people read: the README, CONTRIBUTING.md and docs/. */
const markdown = ['README.md', 'CONTRIBUTING.md', ...filesUnder('docs').filter((rel) => rel.endsWith('.md'))];

/** Markdown without its fenced code blocks (a `#` line in a shell block is no heading, a link in code no link). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** The text of a section of a Markdown text, from its heading to the next heading of any level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `no "${heading}" section`);
  const next = text.slice(start + heading.length + 2).search(/^#{1,6} /m);
  return next < 0 ? text.slice(start) : text.slice(start, start + heading.length + 2 + next);
}

/** GitHub's id of a heading: its text in lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) =>
  heading
    .replace(/`|\*\*|\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (text: string) => new Set([...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));

describe('the repository cites only what it holds', () => {
  // Built from parts, so that this file does not name what it looks for.
  const outside = [
    new RegExp(`\\b${'NO'}TES\\b`), // the reference notes kept beside the worktrees, not in the repository
    new RegExp(`\\.\\./${'sha'}red\\b`),
    new RegExp(`${'sha'}red/(reference|guides)/`),
  ];

  it('has no comment or doc in src/, test/ (but its fixtures), docs/, the README or CONTRIBUTING.md that points outside the repository', () => {
    const files = [
      ...filesUnder('src'),
      ...filesUnder('test', (rel) => rel.startsWith('test/fixtures/')),
      ...filesUnder('docs'),
      'README.md',
      'CONTRIBUTING.md',
    ];
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

describe('the docs link only to what is there', () => {
  it('resolves every relative link and image of the README, CONTRIBUTING.md and docs/, to a heading where one is named', () => {
    const broken: string[] = [];
    let links = 0;
    for (const rel of markdown) {
      for (const m of prose(read(rel)).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)/g)) {
        const link = m[1];
        if (/^(https?:|mailto:)/.test(link)) continue;
        links++;
        const [file, anchor] = link.split('#');
        const target = file ? path.posix.normalize(path.posix.join(path.posix.dirname(rel), file)) : rel;
        if (!fs.existsSync(path.join(root, target))) broken.push(`${rel}: ${link} (no ${target})`);
        else if (anchor && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor)) broken.push(`${rel}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
    assert.ok(links > 30, `only ${links} links read`);
    assert.deepEqual(broken, []);
  });

  it('names in docs/architecture.md and CONTRIBUTING.md only files and folders that exist (but what the build makes)', () => {
    const built = /^(dist|out|node_modules|\.cache)\/|^media\/\w+\.js$/;
    const named = (text: string) =>
      [...text.matchAll(/`((?:src|test|fake-ledger|spec|docs|media|l10n|\.ci)\/[^`\s<>*]*|[\w.-]+\.(?:mjs|json)|\.vscodeignore)`/g)].map((m) => m[1]);
    assert.ok(named(architecture).includes('src/ledger/ledgerClient.ts'), 'the pattern misses the paths');
    const missing = [...named(architecture).map((p) => ['docs/architecture.md', p]), ...named(contributing).map((p) => ['CONTRIBUTING.md', p])]
      .filter(([, p]) => !built.test(p) && !fs.existsSync(path.join(root, p)))
      .map(([rel, p]) => `${rel}: ${p}`);
    assert.deepEqual(missing, []);
  });
});

describe('the README is for users', () => {
  it('documents every contributed command and setting in its tables', () => {
    const manifest = JSON.parse(read('package.json')) as {
      contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[] };
    };
    const commands = manifest.contributes.commands.map((c) => c.command);
    const settings = [manifest.contributes.configuration].flat().flatMap((c) => Object.keys(c.properties));
    assert.ok(commands.length > 40 && settings.includes('cantonLens.nodes'));
    const tables = readme.slice(readme.indexOf('\n## Commands\n'), readme.indexOf('\n## Troubleshooting\n'));
    assert.deepEqual(
      [...commands, ...settings].filter((id) => !tables.includes(`| \`${id}\` |`)),
      [],
      "a row of the README's Commands or Settings tables for each",
    );
  });

  it('keeps its two set-up commands, the demo and the tests, and leaves development to CONTRIBUTING.md', () => {
    const block = /```sh\n([\s\S]*?)```/.exec(readme);
    assert.ok(block, 'no sh block in the README');
    assert.deepEqual(
      [...block[1].matchAll(/^npm (?:run )?\w+/gm)].map((m) => m[0]),
      ['npm run demo', 'npm test'],
    );
    assert.doesNotMatch(readme, /apt-get|npx mocha|^## Development/m, 'development goes to CONTRIBUTING.md');
    for (const doc of ['CONTRIBUTING.md', 'docs/architecture.md', 'docs/performance.md']) assert.ok(readme.includes(`](${doc})`), `the README links ${doc}`);
  });
});

describe('docs/architecture.md', () => {
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
    const listed = section(architecture, '## Folders');
    assert.deepEqual(
      folders.filter((f) => !listed.includes(`\`${f}/\``)),
      [],
      'name each as `folder/` in the Folders section of docs/architecture.md',
    );
  });

  it('draws the floors of src/ in the order eslint.config.mjs enforces', async () => {
    const { LAYERS } = (await import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href)) as { LAYERS: string[][] };
    const drawn = /```mermaid\n([\s\S]*?)```/.exec(architecture);
    assert.ok(drawn, 'no Mermaid picture of the floors');
    // Each floor's folders, in the order the picture declares its boxes.
    const floors = [...drawn[1].matchAll(/^\s*\w+\["([^<"]+)/gm)].map((m) => m[1].split('·').map((f) => f.trim()));
    assert.deepEqual(floors.slice(0, LAYERS.length), LAYERS);
  });

  it('has a section for a new endpoint and one for a new panel', () => {
    for (const heading of ['## Where a new endpoint goes', '## Where a new panel goes']) assert.ok(section(architecture, heading).length > 1000, heading);
  });
});

describe('CONTRIBUTING.md', () => {
  it('says how to run one test of each tier, with files and titles that exist', () => {
    const howTo = section(contributing, '### One test at a time');
    for (const tier of ['unit', 'server', 'package', 'ui']) {
      const cmd = new RegExp(`npx mocha (?:--timeout \\d+ )?out/test/${tier}/([\\w./]+)\\.js`).exec(howTo);
      assert.ok(cmd, `no command for one test of test/${tier}/`);
      assert.ok(fs.existsSync(path.join(root, 'test', tier, `${cmd[1]}.ts`)), `test/${tier}/${cmd[1]}.ts does not exist`);
    }
    // Tier 2 runs in the extension host: a title filter through the environment, read by its mocha.
    const grep = /CANTON_LENS_TEST_GREP='([^']+)' npm run test:vscode/.exec(howTo);
    assert.ok(grep, 'no command for one area of tier 2');
    assert.match(read('test/vscode/suite/index.ts'), /grep: process\.env\.CANTON_LENS_TEST_GREP/);
    const suite = filesUnder('test/vscode/suite')
      .map((rel) => read(rel))
      .join('\n');
    assert.ok(suite.includes(`describe('${grep[1]}'`), `no describe('${grep[1]}') in test/vscode/suite/`);
  });

  it('names the Debian packages CI installs for the VS Code Server and the UI tests', () => {
    const ci = /for pkg in ([\w -]+); do/.exec(read('.ci/run'));
    assert.ok(ci, '.ci/run names no packages');
    const setUp = section(contributing, '## Set-up');
    for (const pkg of ci[1].trim().split(/\s+/)) assert.match(setUp, new RegExp(`apt-get install [^\\n]*\\b${pkg}\\b`), pkg);
  });
});

describe('docs/performance.md', () => {
  it('names every section the bench runs, so that each figure can be measured again', () => {
    const sections = [...new Set([...read('test/bench/bench.ts').matchAll(/want\('([\w-]+)'\)/g)].map((m) => m[1]))];
    assert.ok(sections.includes('browse-host') && sections.includes('soak'), sections.join(', '));
    const doc = read('docs/performance.md');
    assert.deepEqual(
      sections.filter((s) => !doc.includes(`\`${s}\``)),
      [],
    );
  });
});
