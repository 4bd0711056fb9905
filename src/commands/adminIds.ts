// The node administration commands' ids, registered by adminCommands.ts (the edits by adminEditCommands.ts, vetting by vettingCommands.ts).
import { COMMAND } from '../ids/commandIds';
export const ADMIN_CHANGE_COMMANDS = [
  COMMAND.setUpPartiesAndUsers,
  COMMAND.allocateParty,
  COMMAND.createUser,
  COMMAND.grantRight,
  COMMAND.revokeRight,
  COMMAND.setPrimaryParty,
  COMMAND.deactivateUser,
  COMMAND.reactivateUser,
  COMMAND.deleteUser,
] as const;

export const ADMIN_EDIT_COMMANDS = [COMMAND.editUserAnnotations, COMMAND.editPartyMetadata, COMMAND.moveUserIdentityProvider] as const;

export const ADMIN_VETTING_COMMANDS = [COMMAND.vetPackage, COMMAND.unvetPackage] as const;

export const ADMIN_COMMANDS = [...ADMIN_CHANGE_COMMANDS, ...ADMIN_EDIT_COMMANDS, ...ADMIN_VETTING_COMMANDS] as const;

export type AdminCommand = (typeof ADMIN_COMMANDS)[number];
export type AdminEditCommand = (typeof ADMIN_EDIT_COMMANDS)[number];
export type AdminVettingCommand = (typeof ADMIN_VETTING_COMMANDS)[number];
