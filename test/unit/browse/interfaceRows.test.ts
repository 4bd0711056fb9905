// The Active Contracts table read by interface: columns from the view type in the node's Daml-LF
// (the fake node's partner package, as the node serves it), else from the views that came; each row
// its view, a failed view as its status; the page's cells of a row; the interfaces the tree lists.
import * as assert from 'node:assert/strict';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import { interfaceRows, VIEW_FAILED, viewColumnsFromLf, viewColumnsFromValues, viewFailure } from '../../../src/browse/interfaceRows';
import { interfaceRefs } from '../../../src/browse/interfaceCounts';
import { filtersOf } from '../../../src/browse/browseForms';
import { FIELD_COLUMNS, viewCells } from '../../../src/protocol/acsRows';
import { parseAcsToPage } from '../../../src/protocol/acsMessages';
import type { CreatedEvent } from '../../../src/ledger/apiTypes';
import { PARTNER_PACKAGE, partnerDalf } from '../../../fake-ledger/src/partnerPackage';

const partner = [decodeArchive(partnerDalf())];
const HOLDING = `${PARTNER_PACKAGE}:Partner.Token:Holding`;
const ALICE = 'Alice::1220' + 'a'.repeat(64);

const event = (contractId: string, templateId: string, views: CreatedEvent['interfaceViews']): CreatedEvent =>
  ({
    contractId,
    templateId,
    createArgument: { issuer: ALICE, secret: 'the template argument' },
    interfaceViews: views,
    signatories: [ALICE],
    witnessParties: [ALICE],
    createdAt: '2026-11-03T08:00:00Z',
    packageName: 'canton-lens-partner-app',
    offset: 1,
    nodeId: 0,
  }) as unknown as CreatedEvent;

describe('the Active Contracts table by interface', () => {
  it("names the columns by the view type's fields, by package id or by package name", () => {
    assert.deepEqual(viewColumnsFromLf(partner, HOLDING), ['owner', 'amount', 'instrument']);
    assert.deepEqual(viewColumnsFromLf(partner, '#canton-lens-partner-app:Partner.Token:Holding'), ['owner', 'amount', 'instrument']);
    assert.equal(viewColumnsFromLf(partner, '#canton-lens-partner-app:Partner.Token:Token'), undefined, 'a template has no view');
    assert.equal(viewColumnsFromLf(partner, '#other:Partner.Token:Holding'), undefined, 'a package the signatures lack');
    assert.equal(viewColumnsFromLf([], HOLDING), undefined);
  });

  it("makes each row its view, in the columns' order, and a failed view its status", () => {
    const rows = interfaceRows(
      [
        event('00aa', `${PARTNER_PACKAGE}:Partner.Token:Token`, [
          { interfaceId: HOLDING, viewStatus: { code: 0, message: '' }, viewValue: { instrument: 'PTK', amount: '1.0', owner: ALICE, extra: 1 } },
        ]),
        event('00bb', `${PARTNER_PACKAGE}:Partner.Token:LockedToken`, [{ interfaceId: HOLDING, viewStatus: { code: 9, message: 'DAML_FAILURE(9,0): boom' } }]),
        event('00cc', `${PARTNER_PACKAGE}:Partner.Token:Token`, []),
      ],
      '#canton-lens-partner-app:Partner.Token:Holding',
      ['owner', 'amount', 'instrument'],
    );
    assert.deepEqual(Object.entries(rows[0].createArgument as object), [
      ['owner', ALICE],
      ['amount', '1.0'],
      ['instrument', 'PTK'],
      ['extra', 1],
    ]);
    assert.deepEqual(rows[1].createArgument, { [VIEW_FAILED]: viewFailure({ code: 9, message: 'DAML_FAILURE(9,0): boom' }) });
    assert.match(String((rows[1].createArgument as Record<string, unknown>)[VIEW_FAILED]), /code 9.*DAML_FAILURE\(9,0\): boom/);
    assert.deepEqual(Object.keys(rows[2].createArgument as object), [VIEW_FAILED], 'no view at all is a failure too');
    assert.deepEqual(
      rows.map((r) => [r.contractId, r.templateId]),
      [
        ['00aa', `${PARTNER_PACKAGE}:Partner.Token:Token`],
        ['00bb', `${PARTNER_PACKAGE}:Partner.Token:LockedToken`],
        ['00cc', `${PARTNER_PACKAGE}:Partner.Token:Token`],
      ],
      "the row's contract and template stay",
    );
  });

  it('names the columns from the first computed view when the Daml-LF does not say', () => {
    const rows = interfaceRows(
      [
        event('00bb', 'p:M:T', [{ interfaceId: 'p:M:I', viewStatus: { code: 9, message: 'no' } }]),
        event('00aa', 'p:M:T', [{ interfaceId: 'p:M:I', viewStatus: { code: 0, message: '' }, viewValue: { b: 1, a: 2 } }]),
      ],
      'p:M:I',
      undefined,
    );
    assert.deepEqual(viewColumnsFromValues(rows), ['b', 'a']);
    assert.equal(viewColumnsFromValues(rows.slice(0, 1)), undefined, 'a failed view names nothing');
  });

  it("paints a row's cells by column name, a failed view in the first", () => {
    assert.deepEqual(viewCells({ amount: '1.0', owner: 'x', other: 2 }, ['owner', 'amount', 'missing', 'fourth']), [
      { text: 'x', failed: false },
      { text: '1.0', failed: false },
      { text: '', failed: false },
    ]);
    assert.equal(FIELD_COLUMNS, 3);
    assert.deepEqual(viewCells({ [VIEW_FAILED]: 'The view failed' }, ['a', 'b']), [
      { text: 'The view failed', failed: true },
      { text: '', failed: false },
    ]);
    assert.deepEqual(viewCells({ __proto__: 'x', constructor: 1 }, ['toString', 'constructor']), [
      { text: '', failed: false },
      { text: '1', failed: false },
    ]);
  });

  it('sends the columns to the page, checked where they arrive', () => {
    assert.deepEqual(parseAcsToPage({ type: 'columns', names: ['owner', 'amount'] }), { type: 'columns', names: ['owner', 'amount'] });
    assert.equal(parseAcsToPage({ type: 'columns', names: [1] }), undefined);
    assert.equal(parseAcsToPage({ type: 'columns' }), undefined);
  });

  it('asks for the view, or for none when counting', () => {
    const value = (views?: boolean) =>
      (filtersOf({ interfaces: ['#p:M:I'], views }).cumulative![0].identifierFilter as { InterfaceFilter: { value: unknown } }).InterfaceFilter.value;
    assert.deepEqual(value(), { interfaceId: '#p:M:I', includeInterfaceView: true, includeCreatedEventBlob: false });
    assert.deepEqual(value(false), { interfaceId: '#p:M:I', includeInterfaceView: false, includeCreatedEventBlob: false });
  });

  it("lists the interfaces of the node's packages once per package name", () => {
    const again = { ...partner[0], packageId: 'f'.repeat(64), version: '2.0.0' };
    assert.deepEqual(interfaceRefs([...partner, again]), [
      { interfaceId: '#canton-lens-partner-app:Partner.Token:Holding', packageName: 'canton-lens-partner-app', module: 'Partner.Token', entity: 'Holding' },
    ]);
  });
});
