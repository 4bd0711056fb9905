// The seeded ledger's users: who acts, reads or executes as which party, the administrators, a
// deactivated user and one of another identity provider; and the extra hosted parties of paging
// tests. No `vscode` import.
import type { DemoLedger } from './storedLedger';

type Parties = DemoLedger['parties'];

export function demoUsers(
  parties: Parties,
  participantNamespace: string,
  options: { extraUsers?: DemoLedger['users']; extraHostedParties?: number },
): Pick<DemoLedger, 'users' | 'userDetails' | 'extraHostedParties'> {
  const { Alice, Bob, Bank, Carol, Dana } = parties;
  return {
    users: {
      alice: [{ canActAs: Alice }],
      // Reads as Alice and Bob, acts as no one (an auditor's or a dashboard's user).
      auditor: [{ canReadAs: Alice }, { canReadAs: Bob }],
      // Had Alice's rights; deactivated since: the node refuses every request of it (403).
      former: [{ canActAs: Alice }],
      bob: [{ canActAs: Bob }],
      bank: [{ canActAs: Bank }, { canReadAs: Carol }],
      dana: [{ canExecuteAs: Dana }, { canReadAs: Dana }],
      reader: ['canReadAsAnyParty'],
      participant_admin: ['participantAdmin'],
      idp_admin: ['identityProviderAdmin'],
      acme_app: [{ canActAs: Bank }], // both of the `acme-idp` identity provider (userDetails)
      executor: ['canExecuteAsAnyParty'], // reads none: it cannot prepare, nor see what it executed
      wallet: ['canReadAsAnyParty', 'canExecuteAsAnyParty'], // a wallet backend's: prepares and executes, acts as none
      ...options.extraUsers,
    },
    userDetails: {
      alice: { primaryParty: Alice },
      bob: { primaryParty: Bob },
      bank: { primaryParty: Bank },
      dana: { primaryParty: Dana },
      former: { primaryParty: Alice, isDeactivated: true },
      idp_admin: { identityProviderId: 'acme-idp' },
      acme_app: { identityProviderId: 'acme-idp', primaryParty: Bank },
    },
    extraHostedParties: Array.from(
      { length: Math.max(0, Math.floor(options.extraHostedParties ?? 0)) },
      (_, i) => `Hosted-${String(i).padStart(4, '0')}::${participantNamespace}`,
    ),
  };
}
