// Node administration for an administrator's token: Set Up Parties and Users (a workspace's
// canton-setup.json, loopback nodes only), Allocate Party, Create User, Grant Right and Revoke Right,
// Set Primary Party, Deactivate, Reactivate and Delete User. Each change goes through runAdminChange
// (adminKit.ts): what it sends, confirmed on a node that is not on this machine, sent once, read back,
// a refusal told with its Canton code. The edits (annotations, metadata, identity provider, vetting)
// are adminEditCommands.ts, vetting vettingCommands.ts. Bundled apart (dist/nodeAdministration.js), loaded
// by the first change asked for; adminRegistration.ts registers the ids at activation.
import * as vscode from 'vscode';
import { readSetup, SETUP_FILE, type CantonSetup } from '../auth/cantonSetup';
import { runSetup } from '../auth/cantonSetupRun';
import {
  allocatePartyChange,
  checkPartyHint,
  checkUserId,
  createUserChange,
  describeRight,
  grantRightsChange,
  updateUserChange,
  deleteUserChange,
  partyRight,
  revokeRightsChange,
} from '../auth/nodeAdmin';
import { getUser, listAllParties } from '../ledger/adminRequests';
import type { UserRightJson } from '../ledger/apiTypes';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { isLoopbackUrl } from '../ledger/loopbackUrl';
import { adminEditHandlers } from './adminEditCommands';
import { ADMIN_COMMANDS, type AdminCommand, type AdminEditCommand, type AdminVettingCommand } from './adminIds';
import {
  answersOf,
  pickParty,
  pickRight,
  pickUser,
  refused,
  runAdminChange,
  session as openSession,
  synchronizerFor,
  type AdminAnswers,
  type AdminDeps,
  type AdminOutcome,
  type Session,
} from './adminKit';
import type { CommandHandler } from './commandRegistrar';
import { vettingHandlers, type VettingDeps } from './vettingCommands';
import { COMMAND } from '../ids/commandIds';

export type { AdminAnswers, AdminOutcome } from './adminKit';

type Handlers = Record<AdminCommand, (arg?: unknown) => Promise<AdminOutcome>>;

