// Whether one contract became the other, as plain functions over the demo ledger's history (a split
// and two transfers, an upgraded Iou), then over real HTTP on every fake version with every answer
// checked against the spec; and the JSON side of Compare with JSON: where a text stops being JSON,
// a create argument against JSON, and both pages with hostile text.
import * as assert from 'node:assert/strict';
import type { CreatedEvent, JsTransaction, LedgerEvent } from '../../../src/ledger/apiTypes';
import { buildDemoLedger, HOSTILE_STRINGS, type DemoLedger, type StoredTransaction } from '../../../fake-ledger/src/demoLedgerData';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { LedgerClient, updateAnswer } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { transactionQueryFor, updateByIdRequest } from '../../../src/ledger/requestForms';
import { lookupContract } from '../../../src/lookups/ledgerLookups';
import { diffContracts, diffWithJson, type DiffNode } from '../../../src/lookups/contractDiff';
import {
  archivingStep,
  MAX_LINEAGE_HOPS,
  MAX_LINEAGE_READS,
  traceLineage,
  type ArchiveSighting,
  type Lineage,
  type LineageReader,
} from '../../../src/lookups/contractLineage';
import { expectedArgument, parseJsonText, syntaxError } from '../../../src/lookups/expectedJson';
import { contractDiffBody, jsonDiffBody } from '../../../src/panels/html/contractDiffHtml';

const asJs = (t: StoredTransaction): JsTransaction =>
  ({
    updateId: t.updateId,
    offset: t.offset,
    events: t.events.map((e): LedgerEvent => (e.kind === 'created' ? { CreatedEvent: e.event } : { ExercisedEvent: e.event })),
  }) as unknown as JsTransaction;

/** The demo ledger read in memory, counting reads. */
function memoryReader(ledger: DemoLedger): LineageReader & { reads: number } {
  const r = {
    reads: 0,
    archiveOf(id: string): Promise<ArchiveSighting> {
      r.reads++;
      const at = ledger.transactions.find((t) => t.events.some((e) => e.kind === 'exercised' && e.event.contractId === id && e.event.consuming));
      if (at) return Promise.resolve({ state: 'archived', offset: at.offset });
      const known = ledger.transactions.some((t) => t.events.some((e) => e.kind === 'created' && e.event.contractId === id));
      return Promise.resolve(known ? { state: 'active' } : { state: 'unknown', explanation: 'not found <as seen by Alice>' });
    },
    transactionAt(offset: number): Promise<JsTransaction | undefined> {
      const t = ledger.transactions.find((x) => x.offset === offset);
      return Promise.resolve(t && asJs(t));
    },
  };
  return r;
}

function createdOf(ledger: DemoLedger, id: string): CreatedEvent {
  for (const t of ledger.transactions) for (const e of t.events) if (e.kind === 'created' && e.event.contractId === id) return e.event;
  throw new Error(`no create of ${id}`);
}

const signal = () => new AbortController().signal;
const found = (l: Lineage) => (l.found ? l : assert.fail(`no lineage: ${JSON.stringify(l).slice(0, 300)}`));

