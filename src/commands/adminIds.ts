// The node administration commands' ids, registered by adminCommands.ts (the edits by adminEditCommands.ts, vetting by vettingCommands.ts).
export const ADMIN_CHANGE_COMMANDS = [
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

export const ADMIN_EDIT_COMMANDS = ['cantonLens.editUserAnnotations', 'cantonLens.editPartyMetadata', 'cantonLens.moveUserIdentityProvider'] as const;

export const ADMIN_VETTING_COMMANDS = ['cantonLens.vetPackage', 'cantonLens.unvetPackage'] as const;

export const ADMIN_COMMANDS = [...ADMIN_CHANGE_COMMANDS, ...ADMIN_EDIT_COMMANDS, ...ADMIN_VETTING_COMMANDS] as const;

export type AdminCommand = (typeof ADMIN_COMMANDS)[number];
export type AdminEditCommand = (typeof ADMIN_EDIT_COMMANDS)[number];
export type AdminVettingCommand = (typeof ADMIN_VETTING_COMMANDS)[number];
