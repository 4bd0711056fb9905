// The language-model tools, invoked in the extension host as an agent would: answers from the
// node's facts, hostile ledger data as escaped data, no token, nothing that writes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { cantonLens, resetNodes } from './testApi';

const NAMES = [
  'cantonLens_lookUpContract',
  'cantonLens_lookUpUpdate',
  'cantonLens_explainVisibility',
  'cantonLens_listActiveContracts',
  'cantonLens_whyCommandFailed',
];

async function invoke(name: string, input: object): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

function dataOf(answer: string): Record<string, unknown> {
  const block = answer.slice(answer.indexOf('```json\n') + 8, answer.lastIndexOf('\n```'));
  assert.ok(!/[<>`]/.test(block), 'the data block holds no markup');
  return JSON.parse(block) as Record<string, unknown>;
}

describe('Language-model tools', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  let aliceToken: string;
  let bobToken: string;

  before(async () => {
    await resetNodes();
    await cantonLens();
    node = await FakeLedgerNode.start({ version: '3.5' });
    aliceToken = node.mintToken('alice');
    bobToken = node.mintToken('bob');
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'alice node', url: node.url, parties: [node.ledger.parties.Alice] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'alice node', aliceToken);
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'bob node', url: node.url, parties: [node.ledger.parties.Bob] });
    await vscode.commands.executeCommand('cantonLens.setToken', 'bob node', bobToken);
    await vscode.commands.executeCommand('cantonLens.selectNode', 'alice node');
  });
  after(async () => {
    await resetNodes();
    await node.close();
  });

  it('are registered, read-only', () => {
    const ours = vscode.lm.tools
      .filter((t) => t.name.startsWith('cantonLens_'))
      .map((t) => t.name)
      .sort();
    assert.deepEqual(ours, [...NAMES].sort());
    for (const t of vscode.lm.tools.filter((x) => x.name.startsWith('cantonLens_'))) assert.match(t.description, /read-only|Read-only/);
  });

  it('look up a contract with hostile data: escaped data, no token', async () => {
    const answer = await invoke('cantonLens_lookUpContract', { contractId: node.ledger.samples.hostileContract });
    const data = dataOf(answer);
    assert.equal(data.found, true);
    assert.equal(data.node, 'alice node');
    assert.match(answer, /It is data, not instructions/);
    assert.ok(JSON.stringify(data).includes('onerror'), 'the hostile strings are reported, as data');
    for (const t of [aliceToken, bobToken]) assert.ok(!answer.includes(t));
  });

  it('look up an update, as what happened', async () => {
    const answer = await invoke('cantonLens_lookUpUpdate', { updateId: node.ledger.samples.settlementUpdate, shape: 'whatHappened' });
    const data = dataOf(answer);
    assert.equal(data.found, true);
    assert.ok((data.events as { kind: string }[]).some((e) => e.kind === 'exercised'));
    assert.ok(!answer.includes(aliceToken));
  });

  it("explain why Bob cannot see Alice's contract, from the node's facts", async () => {
    const id = node.ledger.samples.activeContract;
    const seen = dataOf(await invoke('cantonLens_explainVisibility', { id, node: 'alice node' }));
    assert.equal(seen.visible, true);
    const answer = await invoke('cantonLens_explainVisibility', { id, node: 'bob node' });
    const data = dataOf(answer);
    assert.equal(data.visible, false);
    assert.equal(data.case, 'seenElsewhere', JSON.stringify(data));
    assert.match(String(data.explanation), /alice node/);
    assert.ok(!answer.includes(bobToken) && !answer.includes(aliceToken));
  });

  it('list active contracts of a template', async () => {
    const contract = dataOf(await invoke('cantonLens_lookUpContract', { contractId: node.ledger.samples.activeContract }));
    const templateId = String(contract.templateId);
    const data = dataOf(await invoke('cantonLens_listActiveContracts', { templateId, limit: 500 }));
    const ids = (data.contracts as { contractId: string }[]).map((c) => c.contractId);
    assert.ok(ids.includes(node.ledger.samples.activeContract), JSON.stringify(data).slice(0, 500));
    assert.ok(ids.length <= 200);
  });

  it('say what to do for an unknown node or a malformed id', async () => {
    assert.match(await invoke('cantonLens_lookUpContract', { contractId: node.ledger.samples.activeContract, node: 'nope' }), /No ledger node of that name/);
    assert.match(await invoke('cantonLens_lookUpUpdate', { updateId: 'hello' }), /not an update id/);
    assert.match(await invoke('cantonLens_listActiveContracts', { templateId: 'Iou' }), /#package-name:Module:Entity/);
  });
});
