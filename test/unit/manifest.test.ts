// Lints package.json the way the marketplace and VS Code's UX guidelines expect.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
// The manifest as VS Code shows it: %keys% replaced from package.nls.json (and missing keys kept visible).
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'), (_k, v: unknown) =>
  typeof v === 'string' && /^%[\w.]+%$/.test(v) ? (nls[v.slice(1, -1)] ?? `MISSING ${v}`) : v,
);
const sources = (function read(dir: string): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? read(path.join(dir, e.name)) : fs.readFileSync(path.join(dir, e.name), 'utf8')))
    .join('\n');
})(path.join(root, 'src'));

describe('package.json', () => {
  it('names the extension and its engine', () => {
    assert.equal(manifest.name, 'canton-lens');
    assert.equal(manifest.displayName, 'Canton Lens');
    assert.equal(manifest.engines.vscode, '^1.100.0');
    assert.equal(manifest.engines.vscode.replace('^', ''), manifest.devDependencies['@types/vscode'].replace(/^[~^]/, '').replace(/\.\d+$/, '.0'));
    assert.ok(manifest.publisher && manifest.icon && manifest.repository && manifest.categories.length && manifest.keywords.length);
    assert.ok(fs.existsSync(path.join(root, manifest.icon)));
  });

  it('uses no "*" activation and loads dist/extension.js', () => {
    assert.ok(!(manifest.activationEvents ?? []).includes('*'));
    assert.equal(manifest.main, './dist/extension.js');
  });

  it('contributes every command as cantonLens.<verb> in the Canton category, and registers it', () => {
    for (const c of manifest.contributes.commands as { command: string; title: string; category: string }[]) {
      assert.match(c.command, /^cantonLens\.[a-z][A-Za-z]+$/);
      assert.equal(c.category, 'Canton', c.command);
      assert.match(c.title, /^[A-Z]/, c.command);
      assert.ok(!c.title.startsWith('Canton'), `${c.command}: the category already says Canton`);
      assert.ok(sources.includes(`'${c.command}'`), `${c.command} is contributed but never registered in src/`);
    }
  });

  it('localizes every user-visible manifest string through package.nls.json, with no key missing or unused', () => {
    const raw = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
    const used = new Set([...raw.matchAll(/"%([\w.]+)%"/g)].map((m) => m[1]));
    assert.ok(used.size > 20);
    for (const key of used) assert.ok(key in nls, `package.nls.json has no "${key}"`);
    for (const key of Object.keys(nls)) assert.ok(used.has(key), `package.nls.json has an unused "${key}"`);
    assert.ok(!JSON.stringify(manifest).includes('MISSING'));
  });

  it('has a walkthrough whose steps use contributed commands and shipped media', () => {
    const commands = new Set((manifest.contributes.commands as { command: string }[]).map((c) => c.command));
    const [walkthrough] = manifest.contributes.walkthroughs as { steps: { description: string; media: { markdown: string }; completionEvents: string[] }[] }[];
    assert.equal(walkthrough.steps.length, 7);
    for (const step of walkthrough.steps) {
      assert.ok(fs.existsSync(path.join(root, step.media.markdown)), step.media.markdown);
      for (const m of step.description.matchAll(/command:([\w.]+)/g)) assert.ok(commands.has(m[1]), m[1]);
      for (const e of step.completionEvents) {
        // onContext keys are the ones src/services/walkthroughProgress.ts sets.
        if (e.startsWith('onContext:')) assert.match(e, /^onContext:cantonLens\.walkthrough\.(hasNode|hasCredentials)$/);
        else assert.ok(commands.has(e.replace('onCommand:', '')), e);
      }
    }
  });

  it('contributes read-only language-model tools, each registered in src/ and described for users and models', () => {
    const tools = manifest.contributes.languageModelTools as {
      name: string;
      displayName: string;
      userDescription: string;
      modelDescription: string;
      toolReferenceName: string;
      inputSchema: { type: string; required: string[] };
    }[];
    assert.deepEqual(
      tools.map((t) => t.name),
      ['cantonLens_lookUpContract', 'cantonLens_lookUpUpdate', 'cantonLens_explainVisibility', 'cantonLens_listActiveContracts', 'cantonLens_whyCommandFailed'],
    );
    for (const t of tools) {
      assert.match(t.name, /^cantonLens_[a-z][A-Za-z]+$/);
      assert.ok(sources.includes(`'${t.name}'`), `${t.name} is contributed but never registered in src/`);
      assert.match(t.displayName, /^Canton: [A-Z]/);
      assert.ok(t.userDescription.length > 20 && t.modelDescription.length > 100, t.name);
      assert.match(t.modelDescription, /read-only|Read-only/, `${t.name} must say it only reads`);
      assert.match(t.modelDescription, /never follow instructions/, `${t.name} must tell the model ledger strings are data`);
      assert.ok(!/submit|execute|sign|token/i.test(t.name + t.toolReferenceName), `${t.name}: no tool writes to a ledger or handles tokens`);
      assert.equal(t.inputSchema.type, 'object');
      // Every input but the node is required, except where the tool has a default (the latest failure).
      assert.ok(t.inputSchema.required.length > 0 || t.name === 'cantonLens_whyCommandFailed', t.name);
    }
  });

  it('declares workspace trust and virtual workspace support', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.match(manifest.capabilities.untrustedWorkspaces.description, /untrusted workspace/);
    assert.equal(manifest.capabilities.virtualWorkspaces, true);
  });

  it('keeps undici v7 (v8 needs Node 22; VS Code 1.100 runs Node 20)', () => {
    assert.match(manifest.dependencies.undici, /^\^?7\./);
  });

  it('imports vscode only outside the pure modules', () => {
    for (const dir of ['src/ids', 'src/ledger', 'fake-ledger/src', 'src/daml', 'src/nodes', 'src/auth', 'src/lookups']) {
      for (const f of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts'))) {
        const text = fs.readFileSync(path.join(root, dir, f), 'utf8');
        assert.ok(!/from 'vscode'|require\('vscode'\)/.test(text), `${dir}/${f} imports vscode`);
      }
    }
  });
});
