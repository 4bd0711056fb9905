// A create argument with every kind of Daml value the JSON API sends (decimals as text, a big Int64,
// times, parties, variants, enums, optionals, lists, maps, odd keys), for the payload filter's tests.
import { REAL_PARTY_IDS } from '../fixtures/realIds';

export const ALICE = REAL_PARTY_IDS[0];
export const BOB = `Bob::1220${'b'.repeat(64)}`;

export const contract = {
  amount: '100.0000000000',
  small: '-0.5',
  zero: '0.0000000000',
  big: '9223372036854775807',
  count: 42,
  ratio: 0.1,
  owner: ALICE,
  observers: [ALICE, BOB],
  note: null,
  memo: 'Open the gate',
  status: 'Open',
  shape: { tag: 'Circle', value: { radius: '2.5' } },
  unit: { tag: 'Pending', value: {} },
  createdAt: '2026-11-26T10:00:00.000001Z',
  due: '2026-11-26',
  flag: true,
  archived: false,
  items: [
    { qty: '3', sku: 'a' },
    { qty: '10', sku: 'b' },
  ],
  tags: { red: '1', blue: '2' },
  genmap: [
    ['k1', 'v1'],
    ['k2', { x: 1 }],
  ],
  'odd key': 'x',
  nested: { optional: null, deep: { leaf: 'y' } },
};
