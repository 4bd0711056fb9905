// Bench rows of self-configuring lookups: 100 lookups on one node by a user with no
// configured parties make at most one rights request (the access is remembered per identity), and
// a not-found explanation costs the lookup plus the pruning point (one request), as a ratio.
import { identityOfToken } from '../../src/auth/ledgerIdentity';
import { effectiveParties } from '../../src/auth/userRights';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { lookupContract } from '../../src/lookups/ledgerLookups';
import { NodeAccessCache } from '../../src/nodes/nodeAccess';

export interface BenchRow {
  area: string;
  measure: string;
  value: number;
  unit: string;
  baseline?: number;
  target?: string;
  ok?: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function rightsRows(): Promise<BenchRow[]> {
  const node = await FakeLedgerNode.start({ version: '3.5', bigTransactionEvents: 10 });
  const token = node.mintToken('alice');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token });
  try {
    const identity = identityOfToken(token);
    const cache = new NodeAccessCache();
    node.requests.length = 0;
    // As the lookup service does: learn the access (remembered), derive the parties, look up.
    for (let i = 0; i < 100; i++) {
      const access = await cache.get({ url: node.url, identity, token, client });
      const effective = effectiveParties(undefined, access);
      await lookupContract(client, node.ledger.samples.activeContract, { nodeName: 'bench', parties: effective.parties, effective });
    }
    const rightsRequests = node.requests.filter((r) => r.path.includes('/rights')).length;
    const rows: BenchRow[] = [
      {
        area: 'rights',
        measure: '100 lookups by an ordinary user with no configured parties: rights requests',
        value: rightsRequests,
        unit: 'requests',
        target: '≤ 1',
        ok: rightsRequests <= 1,
      },
    ];
    // A not-found: the lookup alone, and the lookup with its explanation's one extra request (the pruning point).
    const access = await cache.get({ url: node.url, identity, token, client });
    const effective = effectiveParties(undefined, access);
    const missing = () => lookupContract(client, node.ledger.samples.unknownContract, { nodeName: 'bench', parties: effective.parties, effective });
    const time = async (fn: () => Promise<unknown>) => {
      const t0 = process.hrtime.bigint();
      await fn();
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    for (let i = 0; i < 20; i++) await missing();
    const alone: number[] = [];
    const explained: number[] = [];
    node.requests.length = 0;
    for (let i = 0; i < 100; i++) {
      alone.push(await time(missing));
      explained.push(
        await time(async () => {
          await missing();
          await client.getLatestPrunedOffsets();
        }),
      );
    }
    const perExplained = (node.requests.length - 100) / 100 - 1;
    rows.push({
      area: 'rights',
      measure: 'a not-found explained (lookup + pruning point; baseline: the lookup alone)',
      value: median(explained),
      unit: 'ms',
      baseline: median(alone),
      target: '≤ 2 extra requests',
      ok: perExplained <= 2,
    });
    rows.push({
      area: 'rights',
      measure: 'extra requests per explained not-found',
      value: perExplained,
      unit: 'requests',
      target: '≤ 2',
      ok: perExplained <= 2,
    });
    return rows;
  } finally {
    await client.close();
    await node.close();
  }
}
