// What a Daml file's CodeLens says: counts by package-name template ref, recent ones,
// the latest few; then against the fake node, one filtered read for all of a file's templates.
import * as assert from 'node:assert/strict';
import { readActiveContracts } from '../../../src/browse/acsPaging';
import { browseEventFormat } from '../../../src/browse/browseForms';
import { countTitle, packageNameRef, TemplateCountsBuilder } from '../../../src/daml/templateCounts';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import type { CreatedEvent } from '../../../src/ledger/apiTypes';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';

const ev = (templateId: string, packageName: string, createdAt: string, contractId: string) =>
  ({ templateId, packageName, createdAt, contractId }) as unknown as CreatedEvent;

describe('template counts for CodeLens', () => {
  it('counts every version of a package by name, the recent ones, and keeps the newest five', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const iou = packageNameRef('model', 'Iou', 'Iou');
    const b = new TemplateCountsBuilder([iou, packageNameRef('model', 'Bank.Account', 'Account')], now);
    const events = [
      ev('v1pkg:Iou:Iou', 'model', '2026-11-20T00:00:00.000000Z', 'a'),
      ev('v2pkg:Iou:Iou', 'model', '2026-11-23T11:00:00.000000Z', 'b'),
      ev('v2pkg:Iou:Iou', 'model', '2026-11-22T13:00:00.000000Z', 'c'),
      ev('v2pkg:Iou:Iou', 'other', '2026-11-23T11:00:00.000000Z', 'not mine'),
      ...Array.from({ length: 6 }, (_, i) => ev('v1pkg:Iou:Iou', 'model', `2026-11-0${i + 1}T00:00:00.000000Z`, `old${i}`)),
    ];
    b.add(events);
    const c = b.result().get(iou)!;
    assert.equal(c.active, 9);
    assert.equal(c.recent, 2);
    assert.deepEqual(
      c.latest.map((l) => l.contractId),
      ['b', 'c', 'a', 'old5', 'old4'],
    );
    assert.equal(b.result().get(packageNameRef('model', 'Bank.Account', 'Account'))!.active, 0);
    assert.equal(countTitle(c, false), '9 active · 2 created in the last 24 h');
    assert.equal(countTitle(c, true), '9+ active · 2 created in the last 24 h');
  });

  it("reads the demo ledger's model templates in one filtered request", async () => {
    const node = await FakeLedgerNode.start({ version: '3.5' });
    try {
      const token = node.mintToken('alice');
      const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token, timeoutMs: 5000 });
      const refs = ['Iou:Iou', 'Bank.Account:Account', 'Notes:Note'].map((s) =>
        packageNameRef('canton-lens-demo-model', ...(s.split(':') as [string, string])),
      );
      const b = new TemplateCountsBuilder(refs);
      node.requests.length = 0;
      for await (const page of readActiveContracts(client, {
        eventFormat: browseEventFormat({ parties: [node.ledger.parties.Alice], templates: refs }),
        paged: true,
      }))
        b.add(page.events);
      const acsRequests = node.requests.filter((r) => r.path.includes('active-contracts'));
      assert.equal(acsRequests.length >= 1, true);
      const iou = b.result().get(refs[0])!;
      assert.ok(iou.active > 0, 'Alice holds active Ious');
      assert.ok(iou.latest.length > 0 && iou.latest.length <= 5);
      assert.equal(
        b.total,
        [...b.result().values()].reduce((n, c) => n + c.active, 0),
      );
      await client.close();
    } finally {
      await node.close();
    }
  });
});