export function adminHandlers(deps: AdminDeps): Omit<Handlers, AdminEditCommand | AdminVettingCommand> {
  const { nodes } = deps;
  const session = (arg: unknown, placeHolder: string) => openSession(nodes, arg, placeHolder);

  const allocate = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await session(arg, vscode.l10n.t('Allocate a party on which ledger node?'));
    if (!s) return { done: false };
    const hint =
      a.hint ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('The new party’s hint'), validateInput: (v) => checkPartyHint(v, s.version) }));
    if (hint === undefined) return { done: false };
    const bad = checkPartyHint(hint, s.version);
    if (bad) return { done: false, message: bad };
    try {
      const synchronizerId = await synchronizerFor(s, a);
      if (synchronizerId === false) return { done: false };
      return await runAdminChange<{ partyDetails: { party: string } }>(deps, s, a, allocatePartyChange(hint, synchronizerId), async (res) => {
        const party = res.partyDetails.party;
        // Read back: the party is now among the node's.
        const seen = (await listAllParties(s.client, s.opts)).some((p) => p.party === party);
        return seen
          ? vscode.l10n.t('Allocated {0} on "{1}".', party, s.node.name)
          : vscode.l10n.t('Allocated {0} on "{1}"; the node does not list it yet.', party, s.node.name);
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Allocating the party "{0}"', hint), e);
    }
  };

  const createUser = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await session(arg, vscode.l10n.t('Create a user on which ledger node?'));
    if (!s) return { done: false };
    const id = a.userId ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('The new user’s id'), validateInput: (v) => checkUserId(v, s.version) }));
    if (id === undefined) return { done: false };
    const bad = checkUserId(id, s.version);
    if (bad) return { done: false, message: bad };
    try {
      const party = await pickParty(s, a, vscode.l10n.t('Its primary party (it can act as it)'));
      const rights: UserRightJson[] = party ? [partyRight(a.right ?? 'CanActAs', party)] : [];
      return await runAdminChange(deps, s, a, createUserChange(id, party, rights), async () => {
        const back = await getUser(s.client, id, s.opts);
        const held = (await s.client.listUserRights(id, s.opts)).rights ?? [];
        return vscode.l10n.t(
          'Created the user "{0}" on "{1}" (primary party: {2}; rights: {3}).',
          back.user.id,
          s.node.name,
          back.user.primaryParty || '—',
          held.map(describeRight).join(', ') || '—',
        );
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Creating the user "{0}"', id), e);
    }
  };

  const changeRight = async (arg: unknown, how: 'grant' | 'revoke'): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await session(
      arg,
      how === 'grant' ? vscode.l10n.t('Grant a right on which ledger node?') : vscode.l10n.t('Revoke a right on which ledger node?'),
    );
    if (!s) return { done: false };
    try {
      const userId = await pickUser(s, a, how === 'grant' ? vscode.l10n.t('Grant a right to which user?') : vscode.l10n.t('Revoke a right from which user?'));
      if (!userId) return { done: false };
      const kind = await pickRight(a, vscode.l10n.t('Which right?'));
      if (!kind) return { done: false };
      const party = await pickParty(s, a, vscode.l10n.t('For which party?'));
      if (!party) return { done: false };
      const right = partyRight(kind, party);
      const change = how === 'grant' ? grantRightsChange(userId, [right]) : revokeRightsChange(userId, [right]);
      return await runAdminChange<{ newlyGrantedRights?: UserRightJson[]; newlyRevokedRights?: UserRightJson[] }>(deps, s, a, change, async (res) => {
        const changed = (how === 'grant' ? res.newlyGrantedRights : res.newlyRevokedRights) ?? [];
        const held = (await s.client.listUserRights(userId, s.opts)).rights ?? [];
        return changed.length === 0
          ? how === 'grant'
            ? vscode.l10n.t('"{0}" already had {1}: nothing changed.', userId, describeRight(right))
            : vscode.l10n.t('"{0}" did not have {1}: nothing changed.', userId, describeRight(right))
          : how === 'grant'
            ? vscode.l10n.t('Granted {0} to "{1}"; it now has {2} rights.', describeRight(right), userId, held.length)
            : vscode.l10n.t('Revoked {0} from "{1}"; it now has {2} rights.', describeRight(right), userId, held.length);
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Reading the users and parties'), e);
    }
  };

  const updateUser = async (arg: unknown, what: 'primaryParty' | 'deactivate' | 'reactivate'): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await session(arg, vscode.l10n.t('Change a user on which ledger node?'));
    if (!s) return { done: false };
    try {
      const userId = await pickUser(s, a, vscode.l10n.t('Which user?'));
      if (!userId) return { done: false };
      const party = what === 'primaryParty' ? await pickParty(s, a, vscode.l10n.t('Its new primary party')) : undefined;
      if (what === 'primaryParty' && !party) return { done: false };
      const change = updateUserChange(userId, what === 'primaryParty' ? { primaryParty: party } : { isDeactivated: what === 'deactivate' });
      return await runAdminChange(deps, s, a, change, async () => {
        const back = (await getUser(s.client, userId, s.opts)).user;
        return what === 'primaryParty'
          ? vscode.l10n.t('The primary party of "{0}" is now {1}.', userId, back.primaryParty || '—')
          : back.isDeactivated
            ? vscode.l10n.t('"{0}" is deactivated: "{1}" refuses every request with its tokens.', userId, s.node.name)
            : vscode.l10n.t('"{0}" is active again on "{1}".', userId, s.node.name);
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Reading the users and parties'), e);
    }
  };

  /** Delete User: the user's id typed in full first, on every node (it cannot be undone). */
  const deleteUser = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await session(arg, vscode.l10n.t('Delete a user on which ledger node?'));
    if (!s) return { done: false };
    try {
      const userId = await pickUser(s, a, vscode.l10n.t('Delete which user?'));
      if (!userId) return { done: false };
      const typed =
        a.typed ??
        (await vscode.window.showInputBox({
          prompt: vscode.l10n.t('Type {0} to delete this user and all its rights on "{1}". It cannot be undone.', userId, s.node.name),
          validateInput: (v) => (v === userId ? undefined : vscode.l10n.t('Type the user id exactly: {0}', userId)),
        }));
      if (typed !== userId) return { done: false, message: vscode.l10n.t('Not deleted: the id typed is not {0}.', userId) };
      // The typed id is the confirmation; a node not on this machine still shows the request first.
      return await runAdminChange(deps, s, a, deleteUserChange(userId), async () => {
        // Read back: the node no longer knows the user.
        const gone = await getUser(s.client, userId, s.opts).then(
          () => false,
          (e: unknown) => isLedgerApiError(e) && e.kind === 'notFound',
        );
        return gone
          ? vscode.l10n.t('Deleted the user "{0}" on "{1}".', userId, s.node.name)
          : vscode.l10n.t('Sent the deletion of "{0}", but "{1}" still lists it.', userId, s.node.name);
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Reading the users and parties'), e);
    }
  };

  const setUp = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await session(arg, vscode.l10n.t('Set up which ledger node?'));
    if (!s) return { done: false };
    if (!isLoopbackUrl(s.node.url)) {
      const message = vscode.l10n.t('Set Up Parties and Users changes only a node on this machine; "{0}" is at {1}.', s.node.name, new URL(s.node.url).origin);
      void vscode.window.showWarningMessage(message);
      return { done: false, message };
    }
    const file = a.setupFile ?? (await vscode.workspace.findFiles(`**/${SETUP_FILE}`, '**/node_modules/**', 1))[0];
    if (!file) {
      const message = vscode.l10n.t('No {0} in the workspace: it lists the parties (by hint) and the users with their rights.', SETUP_FILE);
      void vscode.window.showWarningMessage(message);
      return { done: false, message };
    }
    const read = readSetup(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), s.version);
    if (!read.ok) {
      const message = vscode.l10n.t('{0} has problems; nothing was sent. {1}', SETUP_FILE, read.problems.join(' '));
      void vscode.window.showErrorMessage(message);
      return { done: false, message };
    }
    return runAndTell(s, read.setup, a);
  };

  const runAndTell = async (s: Session, setup: CantonSetup, a: AdminAnswers): Promise<AdminOutcome> => {
    try {
      const synchronizerId = await synchronizerFor(s, a);
      if (synchronizerId === false) return { done: false };
      const report = await runSetup(s.client, setup, { synchronizerId, ...s.opts });
      if (report.plan.unknownHints.length) {
        const message = vscode.l10n.t(
          '{0} names parties it does not list and the node does not have: {1}. Nothing was sent.',
          SETUP_FILE,
          report.plan.unknownHints.join(', '),
        );
        void vscode.window.showErrorMessage(message);
        return { done: false, message };
      }
      if (report.failure) return refused(s, vscode.l10n.t('Set-up step {0}', report.failure.step), report.failure.error);
      const created = [
        ...report.allocated.map((p) => vscode.l10n.t('allocated {0}', p)),
        ...report.createdUsers.map((u) => vscode.l10n.t('created user {0}', u)),
        ...report.grantedUsers.map((u) => vscode.l10n.t('granted missing rights to {0}', u)),
      ];
      const kept = [...report.plan.existingParties, ...report.plan.existingUsers];
      const message =
        created.length === 0
          ? vscode.l10n.t('"{0}" already has everything {1} lists; nothing was changed.', s.node.name, SETUP_FILE)
          : vscode.l10n.t('Set up "{0}": {1}. Already there: {2}.', s.node.name, created.join('; '), kept.join(', ') || '—');
      void vscode.window.showInformationMessage(message);
      return { done: true, message, report };
    } catch (e) {
      return refused(s, vscode.l10n.t('Setting up parties and users'), e);
    }
  };

  return {
    [COMMAND.setUpPartiesAndUsers]: setUp,
    [COMMAND.allocateParty]: allocate,
    [COMMAND.createUser]: createUser,
    [COMMAND.grantRight]: (arg) => changeRight(arg, 'grant'),
    [COMMAND.revokeRight]: (arg) => changeRight(arg, 'revoke'),
    [COMMAND.setPrimaryParty]: (arg) => updateUser(arg, 'primaryParty'),
    [COMMAND.deactivateUser]: (arg) => updateUser(arg, 'deactivate'),
    [COMMAND.reactivateUser]: (arg) => updateUser(arg, 'reactivate'),
    [COMMAND.deleteUser]: deleteUser,
  };
}

/** Registers the administration commands and the Administration view's own (filter, refresh, more). */

/** Every administration change's handler by id (this file is the dist/nodeAdministration.js bundle). */
export function adminChangeHandlers(deps: VettingDeps): ReadonlyMap<string, CommandHandler> {
  const handlers: Handlers = { ...adminHandlers(deps), ...adminEditHandlers(deps), ...vettingHandlers(deps) };
  return new Map(ADMIN_COMMANDS.map((id) => [id, (arg?: unknown) => handlers[id](arg)]));
}