describe('Compare Contracts: lineage', () => {
  const ledger = buildDemoLedger({ bigTransactionEvents: 3, bigTreeNodes: 20 });
  const { workflowChain: chain, upgradedContracts, activeContract, archivedContract } = ledger.samples;
  const c = (id: string) => createdOf(ledger, id);

  it('the seeded chain: each link archived by a consuming exercise that created the next, with other amounts and owners', () => {
    assert.equal(chain.length, 4);
    const args = chain.map((id) => c(id).createArgument as { owner: string; amount: string });
    assert.deepEqual(
      args.map((a) => a.amount),
      ['900.0000000000', '600.0000000000', '600.0000000000', '600.0000000000'],
    );
    assert.equal(new Set(args.map((a) => a.owner)).size, 3, 'owners change along the chain');
    for (let i = 0; i < 3; i++) {
      const t = ledger.transactions.find((x) => x.events.some((e) => e.kind === 'exercised' && e.event.contractId === chain[i]))!;
      const step = archivingStep(asJs(t), chain[i]);
      assert.ok(
        step?.created.some((e) => e.contractId === chain[i + 1]),
        `link ${i} creates link ${i + 1}`,
      );
      assert.ok(t.offset > c(chain[i]).offset, 'archived after it was created');
    }
  });

  it('finds a direct successor and one three transactions on, either way round, naming each step', async () => {
    const direct = found(await traceLineage(memoryReader(ledger), c(chain[0]), c(chain[1]), signal()));
    assert.deepEqual(
      direct.steps.map((s) => s.choice),
      ['Iou_Split'],
    );
    const reader = memoryReader(ledger);
    const far = found(await traceLineage(reader, c(chain[3]), c(chain[0]), signal()));
    assert.equal(far.ancestor, chain[0], 'the older one is the ancestor, whichever side it is on');
    assert.equal(far.descendant, chain[3]);
    assert.deepEqual(
      far.steps.map((s) => [s.archived, s.choice]),
      [
        [chain[0], 'Iou_Split'],
        [chain[1], 'Iou_Transfer'],
        [chain[2], 'Iou_Transfer'],
      ],
    );
    assert.equal(new Set(far.steps.map((s) => s.updateId)).size, 3, 'three transactions');
    // The split's other part is followed too (it is active: one read) besides the three links.
    assert.equal(reader.reads, 4);
  });

  it('says why there is none: still active, archived by an exercise that created something else, unknown, the same', async () => {
    const active = await traceLineage(memoryReader(ledger), c(activeContract), c(chain[3]), signal());
    assert.deepEqual([active.found, !active.found && active.reason, active.ancestor], [false, 'active', activeContract]);
    const other = await traceLineage(memoryReader(ledger), c(archivedContract), c(chain[3]), signal());
    assert.ok(!other.found && other.reason === 'notCreated');
    assert.equal(other.first.choice, 'Iou_Transfer');
    assert.equal(other.first.created.length, 1, 'it created the transferred Iou');
    assert.equal(other.bounded, false);
    const part = c(archivingPart(ledger, chain[0]));
    const sibling = await traceLineage(memoryReader(ledger), part, c(chain[1]), signal());
    assert.ok(!sibling.found, 'created in the same transaction: neither became the other');
    const unknown = await traceLineage(memoryReader(ledger), { ...c(chain[0]), contractId: '00ff' }, c(chain[1]), signal());
    assert.ok(!unknown.found && unknown.reason === 'unknown' && /as seen by Alice/.test(unknown.explanation));
    const unseen: LineageReader = { archiveOf: () => Promise.resolve({ state: 'archived', offset: 99 }), transactionAt: () => Promise.resolve(undefined) };
    const hidden = await traceLineage(unseen, c(chain[0]), c(chain[1]), signal());
    assert.ok(!hidden.found && hidden.reason === 'unknown' && /not visible/.test(hidden.explanation));
    const same = await traceLineage(memoryReader(ledger), c(chain[0]), c(chain[0]), signal());
    assert.ok(!same.found && same.reason === 'same');
  });

  it('stops after ten links of an endless chain and twenty reads of a wide one, and when cancelled', async () => {
    // Contract n is archived at offset n by an exercise creating n+1 (and, wide, four more).
    const synthetic = (fanOut: number): LineageReader & { reads: number } => {
      const r = {
        reads: 0,
        archiveOf: (id: string) => {
          r.reads++;
          return Promise.resolve({ state: 'archived', offset: Number(id.split('-')[1]) } as ArchiveSighting);
        },
        transactionAt: (offset: number) =>
          Promise.resolve({
            updateId: `u${offset}`,
            offset,
            events: [
              { ExercisedEvent: { nodeId: 0, contractId: `c-${offset}`, consuming: true, choice: 'Next', templateId: 'p:M:T', lastDescendantNodeId: fanOut } },
              ...Array.from({ length: fanOut }, (_, k) => ({
                CreatedEvent: { nodeId: k + 1, contractId: k === 0 ? `c-${offset + 1}` : `c-${offset * 100 + k}`, offset, templateId: 'p:M:T' },
              })),
            ],
          } as unknown as JsTransaction),
      };
      return r;
    };
    const start = { contractId: 'c-1', offset: 0 } as unknown as CreatedEvent;
    const target = { contractId: 'never', offset: 1e9 } as unknown as CreatedEvent;
    const long = synthetic(1);
    const endless = await traceLineage(long, start, target, signal());
    assert.ok(!endless.found && endless.reason === 'notCreated');
    assert.equal(endless.followed, MAX_LINEAGE_HOPS);
    assert.equal(endless.bounded, true);
    assert.equal(long.reads, MAX_LINEAGE_HOPS);
    const wide = synthetic(5);
    const fanned = await traceLineage(wide, start, target, signal());
    assert.ok(!fanned.found && fanned.reason === 'notCreated' && fanned.bounded);
    assert.equal(wide.reads, MAX_LINEAGE_READS);
    const reachable = found(await traceLineage(synthetic(1), start, { contractId: 'c-10', offset: 1e9 } as unknown as CreatedEvent, signal()));
    assert.equal(reachable.steps.length, 9);
    // Successors created at or after the newer contract are not followed.
    const early = synthetic(1);
    const notLater = await traceLineage(early, start, { contractId: 'never', offset: 1 } as unknown as CreatedEvent, signal());
    assert.ok(!notLater.found && notLater.reason === 'notCreated' && notLater.followed === 1 && early.reads === 1);
    const ac = new AbortController();
    const inner = synthetic(1);
    let calls = 0;
    const cancelling: LineageReader = {
      archiveOf: (id, s) => {
        // Cancelled during the fourth read: its answer is not followed.
        if (++calls === 4) ac.abort();
        return inner.archiveOf(id, s);
      },
      transactionAt: (offset, s) => inner.transactionAt(offset, s),
    };
    await assert.rejects(traceLineage(cancelling, start, target, ac.signal), { name: 'AbortError' });
    assert.equal(calls, 4, 'no read after the cancel');
  });

  it('the upgraded Iou: one active contract of each package version, compared field by field as two versions', () => {
    const d = diffContracts(c(upgradedContracts.v1), c(upgradedContracts.v2));
    assert.equal(d.upgraded, true);
    assert.deepEqual(d.counts, { changed: 0, added: 0, removed: 0, versionOnly: 1 });
    assert.equal(d.argument.children?.find((n) => n.key === 'reference')?.kind, 'onlyRight');
    for (const id of [upgradedContracts.v1, upgradedContracts.v2])
      assert.ok(!ledger.transactions.some((t) => t.events.some((e) => e.kind === 'exercised' && e.event.contractId === id)), 'active');
  });

  it('shows the lineage as links in the facts, hostile explanations as text', () => {
    const l = (lineage: Lineage) =>
      contractDiffBody({
        diff: diffContracts(c(chain[0]), c(chain[3])),
        leftId: chain[0],
        rightId: chain[3],
        lineage: { state: 'read', lineage },
      }).text;
    const steps = [0, 1, 2].map((i) => ({
      archived: chain[i],
      choice: i ? 'Iou_Transfer' : 'Iou_Split',
      templateId: 'p:Iou:Iou',
      updateId: `1220${String(i).repeat(64)}`,
      offset: i,
      nodeId: 0,
      created: [],
    }));
    const far = l({ found: true, ancestor: chain[0], descendant: chain[3], steps });
    assert.match(far, /descends from .* through 3 transactions/);
    for (const id of [...chain, ...steps.map((s) => s.updateId)]) assert.ok(far.includes(`data-open-id="${id}"`), id);
    const one = l({ found: true, ancestor: chain[0], descendant: chain[1], steps: steps.slice(0, 1) });
    assert.match(one, /was created by the archiving exercise <code><bdi>Iou_Split<\/bdi><\/code> of/);
    const hostile = l({ found: false, ancestor: chain[0], descendant: chain[3], reason: 'unknown', explanation: HOSTILE_STRINGS[0] });
    assert.doesNotMatch(hostile, /<img/);
    assert.match(l({ found: false, ancestor: activeContract, descendant: chain[3], reason: 'active' }), /No lineage found: .* is still active/);
    const reading = contractDiffBody({
      diff: diffContracts(c(chain[0]), c(chain[3])),
      leftId: chain[0],
      rightId: chain[3],
      lineage: { state: 'reading' },
    }).text;
    assert.match(reading, /Reading whether one became the other/);
  });
});

