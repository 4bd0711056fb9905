// The demo ledger runs for days: it keeps the latest KEPT_COMMITTED commits (and the contracts they
// created), and an older one reads as pruned data does (not found), so memory stays bounded.
import * as assert from 'node:assert/strict';
import { buildDemoLedger, type StoredTransaction } from '../src/demoLedgerData';
import { KEPT_COMMITTED, LedgerQueries } from '../src/ledgerQueries';
import { wildcard } from '../../test/support/specBodies';

describe("the demo ledger's memory of commits", () => {
  it(`keeps the latest ${KEPT_COMMITTED.toLocaleString('en-US')} commits and their contracts, forgets older ones`, () => {
    const ledger = buildDemoLedger();
    const q = new LedgerQueries(ledger);
    const alice = ledger.parties.Alice;
    const base = 1_000_000;
    const hex = (n: number, prefix: string) => prefix + n.toString(16).padStart(64, '0');
    const commit = (i: number): StoredTransaction => ({
      updateId: hex(i, '1220'),
      commandId: `c-${i}`,
      workflowId: '',
      effectiveAt: '2026-11-24T00:00:00Z',
      recordTime: '2026-11-24T00:00:00Z',
      offset: base + i,
      synchronizerId: ledger.synchronizerId,
      traceContext: { traceparent: '00-0-0-01', tracestate: null },
      events: [
        {
          kind: 'created',
          views: [],
          event: {
            offset: base + i,
            nodeId: 0,
            contractId: hex(i, '00'),
            templateId: `${'d'.repeat(64)}:Notes:Note`,
            contractKey: null,
            createArgument: { owner: alice },
            createdEventBlob: '',
            interfaceViews: [],
            witnessParties: [alice],
            signatories: [alice],
            observers: [],
            createdAt: '2026-11-24T00:00:00Z',
            packageName: 'canton-lens-demo-model',
            representativePackageId: 'd'.repeat(64),
            acsDelta: true,
          },
        },
      ],
    });
    const total = KEPT_COMMITTED + 25;
    for (let i = 0; i < total; i++) q.addTransaction(commit(i));
    assert.equal(q.committedKept, KEPT_COMMITTED);
    const format = { filtersByParty: { [alice]: wildcard }, verbose: true };
    const updateFormat = { includeTransactions: { eventFormat: format, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
    // The oldest 25 are gone, with their contracts; the 26th and the newest are there.
    assert.equal(q.update(hex(24, '1220'), updateFormat, '3.5'), undefined);
    assert.equal(q.updateAt(base + 24, updateFormat, '3.5'), undefined);
    assert.equal(q.eventsByContractId(hex(24, '00'), format, '3.5'), undefined);
    assert.ok(q.update(hex(25, '1220'), updateFormat, '3.5'));
    assert.ok(q.eventsByContractId(hex(total - 1, '00'), format, '3.5'));
    // The seeded ledger is never forgotten.
    assert.ok(q.eventsByContractId(ledger.samples.activeContract, format, '3.5'));
  });
});
