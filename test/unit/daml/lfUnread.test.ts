import * as assert from 'node:assert/strict';
import { LfError } from '../../../src/daml/lf/lfDecode';
import { unreadReason } from '../../../src/daml/lf/nodeSignatures';
import { unreadSummary } from '../../../src/daml/lf/lfSignatures';
import { LedgerApiError } from '../../../src/ledger/ledgerApiError';

const ID = 'ab'.repeat(32);

describe("why a node's package could not be read", () => {
  it('says whose doing it was: the node (403, 401, 404), the archive, or anything else as it was said', () => {
    assert.match(unreadReason(new LedgerApiError({ kind: 'permissionDenied', explanation: 'no right', status: 403 })), /refused it \(403\): no right/);
    assert.match(
      unreadReason(new LedgerApiError({ kind: 'unauthenticated', explanation: 'expired', status: 401 })),
      /did not accept the token \(401\): expired/,
    );
    assert.match(unreadReason(new LedgerApiError({ kind: 'notFound', explanation: 'PACKAGE_NOT_FOUND', status: 404 })), /does not have it \(404\)/);
    assert.match(unreadReason(new LfError('The archive is truncated')), /archive does not decode: The archive is truncated/);
    assert.equal(
      unreadReason(new LedgerApiError({ kind: 'badResponse', explanation: 'the answer was larger than 64 MB' })),
      'the answer was larger than 64 MB',
    );
  });

  it('sums it up in one line: nothing when all were read, the one, or how many and the first', () => {
    assert.equal(unreadSummary('n1', {}), undefined);
    assert.equal(unreadSummary('n1', { missing: [] }), undefined);
    assert.match(
      unreadSummary('n1', { refused: 'the node refused it (403): no right' }) ?? '',
      /^n1 would not list its packages \(the node refused it \(403\): no right\); completion uses the workspace's Daml\.$/,
    );
    assert.match(unreadSummary('n1', { missing: [{ packageId: ID, reason: 'R' }] }) ?? '', /^Package abababababab of n1 could not be read \(R\)/);
    assert.match(
      unreadSummary('n1', {
        missing: [
          { packageId: ID, reason: 'R1' },
          { packageId: 'cd'.repeat(32), reason: 'R2' },
        ],
      }) ?? '',
      /^2 packages of n1 could not be read; .* The first, abababababab: R1$/,
    );
  });
});
