// A canary token through every flow, and requests in flight when their node goes away.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { ExecuteReviewPanel } from '../../../src/panels/executeReviewPanel';
import type { PanelTarget } from '../../../src/panels/lookupPanels';
import { cantonLens, renderTree, resetNodes, until } from './testApi';

// Looks like a JWT, so every scrubber and decoder treats it as one.
const CANARY = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnktdXNlciIsImV4cCI6NDEwMjQ0NDgwMH0.CANARY-7d1e-secret-canary-value';

describe('Hardening', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  let dir: string;

  before(async () => {
    await resetNodes();
    node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 10 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-hard-'));
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'canary', url: node.url, parties: [node.ledger.parties.Alice] });
    await vscode.commands.executeCommand('cantonLens.selectNode', 'canary');
    await vscode.commands.executeCommand('cantonLens.setToken', 'canary', CANARY);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a canary token appears nowhere but the Authorization header sent to its own node', async () => {
    const api = await cantonLens();
    node.requests.length = 0;
    const seen: string[] = [];
    // Lookups (refused: the canary is not a valid token), their panels and errors.
    for (const [command, id] of [
      ['cantonLens.showContract', node.ledger.samples.activeContract],
      ['cantonLens.showTransaction', node.ledger.samples.transferUpdate],
    ] as const) {
      const target = await vscode.commands.executeCommand<PanelTarget>(command, id);
      const panel = await until('the panel', () => api.panels.panels.find((p) => p.current.id === target.id && /Could not look up|badge/.test(p.lastBody)));
      seen.push(panel.lastBody, panel.webviewPanel.webview.html);
    }
    // A node that echoes the Authorization header back in its error page.
    node.injectFault({
      path: '/v2/events/events-by-contract-id',
      times: 1,
      fault: { type: 'reply', status: 500, contentType: 'text/html', body: `<html>debug: Authorization: Bearer ${CANARY}</html>` },
    });
    await api.lookups
      .contract(api.nodes.find('canary')!, node.ledger.samples.keyedContract, { refresh: true })
      .catch((e: Error & { explanation?: string; bodyPreview?: string }) => seen.push(e.message, e.explanation ?? '', e.bodyPreview ?? ''));
    // Hovers.
    const doc = await vscode.workspace.openTextDocument({ content: `see ${node.ledger.samples.archivedContract}` });
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(0, 10));
    seen.push(...hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))));
    // Execute: the review and the refusal (signed as vector 0's acting party, so the pre-send checks let it through).
    const vectors = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'prepared-transaction-vectors.json'), 'utf8'),
    ) as { preparedTransaction: string }[];
    const file = path.join(dir, 'canary.execute.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        preparedTransaction: vectors[0].preparedTransaction,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        submissionId: 'canary-1',
        deduplicationPeriod: { Empty: {} },
        partySignatures: {
          signatures: [
            {
              party: 'operator::1220d44fc1c3ba0b5bdf7b956ee71bc94ebe2d23258dc268fdf0824fbaeff2c61424',
              signatures: [
                {
                  format: 'SIGNATURE_FORMAT_CONCAT',
                  signature: 'AAAA',
                  signedBy: `1220${'ab'.repeat(32)}`,
                  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                },
              ],
            },
          ],
        },
      }),
    );
    api.execute.confirm = async () => true;
    const review = await vscode.commands.executeCommand<ExecuteReviewPanel>('cantonLens.executeSubmission', vscode.Uri.file(file), 'canary');
    const outcome = await review.submit();
    assert.equal(outcome?.state, 'failed', 'the canary is refused');
    seen.push(JSON.stringify(outcome), JSON.stringify(review.current));
    // Tree, log, settings (in memory and on disk), recent lookups.
    seen.push(
      JSON.stringify(await renderTree(api, 4)),
      api.log.recent.join('\n'),
      JSON.stringify(vscode.workspace.getConfiguration('cantonLens')),
      JSON.stringify(api.recent.all()),
    );
    seen.push(fs.readFileSync(path.join(process.env.CANTON_LENS_USER_DATA_DIR ?? '', 'User', 'settings.json'), 'utf8'));
    for (const text of seen) {
      assert.ok(!text.includes('CANARY'), `the canary leaked into: ${text.slice(0, 300)}`);
      assert.ok(!text.includes(CANARY.slice(0, 40)), `a part of the canary leaked into: ${text.slice(0, 300)}`);
    }
    const carrying = node.requests.filter((r) => JSON.stringify(r).includes('CANARY'));
    assert.ok(carrying.length >= 3, `${carrying.length} requests carried the token`);
    for (const r of carrying) {
      assert.equal(r.headers.authorization, `Bearer ${CANARY}`);
      assert.ok(!r.body.includes('CANARY') && !r.path.includes('CANARY'));
    }
  });

  it('a node removed while its requests are in flight leaves the extension working', async () => {
    const api = await cantonLens();
    await vscode.commands.executeCommand('cantonLens.setToken', 'canary', node.mintToken('alice'));
    api.lookups.clear();
    node.injectFault({ path: '/v2/events/events-by-contract-id', fault: { type: 'latency', ms: 1_500 }, times: 20 });
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      api.lookups
        .contract(api.nodes.find('canary')!, i % 2 ? node.ledger.samples.activeContract : node.ledger.samples.archivedContract, { refresh: true })
        .then(
          () => 'done',
          (e: Error) => `error: ${e.message}`,
        ),
    );
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.keyedContract);
    assert.equal(await vscode.commands.executeCommand('cantonLens.removeNode', 'canary'), true);
    const results = await Promise.all(inFlight);
    assert.equal(results.length, 20, 'every lookup settled');
    const panel = api.panels.panels.find((p) => p.current.id === target.id)!;
    panel.navigate({ kind: 'contract', id: node.ledger.samples.activeContract, node: 'canary' });
    await until('the panel to explain', () => (/no longer configured/.test(panel.lastBody) ? true : undefined));
    // Still working: add it back and look something up.
    node.clearFaults();
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'canary', url: node.url, parties: [node.ledger.parties.Alice] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'canary', node.mintToken('alice'));
    const l = await api.lookups.contract(api.nodes.find('canary')!, node.ledger.samples.activeContract);
    assert.equal(l.found, true);
  });

  it('a panel closed while its lookup is in flight: the lookup ends quietly, nothing is rendered into the closed page', async () => {
    const api = await cantonLens();
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'closing', url: node.url, parties: [node.ledger.parties.Alice] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'closing', node.mintToken('alice'));
    try {
      api.lookups.clear();
      // Both lookups of the panel are held until it has closed.
      node.injectFault({ path: '/v2/events/events-by-contract-id', fault: { type: 'latency', ms: 60_000 }, times: 2 });
      const asked = node.requests.length;
      const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.activeContract, 'closing');
      const panel = await until('the panel', () => api.panels.panels.find((p) => p.current.id === target.id && p.current.node === 'closing'));
      const held = () => node.requests.slice(asked).filter((r) => r.path === '/v2/events/events-by-contract-id').length;
      await until('the lookup reached the node', () => held() >= 1 || undefined);
      // A second load, awaited: it must settle without throwing after the close (it rendered its
      // cancellation into the disposed webview, an unhandled "Webview is disposed").
      const again = panel.load(true);
      await until('the second lookup reached the node', () => held() >= 2 || undefined);
      panel.webviewPanel.dispose();
      await again;
      assert.ok(!api.panels.panels.includes(panel), 'the panel is gone');
    } finally {
      node.clearFaults();
      await vscode.commands.executeCommand('cantonLens.removeNode', 'closing');
    }
  });
});
