// How a history entry reads (in the tree and in Canton: Show Request History) and what opening it
// or running it again does. Pure: the tree and the quick pick wrap these in VS Code types.
import { shortId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';
import { localDateTime, relativeTime } from '../l10n/forPeople';
import type { RecentLookup } from './recentLookups';
import { COMMAND } from '../ids/commandIds';

export interface EntryText {
  label: string;
  description: string;
  /** Plain text (the tree puts it in a Markdown tooltip as text). */
  tooltip: string;
  /** A codicon id. */
  icon: string;
}

function what(e: RecentLookup): string {
  switch (e.kind) {
    case 'contract':
      return l10n.t('Contract {0}', shortId(e.id));
    case 'update':
      return l10n.t('Transaction {0}', shortId(e.id));
    case 'submission':
      return l10n.t('Submission {0}', shortId(e.id));
    case 'activeContracts':
      return e.args?.templates?.length ? l10n.t('Active contracts of {0}', e.args.templates.map(templateName).join(', ')) : l10n.t('Active contracts');
    case 'followUpdates':
      return e.args?.templates?.length ? l10n.t('Updates of {0}', e.args.templates.map(templateName).join(', ')) : l10n.t('Updates');
  }
}

const templateName = (id: string) => {
  const a = id.indexOf(':');
  return a < 0 ? id : id.slice(a + 1);
};

const ICONS: Record<RecentLookup['kind'], string> = {
  contract: 'file-code',
  update: 'git-commit',
  submission: 'send',
  activeContracts: 'table',
  followUpdates: 'pulse',
};

export function entryText(e: RecentLookup): EntryText {
  const parties = e.args?.parties?.length ? l10n.t('for {0}', e.args.parties.join(', ')) : '';
  const description = e.askedByUser ? l10n.t('{0} · {1} as {2}', e.summary, e.node, e.askedByUser) : l10n.t('{0} · {1}', e.summary, e.node);
  const lines = [
    e.kind === 'activeContracts' || e.kind === 'followUpdates' ? [what(e), parties].filter(Boolean).join(' ') : `${what(e).split(' ')[0]} ${e.id}`,
    e.summary,
    l10n.t('on {0}, {1}', e.node, localDateTime(new Date(e.at).getTime())),
  ];
  if (e.askedByUser) lines.push(l10n.t("Asked as {0}; opening it asks again as the node's current token.", e.askedByUser));
  if (e.kind === 'submission') lines.push(l10n.t('Running it again opens the request: a submission is never sent again by itself.'));
  return { label: what(e), description, tooltip: lines.join('\n'), icon: e.pinned ? 'pinned' : ICONS[e.kind] };
}

/** A command and its arguments, or a file to open. */
export type EntryAction = { command: string; args: unknown[] } | { file: string } | undefined;

/** What opening an entry does: the same request again, answered from the cache where it can be. */
export function openAction(e: RecentLookup): EntryAction {
  switch (e.kind) {
    case 'contract':
    case 'update':
      return {
        command: e.kind === 'contract' ? COMMAND.showContract : COMMAND.showTransaction,
        args: e.askedByUser ? [e.id, e.node, { recordedAs: e.askedByUser }] : [e.id, e.node],
      };
    case 'activeContracts':
      return { command: COMMAND.showActiveContracts, args: [e.node, e.args?.parties, e.args?.templates] };
    case 'followUpdates':
      return { command: COMMAND.followUpdates, args: [e.node, e.args?.parties, e.args?.templates] };
    case 'submission':
      // Never sent again from here: the request opens, and executing it asks for confirmation.
      return e.file ? { file: e.file } : undefined;
  }
}

/**
 * A recent contract's state in a pick list: what the node says now when it was asked again
 * (`fresh`), else the state as last seen, saying so: an active contract may have been archived since.
 */
export function recentPickDetail(e: Pick<RecentLookup, 'summary' | 'at'>, now = Date.now(), fresh?: string): string {
  if (fresh !== undefined) return fresh;
  const active = `${l10n.t('active')} · `;
  if (!e.summary.startsWith(active)) return e.summary;
  const when = relativeTime(new Date(e.at).toISOString(), now) ?? localDateTime(e.at);
  return l10n.t('last seen active {0} · {1}', when, e.summary.slice(active.length));
}
