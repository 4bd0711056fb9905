// `npm run demo`: the whole experience on a fresh machine. Packages the extension, starts the demo
// ledger, installs the .vsix into the VS Code Server with a sample workspace full of the ledger's
// ids, and prints the URL to open. Ctrl+C stops everything.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeLedgerNode, type FakeVersion } from '../../fake-ledger/src/testing';
import { writeDemoDars } from '../../fake-ledger/src/demo';
import { DEMO_TOKENS_ENV } from '../../src/nodes/demoTokens';
import { packagedVsix } from '../support/packagedVsix';
import { PREAPPROVAL_PARTY } from '../support/executeRequests';
import { freshPreapprovalExecuteRequest } from '../support/preparedTransactions';
import { exerciseRequest } from '../../src/execute/commandsRequest';
import { PROJECT_ROOT, ensureVsCodeServer, freePort, isolatedEnv, seedUserSettings, startVsCodeServer } from '../vscode/vscodeServer';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

async function sampleWorkspace(dir: string, node: FakeLedgerNode): Promise<void> {
  const s = node.ledger.samples;
  const p = node.ledger.parties;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'ledger.log'),
    [
      `2026-11-21T09:14:05.120Z INFO  c.d.c.p.TransactionProcessor:participant=participant1 - Committed update ${s.transferUpdate}`,
      `2026-11-21T09:14:05.121Z INFO  c.d.c.p.TransactionProcessor:participant=participant1 - Created contract ${s.activeContract} (Iou:Iou) for ${p.Alice}`,
      `2026-11-21T09:14:05.122Z INFO  c.d.c.p.TransactionProcessor:participant=participant1 - Archived contract ${s.archivedContract}`,
      `2026-11-21T09:14:06.310Z INFO  c.d.c.p.TransactionProcessor:participant=participant1 - Committed update ${s.bigUpdate} with 5000 events`,
      `2026-11-21T09:14:07.002Z WARN  c.d.c.p.TransactionProcessor:participant=participant1 - Contract ${s.unknownContract} not found`,
      `2026-11-21T09:14:07.050Z DEBUG c.d.c.p.TransactionProcessor:participant=participant1 - Note ${s.hostileContract} shared with ${p.Alice}`,
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'contracts.json'),
    `${JSON.stringify(
      {
        account: { contractId: s.keyedContract, owner: p.Bob },
        ious: [s.activeContract, s.archivedContract],
        lastUpdate: s.transferUpdate,
      },
      null,
      2,
    )}\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'Transfer.daml'),
    [
      'module Transfer where',
      '',
      'import Daml.Script',
      '',
      '-- Replays the transfer of the demo ledger:',
      `--   update ${s.transferUpdate}`,
      'transferTest : Script ()',
      'transferTest = do',
      `  let iou = coerceContractId "${s.archivedContract}"`,
      `  alice <- partyFromText "${p.Alice}"`,
      '  pure ()',
      '',
    ].join('\n'),
  );
  // The demo ledger's Daml model (two packages, as the ledger names them): template names in panels
  // open these lines, and the templates show their contracts in a CodeLens.
  for (const pkg of ['daml-model', 'daml-holding'])
    fs.cpSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'workspace', pkg), path.join(dir, pkg), { recursive: true });
  // Built, as `daml build` leaves them (.daml/dist): the Packages section reads them as built and on
  // the node, and Validate DAR / Upload DAR have a DAR to send. Written at each start, not committed.
  writeDemoDars(dir, { 'canton-lens-demo-holding': 'daml-holding', 'canton-lens-demo-model': 'daml-model' });
  // Prepared now: within the node's 24 h preparation time tolerance while the demo runs today.
  const request = await freshPreapprovalExecuteRequest(PREAPPROVAL_PARTY, '3f2c9a1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b', new Date(), {
    deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } },
  });
  fs.writeFileSync(path.join(dir, 'preapproval.execute.json'), `${JSON.stringify(request, null, 2)}\n`);
  // The inner loop: splitting Alice's Iou with an amount the choice's assertion refuses; change it and
  // submit again (Canton: Submit Commands), and watch Canton: Follow Completions.
  fs.mkdirSync(path.join(dir, 'commands'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'commands', 'split.commands.json'),
    exerciseRequest({
      commandId: 'split-alice-iou-1',
      party: p.Alice,
      templateId: '#canton-lens-demo-model:Iou:Iou',
      choice: 'Iou_Split',
      contractId: s.activeContract,
      choiceArgument: { splitAmount: '1500.0' },
    }),
  );
  // A developer's parties and users: "Canton: Set Up Parties and Users…" on the admin node creates
  // what is missing (Shop, its backend user) and leaves Alice and Bob as they are.
  const setup = { parties: ['Alice', 'Bob', 'Shop'], users: [{ id: 'shop-backend', primaryParty: 'Shop', actAs: ['Shop'], readAs: ['Alice', 'Bob'] }] };
  fs.writeFileSync(path.join(dir, 'canton-setup.json'), `${JSON.stringify(setup, null, 2)}\n`);
}

async function main(): Promise<void> {
  const version = (arg('version') ?? '3.5') as FakeVersion;
  // --root: where the demo keeps VS Code's data and its workspace (a test gives its own).
  const root = arg('root') ?? path.join(PROJECT_ROOT, '.cache', 'demo');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  process.stdout.write('Packaging the extension and starting VS Code…\n');
  const vsix = await packagedVsix();
  const node = await FakeLedgerNode.start({ version, port: Number(arg('ledger-port') ?? 7575), wallClock: true, generated: { hostile: false } });
  const workspace = path.join(root, 'workspace');
  await sampleWorkspace(workspace, node);

  // The demo nodes' tokens reach the extension host through its environment: it stores them in
  // secret storage (never in settings), so there is nothing to paste.
  const day = { exp: Math.floor(Date.now() / 1000) + 24 * 3600 };
  const demoTokens = {
    'Demo Ledger': node.mintToken('alice', day),
    'Demo Ledger (executor)': node.mintToken('executor', day),
    // Validating and uploading a DAR takes ParticipantAdmin.
    'Demo Ledger (admin)': node.mintToken('participant_admin', day),
  };
  const env = isolatedEnv(path.join(root, 'env'), { [DEMO_TOKENS_ENV]: JSON.stringify(demoTokens) });
  const dirs = { userDataDir: path.join(root, 'user-data'), extensionsDir: path.join(root, 'extensions'), serverDataDir: path.join(root, 'server-data') };
  execFileSync(
    process.execPath,
    [
      ensureVsCodeServer(),
      '--install-extension',
      vsix,
      '--extensions-dir',
      dirs.extensionsDir,
      '--server-data-dir',
      dirs.serverDataDir,
      '--user-data-dir',
      dirs.userDataDir,
      '--accept-server-license-terms',
    ],
    { env, stdio: 'ignore' },
  );
  seedUserSettings(dirs.userDataDir, {
    'workbench.startupEditor': 'none',
    'cantonLens.nodes': [
      { name: 'Demo Ledger', url: node.url, parties: [node.ledger.parties.Alice] },
      { name: 'Demo Ledger (executor)', url: node.url, userId: 'executor' },
      { name: 'Demo Ledger (admin)', url: node.url, userId: 'participant_admin' },
    ],
    'cantonLens.activeNode': 'Demo Ledger',
    // ledger.log's ids are at the end of long lines: wrapped, they are in view.
    '[log]': { 'editor.wordWrap': 'on' },
    // The demo workspace lives inside this repository: no "git repository found in parent folders" prompt.
    'git.openRepositoryInParentFolders': 'never',
  });
  const port = Number(arg('port') ?? (await freePort()));
  const server = await startVsCodeServer({ ...dirs, env, port });
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  process.stdout.write(
    [
      '',
      `Demo ledger (fake Canton ${version}) at ${node.url}; VS Code with Canton Lens installed from the .vsix:`,
      '',
      `  ${url}`,
      '',
      'Open it: the walkthrough opens, and the demo nodes already hold their tokens (alice, executor, participant_admin).',
      '  1. Open ledger.log and hover an id; Ctrl+click it, or run "Canton: Inspect Id at Cursor".',
      '  2. Select "Demo Ledger (executor)" in the status bar, open preapproval.execute.json and run',
      '     "Canton: Execute Prepared Transaction".',
      '  3. Open daml-model/daml/Iou.daml: the CodeLens above "template Iou" counts its active contracts on "Demo Ledger"',
      '     and opens their table; in a contract or transaction panel, click a template or choice name.',
      '  4. Open commands/split.commands.json and press ▶ (Canton: Submit Commands): the split is refused at its',
      '     assertion; set splitAmount to "100.0" and save (the review follows), Submit, then "Canton: Follow Completions".',
      '     "Exercise on the Ledger…" above each choice in Iou.daml writes such a request for you.',
      '  5. Select "Demo Ledger (admin)" in the status bar and expand its "Packages": daml-model is built here',
      '     (.daml/dist) and vetted on the node. Run "Canton: Validate DAR on Node", pick canton-lens-demo-model 1.0.0,',
      '     then "Canton: Upload DAR".',
      '  6. With "Demo Ledger (admin)", run "Canton: Set Up Parties and Users…": canton-setup.json\'s missing party and',
      '     user are created, the rest is left as it is; run it again and nothing changes. The Administration view',
      '     shows the users, their rights by party, the parties and identity providers.',
      '',
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  const stop = () => {
    server.stop();
    void node.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: Error) => {
  process.stderr.write(`The demo could not start: ${e.message}\n`);
  process.exit(1);
});
