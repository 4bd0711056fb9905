// What an id in a JSON document is by its key: payloads in the shape real nodes send them (a
// reassignment's source and target, synchronizerTimes, a transaction's synchronizerId, a
// participant id), against Daml data that uses the same key names for parties. No input throws.
import * as assert from 'node:assert/strict';
import { idRoleOf, jsonPathAt } from '../../../src/ids/jsonKeyPath';

const SYNC = 'global-domain::1220' + 'a1'.repeat(32);
const PARTY = 'Alice::1220' + 'b2'.repeat(32);

/** The role of the first occurrence of `needle` after `after` in the text. */
function roleIn(text: string, needle: string, after = ''): string | undefined {
  const at = text.indexOf(needle, after ? text.indexOf(after) : 0);
  assert.ok(at >= 0, `${needle} in the text`);
  return idRoleOf(jsonPathAt(text, at + 3));
}

describe('ids in JSON by their key', () => {
  const reassignment = JSON.stringify(
    {
      update: {
        Reassignment: {
          value: {
            updateId: '1220' + 'd4'.repeat(32),
            offset: 42,
            recordTime: '2026-11-24T10:00:00Z',
            events: [
              {
                JsAssignmentEvent: {
                  source: SYNC,
                  target: SYNC.replace('global', 'private'),
                  reassignmentId: '0x12',
                  submitter: PARTY,
                  createdEvent: { createArgument: { source: PARTY, owner: PARTY }, signatories: [PARTY] },
                },
              },
            ],
            synchronizerId: SYNC,
          },
        },
      },
    },
    null,
    2,
  );

  it("a reassignment's source and target, and a synchronizerId, are synchronizers; its parties stay parties", () => {
    assert.equal(roleIn(reassignment, SYNC), 'synchronizer');
    assert.equal(roleIn(reassignment, 'private-domain'), 'synchronizer');
    assert.equal(roleIn(reassignment, PARTY, '"submitter"'), undefined);
    // A Daml record field named `source` holding a party is data, not a synchronizer.
    assert.equal(roleIn(reassignment, PARTY, '"createArgument"'), undefined);
    assert.equal(roleIn(reassignment, SYNC, '"synchronizerId"'), 'synchronizer');
  });

  it('synchronizerTimes[].synchronizerId of a checkpoint, compact JSON, and a participant id', () => {
    const checkpoint = `{"update":{"OffsetCheckpoint":{"value":{"offset":7,"synchronizerTimes":[{"synchronizerId":"${SYNC}","recordTime":"x"}]}}}}`;
    assert.equal(roleIn(checkpoint, SYNC), 'synchronizer');
    assert.deepEqual(jsonPathAt(checkpoint, checkpoint.indexOf(SYNC) + 1), ['update', 'OffsetCheckpoint', 'value', 'synchronizerTimes', 0, 'synchronizerId']);
    assert.equal(roleIn(`{"participantId": "${SYNC.replace('global-domain', 'participant1')}"}`, 'participant1'), 'participant');
  });

  it('keys with escapes, keys themselves, and text outside strings have no role', () => {
    const text = `{"synchronizer\\u0049d": "${SYNC}", "${SYNC}": 1, "n": 5}`;
    assert.equal(roleIn(text, SYNC), 'synchronizer');
    assert.equal(jsonPathAt(text, text.lastIndexOf(SYNC) + 2), undefined, 'a key');
    assert.equal(jsonPathAt(text, text.indexOf('5')), undefined);
  });

  it('never throws, whatever the text and offset', () => {
    const samples = [reassignment, '{"a": "b\\', '"\\x"', '}}]]{{[[', '{"k\\q": "v"}', '', '{"a":[1,2,{"b":"c"}]}'];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 2000; n++) {
      const base = samples[n % samples.length];
      const cut = base.slice(0, Math.floor(rnd() * (base.length + 1)));
      const noise = cut.replace(/./g, (c) => (rnd() < 0.05 ? '"{}[],:\\'[Math.floor(rnd() * 8)] : c));
      const offset = Math.floor(rnd() * (noise.length + 2)) - 1;
      idRoleOf(jsonPathAt(noise, offset));
    }
  });
});