/** The split's other part: created by the exercise on the first link, not the second link. */
function archivingPart(ledger: DemoLedger, first: string): string {
  const t = ledger.transactions.find((x) => x.events.some((e) => e.kind === 'exercised' && e.event.contractId === first))!;
  return archivingStep(asJs(t), first)!.created.find((e) => e.contractId !== ledger.samples.workflowChain[1])!.contractId;
}

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`lineage over HTTP on ${version}`, function () {
    this.timeout(20_000);
    let node: FakeLedgerNode;
    let client: LedgerClient;
    before(async () => {
      node = await FakeLedgerNode.start({ version, checkResponses: true, bigTransactionEvents: 1 });
      client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken('alice') });
    });
    after(async () => {
      await client.close();
      await node.close();
    });
    afterEach(() => assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows'));

    it("reads the chain as Alice: events by contract id, then the archiving transaction's ledger effects by offset", async () => {
      const parties = [node.ledger.parties.Alice];
      const ctx = { nodeName: version, parties };
      const reader: LineageReader = {
        archiveOf: async (id) => {
          const l = await lookupContract(client, id, ctx);
          if (!l.found) return { state: 'unknown', explanation: l.explanation };
          const a = l.response.archived?.archivedEvent;
          return a ? { state: 'archived', offset: a.offset } : { state: 'active' };
        },
        transactionAt: async (offset) => {
          const { updateFormat } = updateByIdRequest('', transactionQueryFor(parties, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'));
          const answer = updateAnswer(await client.getUpdateByOffset({ offset, updateFormat }));
          return answer?.type === 'transaction' ? answer.transaction : undefined;
        },
      };
      const chain = node.ledger.samples.workflowChain;
      const created = async (id: string) => {
        const l = await lookupContract(client, id, ctx);
        return l.found ? l.response.created!.createdEvent : assert.fail(id);
      };
      const lineage = found(await traceLineage(reader, await created(chain[0]), await created(chain[3]), signal()));
      assert.deepEqual(
        lineage.steps.map((s) => s.archived),
        chain.slice(0, 3),
      );
      const v2 = await created(node.ledger.samples.upgradedContracts.v2);
      assert.equal((v2.createArgument as { reference?: string }).reference, 'INV-2026-0042');
    });
  });
}

