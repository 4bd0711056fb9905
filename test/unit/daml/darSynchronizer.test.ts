// Which synchronizer a DAR goes to: the node's only one, the remembered pick while still
// connected, else a question; the connected list read from a hostile response.
import * as assert from 'node:assert/strict';
import { connectedSynchronizers, rememberedSynchronizerKey, synchronizerChoice, synchronizerName } from '../../../src/daml/darSynchronizer';
import type { GetConnectedSynchronizersResponse } from '../../../src/ledger/apiTypes';

const da1 = { alias: 'da1', id: `da1::1220${'a'.repeat(64)}` };
const global = { alias: 'global', id: `global-domain::1220${'b'.repeat(64)}` };

describe('the synchronizer of a DAR', () => {
  it('lets the node pick with none or one, uses the remembered pick while connected, else asks', () => {
    assert.deepEqual(synchronizerChoice([], undefined), { kind: 'node', only: undefined });
    assert.deepEqual(synchronizerChoice([da1], global.id), { kind: 'node', only: da1 });
    assert.deepEqual(synchronizerChoice([da1, global], undefined), { kind: 'ask', choices: [da1, global] });
    assert.deepEqual(synchronizerChoice([da1, global], global.id), { kind: 'remembered', synchronizer: global });
    // Remembered, but the node left it: ask again.
    assert.deepEqual(synchronizerChoice([da1, global], `gone::1220${'c'.repeat(64)}`), { kind: 'ask', choices: [da1, global] });
  });

  it('reads the connected synchronizers once per id, skipping entries without one', () => {
    const res = {
      connectedSynchronizers: [
        { synchronizerAlias: 'da1', synchronizerId: da1.id, permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED' },
        { synchronizerAlias: 'again', synchronizerId: da1.id, permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED' },
        { synchronizerAlias: 'broken', synchronizerId: '', permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED' },
        null,
        { synchronizerAlias: null, synchronizerId: global.id, permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED' },
      ],
    } as unknown as GetConnectedSynchronizersResponse;
    assert.deepEqual(connectedSynchronizers(res), [da1, { alias: '', id: global.id }]);
    assert.deepEqual(connectedSynchronizers(undefined), []);
  });

  it('names a synchronizer by its alias, else its id’s first part; one key per node', () => {
    assert.equal(synchronizerName(da1), 'da1');
    assert.equal(synchronizerName({ alias: '', id: global.id }), 'global-domain');
    assert.notEqual(rememberedSynchronizerKey('a'), rememberedSynchronizerKey('b'));
  });
});
