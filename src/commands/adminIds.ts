// The node administration commands' ids, registered by adminCommands.ts.
import { COMMAND } from '../ids/commandIds';
export const ADMIN_COMMANDS = [
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

export type AdminCommand = (typeof ADMIN_COMMANDS)[number];
