// Executing prepared transactions from an *.execute.json, against fake nodes that check the
// request as a real node would and record what was sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { ExecuteReviewPanel } from '../../../src/panels/executeReviewPanel';
import { cantonLens, resetNodes, until } from './testApi';

const vectorsFile = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'prepared-transaction-vectors.json');
const vectors = JSON.parse(fs.readFileSync(vectorsFile, 'utf8')) as { preparedTransaction: string; preparedTransactionHash: string }[];
/** The acting party of vector 1 (metadata.submitterInfo.actAs): the only party that may sign it. */
const VECTOR_PARTY = 'bob::12205be3b9d177573fffb68eb245986f88b9df58d44ce575819078970580d87d1dc0';

describe('Executing prepared transactions', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  let dir: string;
  let confirmations: string[];
  let answer: boolean;

  const requestFile = (name: string, over: Record<string, unknown> = {}) => {
    const file = path.join(dir, name);
    fs.writeFileSync(
      file,
      JSON.stringify(
        {
          preparedTransaction: vectors[1].preparedTransaction,
          preparedTransactionHash: vectors[1].preparedTransactionHash,
          hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
          partySignatures: {
            signatures: [
              {
                party: VECTOR_PARTY,
                signatures: [
                  {
                    format: 'SIGNATURE_FORMAT_CONCAT',
                    signature: Buffer.alloc(64, 3).toString('base64'),
                    signedBy: `1220${'ab'.repeat(32)}`,
                    signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                  },
                ],
              },
            ],
          },
          submissionId: `sub-${name}`,
          deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } },
          ...over,
        },
        null,
        2,
      ),
    );
    return vscode.Uri.file(file);
  };

  const review = (uri: vscode.Uri) => vscode.commands.executeCommand<ExecuteReviewPanel | undefined>('cantonLens.executeSubmission', uri, 'ext');

  before(async () => {
    await resetNodes();
    node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 1 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-exec-'));
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'ext', url: node.url });
    await vscode.commands.executeCommand('cantonLens.setToken', 'ext', node.mintToken('executor'));
    const api = await cantonLens();
    api.execute.confirm = async (n, party, submissionId) => {
      confirmations.push(`${n.name}|${party}|${submissionId}`);
      return answer;
    };
  });
  beforeEach(() => {
    confirmations = [];
    answer = true;
    node.executed.length = 0;
    node.clearFaults();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetNodes();
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reviews a request: the decoded transaction and the recomputed hash equal to the signed one', async () => {
    const panel = await review(requestFile('a.execute.json'));
    assert.ok(panel, 'no review opened');
    const v = panel.current!;
    assert.equal(v.review?.computedHash, vectors[1].preparedTransactionHash);
    assert.equal(v.claimedHash, vectors[1].preparedTransactionHash);
    assert.equal(v.review?.nodes[0].templateId?.endsWith(':Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal'), true);
    assert.equal(node.executed.length, 0, 'reviewing sends nothing');
  });

  it('submits once after a confirmation naming the node and party; a second click does nothing', async () => {
    const panel = (await review(requestFile('b.execute.json')))!;
    const [first, second] = await Promise.all([panel.submit(), panel.submit()]);
    assert.equal(first?.state, 'accepted');
    assert.equal(second, undefined);
    assert.deepEqual(confirmations, [`ext|${VECTOR_PARTY}|sub-b.execute.json`]);
    assert.equal(node.executed.length, 1);
    assert.equal(node.executed[0].body.submissionId, 'sub-b.execute.json');
    assert.ok(!('preparedTransactionHash' in node.executed[0].body), "Canton Lens's own field is not sent");
    assert.equal(await panel.submit(), undefined, 'submitted: the review does not submit again by itself');
    assert.equal(node.executed.length, 1);
    const api = await cantonLens();
    assert.ok(api.recent.all().some((e) => e.kind === 'submission' && e.id === 'sub-b.execute.json' && e.summary === 'accepted'));
  });

  it('"Submit again" writes a fresh submission id into the file and asks again', async () => {
    const uri = requestFile('c.execute.json');
    const panel = (await review(uri))!;
    await panel.submit();
    const again = await panel.submitAgain();
    assert.equal(again?.state, 'accepted');
    assert.equal(confirmations.length, 2);
    assert.equal(node.executed.length, 2);
    const ids = node.executed.map((e) => e.body.submissionId as string);
    assert.notEqual(ids[0], ids[1]);
    assert.match(ids[1], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(JSON.parse(fs.readFileSync(uri.fsPath, 'utf8')).submissionId, ids[1], 'the file holds the new id');
  });

  it('follows the request file: an edit shows, a file that stops parsing shows its problem, Submit sends the file as it is now', async () => {
    const uri = requestFile('follow.execute.json');
    const panel = (await review(uri))!;
    const doc = await vscode.workspace.openTextDocument(uri);
    const replaceAll = async (text: string) => {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      assert.ok(await vscode.workspace.applyEdit(edit));
    };
    const original = doc.getText();
    await replaceAll(original.replace('sub-follow.execute.json', 'sub-follow-edited'));
    await doc.save();
    await until('the review of the edit', () => panel.current?.request.submissionId === 'sub-follow-edited' || undefined);
    await replaceAll('{ "preparedTransaction": ');
    await until('the parse error in the review', () => panel.fileProblems);
    assert.equal(panel.current, undefined, 'no stale review');
    assert.equal(await panel.submit(), undefined);
    assert.equal(node.executed.length, 0);
    // Edited and submitted at once: the file as it is now is sent.
    await replaceAll(original.replace('sub-follow.execute.json', 'sub-follow-now'));
    assert.equal((await panel.submit())?.state, 'accepted');
    assert.equal(node.executed.length, 1);
    assert.equal(node.executed[0].body.submissionId, 'sub-follow-now');
    await doc.save();
  });

  it('sends nothing when the confirmation is declined', async () => {
    answer = false;
    const panel = (await review(requestFile('d.execute.json')))!;
    assert.equal(await panel.submit(), undefined);
    assert.equal(node.executed.length, 0);
  });

  it('lists the problems of an invalid request on their JSON paths and sends nothing', async () => {
    const uri = requestFile('bad.execute.json', { hashingSchemeVersion: 'V2', submissionId: '' });
    assert.equal(await review(uri), undefined);
    const diagnostics = await until('diagnostics', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length > 0 ? d : undefined;
    });
    const messages = diagnostics.map((d) => d.message);
    assert.ok(
      messages.some((m) => m.startsWith('$.hashingSchemeVersion: Must be one of')),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => m.startsWith('$.submissionId: Missing')),
      messages.join('\n'),
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    const onEnum = diagnostics.find((d) => d.message.startsWith('$.hashingSchemeVersion'))!;
    assert.equal(doc.getText(onEnum.range), '"V2"', 'the diagnostic is on the value');
    assert.equal(node.executed.length, 0);
  });

  it("refuses a request whose signed hash is not this transaction's", async () => {
    const panel = (await review(requestFile('e.execute.json', { preparedTransactionHash: vectors[0].preparedTransactionHash })))!;
    assert.equal(await panel.submit(), undefined);
    assert.deepEqual(confirmations, []);
    assert.equal(node.executed.length, 0);
  });

  it("shows a node's refusal with its code and cause, and a timeout as an unknown outcome", async () => {
    await vscode.commands.executeCommand('cantonLens.setToken', 'ext', node.mintToken('alice'));
    const api = await cantonLens();
    const readRights = api.execute.userRights;
    try {
      // The user's rights, read from the node, flag it before the confirmation: nothing is sent.
      const flagged = (await review(requestFile('f.execute.json')))!;
      const sent = node.executed.length;
      assert.equal(await flagged.submit(), undefined);
      assert.equal(node.executed.length, sent);
      assert.match(
        flagged.current!.findings.find((f) => f.id === 'rights' && f.severity === 'block')?.text ?? '',
        /User alice has neither CanActAs nor CanExecuteAs for /,
      );
      flagged.dispose();
      // Rights that could not be read: the node's own refusal is shown, with its code and cause.
      api.execute.userRights = async () => ({ reason: 'not read in this test' });
      const denied = await (await review(requestFile('f.execute.json')))!.submit();
      assert.ok(denied?.state === 'failed' && !denied.outcomeUnknown);
      assert.match(denied.explanation, /CanActAs or CanExecuteAs for the submitting party/);
    } finally {
      api.execute.userRights = readRights;
      await vscode.commands.executeCommand('cantonLens.setToken', 'ext', node.mintToken('executor'));
    }
    node.version = '3.4';
    try {
      // The review knows the node's version: what a 3.4 node cannot decode is not sent.
      await api.nodes.check(api.nodes.find('ext')!);
      const v3 = (await review(requestFile('g.execute.json', { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3', preparedTransactionHash: undefined })))!;
      assert.match(v3.current!.findings.find((f) => f.id === 'version' && f.severity === 'block')?.text ?? '', /does not know HASHING_SCHEME_VERSION_V3/);
      const sent = node.executed.length;
      assert.equal(await v3.submit(), undefined);
      assert.equal(node.executed.length, sent, 'nothing sent');
    } finally {
      node.version = '3.5';
      await api.nodes.check(api.nodes.find('ext')!);
    }
    await vscode.workspace.getConfiguration('cantonLens').update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      node.injectFault({ path: '/v2/interactive-submission/execute', fault: { type: 'latency', ms: 2_500 }, times: 1 });
      const slow = await (await review(requestFile('h.execute.json')))!.submit();
      assert.ok(slow?.state === 'failed' && slow.outcomeUnknown);
      assert.match(slow.explanation, /The submission may still commit. Before submitting again, look for submission id sub-h.execute.json in the completions/);
    } finally {
      await vscode.workspace.getConfiguration('cantonLens').update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('reports an HTML 500 on execute as an unknown outcome, never as "not accepted"', async () => {
    node.injectFault({ path: '/v2/interactive-submission/execute', fault: { type: 'html500' }, times: 1 });
    const panel = (await review(requestFile('html500.execute.json')))!;
    const outcome = await panel.submit();
    assert.ok(outcome?.state === 'failed' && outcome.outcomeUnknown, JSON.stringify(outcome));
    assert.match(outcome.explanation, /look for submission id sub-html500\.execute\.json in the completions/);
    assert.equal(node.requests.filter((r) => r.path === '/v2/interactive-submission/execute').length >= 1, true);
    assert.equal(await panel.submit(), undefined, 'never retried by itself');
  });

  it('blocks a signature by a party that does not act in the prepared transaction, naming both, and sends nothing', async () => {
    const panel = (await review(
      requestFile('wrong-party.execute.json', {
        partySignatures: {
          signatures: [
            {
              party: node.ledger.parties.Dana,
              signatures: [
                {
                  format: 'SIGNATURE_FORMAT_CONCAT',
                  signature: Buffer.alloc(64, 3).toString('base64'),
                  signedBy: `1220${'ab'.repeat(32)}`,
                  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                },
              ],
            },
          ],
        },
      }),
    ))!;
    const block = panel.current!.findings.find((f) => f.severity === 'block');
    assert.equal(block?.id, 'actingParty');
    assert.ok(block.text.includes(node.ledger.parties.Dana) && block.text.includes(VECTOR_PARTY));
    assert.equal(await panel.submit(), undefined);
    assert.deepEqual(confirmations, []);
    assert.equal(node.executed.length, 0);
  });

  it('"Submit Again" then Cancel leaves the file untouched; it targets the review\'s node after the active node changes', async () => {
    const other = await FakeLedgerNode.start({ version: '3.6', bigTransactionEvents: 1 });
    try {
      await vscode.commands.executeCommand('cantonLens.addNode', { name: 'other', url: other.url });
      await vscode.commands.executeCommand('cantonLens.setToken', 'other', other.mintToken('executor'));
      const uri = requestFile('again.execute.json');
      const before = fs.readFileSync(uri.fsPath, 'utf8');
      const panel = (await review(uri))!;
      await panel.submit();
      answer = false;
      assert.equal(await panel.submitAgain(), undefined);
      assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), before, 'cancelled: the file is untouched');
      assert.equal(node.executed.length, 1);
      await vscode.commands.executeCommand('cantonLens.selectNode', 'other');
      answer = true;
      const again = await panel.submitAgain();
      assert.equal(again?.state, 'accepted');
      assert.equal(node.executed.length, 2, "sent to the review's node");
      assert.equal(other.executed.length, 0, 'not to the active node');
      assert.ok(confirmations.every((c) => c.startsWith('ext|')));
      assert.equal(again.state === 'accepted' && again.userId, 'executor', "the change id names the token's real user");
    } finally {
      await other.close();
    }
  });
});
