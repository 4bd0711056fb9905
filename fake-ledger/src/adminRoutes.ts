// The node's administration routes in one table: users and rights (userAdminRoutes.ts), parties and
// identity providers (partyAdminRoutes.ts), from what the node knows when a request comes. No `vscode` import.
import type { FakeVersion } from './ledgerQueries';
import type { DemoLedger, UserRight } from './storedLedger';
import { partyAdminEndpoints } from './partyAdminRoutes';
import { userAdminEndpoints, type AdminEndpoint } from './userAdminRoutes';
import { connectedSynchronizers, hostedParties, rightJson } from './userRoutes';

export interface AdminHost {
  ledger: DemoLedger;
  version: FakeVersion;
  maxRightsPerUser: number;
  singleSynchronizer: boolean;
  judge: { rights: (user: string) => UserRight[] };
}

export function adminEndpoints(host: () => AdminHost): Record<string, AdminEndpoint> {
  const ledger = () => host().ledger;
  const rights = (user: string) => host().judge.rights(user);
  return {
    ...userAdminEndpoints({
      ledger,
      version: () => host().version,
      rights,
      maxRightsPerUser: () => host().maxRightsPerUser,
      maxUsersPageSize: () => 1000,
      rightJson: (r) => rightJson(r, host().version),
    }),
    ...partyAdminEndpoints({
      ledger,
      rights,
      connected: () => connectedSynchronizers(ledger(), host().singleSynchronizer),
      hosted: () => hostedParties(ledger()),
    }),
  };
}
