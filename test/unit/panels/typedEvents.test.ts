// The events of a transaction panel and a contract's key and views, drawn with their Daml-LF types:
// a create argument by its template, an exercise's argument and result by its choice (the
// interface's when it went through one), a key by the template's key type, a view by the
// interface's view type; untyped as before where the signatures do not say.
import * as assert from 'node:assert/strict';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import type { LedgerEvent } from '../../../src/ledger/apiTypes';
import { exerciseTree, treeEvent } from '../../../src/lookups/exerciseTree';
import { contractBody } from '../../../src/panels/html/contractHtml';
import { eventDetailHtml } from '../../../src/panels/html/eventDetailHtml';
import { valueTree } from '../../../src/panels/html/ledgerValues';
import { choiceTypes } from '../../../src/panels/html/typedValues';
import { answerBody, eventDetail, typedPackagesOf } from '../../../src/panels/lookupContent';
import type { TransactionLookup } from '../../../src/lookups/ledgerLookups';
import { PARTNER_PACKAGE, partnerDalf } from '../../../fake-ledger/src/partnerPackage';
import { EVIL, hostileContract, hostileTransaction } from '../../support/hostileLookups';

const sigs = [decodeArchive(partnerDalf())];
const TOKEN = `${PARTNER_PACKAGE}:Partner.Token:Token`;
const HOLDING = `${PARTNER_PACKAGE}:Partner.Token:Holding`;
const cid = (n: number) => `00${n.toString(16).padStart(2, '0').repeat(32)}ca1220${'cd'.repeat(32)}`;
const ALICE = `Alice::1220${'ef'.repeat(32)}`;
const BOB = `Bob::1220${'ef'.repeat(32)}`;

const tokenArgument = {
  issuer: ALICE,
  owner: BOB,
  amount: '10.0000000000',
  decimals: '2',
  tags: [EVIL],
  meta: { values: {}, extra: null },
  locks: [],
  kind: 'Direct',
  settlement: { tag: 'Immediate', value: {} },
  previous: null,
  active: true,
};

const exercised = (over: Record<string, unknown>): LedgerEvent => ({
  ExercisedEvent: {
    offset: 9,
    nodeId: 0,
    contractId: cid(1),
    templateId: TOKEN,
    choice: 'Transfer',
    choiceArgument: { newOwner: BOB, amount: '5.0000000000', kind: 'Escrow' },
    actingParties: [ALICE],
    consuming: true,
    witnessParties: [ALICE],
    lastDescendantNodeId: 1,
    packageName: 'canton-lens-partner-app',
    exerciseResult: cid(2),
    acsDelta: false,
    ...over,
  },
});

const created = (nodeId: number, createArgument: unknown = tokenArgument): LedgerEvent => ({
  CreatedEvent: {
    offset: 9,
    nodeId,
    contractId: cid(2),
    templateId: TOKEN,
    contractKey: BOB,
    createArgument,
    interfaceViews: [{ interfaceId: HOLDING, viewStatus: { code: 0, message: '' }, viewValue: { owner: BOB, amount: '5.0000000000', instrument: EVIL } }],
    witnessParties: [ALICE],
    signatories: [ALICE],
    observers: [BOB],
    createdAt: '2026-11-28T06:00:00Z',
    packageName: 'canton-lens-partner-app',
    representativePackageId: PARTNER_PACKAGE,
    acsDelta: true,
  },
});

const detail = (e: LedgerEvent, s = sigs) => eventDetailHtml(treeEvent(e), undefined, undefined, s).toString();

