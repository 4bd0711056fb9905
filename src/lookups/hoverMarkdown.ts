// The text of a hover on an id: what it is and, when known, its essentials, with a link that
// opens its panel. Markdown built here is escaped; only named commands are enabled by the caller.
import type { LedgerIdMatch } from '../ids/ledgerIds';
import { shortenPartyId } from '../ids/ledgerIds';
import type { LedgerLookup } from './ledgerLookups';
import { templateName } from './ledgerLookups';

export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&').replace(/[\r\n]+/g, ' ');
}

const commandLink = (label: string, command: string, args: unknown[]) =>
  `[${label}](command:${command}?${encodeURIComponent(JSON.stringify(args))} "${label}")`;

export interface HoverFacts {
  match: LedgerIdMatch;
  nodeName?: string;
  lookup?: LedgerLookup;
  /** Why there are no details (no node, hovers offline, an error). */
  note?: string;
}

export function hoverMarkdown(f: HoverFacts): string {
  const { match } = f;
  const lines: string[] = [];
  if (match.kind === 'party') {
    const [hint] = match.text.split('::');
    lines.push(`**Canton party** ${escapeMarkdown(hint ?? '')}`, '', `\`${match.text}\``);
    return lines.join('\n');
  }
  const isContract = match.kind === 'contract';
  lines.push(`**Canton ${isContract ? 'contract id' : 'update id'}**${f.nodeName ? ` on ${escapeMarkdown(f.nodeName)}` : ''}`);
  const l = f.lookup;
  if (l && l.found && l.kind === 'contract') {
    const c = l.response.created!.createdEvent;
    lines.push('', `${l.status === 'active' ? '$(pass-filled) Active' : '$(archive) Archived'} · \`${escapeMarkdown(templateName(c.templateId))}\``,
      '', `Signatories: ${c.signatories.map((p) => escapeMarkdown(shortenPartyId(p))).join(', ')}`, '', `Created ${escapeMarkdown(c.createdAt)}`);
  } else if (l && l.found && l.kind === 'transaction') {
    const t = l.transaction;
    lines.push('', `Offset ${t.offset} · ${escapeMarkdown(t.effectiveAt)} · ${t.events.length} event${t.events.length === 1 ? '' : 's'}`);
  } else if (l && !l.found) {
    lines.push('', `Not found for ${escapeMarkdown(l.asked.replace(/^.* as seen by /, ''))}`);
  } else if (f.note) {
    lines.push('', escapeMarkdown(f.note));
  }
  lines.push('', commandLink(isContract ? 'Open contract' : 'Open transaction', isContract ? 'cantonLens.showContract' : 'cantonLens.showTransaction', [match.text]));
  return lines.join('\n');
}
