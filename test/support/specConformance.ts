// A root hook for each test tier: every answer any fake node of the run sent must be one the
// official spec of its version allows, and every body Canton Lens sent one Canton decodes (`npm test` turns the check on: CANTON_LENS_CHECK_RESPONSES=1).
import * as assert from 'node:assert/strict';
import { FakeLedgerNode } from '../../fake-ledger/src/testing';

export function assertEveryResponseInSpec(): void {
  const problems = [...new Set(FakeLedgerNode.allResponseProblems)];
  assert.deepEqual(problems.slice(0, 10), [], `${problems.length} kinds of response the spec does not allow`);
  // And every body Canton Lens sent, each node decoded as Canton does.
  const refused = [...new Set(FakeLedgerNode.productBodiesRefused)];
  assert.deepEqual(refused.slice(0, 10), [], `${refused.length} kinds of request body Canton Lens sent that a node could not decode`);
}
