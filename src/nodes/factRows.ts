// The node tree's rows of what was learned from a node: the token's user and rights, the parties
// lookups read as, the participant, hosted parties, ledger end, pruning point and synchronizers, or
// why each is not known. Plain data for the tree (views/nodeTree.ts) to show. No `vscode` import.
import { effectiveParties, rightsLines, type LearnedAccess } from '../auth/userRights';
import { shortenPartyId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';
import type { NodeFactsSnapshot } from './nodeFacts';
import { formatCount } from '../l10n/forPeople';

/** One fact: a label and its value (with a codicon and a tooltip). */
export interface FactDetail {
  kind: 'detail';
  name: string;
  label: string;
  value: string;
  icon?: string;
  tooltip?: string;
}

/** A collapsible group of facts (rights by party, hosted parties, synchronizers). */
export interface FactGroup {
  kind: 'group';
  name: string;
  label: string;
  value: string;
  icon: string;
  tooltip: string;
  rows: { label: string; value: string; tooltip?: string; icon?: string }[];
}

export type FactRow = FactDetail | FactGroup;

/** The rows of node `name` from its snapshot and the token's access; `configuredParties`: the node's parties setting. */
export function factRows(name: string, configuredParties: readonly string[] | undefined, s: NodeFactsSnapshot, access: LearnedAccess): FactRow[] {
  const out: FactRow[] = [...userRows(name, access)];
  if (!configuredParties?.length) {
    const e = effectiveParties(configuredParties, access);
    const value = e.refusal
      ? l10n.t('none: no read right')
      : e.parties.length
        ? l10n.t("{0} (from the token's rights)", e.parties.map(shortenPartyId).join(', '))
        : e.source === 'rights'
          ? l10n.t('any party ({0})', e.rightOf['*'] ?? '')
          : l10n.t('any party (rights not known)');
    const tooltip =
      e.refusal ??
      e.note ??
      (e.parties.length
        ? l10n.t("Lookups read as (from the token's rights):\n{0}", e.parties.map((p) => `${p} (${e.rightOf[p] ?? ''})`).join('\n'))
        : l10n.t("Lookups use filtersForAnyParty, which the token's CanReadAsAnyParty allows."));
    out.push({ kind: 'detail', name, label: l10n.t('Parties'), value, icon: e.refusal ? 'circle-slash' : 'person', tooltip });
  }
  if (s.participantId.ok)
    out.push({
      kind: 'detail',
      name,
      label: l10n.t('Participant'),
      value: shortenPartyId(s.participantId.value),
      icon: 'server',
      tooltip: s.participantId.value,
    });
  if (s.parties.ok) {
    const shown = s.parties.value.slice(0, 500);
    const rows = shown.map((p) => ({ label: shortenPartyId(p), value: '', tooltip: p, icon: 'person' }));
    if (s.parties.value.length > shown.length)
      rows.push({
        label: l10n.t('… {0} more', formatCount(s.parties.value.length - shown.length)),
        value: '',
        tooltip: l10n.t('Only the first 500 are listed.'),
        icon: 'ellipsis',
      });
    out.push({
      kind: 'group',
      name,
      label: l10n.t('Hosted parties'),
      value: formatCount(s.parties.value.length),
      icon: 'organization',
      tooltip: l10n.t('The parties this participant hosts (GET /v2/parties, every page).'),
      rows,
    });
  } else {
    out.push(factProblem(name, l10n.t('Hosted parties'), s.parties, 'organization'));
  }
  if (s.ledgerEnd.ok)
    out.push({
      kind: 'detail',
      name,
      label: l10n.t('Ledger end'),
      value: formatCount(s.ledgerEnd.value),
      icon: 'milestone',
      tooltip: l10n.t('The offset of the last update (GET /v2/state/ledger-end), when the node was expanded or refreshed; Follow Updates shows it move.'),
    });
  else out.push(factProblem(name, l10n.t('Ledger end'), s.ledgerEnd, 'milestone'));
  if (s.prunedUpTo.ok)
    out.push({
      kind: 'detail',
      name,
      label: l10n.t('Pruned up to'),
      value: s.prunedUpTo.value > 0 ? formatCount(s.prunedUpTo.value) : l10n.t('nothing pruned'),
      icon: 'archive',
      tooltip: l10n.t('Updates at or below this offset, and contracts archived by then, are gone from this node (GET /v2/state/latest-pruned-offsets).'),
    });
  else out.push(factProblem(name, l10n.t('Pruned up to'), s.prunedUpTo, 'archive'));
  if (s.synchronizers.ok) {
    out.push({
      kind: 'group',
      name,
      label: l10n.t('Synchronizers'),
      value: s.synchronizers.value.map((x) => x.alias).join(', '),
      icon: 'globe',
      tooltip: l10n.t('The synchronizers this participant is connected to (GET /v2/state/connected-synchronizers).'),
      rows: s.synchronizers.value.map((x) => ({
        label: x.alias,
        value: shortenPartyId(x.id),
        tooltip: `${x.id}${x.permission && x.permission !== 'PARTICIPANT_PERMISSION_UNSPECIFIED' ? `\n${x.permission}` : ''}`,
        icon: 'globe',
      })),
    });
  } else out.push(factProblem(name, l10n.t('Synchronizers'), s.synchronizers, 'globe'));
  return out;
}

/** The token's user and its rights, grouped by party. */
function userRows(name: string, access: LearnedAccess): FactRow[] {
  if (access.state === 'refused')
    return [{ kind: 'detail', name, label: l10n.t('User'), value: l10n.t('refused ({0})', access.status), icon: 'error', tooltip: access.reason }];
  if (access.state === 'unknown') {
    return [
      {
        kind: 'detail',
        name,
        label: l10n.t('User'),
        value: access.user ? `${access.user.id} · ${l10n.t('rights not known')}` : l10n.t('not known'),
        icon: 'question',
        tooltip: l10n.t("The token's rights could not be read: {0}. Lookups use the configured parties, or ask for any party.", access.reason),
      },
    ];
  }
  const u = access.user;
  const user: FactRow = {
    kind: 'detail',
    name,
    label: l10n.t('User'),
    value: `${u.id}${u.isDeactivated ? l10n.t(' (deactivated)') : ''}${u.primaryParty ? ` · ${shortenPartyId(u.primaryParty)}` : ''}`,
    icon: u.isDeactivated ? 'error' : 'account',
    tooltip: l10n.t("The token's user (GET /v2/authenticated-user): {0}\nPrimary party: {1}", u.id, u.primaryParty ?? l10n.t('none')),
  };
  const lines = rightsLines(access.rights);
  const over = access.maxRightsPerUser !== undefined ? l10n.t(" (more than the node's maxRightsPerUser, {0})", access.maxRightsPerUser) : '';
  const rights: FactRow = {
    kind: 'group',
    name,
    label: l10n.t('Rights'),
    value: lines.length === 0 ? l10n.t('none') : `${formatCount(access.rights.total)}${over}`,
    icon: 'shield',
    tooltip: l10n.t("The user's rights (GET /v2/users/{user-id}/rights), grouped by party."),
    rows: lines.map((l) => ({
      label: l.label,
      value: l.value,
      tooltip: l.party ? `${l.party}: ${l.value}` : `${l.label}: ${l.value}`,
      icon: l.party ? 'person' : 'shield',
    })),
  };
  return [user, rights];
}

function factProblem(name: string, label: string, f: { ok: false; needs?: string; reason: string }, icon: string): FactRow {
  return f.needs
    ? {
        kind: 'detail',
        name,
        label,
        value: l10n.t('needs {0}', f.needs),
        icon: 'lock',
        tooltip: l10n.t("The token's user may not ask this: it needs the {0} right.", f.needs),
      }
    : { kind: 'detail', name, label, value: l10n.t('not known'), icon, tooltip: f.reason };
}
