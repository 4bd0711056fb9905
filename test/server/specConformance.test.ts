// Root hook: every fake node response of this tier is one the spec allows (test/support/specConformance.ts).
import { assertEveryResponseInSpec } from '../support/specConformance';

// Set when mocha loads the files, before any test starts a node.
process.env.CANTON_LENS_CHECK_RESPONSES = '1';

after('every fake node response of this tier is one the spec allows', assertEveryResponseInSpec);
