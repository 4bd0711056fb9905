// The node administration commands' ids, registered by adminCommands.ts.
export const ADMIN_COMMANDS = [
  'cantonLens.setUpPartiesAndUsers',
  'cantonLens.allocateParty',
  'cantonLens.createUser',
  'cantonLens.grantRight',
  'cantonLens.revokeRight',
  'cantonLens.setPrimaryParty',
  'cantonLens.deactivateUser',
  'cantonLens.reactivateUser',
  'cantonLens.deleteUser',
] as const;

export type AdminCommand = (typeof ADMIN_COMMANDS)[number];
