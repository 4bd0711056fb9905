// Every command Canton Lens contributes, by the name its handler is known by, and what callers
// inside the extension pass it. Ids are the public interface (keybindings, menus, other
// extensions): never rename one. A unit test checks this table against package.json.

export const COMMAND = {
  inspectAtCursor: 'cantonLens.inspectAtCursor',
  showContract: 'cantonLens.showContract',
  showTransaction: 'cantonLens.showTransaction',
  lookUpOnAllNodes: 'cantonLens.lookUpOnAllNodes',
  newExecuteRequest: 'cantonLens.newExecuteRequest',
  executeSubmission: 'cantonLens.executeSubmission',
  newCommandsRequest: 'cantonLens.newCommandsRequest',
  submitCommands: 'cantonLens.submitCommands',
  followCompletions: 'cantonLens.followCompletions',
  exerciseOnLedger: 'cantonLens.exerciseOnLedger',
  exerciseContract: 'cantonLens.exerciseContract',
  addDisclosedContract: 'cantonLens.addDisclosedContract',
  newPrepareRequest: 'cantonLens.newPrepareRequest',
  prepareTransaction: 'cantonLens.prepareTransaction',
  generateSigningKey: 'cantonLens.generateSigningKey',
  allocateExternalParty: 'cantonLens.allocateExternalParty',
  signPreparedTransaction: 'cantonLens.signPreparedTransaction',
  addNode: 'cantonLens.addNode',
  removeNode: 'cantonLens.removeNode',
  selectNode: 'cantonLens.selectNode',
  refresh: 'cantonLens.refresh',
  setToken: 'cantonLens.setToken',
  clearToken: 'cantonLens.clearToken',
  setUpPartiesAndUsers: 'cantonLens.setUpPartiesAndUsers',
  allocateParty: 'cantonLens.allocateParty',
  createUser: 'cantonLens.createUser',
  grantRight: 'cantonLens.grantRight',
  revokeRight: 'cantonLens.revokeRight',
  setPrimaryParty: 'cantonLens.setPrimaryParty',
  deactivateUser: 'cantonLens.deactivateUser',
  reactivateUser: 'cantonLens.reactivateUser',
  deleteUser: 'cantonLens.deleteUser',
  editUserAnnotations: 'cantonLens.editUserAnnotations',
  editPartyMetadata: 'cantonLens.editPartyMetadata',
  moveUserIdentityProvider: 'cantonLens.moveUserIdentityProvider',
  vetPackage: 'cantonLens.vetPackage',
  unvetPackage: 'cantonLens.unvetPackage',
  filterAdminView: 'cantonLens.filterAdminView',
  clearAdminFilter: 'cantonLens.clearAdminFilter',
  refreshAdminView: 'cantonLens.refreshAdminView',
  adminLoadMore: 'cantonLens.adminLoadMore',
  uploadDar: 'cantonLens.uploadDar',
  validateDar: 'cantonLens.validateDar',
  signIn: 'cantonLens.signIn',
  setUpSignIn: 'cantonLens.setUpSignIn',
  signOut: 'cantonLens.signOut',
  startDemoLedger: 'cantonLens.startDemoLedger',
  showLog: 'cantonLens.showLog',
  copyValue: 'cantonLens.copyValue',
  pinLookup: 'cantonLens.pinLookup',
  unpinLookup: 'cantonLens.unpinLookup',
  clearRecentLookups: 'cantonLens.clearRecentLookups',
  runAgain: 'cantonLens.runAgain',
  showRequestHistory: 'cantonLens.showRequestHistory',
  copyAsCurl: 'cantonLens.copyAsCurl',
  showActiveContracts: 'cantonLens.showActiveContracts',
  followUpdates: 'cantonLens.followUpdates',
  refreshActiveContracts: 'cantonLens.refreshActiveContracts',
  openDamlDefinition: 'cantonLens.openDamlDefinition',
  debugTransaction: 'cantonLens.debugTransaction',
  showContractFromDebugger: 'cantonLens.showContractFromDebugger',
  markLedgerPoint: 'cantonLens.markLedgerPoint',
  showInterfaceContracts: 'cantonLens.showInterfaceContracts',
  showActiveContractsAt: 'cantonLens.showActiveContractsAt',
  whatChanged: 'cantonLens.whatChanged',
  compareContracts: 'cantonLens.compareContracts',
  compareWithJson: 'cantonLens.compareWithJson',
} as const;

export type CommandId = (typeof COMMAND)[keyof typeof COMMAND];

/** A node by name (a tree row or `{ name }` works too from menus). */
type NodeName = string | null | undefined;
/** One id, or several (a party, a template). */
type OneOrMore = string | readonly string[] | null | undefined;

/**
 * What the extension's own callers pass each command (links, lenses, panels, other commands).
 * Menus and the palette pass tree rows or nothing: every handler still checks its arguments.
 */
export interface CommandArgs {
  'cantonLens.showContract': [id?: string, node?: NodeName, from?: unknown];
  'cantonLens.showTransaction': [id?: string, node?: NodeName, from?: unknown];
  'cantonLens.showActiveContracts': [node?: NodeName, parties?: OneOrMore, templates?: OneOrMore, options?: { activeAtOffset?: number }];
  'cantonLens.showActiveContractsAt': [offset?: number | string, node?: NodeName, templates?: OneOrMore];
  'cantonLens.whatChanged': [from?: unknown, to?: unknown, node?: NodeName, options?: object];
  'cantonLens.openDamlDefinition': [templateId?: string, choice?: string, packageName?: string];
  'cantonLens.compareContracts': [left?: string, right?: string, node?: NodeName];
  'cantonLens.compareWithJson': [id?: string, json?: string, node?: NodeName];
  'cantonLens.debugTransaction': [id?: string, node?: NodeName];
  'cantonLens.setToken': [node?: NodeName, token?: string];
  'cantonLens.signIn': [node?: NodeName];
  'cantonLens.signOut': [node?: NodeName];
  'cantonLens.setUpSignIn': [node?: NodeName];
  'cantonLens.selectNode': [node?: NodeName];
  'cantonLens.refresh': [node?: NodeName, options?: { refreshToken?: boolean }];
  'cantonLens.addNode': [node?: { name: string; url: string }];
  'cantonLens.startDemoLedger': [];
  'cantonLens.showLog': [];
}

/** The arguments a command takes from the extension's own callers (unlisted: whatever a menu passes). */
export type ArgsOf<K extends CommandId> = K extends keyof CommandArgs ? CommandArgs[K] : unknown[];
