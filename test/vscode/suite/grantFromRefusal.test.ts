// From a refusal to its fix: a lookup refused (403) because the token's user may not read as a
// configured party offers "Grant CanReadAs … to …" where another configured node of that URL holds an
// administrator's token; the grant goes through Grant Right (sent once) and the lookup then reads.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { cantonLens, resetNodes, until } from './testApi';

describe('Grant from a refusal', function () {
  this.timeout(60_000);
  let fake: FakeLedgerNode;

  before(async () => {
    await resetNodes();
    fake = await FakeLedgerNode.start({ version: '3.5', singleSynchronizer: true });
  });
  after(async () => {
    const api = await cantonLens();
    for (const p of [...api.panels.panels]) p.dispose();
    await resetNodes();
    await fake.close();
  });

  it('offers Grant CanReadAs through the admin node of that URL, grants once, and the lookup then reads', async () => {
    const api = await cantonLens();
    const { Bob } = fake.ledger.parties;
    const nodes = [
      { name: 'reader', url: fake.url, parties: [Bob] },
      { name: 'reader-admin', url: fake.url },
    ];
    await vscode.workspace.getConfiguration('cantonLens').update('nodes', nodes, vscode.ConfigurationTarget.Global);
    await until('both nodes', () => api.nodes.find('reader') && api.nodes.find('reader-admin'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'reader', fake.mintToken('alice'));
    await vscode.commands.executeCommand('cantonLens.setToken', 'reader-admin', fake.mintToken('participant_admin'));

    const id = fake.ledger.samples.keyedContract;
    await vscode.commands.executeCommand('cantonLens.showContract', id, 'reader');
    const panel = await until('the panel', () => api.panels.panels.find((p) => p.current.id === id));
    const missing = await until('the refusal', () => panel.missingRight);
    assert.deepEqual(missing, { node: 'reader', user: 'alice', parties: [Bob], via: 'reader-admin' });
    const grants = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v2/users/alice/rights').length;
    assert.equal(grants(), 0);

    await panel.grantMissingRight();
    assert.equal(grants(), 1, 'granted once');
    const found = await until('the contract, read as Bob', () => (panel.lookupResult?.found ? panel.lookupResult : undefined));
    assert.equal(found.kind, 'contract');
    assert.equal(panel.missingRight, undefined);
  });
});
