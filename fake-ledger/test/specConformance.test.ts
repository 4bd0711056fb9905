// Root hook: every fake node response in the fake ledger's own tests is one the spec allows (test/support/specConformance.ts).
import { assertEveryResponseInSpec } from '../../test/support/specConformance';

// Set when mocha loads the files, before any test starts a node.
process.env.CANTON_LENS_CHECK_RESPONSES = '1';

after('every fake node response in these tests is one the spec allows', assertEveryResponseInSpec);
