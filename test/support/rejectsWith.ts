import * as assert from 'node:assert/strict';
import { LedgerApiError } from '../../src/ledger/ledgerApiError';

/** Awaits a rejection with a LedgerApiError whose fields equal `check`'s. */
export async function rejectsWith(
  p: Promise<unknown>,
  check: Partial<Record<keyof LedgerApiError, unknown>> & { explanationMatches?: RegExp },
): Promise<LedgerApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LedgerApiError, `expected a LedgerApiError, got ${String(e)}`);
    const { explanationMatches, ...fields } = check;
    for (const [k, v] of Object.entries(fields)) assert.deepEqual((e as unknown as Record<string, unknown>)[k], v, `${k} of "${e.explanation}"`);
    if (explanationMatches) assert.match(e.explanation, explanationMatches);
    return e;
  }
  assert.fail('expected the call to fail');
}
