// Node administration for an administrator's token: Set Up Parties and Users (a workspace's
// canton-setup.json, loopback nodes only), Allocate Party, Create User, Grant Right and Revoke Right.
// Each change says what it sends, is confirmed on a node that is not on this machine, is sent once
// (never again by itself), then read back; a refusal is told with its Canton code. In the main
// bundle, registered at activation.
import * as vscode from 'vscode';
import { readSetup, SETUP_FILE, type CantonSetup } from '../auth/cantonSetup';
import { runSetup, type SetupReport } from '../auth/cantonSetupRun';
import {
  adminVersion,
  allocatePartyChange,
  checkPartyHint,
  checkUserId,
  createUserChange,
  describeChange,
  describeRight,
  grantRightsChange,
  updateUserChange,
  deleteUserChange,
  partyRight,
  revokeRightsChange,
  type AdminChange,
  type AdminVersion,
  type PartyRightKind,
} from '../auth/nodeAdmin';
import { getUser, listAllParties, listAllUsers } from '../ledger/adminRequests';
import type { UserRightJson } from '../ledger/apiTypes';
import type { CallOptions, LedgerClient } from '../ledger/ledgerClient';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { parseLedgerVersion } from '../ledger/ledgerVersion';
import { isLoopbackUrl } from '../ledger/loopbackUrl';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { ADMIN_COMMANDS, type AdminCommand } from './adminIds';
import type { CommandRegistrar } from './commandRegistrar';
import { nodeForCommand } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';

/** Answers a test (or another extension) gives instead of the questions; unset ones are asked. */
export interface AdminAnswers {
  node?: string;
  hint?: string;
  userId?: string;
  party?: string;
  right?: PartyRightKind;
  /** The synchronizer to allocate on, on a node with several. */
  synchronizerId?: string;
  /** The set-up file (else the workspace's first canton-setup.json). */
  setupFile?: vscode.Uri;
  /** Confirms a change on a node not on this machine. */
  confirm?: boolean;
  /** What is typed to confirm Delete User (its id). */
  typed?: string;
}

/** What a command did, for tests: the report, or the message shown. */
export type AdminOutcome = { done: false; message?: string } | { done: true; message: string; report?: SetupReport };

interface Session {
  node: NodeConfig;
  client: LedgerClient;
  opts: CallOptions;
  version: AdminVersion;
}