describe('Compare with JSON', () => {
  const kinds = (n: DiffNode): Record<string, string> => Object.fromEntries((n.children ?? []).map((k) => [String(k.key), k.kind]));

  it('says where a text stops being JSON, as a line and column, and agrees with JSON.parse on what is JSON', () => {
    const bad = parseJsonText('{\n  "owner": "Alice",\n  "amount": }');
    assert.ok(!bad.ok);
    assert.deepEqual([bad.line, bad.column], [3, 13]);
    assert.match(bad.reason, /expected a value/);
    const trailing = parseJsonText('[1, 2,\n]');
    assert.ok(!trailing.ok && trailing.line === 2 && trailing.column === 1);
    const open = parseJsonText('{"a": "no end');
    assert.ok(!open.ok && /not closed/.test(open.reason) && open.column === 14);
    const bom = parseJsonText('\uFEFF{"a":1}');
    assert.ok(bom.ok);
    assert.deepEqual(bom.value, { a: 1 });
    const corpus = [
      '',
      ' ',
      '1',
      '-',
      '-0',
      '01',
      '1.',
      '1e5',
      '1e',
      '"\\u12"',
      '"\\x"',
      '"a\u0001"',
      'tru',
      'true false',
      '{"a" 1}',
      '{"a":1,}',
      '{,}',
      '[1 2]',
      '[[[]]]',
      '{"a":{"b":[null,true,-1.5e-3]}}',
      '"\u2028"',
      '{"a":1}}',
      ']',
      '{"a":1 "b":2}',
    ];
    for (const text of corpus) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      assert.equal(syntaxError(text) === undefined, parses, JSON.stringify(text));
    }
    const deep = '['.repeat(200_000);
    assert.equal(syntaxError(deep)?.offset, 200_000, 'deep nesting: no stack overflow, the end is where it stops');
  });

  it('compares a create argument with JSON as expected: decimals exact, fields only on one side named for the JSON', () => {
    const contract = {
      contractId: '00aa',
      templateId: 'p:Iou:Iou',
      createArgument: { owner: 'Bob', amount: '600.0000000000', currency: 'USD', observers: [] },
    } as unknown as CreatedEvent;
    const d = diffWithJson(contract, { owner: 'Carol', amount: 600, observers: [], memo: 'x' });
    assert.deepEqual(kinds(d.argument), { owner: 'changed', amount: 'same', currency: 'removed', observers: 'same', memo: 'added' });
    assert.deepEqual(d.counts, { changed: 1, added: 1, removed: 1, versionOnly: 0 });
    assert.equal(diffWithJson(contract, { ...(contract.createArgument as object) }).argument.kind, 'same');
    // A created event pasted whole (Open as JSON) stands for its create argument.
    assert.deepEqual(expectedArgument({ contractId: '00aa', createArgument: { a: 1 } }, { a: 1 }), { a: 1 });
    assert.deepEqual(expectedArgument({ createdEvent: { createArgument: { a: 1 } } }, { a: 1 }), { a: 1 });
    assert.deepEqual(expectedArgument({ createArgument: 1 }, { createArgument: 1 }), { createArgument: 1 }, 'a field of that name stays');
    const page = jsonDiffBody({ diff: d, contractId: '00aa', source: `selection in ${HOSTILE_STRINGS[1]}` }).text;
    assert.match(page, /Expected \(<bdi>selection in &lt;\/script&gt;/);
    assert.match(page, /<span class="type-id" title="p:Iou:Iou"><bdi>Iou:Iou<\/bdi>/);
    assert.match(page, /1 differ, 1 only in the JSON, 1 not in the JSON/);
    assert.doesNotMatch(page, /<script/);
    assert.match(jsonDiffBody({ contractId: '00aa', source: 'x', problem: 'Not found <here>' }).text, /Not found &lt;here&gt;/);
  });
});
