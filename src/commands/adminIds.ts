// The node administration commands' ids: registered at activation (adminRegistration.ts), handled
// by their bundle (adminCommands.ts).
export const ADMIN_COMMANDS = [
  'cantonLens.setUpPartiesAndUsers',
  'cantonLens.allocateParty',
  'cantonLens.createUser',
  'cantonLens.grantRight',
  'cantonLens.revokeRight',
] as const;

export type AdminCommand = (typeof ADMIN_COMMANDS)[number];
