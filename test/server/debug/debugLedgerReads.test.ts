// What the debugger reads from a node that is busy or strict: a range whose updates for the
// reader's party are slow to find (the node cuts each list once no update came for its idle time,
// scanMsPerOffset standing in for that time), and attach over plain HTTP on a node whose list limit
// is below what a backlog would fill.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { clientDebugLedger } from '../../../src/debug/debugLedger';
import type { ProgramUpdate } from '../../../src/debug/debugProgram';
import { DEFAULT_NODE_LIST_LIMIT } from '../../../src/ledger/ledgerApiError';
import { LedgerClient, type RequestLogEntry } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];
const offsetOf = (u: ProgramUpdate) => (u.value as { offset: number }).offset;

for (const version of VERSIONS) {
  describe(`the debugger's reads on a busy ${version} fake node`, function () {
    this.timeout(60_000);

    for (const updatesPages of version === '3.4' ? [false] : [false, true]) {
      it(`replays every update of a sparse range${updatesPages ? ' over update pages' : ' over lists'}, not the first`, async () => {
        // 2 s of scan an offset: 8 s between Alice's updates (every 4th), past the 5 s idle time asked for.
        const node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { scanMsPerOffset: 2_000 } });
        const token = node.mintToken('alice');
        const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 10_000 });
        try {
          const alice = node.ledger.parties.Alice;
          const from = node.generated.ledgerEnd();
          node.generated.advance(296);
          const ledger = clientDebugLedger({ nodeName: 'fake', client, parties: [alice], updatesPages });
          const got: number[] = [];
          for await (const page of ledger.range(from, node.generated.ledgerEnd())) got.push(...page.map(offsetOf));
          assert.deepEqual(
            got,
            Array.from({ length: 74 }, (_, i) => from + 4 * (i + 1)),
          );
          assert.deepEqual(node.responseProblems, []);
        } finally {
          await client.close();
          await node.close();
        }
      });
    }

    it('attaches over plain HTTP below the node’s list limit and pages on past it', async () => {
      // A list limit below Canton's default of 200, which a 300-update backlog would pass.
      const node = await FakeLedgerNode.start({ version, checkResponses: true, generated: { listLimit: 50 } });
      node.channels.faults.refuseUpgrades = 404;
      const token = node.mintToken('bank');
      const asked: RequestLogEntry[] = [];
      const client = new LedgerClient({
        baseUrl: node.url,
        transport: createUndiciTransport(),
        getToken: async () => token,
        timeoutMs: 10_000,
        onRequest: (e) => asked.push(e),
      });
      const ac = new AbortController();
      try {
        const bank = node.ledger.parties.Bank;
        const begin = node.generated.ledgerEnd();
        node.generated.advance(300);
        const end = node.generated.ledgerEnd();
        const ledger = clientDebugLedger({ nodeName: 'fake', client, parties: [bank] });
        const got: number[] = [];
        let caughtUp: () => void = () => undefined;
        const reached = new Promise<void>((r) => (caughtUp = r));
        const following = ledger.follow(begin, ac.signal, (batch) => {
          got.push(...batch.map(offsetOf));
          if (got.at(-1)! >= end) caughtUp();
        });
        await Promise.race([reached, following.then(() => assert.fail('the follow ended before the ledger end'))]);
        ac.abort();
        await following;
        assert.deepEqual(
          got,
          Array.from({ length: 300 }, (_, i) => begin + i + 1),
          'every update, once, in order',
        );
        const limits = asked.filter((e) => e.path.startsWith('/v2/updates')).map((e) => Number(new URL(e.url ?? e.path, node.url).searchParams.get('limit')));
        assert.ok(Math.max(...limits) <= DEFAULT_NODE_LIST_LIMIT, `never past Canton's default limit: ${limits.join(', ')}`);
        const refused = asked.findIndex((e) => e.status === 413);
        if (refused >= 0) assert.ok(Math.max(...limits.slice(refused + 1)) <= 50, `after the node named its limit: ${limits.join(', ')}`);
        assert.deepEqual(node.responseProblems, []);
      } finally {
        ac.abort();
        await client.close();
        await node.close();
      }
    });
  });
}
