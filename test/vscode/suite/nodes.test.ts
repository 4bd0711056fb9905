// Ledger nodes, tokens and the node tree, in a real VS Code against fake nodes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { eventFormatFor } from '../../../src/ledger/requestForms';
import { FakeTokenEndpoint } from '../../support/fakeTokenEndpoint';
import { FAKE_NODE_FEATURE_ROWS } from '../../support/featureRows';
import { cantonLens, find, renderTree, resetNodes, until, type RenderedItem } from './testApi';

const flat = (items: RenderedItem[]): RenderedItem[] => items.flatMap((i) => [i, ...flat(i.children)]);

describe('Ledger nodes and the node tree', function () {
  this.timeout(60_000);
  const fakes: FakeLedgerNode[] = [];
  const start = async (version: FakeVersion) => {
    const n = await FakeLedgerNode.start({ version, bigTransactionEvents: 5 });
    fakes.push(n);
    return n;
  };

  before(resetNodes);
  after(async () => {
    await resetNodes();
    await Promise.all(fakes.map((f) => f.close()));
  });

  it('starts with no nodes: the tree is empty (its welcome content shows)', async () => {
    const api = await cantonLens();
    assert.deepEqual(await renderTree(api), []);
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`adds a ${version} node after checking GET /v2/version, and shows its version and features`, async () => {
      const api = await cantonLens();
      const fake = await start(version);
      const name = `node ${version}`;
      const added = await vscode.commands.executeCommand<{ name: string; version?: string }>('cantonLens.addNode', { name, url: fake.url });
      assert.equal(added?.version, { '3.4': '3.4.12', '3.5': '3.5.10', '3.6': '3.6.0-SNAPSHOT' }[version]);
      const saved = vscode.workspace.getConfiguration('cantonLens').inspect<{ name: string; url: string }[]>('nodes')?.globalValue ?? [];
      assert.ok(
        saved.some((n) => n.name === name && n.url === fake.url),
        'saved to the user settings',
      );
      const tree = await until('the node to be checked', async () => {
        const t = await renderTree(api);
        return find(t, name)?.description.includes(added.version!) ? t : undefined;
      });
      const node = find(tree, name)!;
      assert.match(node.description, / · \d+ ms$/);
      assert.equal(find(node.children, 'Version')!.description, added.version);
      assert.equal(find(node.children, 'Token')!.description, 'No token');
      const features = find(node.children, 'Features')!;
      assert.deepEqual(
        features.children.map((f) => `${f.label}: ${f.description}`),
        FAKE_NODE_FEATURE_ROWS,
      );
      assert.ok(
        features.children.every((f) => f.tooltip.length > 20),
        'every feature says what it means',
      );
    });
  }

  it('selects the active node by name, as menus and keybindings pass it', async () => {
    const api = await cantonLens();
    // The command returns once the setting is written and the registry told: no wait. Should this
    // ever fail, the message says what the extension held then.
    const held = () =>
      JSON.stringify({
        nodes: api.nodes.all().map((n) => n.name),
        activeNode: vscode.workspace.getConfiguration('cantonLens').get('activeNode'),
        log: api.log.recent.slice(-8),
      });
    const chosen = await vscode.commands.executeCommand<string>('cantonLens.selectNode', 'node 3.6');
    assert.equal(chosen, 'node 3.6', held());
    assert.equal(vscode.workspace.getConfiguration('cantonLens').get('activeNode'), 'node 3.6', held());
    assert.equal(api.nodes.active()?.name, 'node 3.6', held());
  });

  it('shows an unreachable node as a tree item with the reason and a retry action', async () => {
    const api = await cantonLens();
    const fake = await start('3.5');
    const url = fake.url;
    await fake.close();
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'down', url });
    const node = await until('the node to be unreachable', async () => {
      const n = find(await renderTree(api), 'down');
      return n?.description.startsWith('unreachable') ? n : undefined;
    });
    const problem = find(node.children, 'Unreachable')!;
    assert.match(problem.description, /Nothing is listening at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
    assert.equal(problem.command, 'cantonLens.refresh');
    assert.equal(problem.contextValue, 'cantonLens.error');
  });

  it('reports invalid entries once and keeps the valid ones working', async () => {
    const api = await cantonLens();
    // The log keeps its latest 1,000 lines: count matching lines, not positions (a full log shifts).
    const count = (re: RegExp) => api.log.recent.filter((l) => re.test(l)).length;
    const typos = count(/typo/);
    const problems = count(/typo|listed twice/);
    const config = vscode.workspace.getConfiguration('cantonLens');
    const current = config.inspect<unknown[]>('nodes')?.globalValue ?? [];
    await config.update(
      'nodes',
      [...current, { name: 'typo', url: 'localhost:7575' }, { name: 'node 3.5', url: 'http://dup:1' }],
      vscode.ConfigurationTarget.Global,
    );
    await until('the settings to reload', () => count(/typo/) > typos, 30_000);
    assert.equal(count(/typo|listed twice/) - problems, 2);
    assert.ok(api.nodes.find('node 3.4') && !api.nodes.find('typo'));
    await vscode.commands.executeCommand('cantonLens.refresh');
    assert.equal(count(/typo/) - typos, 1, 'reported once, not on every reload');
    await config.update('nodes', current, vscode.ConfigurationTarget.Global);
  });

  it('stores a token in SecretStorage only, shows user and expiry, and marks an expired one', async () => {
    const api = await cantonLens();
    const fake = fakes[1]; // the 3.5 node
    const ok = await vscode.commands.executeCommand<boolean>(
      'cantonLens.setToken',
      'node 3.5',
      fake.mintToken('alice', { exp: Math.floor(Date.now() / 1000) + 3600 }),
    );
    assert.equal(ok, true);
    const token = await until('the token to show', async () => {
      const t = find(find(await renderTree(api), 'node 3.5')!.children, 'Token');
      return t?.description.startsWith('alice') ? t : undefined;
    });
    assert.match(token.description, /^alice, expires in (59|60) min$/);
    await vscode.commands.executeCommand('cantonLens.setToken', 'node 3.5', fake.mintToken('alice', { exp: Math.floor(Date.now() / 1000) - 120 }));
    const expired = await until('the expired token to show', async () => {
      const t = find(find(await renderTree(api), 'node 3.5')!.children, 'Token');
      return t?.description.includes('expired') ? t : undefined;
    });
    assert.equal(expired.description, 'alice, expired 2 min ago');
    await vscode.commands.executeCommand('cantonLens.clearToken', 'node 3.5');
    await until('the token to be cleared', async () => find(find(await renderTree(api), 'node 3.5')!.children, 'Token')?.description === 'No token');
  });

  it("never lets a canary token reach settings, logs or the tree; only its own origin's Authorization header", async () => {
    const api = await cantonLens();
    const fake = fakes[1];
    const canary = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnkiLCJleHAiOjQxMDI0NDQ4MDB9.CANARY-c4n4ry-t0k3n-5f9d2';
    fake.requests.length = 0;
    await vscode.commands.executeCommand('cantonLens.setToken', 'node 3.5', canary);
    const client = api.nodes.client(api.nodes.find('node 3.5')!);
    await client
      .getEventsByContractId({ contractId: fake.ledger.samples.activeContract, eventFormat: eventFormatFor([fake.ledger.parties.Alice]) })
      .catch((e: Error) => {
        assert.ok(!JSON.stringify({ ...e, message: e.message }).includes('CANARY'), 'the error holds no part of the token');
      });
    await vscode.commands.executeCommand('cantonLens.refresh');
    await until('a refresh', async () => api.nodes.status(api.nodes.find('node 3.5')!).state === 'reachable');
    const tree = JSON.stringify(flat(await renderTree(api, 4)));
    assert.ok(tree.includes('canary, expires'), 'the tree shows the token user');
    assert.ok(!tree.includes('CANARY') && !tree.includes(canary.slice(0, 30)), 'the tree holds no part of the token');
    assert.ok(!api.log.recent.join('\n').includes('CANARY'), 'the log holds no part of the token');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('cantonLens'));
    assert.ok(!settings.includes('CANARY'));
    const userSettings = path.join(process.env.CANTON_LENS_USER_DATA_DIR ?? '', 'User', 'settings.json');
    assert.ok(fs.existsSync(userSettings), `no user settings at ${userSettings}`);
    assert.ok(!fs.readFileSync(userSettings, 'utf8').includes('CANARY'));
    const withToken = fake.requests.filter((r) => JSON.stringify(r).includes('CANARY'));
    assert.ok(withToken.length >= 1);
    for (const r of withToken) {
      assert.equal(r.headers.authorization, `Bearer ${canary}`);
      assert.ok(!r.body.includes('CANARY') && !r.path.includes('CANARY'));
    }
    assert.ok(
      fake.requests.filter((r) => r.path === '/v2/version').every((r) => r.headers.authorization === undefined),
      'the public version endpoint gets no token',
    );
    await vscode.commands.executeCommand('cantonLens.clearToken', 'node 3.5');
  });

  it('never sends a token stored for one URL to a node whose URL was edited to another origin', async () => {
    const api = await cantonLens();
    const [a, b] = [fakes[1], await start('3.5')];
    await vscode.commands.executeCommand('cantonLens.setToken', 'node 3.5', a.mintToken('alice'));
    const config = vscode.workspace.getConfiguration('cantonLens');
    const nodes = (config.inspect<{ name: string; url: string }[]>('nodes')?.globalValue ?? []).map((n) => (n.name === 'node 3.5' ? { ...n, url: b.url } : n));
    await config.update('nodes', nodes, vscode.ConfigurationTarget.Global);
    await until('the new URL', () => api.nodes.find('node 3.5')?.url === b.url);
    b.requests.length = 0;
    await api.nodes
      .client(api.nodes.find('node 3.5')!)
      .getEventsByContractId({ contractId: b.ledger.samples.activeContract, eventFormat: eventFormatFor([b.ledger.parties.Alice]) })
      .catch(() => undefined);
    assert.equal(b.requests.length, 1);
    assert.equal(b.requests[0].headers.authorization, undefined, "the old origin's token did not follow the URL");
  });

  it('gets OAuth2 client-credential tokens on demand and refreshes them before expiry', async () => {
    const api = await cantonLens();
    const fake = await start('3.5');
    const idp = await FakeTokenEndpoint.start({ 'canton-lens': { secret: 'client-secret-CANARY2', user: 'alice' } }, (user, exp) =>
      fake.mintToken(user, { exp }),
    );
    try {
      idp.expiresInSeconds = 62; // refreshed 60 s before expiry: stale after 2 s
      const config = vscode.workspace.getConfiguration('cantonLens');
      const current = config.inspect<unknown[]>('nodes')?.globalValue ?? [];
      await config.update(
        'nodes',
        [
          ...current,
          {
            name: 'oauth',
            url: fake.url,
            parties: [fake.ledger.parties.Alice],
            auth: { type: 'clientCredentials', tokenUrl: idp.tokenUrl, clientId: 'canton-lens', scope: 'daml_ledger_api' },
          },
        ],
        vscode.ConfigurationTarget.Global,
      );
      await until('the oauth node', () => api.nodes.find('oauth'));
      await vscode.commands.executeCommand('cantonLens.setToken', 'oauth', 'client-secret-CANARY2');
      assert.equal(idp.requests.length, 1, 'a token was fetched to check the secret');
      const lookup = () =>
        api.nodes
          .client(api.nodes.find('oauth')!)
          .getEventsByContractId({ contractId: fake.ledger.samples.activeContract, eventFormat: eventFormatFor([fake.ledger.parties.Alice]) });
      assert.ok((await lookup()).created);
      assert.equal(idp.requests.length, 1, 'the token is cached');
      await new Promise((r) => setTimeout(r, 2_200));
      assert.ok((await lookup()).created);
      assert.equal(idp.requests.length, 2, 'refreshed before it expired');
      const token = find(find(await renderTree(api), 'oauth')!.children, 'Token')!;
      assert.match(token.description, /^client canton-lens: alice, expires in/);
      assert.ok(!api.log.recent.join('\n').includes('CANARY2'));
      assert.ok(!fs.readFileSync(path.join(process.env.CANTON_LENS_USER_DATA_DIR ?? '', 'User', 'settings.json'), 'utf8').includes('CANARY2'));
    } finally {
      await idp.close();
    }
  });

  it('removes a node and its token', async () => {
    const api = await cantonLens();
    const url = api.nodes.find('node 3.4')!.url;
    const fake = fakes[0];
    await vscode.commands.executeCommand('cantonLens.setToken', 'node 3.4', fake.mintToken('alice'));
    assert.equal(await vscode.commands.executeCommand('cantonLens.removeNode', { name: 'node 3.4' }), true);
    assert.equal(api.nodes.find('node 3.4'), undefined);
    assert.equal(find(await renderTree(api), 'node 3.4'), undefined);
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'node 3.4', url });
    const token = await until('the re-added node', async () => find(find(await renderTree(api), 'node 3.4')?.children ?? [], 'Token'));
    assert.equal(token.description, 'No token', 'the old token was deleted with the node');
  });
});