export function adminHandlers(ctx: { nodes: NodeReader }): Record<AdminCommand, (arg?: unknown) => Promise<AdminOutcome>> {
  const { nodes } = ctx;
  const answersOf = (arg: unknown): AdminAnswers => (typeof arg === 'object' && arg !== null && !('kind' in arg) ? arg : {});

  const session = async (arg: unknown, placeHolder: string): Promise<Session | undefined> => {
    const a = answersOf(arg);
    const node = await nodeForCommand(nodes, a.node ?? (typeof arg === 'string' ? arg : (arg as { name?: string } | undefined)?.name), placeHolder);
    if (!node) return undefined;
    const client = nodes.client(node);
    const opts: CallOptions = { auth: { token: (await nodes.credentials(node)).token } };
    const raw = await client.getVersion(opts).catch(() => undefined);
    return { node, client, opts, version: adminVersion(raw ? parseLedgerVersion(raw.version) : undefined) };
  };

  /** A refusal in words: what was asked, the node's code, and what to do. */
  const refused = (s: Session, what: string, e: unknown): AdminOutcome => {
    const code = isLedgerApiError(e) ? (e.code ?? String(e.status ?? e.kind)) : '';
    const explanation = isLedgerApiError(e) ? e.explanation : ((e as Error)?.message ?? String(e));
    const advice =
      isLedgerApiError(e) && e.status === 403
        ? vscode.l10n.t("The token's user needs ParticipantAdmin (or IdentityProviderAdmin within its identity provider).")
        : code === 'USER_ALREADY_EXISTS'
          ? vscode.l10n.t('Pick another user id, or grant rights to the existing user.')
          : '';
    const message = vscode.l10n.t('{0} was refused by "{1}": {2}. {3} {4}', what, s.node.name, code, explanation, advice).trim();
    void vscode.window.showErrorMessage(message);
    return { done: false, message };
  };

  /** Shows what will be sent; on a node not on this machine, asks first. True: send it. */
  const confirmed = async (s: Session, change: AdminChange, a: AdminAnswers): Promise<boolean> => {
    if (isLoopbackUrl(s.node.url)) return true;
    if (a.confirm !== undefined) return a.confirm;
    const send = vscode.l10n.t('Send');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Change "{0}" at {1}?', s.node.name, new URL(s.node.url).origin),
      { modal: true, detail: describeChange(change) },
      send,
    );
    return pick === send;
  };

  const send = async <T>(s: Session, change: AdminChange): Promise<T> => s.client.request<T>(change.method, change.path, change.body, s.opts);

  const pickParty = async (s: Session, a: AdminAnswers, placeHolder: string): Promise<string | undefined> => {
    if (a.party) return a.party;
    const parties = await listAllParties(s.client, s.opts);
    const picked = await vscode.window.showQuickPick(
      parties.map((p) => ({ label: p.party })),
      { placeHolder, matchOnDescription: true },
    );
    return picked?.label;
  };

  const pickUser = async (s: Session, a: AdminAnswers, placeHolder: string): Promise<string | undefined> => {
    if (a.userId) return a.userId;
    const users = await listAllUsers(s.client, s.opts);
    const picked = await vscode.window.showQuickPick(
      users.map((u) => ({ label: u.id, description: u.primaryParty || undefined })),
      { placeHolder },
    );
    return picked?.label;
  };

  const pickRight = async (a: AdminAnswers, placeHolder: string): Promise<PartyRightKind | undefined> => {
    if (a.right) return a.right;
    const picked = await vscode.window.showQuickPick(
      (['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const).map((r) => ({ label: r })),
      { placeHolder },
    );
    return picked?.label;
  };

  const synchronizerFor = async (s: Session, a: AdminAnswers): Promise<string | undefined | false> => {
    if (a.synchronizerId) return a.synchronizerId;
    const connected = (await s.client.getConnectedSynchronizers(undefined, s.opts)).connectedSynchronizers ?? [];
    if (connected.length <= 1) return undefined;
    const picked = await vscode.window.showQuickPick(
      connected.map((c) => ({ label: c.synchronizerAlias, description: c.synchronizerId })),
      { placeHolder: vscode.l10n.t('"{0}" is connected to several synchronizers: allocate on which?', s.node.name) },
    );
    return picked?.description ?? false;
  };

  const allocate = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await session(arg, vscode.l10n.t('Allocate a party on which ledger node?'));
    if (!s) return { done: false };
    const hint =
      a.hint ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('The new party’s hint'), validateInput: (v) => checkPartyHint(v, s.version) }));
    if (hint === undefined) return { done: false };
    const bad = checkPartyHint(hint, s.version);
    if (bad) return { done: false, message: bad };
    const what = vscode.l10n.t('Allocating the party "{0}"', hint);
    try {
      const synchronizerId = await synchronizerFor(s, a);
      if (synchronizerId === false) return { done: false };
      const change = allocatePartyChange(hint, synchronizerId);
      if (!(await confirmed(s, change, a))) return { done: false };
      const res = await send<{ partyDetails: { party: string } }>(s, change);
      const party = res.partyDetails.party;
      // Read back: the party is now among the node's.
      const seen = (await listAllParties(s.client, s.opts)).some((p) => p.party === party);
      const message = seen
        ? vscode.l10n.t('Allocated {0} on "{1}".', party, s.node.name)
        : vscode.l10n.t('Allocated {0} on "{1}"; the node does not list it yet.', party, s.node.name);
      void vscode.window.showInformationMessage(message);
      return { done: true, message };
    } catch (e) {
      return refused(s, what, e);
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
    const what = vscode.l10n.t('Creating the user "{0}"', id);
    try {
      const party = await pickParty(s, a, vscode.l10n.t('Its primary party (it can act as it)'));
      const rights: UserRightJson[] = party ? [partyRight(a.right ?? 'CanActAs', party)] : [];
      const change = createUserChange(id, party, rights);
      if (!(await confirmed(s, change, a))) return { done: false };
      await send(s, change);
      const back = await getUser(s.client, id, s.opts);
      const held = (await s.client.listUserRights(id, s.opts)).rights ?? [];
      const message = vscode.l10n.t(
        'Created the user "{0}" on "{1}" (primary party: {2}; rights: {3}).',
        back.user.id,
        s.node.name,
        back.user.primaryParty || '—',
        held.map(describeRight).join(', ') || '—',
      );
      void vscode.window.showInformationMessage(message);
      return { done: true, message };
    } catch (e) {
      return refused(s, what, e);
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
      if (!(await confirmed(s, change, a))) return { done: false };
      try {
        const res = await send<{ newlyGrantedRights?: UserRightJson[]; newlyRevokedRights?: UserRightJson[] }>(s, change);
        const changed = (how === 'grant' ? res.newlyGrantedRights : res.newlyRevokedRights) ?? [];
        const held = (await s.client.listUserRights(userId, s.opts)).rights ?? [];
        const message =
          changed.length === 0
            ? how === 'grant'
              ? vscode.l10n.t('"{0}" already had {1}: nothing changed.', userId, describeRight(right))
              : vscode.l10n.t('"{0}" did not have {1}: nothing changed.', userId, describeRight(right))
            : how === 'grant'
              ? vscode.l10n.t('Granted {0} to "{1}"; it now has {2} rights.', describeRight(right), userId, held.length)
              : vscode.l10n.t('Revoked {0} from "{1}"; it now has {2} rights.', describeRight(right), userId, held.length);
        void vscode.window.showInformationMessage(message);
        return { done: true, message };
      } catch (e) {
        return refused(
          s,
          how === 'grant'
            ? vscode.l10n.t('Granting {0} to "{1}"', describeRight(right), userId)
            : vscode.l10n.t('Revoking {0} from "{1}"', describeRight(right), userId),
          e,
        );
      }
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
      if (!(await confirmed(s, change, a))) return { done: false };
      try {
        await send(s, change);
        const back = (await getUser(s.client, userId, s.opts)).user;
        const message =
          what === 'primaryParty'
            ? vscode.l10n.t('The primary party of "{0}" is now {1}.', userId, back.primaryParty || '—')
            : back.isDeactivated
              ? vscode.l10n.t('"{0}" is deactivated: "{1}" refuses every request with its tokens.', userId, s.node.name)
              : vscode.l10n.t('"{0}" is active again on "{1}".', userId, s.node.name);
        void vscode.window.showInformationMessage(message);
        return { done: true, message };
      } catch (e) {
        return refused(s, change.summary[0], e);
      }
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
      const change = deleteUserChange(userId);
      try {
        await send(s, change);
        // Read back: the node no longer knows the user.
        const gone = await getUser(s.client, userId, s.opts).then(
          () => false,
          (e: unknown) => isLedgerApiError(e) && e.kind === 'notFound',
        );
        const message = gone
          ? vscode.l10n.t('Deleted the user "{0}" on "{1}".', userId, s.node.name)
          : vscode.l10n.t('Sent the deletion of "{0}", but "{1}" still lists it.', userId, s.node.name);
        void vscode.window.showInformationMessage(message);
        return { done: gone, message };
      } catch (e) {
        return refused(s, change.summary[0], e);
      }
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

/** Registers the administration commands. */
export function registerAdminCommands(ctx: { nodes: NodeReader }, register: CommandRegistrar): void {
  const handlers = adminHandlers(ctx);
  for (const id of ADMIN_COMMANDS) register(id, (arg?: unknown) => handlers[id](arg));
}
