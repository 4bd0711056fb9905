// What every administration command shares: the node and token it acts with, the answers a test or
// a view row gives instead of the questions, the pickers, and runAdminChange, the one shape of a
// change: say what will be sent, confirm it on a node that is not on this machine, send it once
// (never again by itself), read the state back and say what changed, or explain the refusal with
// its Canton code.
import * as vscode from 'vscode';
import { adminVersion, describeChange, type AdminChange, type AdminVersion, type PartyRightKind } from '../auth/nodeAdmin';
import type { SetupReport } from '../auth/cantonSetupRun';
import { listAllParties, listAllUsers } from '../ledger/adminRequests';
import type { CallOptions, LedgerClient } from '../ledger/ledgerClient';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { parseLedgerVersion } from '../ledger/ledgerVersion';
import { isLoopbackUrl } from '../ledger/loopbackUrl';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { answersFromRow } from '../auth/adminRows';
import { nodeForCommand } from './nodeArgument';

/** Answers a test (or another extension) gives instead of the questions; unset ones are asked. */
export interface AdminAnswers {
  node?: string;
  hint?: string;
  userId?: string;
  party?: string;
  right?: PartyRightKind;
  /** The synchronizer to allocate on (or vet on), on a node with several. */
  synchronizerId?: string;
  /** The set-up file (else the workspace's first canton-setup.json). */
  setupFile?: vscode.Uri;
  /** Confirms a change on a node not on this machine. */
  confirm?: boolean;
  /** What is typed to confirm Delete User (its id). */
  typed?: string;
  /** Annotations as `key=value` lines (Edit Annotations, Edit Party Metadata). */
  annotations?: string;
  /** The identity provider to move a user to ("" is the default one). */
  identityProviderId?: string;
  /** The identity provider the user is in now (a row of the view knows it; unset: the default one). */
  userIdentityProviderId?: string;
  /** The package to vet or unvet. */
  packageId?: string;
}

/** What a command did, for tests: the report, or the message shown. */
export type AdminOutcome = { done: false; message?: string } | { done: true; message: string; report?: SetupReport };

export interface Session {
  node: NodeConfig;
  client: LedgerClient;
  opts: CallOptions;
  version: AdminVersion;
}

export interface AdminDeps {
  nodes: NodeReader;
  /** Called after a change was sent: the view reads the node again. */
  changed?: () => void;
}

/** The answers: an object given by a test, else a view row's node, user and party. */
export function answersOf(arg: unknown): AdminAnswers {
  const row = answersFromRow(arg);
  if (row) return row;
  return typeof arg === 'object' && arg !== null && !('kind' in arg) ? arg : {};
}

export async function session(nodes: NodeReader, arg: unknown, placeHolder: string): Promise<Session | undefined> {
  const a = answersOf(arg);
  const node = await nodeForCommand(nodes, a.node ?? (typeof arg === 'string' ? arg : (arg as { name?: string } | undefined)?.name), placeHolder);
  if (!node) return undefined;
  const client = nodes.client(node);
  const opts: CallOptions = { auth: { token: (await nodes.credentials(node)).token } };
  const raw = await client.getVersion(opts).catch(() => undefined);
  return { node, client, opts, version: adminVersion(raw ? parseLedgerVersion(raw.version) : undefined) };
}

/** A refusal in words: what was asked, the node's code, and what to do. */
export function refused(s: Session, what: string, e: unknown): AdminOutcome {
  const code = isLedgerApiError(e) ? (e.code ?? String(e.status ?? e.kind)) : '';
  const explanation = isLedgerApiError(e) ? e.explanation : ((e as Error)?.message ?? String(e));
  const advice =
    isLedgerApiError(e) && e.status === 403
      ? vscode.l10n.t("The token's user needs ParticipantAdmin (or IdentityProviderAdmin within its identity provider).")
      : code === 'USER_ALREADY_EXISTS'
        ? vscode.l10n.t('Pick another user id, or grant rights to the existing user.')
        : code === 'CONCURRENT_USER_UPDATE_DETECTED' || code === 'CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED'
          ? vscode.l10n.t('Someone changed it meanwhile: refresh the view and edit again.')
          : '';
  const message = vscode.l10n.t('{0} was refused by "{1}": {2}. {3} {4}', what, s.node.name, code, explanation, advice).trim();
  void vscode.window.showErrorMessage(message);
  return { done: false, message };
}

