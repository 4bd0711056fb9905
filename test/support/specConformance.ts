// A root hook for each test tier: every answer any fake node of the run sent must be one the
// official spec of its version allows (`npm test` turns the check on: CANTON_LENS_CHECK_RESPONSES=1).
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';

export function assertEveryResponseInSpec(): void {
  const problems = [...new Set(FakeLedgerNode.allResponseProblems)];
  assert.deepEqual(problems.slice(0, 10), [], `${problems.length} kinds of response the spec does not allow`);
}
