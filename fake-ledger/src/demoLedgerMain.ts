// `npm run demo`: the fake node with demo data on a fixed port, with tokens and ids to try.
import { FakeLedgerNode, type FakeVersion } from './demo';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const version = (arg('version') ?? process.env.CANTON_LENS_DEMO_VERSION ?? '3.5') as FakeVersion;
  if (!['3.4', '3.5', '3.6'].includes(version)) throw new Error(`--version must be 3.4, 3.5 or 3.6, not ${version}`);
  const port = Number(arg('port') ?? process.env.CANTON_LENS_DEMO_PORT ?? 7575);
  // It may run for days: no request record (tests read it; nobody reads it here).
  const node = await FakeLedgerNode.start({ version, port, requestLog: 0, bigTreeNodes: 10_000, wallClock: true, generated: { hostile: false } });
  const s = node.ledger.samples;
  const lines = [
    `Canton Lens demo ledger (fake Canton ${version} JSON Ledger API v2) listening on ${node.url}`,
    '',
    `  curl ${node.url}/v2/version`,
    '',
    'Tokens (HS256, valid 1 hour; the user decides what it may read):',
    `  alice   (CanActAs Alice):              ${node.mintToken('alice')}`,
    `  auditor (CanReadAs Alice, Bob):        ${node.mintToken('auditor')}`,
    `  reader  (CanReadAsAnyParty):           ${node.mintToken('reader')}`,
    `  participant_admin (ParticipantAdmin):  ${node.mintToken('participant_admin')}`,
    `  former  (deactivated):                 ${node.mintToken('former')}`,
    "  With no parties set for the node, lookups read as the parties the token's rights allow.",
    '',
    'Parties:',
    ...Object.entries(node.ledger.parties).map(([k, v]) => `  ${k.padEnd(6)} ${v}`),
    '',
    'Ids to look up:',
    `  active contract     ${s.activeContract}`,
    `  archived contract   ${s.archivedContract}`,
    `  transfer update     ${s.transferUpdate}`,
    `  5,000-event update  ${s.bigUpdate}`,
    `  settlement (nested exercises)  ${s.settlementUpdate}`,
    `  10,000-node call tree  ${s.bigTreeUpdate}`,
    `  reassignment        ${s.unassignUpdate}`,
    `  create pruned       ${s.prunedCreateContract}`,
    '',
    'Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => void node.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: Error) => {
  process.stderr.write(`Could not start the demo ledger: ${e.message}\n`);
  process.exit(1);
});