/** Shows what will be sent; on a node not on this machine, asks first. True: send it. */
export async function confirmed(s: Session, change: AdminChange, a: AdminAnswers): Promise<boolean> {
  if (isLoopbackUrl(s.node.url)) return true;
  if (a.confirm !== undefined) return a.confirm;
  const send = vscode.l10n.t('Send');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Change "{0}" at {1}?', s.node.name, new URL(s.node.url).origin),
    { modal: true, detail: describeChange(change) },
    send,
  );
  return pick === send;
}

export function send<T>(s: Session, change: AdminChange): Promise<T> {
  return s.client.request<T>(change.method, change.path, change.body, s.opts);
}

/**
 * One change: confirmed with its request (on a node not on this machine), shown while it is sent,
 * sent once, then `readBack` says what changed. A refusal is explained; a read-back that fails after a sent change still says it was sent.
 */
export async function runAdminChange<T>(
  deps: AdminDeps,
  s: Session,
  a: AdminAnswers,
  change: AdminChange,
  readBack: (response: T) => Promise<string>,
): Promise<AdminOutcome> {
  if (!(await confirmed(s, change, a))) return { done: false };
  let response: T;
  try {
    // Without a confirmation (a node on this machine) what is sent is still shown while it is sent.
    response = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('{0} Sending {1} {2} to {3}…', change.summary.join(' '), change.method, change.path, s.node.name),
      },
      () => send<T>(s, change),
    );
  } catch (e) {
    return refused(s, change.summary[0] ?? `${change.method} ${change.path}`, e);
  }
  deps.changed?.();
  let message: string;
  try {
    message = await readBack(response);
  } catch (e) {
    message = vscode.l10n.t('Sent: {0} Reading it back failed: {1}', change.summary.join(' '), isLedgerApiError(e) ? e.explanation : String(e));
  }
  void vscode.window.showInformationMessage(message);
  return { done: true, message };
}

export async function pickParty(s: Session, a: AdminAnswers, placeHolder: string): Promise<string | undefined> {
  if (a.party) return a.party;
  const parties = await listAllParties(s.client, s.opts);
  const picked = await vscode.window.showQuickPick(
    parties.map((p) => ({ label: p.party })),
    { placeHolder, matchOnDescription: true },
  );
  return picked?.label;
}

export async function pickUser(s: Session, a: AdminAnswers, placeHolder: string): Promise<string | undefined> {
  if (a.userId) return a.userId;
  const users = await listAllUsers(s.client, s.opts);
  const picked = await vscode.window.showQuickPick(
    users.map((u) => ({ label: u.id, description: u.primaryParty || undefined })),
    { placeHolder },
  );
  return picked?.label;
}

export async function pickRight(a: AdminAnswers, placeHolder: string): Promise<PartyRightKind | undefined> {
  if (a.right) return a.right;
  const picked = await vscode.window.showQuickPick(
    (['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const).map((r) => ({ label: r })),
    { placeHolder },
  );
  return picked?.label;
}

/** The synchronizer to act on: the given one, none on a node with one, else picked (false: cancelled). */
export async function synchronizerFor(s: Session, a: AdminAnswers, placeHolder?: string, always = false): Promise<string | undefined | false> {
  if (a.synchronizerId) return a.synchronizerId;
  const connected = (await s.client.getConnectedSynchronizers(undefined, s.opts)).connectedSynchronizers ?? [];
  if (connected.length === 0) return undefined;
  if (connected.length === 1 && !always) return undefined;
  if (connected.length === 1) return connected[0].synchronizerId;
  const picked = await vscode.window.showQuickPick(
    connected.map((c) => ({ label: c.synchronizerAlias, description: c.synchronizerId })),
    { placeHolder: placeHolder ?? vscode.l10n.t('"{0}" is connected to several synchronizers: allocate on which?', s.node.name) },
  );
  return picked?.description ?? false;
}
