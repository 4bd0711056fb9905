// `CANTON_LENS_BENCH_ONLY=interfaces npm run bench`: the Active Contracts table read by interface
// over a ledger of 100,000 contracts, the node computing each view: the host side (client, paging,
// each row made its view, the batches for the page) against a floor measured in the same run, raw
// undici + JSON.parse of the same interface pages, as the template table's row is.
import { Agent, request } from 'undici';
import { readActiveContracts } from '../../src/browse/acsPaging';
import { AcsBatchEncoder } from '../../src/browse/acsBatchEncoder';
import { browseEventFormat } from '../../src/browse/browseForms';
import { interfaceRows, viewColumnsFromValues } from '../../src/browse/interfaceRows';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { HOLDING_INTERFACE } from '../../fake-ledger/src/generatedLedger';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import type { BenchRow } from './browseBench';

export async function interfaceBench(add: (r: BenchRow) => void): Promise<void> {
  const contracts = Number(process.env.CANTON_LENS_BENCH_ACS ?? 100_000);
  const node = await FakeLedgerNode.start({ version: '3.5', requestLog: 0, generated: { contracts, maxPageSize: 1000, listLimit: 1000 } });
  const token = node.mintToken('reader');
  const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 60_000 });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  try {
    const eventFormat = browseEventFormat({ interfaces: [HOLDING_INTERFACE] });
    const floor = async () => {
      const t0 = performance.now();
      let pageToken: string | undefined;
      let n = 0;
      do {
        const res = await request(`${node.url}/v2/state/active-contracts-page`, {
          dispatcher: agent,
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ eventFormat, maxPageSize: 1000, pageToken }),
        });
        const body = JSON.parse(await res.body.text()) as { activeContracts: unknown[]; nextPageToken?: string };
        n += body.activeContracts.length;
        pageToken = body.nextPageToken;
      } while (pageToken);
      return { ms: performance.now() - t0, n };
    };
    await floor();
    const base = await floor();

    const t0 = performance.now();
    let n = 0;
    let columns: string[] | undefined;
    const encoder = new AcsBatchEncoder();
    for await (const p of readActiveContracts(client, { eventFormat, paged: true, pageSize: 1000 })) {
      const rows = interfaceRows(p.events, HOLDING_INTERFACE, columns);
      columns ??= viewColumnsFromValues(rows);
      n += encoder.encode(rows).ids.length;
    }
    const ms = performance.now() - t0;
    add({
      area: 'browse',
      measure: `ACS by interface, ${n.toLocaleString('en-US')} of ${contracts.toLocaleString('en-US')} contracts with their views: throughput of the host side alone (client + paging + views as rows; baseline: raw undici + JSON.parse of the same pages)`,
      value: n / (ms / 1000),
      unit: 'contracts/s',
      baseline: base.n / (base.ms / 1000),
      target: '≥ 0.5× the floor, every contract',
      ok: n === base.n && n / ms >= 0.5 * (base.n / base.ms),
    });
  } finally {
    await agent.close();
    await client.close();
    await node.close();
  }
}
