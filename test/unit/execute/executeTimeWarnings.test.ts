// The review's warning about a prepared transaction's times says what the node will do with them:
// the first check of Canton's that fails, with its code; and the fake node refuses exactly that.
import * as assert from 'node:assert/strict';
import { timeRejection } from '../../../fake-ledger/src/executeTimeChecks';
import type { FakeVersion } from '../../../fake-ledger/src/testing';
import { executeTimeWarning, type PreparedTimesInput } from '../../../src/execute/executeTimeWarnings';
import { preSendChecks } from '../../../src/execute/preSendChecks';
import { reviewPreparedTransaction } from '../../../src/execute/preparedTransactionReview';
import { PREAPPROVAL_PARTY, preapprovalExecuteRequest } from '../../support/executeRequests';
import { freshPreapprovalExecuteRequest } from '../../support/preparedTransactions';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const S = 1000;
const H = 3600 * S;
const micros = (s: string | undefined) => (s ? BigInt(Date.parse(s)) * 1000n : undefined);

const cases: [string, PreparedTimesInput, Record<FakeVersion, string | undefined>][] = [
  ['prepared just now, no bounds', { preparationTime: iso(-S) }, { '3.4': undefined, '3.5': undefined, '3.6': undefined }],
  ['prepared 23 h ago', { preparationTime: iso(-23 * H) }, { '3.4': undefined, '3.5': undefined, '3.6': undefined }],
  [
    'prepared 25 h ago',
    { preparationTime: iso(-25 * H) },
    {
      '3.4': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
      '3.5': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
      '3.6': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
    },
  ],
  [
    'prepared 25 h from now (a clock ahead)',
    { preparationTime: iso(25 * H) },
    {
      '3.4': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
      '3.5': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
      '3.6': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
    },
  ],
  [
    'max record time passed',
    { preparationTime: iso(-H), maxRecordTime: iso(-S) },
    { '3.4': 'NOT_SEQUENCED_TIMEOUT', '3.5': 'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED', '3.6': 'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED' },
  ],
  ['max record time ahead', { preparationTime: iso(-H), maxRecordTime: iso(S) }, { '3.4': undefined, '3.5': undefined, '3.6': undefined }],
  [
    'max record time passed, prepared 25 h ago: the preparation time is checked first (3.5+)',
    { preparationTime: iso(-25 * H), maxRecordTime: iso(-H) },
    { '3.4': 'NOT_SEQUENCED_TIMEOUT', '3.5': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND', '3.6': 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND' },
  ],
  ['max ledger time 30 s ago: within the tolerance', { maxLedgerEffectiveTime: iso(-30 * S) }, { '3.4': undefined, '3.5': undefined, '3.6': undefined }],
  [
    'max ledger time 2 min ago: not sequenced in time',
    { preparationTime: iso(-H), maxLedgerEffectiveTime: iso(-2 * 60 * S) },
    { '3.4': 'NOT_SEQUENCED_TIMEOUT', '3.5': 'NOT_SEQUENCED_TIMEOUT', '3.6': 'NOT_SEQUENCED_TIMEOUT' },
  ],
  ['min ledger time 30 s ahead: within the tolerance', { minLedgerEffectiveTime: iso(30 * S) }, { '3.4': undefined, '3.5': undefined, '3.6': undefined }],
  [
    'min ledger time 2 min ahead',
    { minLedgerEffectiveTime: iso(2 * 60 * S) },
    { '3.4': 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND', '3.5': 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND', '3.6': 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND' },
  ],
  [
    'min ledger time 2 min ahead and prepared 25 h ago: the ledger time is checked first',
    { minLedgerEffectiveTime: iso(2 * 60 * S), preparationTime: iso(-25 * H) },
    { '3.4': 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND', '3.5': 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND', '3.6': 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND' },
  ],
];

describe("the execute review's time warning", () => {
  for (const [name, times, expected] of cases)
    it(`${name}: the warning and the fake node agree on every version`, () => {
      for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
        const warning = executeTimeWarning({ ...times, nodeVersion: `${version}.1` }, NOW);
        const fake = timeRejection(
          {
            preparationTime: micros(times.preparationTime),
            minLedgerEffectiveTime: micros(times.minLedgerEffectiveTime),
            maxLedgerEffectiveTime: micros(times.maxLedgerEffectiveTime),
            maxRecordTime: micros(times.maxRecordTime),
          },
          BigInt(NOW) * 1000n,
          version,
        );
        assert.equal(warning?.code, expected[version], `the warning on ${version}`);
        assert.equal(fake?.code, expected[version], `the fake node on ${version}`);
      }
    });

  it('says what the node does and what to do, naming the code: accepted, then rejected, nothing commits', () => {
    const stale = executeTimeWarning({ preparationTime: iso(-25 * H), nodeVersion: '3.5.10' }, NOW)!;
    assert.match(stale.text, /more than 24 hours from now \(the default preparationTimeRecordTimeTolerance\)/);
    assert.match(stale.text, /The node accepts the execute, then rejects the transaction: nothing commits\./);
    assert.match(stale.text, /LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND\. Prepare it again\.$/);
    assert.doesNotMatch(stale.text, /synchronizer rejects it/);
    const early = executeTimeWarning({ minLedgerEffectiveTime: iso(5 * 60 * S) }, NOW)!;
    assert.match(early.text, /Execute it from .+ on\.$/);
    // A node of unknown version: both codes a passed max record time may get.
    const unknown = executeTimeWarning({ maxRecordTime: iso(-S) }, NOW)!;
    assert.match(unknown.text, /LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED \(NOT_SEQUENCED_TIMEOUT on Canton 3\.4\)/);
    assert.doesNotMatch(executeTimeWarning({ maxRecordTime: iso(-S), nodeVersion: '3.6.0-SNAPSHOT' }, NOW)!.text, /3\.4/);
  });

  it('is one finding of the pre-send checks, at most: the answer the node gives', () => {
    const base = { party: 'Bob::1220ab', hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2', signatures: [], now: new Date(NOW) };
    const f = preSendChecks({
      ...base,
      maxRecordTime: iso(-H),
      maxLedgerEffectiveTime: iso(-H),
      minLedgerEffectiveTime: iso(-2 * H),
      preparationTime: iso(-30 * H),
    }).filter((x) => x.id === 'time');
    assert.equal(f.length, 1);
    assert.equal(f[0].severity, 'warn');
    assert.match(f[0].text, /NOT_SEQUENCED_TIMEOUT/);
    assert.deepEqual(
      preSendChecks({ ...base, preparationTime: iso(-H) }).filter((x) => x.id === 'time'),
      [],
    );
  });

  it("the demo's preapproval request is prepared when the demo starts: no warning then, the preparation time's a day later", async () => {
    const started = new Date(NOW);
    const fresh = await freshPreapprovalExecuteRequest(PREAPPROVAL_PARTY, 'demo-1', started);
    const review = await reviewPreparedTransaction(fresh.preparedTransaction as string, 'HASHING_SCHEME_VERSION_V2');
    assert.equal(review.computedHash, fresh.preparedTransactionHash, "its hash is the re-encoded transaction's");
    assert.equal(review.preparationTime, started.toISOString().replace(/Z$/, '000Z'));
    assert.equal(executeTimeWarning(review, NOW + H), undefined);
    assert.equal(executeTimeWarning(review, NOW + 25 * H)?.code, 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND');
    // The vector as recorded was prepared in 2025: the warning a node's rejection backs.
    const vector = preapprovalExecuteRequest(PREAPPROVAL_PARTY, 'demo-2');
    const old = await reviewPreparedTransaction(vector.preparedTransaction as string, 'HASHING_SCHEME_VERSION_V2');
    assert.equal(executeTimeWarning(old, NOW)?.code, 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND');
  });
});