describe('transaction events drawn with their Daml-LF types', () => {
  it("types a create's argument, key and views; the declared types on hover", () => {
    const out = detail(created(1));
    assert.match(out, /<span class="v-key" title="Numeric 10"><bdi>amount<\/bdi><\/span>/, 'the create argument');
    assert.match(out, /class="v-enum" title="Direct, an enum of [^"]*:Partner\.Types:TransferKind"/);
    assert.match(out, /<span title="HoldingView"><bdi>HoldingView<\/bdi><\/span> \{3\}/, "the view by the interface's view type");
    assert.match(out, /<span class="v-key" title="Text"><bdi>instrument<\/bdi><\/span>/);
    assert.ok(out.includes(`title="${BOB}"`), 'the key, a Party, is a party');
  });

  it("types an exercise's argument by its choice and its result by the choice's return type", () => {
    const out = detail(exercised({}));
    assert.match(out, /<th scope="row" title="choiceArgument: Transfer">/);
    assert.match(out, /<th scope="row" title="exerciseResult: ContractId Token">/);
    assert.match(out, /<span title="Transfer"><bdi>Transfer<\/bdi><\/span> \{3\}/);
    assert.match(out, /class="v-enum" title="Escrow, an enum of/);
    assert.ok(out.includes(`data-open-id="${cid(2)}"`), 'the result stays a link');
    assert.ok(out.includes(`title="A contract of ${TOKEN}"><bdi>Token</bdi></span>`), 'and says its template');
  });

  it("types an exercise through an interface by the interface's choice", () => {
    const x = exercised({ choice: 'Holding_Lock', interfaceId: HOLDING, choiceArgument: { until: '2026-12-01T00:00:00Z' }, exerciseResult: cid(3) });
    const types = choiceTypes(sigs, TOKEN, 'Holding_Lock', HOLDING);
    assert.ok(types);
    assert.equal(choiceTypes(sigs, TOKEN, 'Holding_Lock'), undefined, 'the template itself has no such choice');
    const out = detail(x);
    assert.match(out, /title="choiceArgument: Holding_Lock"/);
    assert.match(out, /<span class="v-key" title="Timestamp"><bdi>until<\/bdi><\/span>/);
    assert.ok(out.includes(`title="A contract of ${HOLDING}"><bdi>Holding</bdi></span>`));
  });

  it('a choice without a result type it knows, or signatures that lack the package, draw the values as before', () => {
    const unknown = exercised({ choice: 'Nope', choiceArgument: { a: EVIL } });
    const out = detail(unknown);
    assert.ok(out.includes(valueTree({ a: EVIL }).toString()));
    assert.match(out, /<th scope="row" title="choiceArgument">/);
    assert.equal(detail(exercised({}), []), eventDetailHtml(treeEvent(exercised({}))).toString(), 'no signatures: as before');
  });

  it('keeps hostile values escaped when typed', () => {
    const out = detail(created(1, { ...tokenArgument, kind: EVIL, settlement: { tag: EVIL, value: EVIL } }));
    assert.ok(!out.includes('<img'), out);
    assert.ok(out.includes('&lt;img'));
    const x = detail(exercised({ choiceArgument: { newOwner: EVIL, amount: EVIL, kind: EVIL }, exerciseResult: EVIL }));
    assert.ok(!x.includes('<img'));
  });

  it("the panel's row details and the packages to read: the events' templates and interfaces", () => {
    const l = hostileTransaction(0);
    assert.ok(l.found && l.update === 'transaction');
    l.transaction.events = [exercised({ lastDescendantNodeId: 1, interfaceId: `${'e'.repeat(64)}:M:I` }), created(1)];
    assert.deepEqual(typedPackagesOf(l).sort(), [PARTNER_PACKAGE, 'e'.repeat(64)].sort());
    const tree = exerciseTree(l.transaction.events);
    assert.match(eventDetail(l, tree, 'tree', 1, sigs)?.toString() ?? '', /title="Numeric 10"/);
    assert.match(eventDetail(l, undefined, 'events', 1, sigs)?.toString() ?? '', /title="Numeric 10"/);
    assert.doesNotMatch(eventDetail(l, undefined, 'events', 1)?.toString() ?? '', /title="Numeric 10"/, 'untyped before the signatures come');
  });
});

describe("a reassignment's assigned contract, typed", () => {
  it("draws the create argument by its template once the signatures are given; the package to read is the template's", () => {
    const base = hostileTransaction(0);
    assert.ok(base.found && base.update === 'transaction');
    const createdEvent = (created(0) as { CreatedEvent: unknown }).CreatedEvent;
    const l = {
      ...base,
      update: 'reassignment',
      reassignment: {
        updateId: base.updateId,
        offset: 9,
        recordTime: '2026-11-28T06:00:00Z',
        synchronizerId: 'sync::1220ab',
        events: [{ JsAssignmentEvent: { source: 'a::1220ab', target: 'b::1220ab', reassignmentId: '01', reassignmentCounter: 1, createdEvent } }],
      },
    } as unknown as TransactionLookup;
    assert.deepEqual(typedPackagesOf(l), [PARTNER_PACKAGE]);
    const target = { kind: 'update' as const, id: base.updateId, node: 'n' };
    const untyped = answerBody(l, target).toString();
    const typed = answerBody(l, target, sigs).toString();
    assert.doesNotMatch(untyped, /title="Numeric 10"/);
    assert.match(typed, /<span class="v-key" title="Numeric 10"><bdi>amount<\/bdi><\/span>/);
    assert.ok(!typed.includes('<img'));
  });
});

describe("a contract panel's key and interface views, typed", () => {
  it("draws the key by the template's key type and each view by its interface's view type", () => {
    const l = hostileContract(tokenArgument);
    assert.ok(l.found && l.response.created);
    const c = l.response.created.createdEvent;
    c.templateId = TOKEN;
    c.contractKey = BOB;
    c.interfaceViews = [{ interfaceId: HOLDING, viewStatus: { code: 0, message: '' }, viewValue: { owner: BOB, amount: '1.0000000000', instrument: EVIL } }];
    const typed = contractBody(l, sigs).toString();
    assert.match(typed, /<span title="HoldingView"><bdi>HoldingView<\/bdi><\/span> \{3\}/);
    assert.match(typed, /<span class="v-key" title="Numeric 10"><bdi>amount<\/bdi><\/span>/);
    assert.ok(!typed.includes('<img'));
    const untyped = contractBody(l).toString();
    assert.ok(!untyped.includes('HoldingView'), 'untyped first');
  });
});
