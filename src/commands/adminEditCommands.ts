// The administration edits: a user's annotations, a party's local metadata, a user moved to another
// identity provider. Each reads the current state first (its resource version, so a change made
// meanwhile is refused, not overwritten), sends nothing when nothing would change, then goes through
// runAdminChange (adminKit.ts) and says what changed.
import * as vscode from 'vscode';
import { annotationsChanged, annotationsDelta, annotationsText, parseAnnotations, readAdminIdp, readAdminParty, readAdminUser } from '../auth/adminRows';
import { moveUserChange, partyMetadataChange, userAnnotationsChange } from '../auth/nodeAdmin';
import { getParty, getUser, listIdentityProviders } from '../ledger/adminRequests';
import type { AdminEditCommand } from './adminIds';
import {
  answersOf,
  pickParty,
  pickUser,
  refused,
  runAdminChange,
  session,
  type AdminAnswers,
  type AdminDeps,
  type AdminOutcome,
  type Session,
} from './adminKit';
import { COMMAND } from '../ids/commandIds';

/** The edited annotations: the given `key=value` lines, else typed over the current ones ("; " between entries). */
async function editedAnnotations(a: AdminAnswers, current: Record<string, string>, what: string): Promise<Record<string, string> | string | undefined> {
  const typed =
    a.annotations ??
    (await vscode.window.showInputBox({
      prompt: vscode.l10n.t('The annotations of {0}, as key=value separated by ";" (remove an entry to remove it)', what),
      value: annotationsText(current).split('\n').join('; '),
      validateInput: (v) => {
        const r = parseAnnotations(v);
        return r.ok ? undefined : r.problem;
      },
    }));
  if (typed === undefined) return undefined;
  const parsed = parseAnnotations(typed);
  return parsed.ok ? parsed.value : parsed.problem;
}

const nothing = (message: string): AdminOutcome => {
  void vscode.window.showInformationMessage(message);
  return { done: false, message };
};

export function adminEditHandlers(deps: AdminDeps): Record<AdminEditCommand, (arg?: unknown) => Promise<AdminOutcome>> {
  const open = (arg: unknown, placeHolder: string) => session(deps.nodes, arg, placeHolder);

  const editUserAnnotations = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await open(arg, vscode.l10n.t('Edit a user on which ledger node?'));
    if (!s) return { done: false };
    let userId: string | undefined;
    try {
      userId = await pickUser(s, a, vscode.l10n.t('Edit the annotations of which user?'));
      if (!userId) return { done: false };
      const before = readAdminUser((await getUser(s.client, userId, s.opts)).user);
      if (!before) return { done: false };
      const after = await editedAnnotations(a, before.annotations, `"${userId}"`);
      if (after === undefined) return { done: false };
      if (typeof after === 'string') return { done: false, message: after };
      const delta = annotationsDelta(before.annotations, after);
      if (Object.keys(delta).length === 0) return nothing(vscode.l10n.t('The annotations of "{0}" are already these: nothing was sent.', userId));
      const id = userId;
      return await runAdminChange(deps, s, a, userAnnotationsChange(id, delta, before.resourceVersion), async () => {
        const back = readAdminUser((await getUser(s.client, id, s.opts)).user);
        const changed = annotationsChanged(before.annotations, back?.annotations ?? {});
        return vscode.l10n.t('The annotations of "{0}" on "{1}": {2}.', id, s.node.name, changed.join(', ') || vscode.l10n.t('unchanged'));
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Reading the user "{0}"', userId ?? ''), e);
    }
  };

  const editPartyMetadata = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await open(arg, vscode.l10n.t('Edit a party on which ledger node?'));
    if (!s) return { done: false };
    let party: string | undefined;
    try {
      party = await pickParty(s, a, vscode.l10n.t('Edit the local metadata of which party?'));
      if (!party) return { done: false };
      const before = readAdminParty((await getParty(s.client, party, s.opts)).partyDetails?.[0]);
      if (!before) return nothing(vscode.l10n.t('"{0}" does not host {1}: only a hosted party has local metadata.', s.node.name, party));
      const after = await editedAnnotations(a, before.annotations, party);
      if (after === undefined) return { done: false };
      if (typeof after === 'string') return { done: false, message: after };
      const delta = annotationsDelta(before.annotations, after);
      if (Object.keys(delta).length === 0) return nothing(vscode.l10n.t('The local metadata of {0} is already this: nothing was sent.', party));
      const p = party;
      return await runAdminChange(deps, s, a, partyMetadataChange(p, delta, before.resourceVersion), async () => {
        const back = readAdminParty((await getParty(s.client, p, s.opts)).partyDetails?.[0]);
        const changed = annotationsChanged(before.annotations, back?.annotations ?? {});
        return vscode.l10n.t('The local metadata of {0} on "{1}": {2}.', p, s.node.name, changed.join(', ') || vscode.l10n.t('unchanged'));
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Reading the party {0}', party ?? ''), e);
    }
  };

  const pickIdp = async (s: Session, a: AdminAnswers, from: string): Promise<string | undefined> => {
    if (a.identityProviderId !== undefined) return a.identityProviderId;
    const idps = ((await listIdentityProviders(s.client, s.opts)).identityProviderConfigs ?? []).map(readAdminIdp).filter((i) => i !== undefined);
    const items = [{ label: vscode.l10n.t('the default identity provider'), id: '' }, ...idps.map((i) => ({ label: i.id, description: i.issuer, id: i.id }))];
    const picked = await vscode.window.showQuickPick(
      items.filter((i) => i.id !== from),
      { placeHolder: vscode.l10n.t('Move it to which identity provider?') },
    );
    return picked?.id;
  };

  const moveUser = async (arg?: unknown): Promise<AdminOutcome> => {
    const a = answersOf(arg);
    const s = await open(arg, vscode.l10n.t('Move a user on which ledger node?'));
    if (!s) return { done: false };
    let userId: string | undefined;
    try {
      userId = await pickUser(s, a, vscode.l10n.t('Move which user to another identity provider?'));
      if (!userId) return { done: false };
      // Canton finds a user only in the identity provider asked for: the one it is in now.
      const before = readAdminUser((await getUser(s.client, userId, s.opts, a.userIdentityProviderId ?? '')).user);
      if (!before) return { done: false };
      const target = await pickIdp(s, a, before.identityProviderId);
      if (target === undefined) return { done: false };
      if (target === before.identityProviderId) return nothing(vscode.l10n.t('"{0}" is already in that identity provider: nothing was sent.', userId));
      const id = userId;
      return await runAdminChange(deps, s, a, moveUserChange(id, before.identityProviderId, target), async () => {
        const back = readAdminUser((await getUser(s.client, id, s.opts, target)).user);
        return vscode.l10n.t('"{0}" is now in {1}.', id, back?.identityProviderId || vscode.l10n.t('the default identity provider'));
      });
    } catch (e) {
      return refused(s, vscode.l10n.t('Reading the user "{0}"', userId ?? ''), e);
    }
  };

  return {
    [COMMAND.editUserAnnotations]: editUserAnnotations,
    [COMMAND.editPartyMetadata]: editPartyMetadata,
    [COMMAND.moveUserIdentityProvider]: moveUser,
  };
}
