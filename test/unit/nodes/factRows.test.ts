import * as assert from 'node:assert/strict';
import { parseRights, type LearnedAccess } from '../../../src/auth/userRights';
import { factRows, type FactRow } from '../../../src/nodes/factRows';
import type { NodeFactsSnapshot } from '../../../src/nodes/nodeFacts';

const ALICE = `Alice::1220${'a1'.repeat(32)}`;
const BOB = `Bob::1220${'b0'.repeat(32)}`;

const snapshot = (over: Partial<NodeFactsSnapshot> = {}): NodeFactsSnapshot => ({
  participantId: { ok: true, value: `participant1::1220${'cc'.repeat(32)}` },
  parties: { ok: true, value: [ALICE, BOB] },
  ledgerEnd: { ok: true, value: 123_456 },
  prunedUpTo: { ok: true, value: 0 },
  synchronizers: { ok: true, value: [{ alias: 'global', id: `global::1220${'dd'.repeat(32)}`, permission: 'PARTICIPANT_PERMISSION_SUBMISSION' }] },
  ...over,
});

const known = (rights: unknown[]): LearnedAccess => ({
  state: 'known',
  user: { id: 'alice', primaryParty: ALICE, isDeactivated: false },
  rights: parseRights({ rights }),
});

const row = (rows: FactRow[], label: string) => rows.find((r) => r.label === label);

describe('the node tree’s fact rows', () => {
  it('names the user, groups the rights by party, and says which parties lookups read as', () => {
    const rows = factRows('n', undefined, snapshot(), known([{ kind: { CanActAs: { value: { party: ALICE } } } }]));
    assert.match(row(rows, 'User')!.value, /^alice · Alice::1220a1/);
    const rights = row(rows, 'Rights');
    assert.equal(rights?.kind, 'group');
    assert.equal(rights?.kind === 'group' && rights.rows.length, 1);
    assert.match(row(rows, 'Parties')!.value, /from the token's rights/);
    assert.equal(row(rows, 'Ledger end')!.value, '123,456');
    assert.equal(row(rows, 'Pruned up to')!.value, 'nothing pruned');
    const hosted = row(rows, 'Hosted parties');
    assert.equal(hosted?.value, '2');
    assert.equal(row(rows, 'Synchronizers')!.value, 'global');
  });

  it('leaves out the parties row when the node has parties configured', () => {
    assert.equal(row(factRows('n', [BOB], snapshot(), known([])), 'Parties'), undefined);
  });

  it('says what a fact needs, or why it is not known, instead of failing', () => {
    const rows = factRows(
      'n',
      undefined,
      snapshot({ parties: { ok: false, needs: 'ParticipantAdmin', reason: '403' }, ledgerEnd: { ok: false, reason: 'timed out' } }),
      { state: 'refused', status: 401, reason: 'the token was rejected' },
    );
    assert.equal(row(rows, 'User')!.value, 'refused (401)');
    assert.equal(row(rows, 'Hosted parties')!.value, 'needs ParticipantAdmin');
    assert.equal(row(rows, 'Hosted parties')!.icon, 'lock');
    assert.deepEqual([row(rows, 'Ledger end')!.value, row(rows, 'Ledger end')!.tooltip], ['not known', 'timed out']);
  });

  it('lists at most 500 hosted parties and says how many more there are', () => {
    const many = Array.from({ length: 1_234 }, (_, i) => `P${i}::1220${'ab'.repeat(32)}`);
    const hosted = row(factRows('n', [ALICE], snapshot({ parties: { ok: true, value: many } }), known([])), 'Hosted parties');
    assert.ok(hosted?.kind === 'group');
    assert.equal(hosted.rows.length, 501);
    assert.equal(hosted.rows[500].label, '… 734 more');
  });
});
