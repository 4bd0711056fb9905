// The text of a hover on an id: what it is and, when known, its essentials, with a link that
// opens its panel. Markdown built here is escaped; only named commands are enabled by the caller.
import type { IdRole } from '../ids/jsonKeyPath';
import type { LedgerIdMatch } from '../ids/ledgerIds';
import { shortenPartyId } from '../ids/ledgerIds';
import { askedAsLine } from '../auth/ledgerIdentity';
import type { LedgerLookup } from './ledgerLookups';
import { contractTemplateId, lookupSummary, templateName } from './ledgerLookups';
import { relativeTime } from '../l10n/forPeople';
import * as l10n from '../l10n/l10n';
import { COMMAND } from '../ids/commandIds';

export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&').replace(/[\r\n]+/g, ' ');
}

/** Text in a code span, where backslash escapes would show literally: a fence longer than any backtick run inside. */
export function codeSpan(s: string): string {
  const text = s.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** "3 min ago (2026-11-23T09:57:00.430940Z)": how long ago, with the exact UTC instant. */
function whenForPeople(iso: string): string {
  const ago = relativeTime(iso);
  return ago ? `${ago} (${iso})` : iso;
}

const commandLink = (label: string, command: string, args: unknown[]) =>
  `[${label}](command:${command}?${encodeURIComponent(JSON.stringify(args))} "${label}")`;

export interface HoverFacts {
  match: LedgerIdMatch;
  nodeName?: string;
  lookup?: LedgerLookup;
  /** Why there are no details (no node, hovers offline, an error). */
  note?: string;
  /** What the id is by its JSON key, when the key says more than its shape (nothing is looked up then). */
  role?: IdRole;
}

export function hoverMarkdown(f: HoverFacts): string {
  const { match } = f;
  const lines: string[] = [];
  if (f.role) {
    const [name] = match.text.split('::');
    const heading =
      f.role === 'synchronizer'
        ? l10n.t('**Canton synchronizer** {0}', escapeMarkdown(name ?? ''))
        : l10n.t('**Canton participant** {0}', escapeMarkdown(name ?? ''));
    lines.push(heading, '', codeSpan(match.text));
    return lines.join('\n');
  }
  if (match.kind === 'party') {
    const [hint] = match.text.split('::');
    lines.push(l10n.t('**Canton party** {0}', escapeMarkdown(hint ?? '')), '', `\`${match.text}\``);
    return lines.join('\n');
  }
  const isContract = match.kind === 'contract';
  const heading = isContract ? l10n.t('Canton contract id') : l10n.t('Canton update id');
  lines.push(f.nodeName ? l10n.t('**{0}** on {1}', heading, escapeMarkdown(f.nodeName)) : `**${heading}**`);
  const l = f.lookup;
  if (l && l.found && l.kind === 'contract') {
    const c = l.response.created?.createdEvent;
    lines.push(
      '',
      `${l.status === 'active' ? `$(pass-filled) ${l10n.t('Active')}` : `$(archive) ${l10n.t('Archived')}`} · ${codeSpan(templateName(contractTemplateId(l.response)))}`,
    );
    if (c)
      lines.push(
        '',
        l10n.t('Signatories: {0}', c.signatories.map((p) => escapeMarkdown(shortenPartyId(p))).join(', ')),
        '',
        l10n.t('Created {0}', escapeMarkdown(whenForPeople(c.createdAt))),
      );
    else lines.push('', l10n.t('Its create event was pruned on this node; the archive event is what is left.'));
  } else if (l && l.found && l.kind === 'transaction' && l.update !== 'transaction') {
    lines.push('', escapeMarkdown(lookupSummary(l)));
  } else if (l && l.found && l.kind === 'transaction') {
    const t = l.transaction;
    const events = t.events.length === 1 ? l10n.t('1 event') : l10n.t('{0} events', t.events.length);
    lines.push('', `${l10n.t('Offset {0}', t.offset)} · ${escapeMarkdown(whenForPeople(t.effectiveAt))} · ${events}`);
  }
  if (l && l.found) {
    lines.push('', escapeMarkdown(askedAsLine(l.askedAs)));
  } else if (l && !l.found) {
    lines.push('', l10n.t('Not found for {0}', escapeMarkdown(l.askedFor)));
    if (l.facts) lines.push('', escapeMarkdown(l.facts.text));
  } else if (f.note) {
    lines.push('', escapeMarkdown(f.note));
  }
  lines.push(
    '',
    commandLink(isContract ? l10n.t('Open contract') : l10n.t('Open transaction'), isContract ? COMMAND.showContract : COMMAND.showTransaction, [match.text]),
  );
  // The contract's template in the workspace's Daml source.
  if (l && l.found && l.kind === 'contract') {
    const c = l.response.created?.createdEvent ?? l.response.archived?.archivedEvent;
    if (c) lines[lines.length - 1] += ` · ${commandLink(l10n.t('Open Daml definition'), COMMAND.openDamlDefinition, [c.templateId, undefined, c.packageName])}`;
  }
  return lines.join('\n');
}
