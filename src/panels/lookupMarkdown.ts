// "Copy as Markdown": a lookup as text for a bug report. Ledger data only, never a token.
import type { LedgerLookup } from '../lookups/ledgerLookups';
import { contractTemplateId, lookupSummary, templateName, updateValue } from '../lookups/ledgerLookups';
import { askedAsLine } from '../auth/ledgerIdentity';

const code = (s: string | number | undefined) => (s === undefined || s === '' ? '—' : `\`${String(s).replace(/`/g, "'")}\``);

export function lookupMarkdown(l: LedgerLookup, nodeName: string, nodeVersion?: string): string {
  const lines: string[] = [];
  const on = `${nodeName}${nodeVersion ? ` (Canton ${nodeVersion})` : ''}`;
  if (l.kind === 'contract') {
    lines.push(
      `### Contract ${code(l.contractId)}`,
      '',
      `- Node: ${on}`,
      `- Asked: ${l.asked}`,
      `- ${askedAsLine(l.askedAs)}`,
      `- Status: ${l.found ? l.status : 'not found'}`,
    );
    if (l.found) {
      const c = l.response.created?.createdEvent;
      const templateId = contractTemplateId(l.response);
      lines.push(`- Template: ${code(templateId)} (${templateName(templateId)})`);
      if (c) {
        lines.push(
          `- Created at: ${code(c.createdAt)}, offset ${code(c.offset)}`,
          `- Signatories: ${c.signatories.map(code).join(', ')}`,
          `- Observers: ${(c.observers ?? []).map(code).join(', ') || '—'}`,
        );
      } else {
        lines.push('- Create event: pruned on this node');
      }
      if (l.response.archived) lines.push(`- Archived at offset ${code(l.response.archived.archivedEvent.offset)}`);
      if (c) lines.push('', '<details><summary>Create argument</summary>', '', '```json', JSON.stringify(c.createArgument, null, 2), '```', '', '</details>');
    } else {
      lines.push(`- ${l.explanation}`, `- Error: ${code(l.error.code)}`);
    }
  } else {
    lines.push(`### Transaction ${code(l.updateId)}`, '', `- Node: ${on}`, `- Asked: ${l.asked}`, `- ${askedAsLine(l.askedAs)}`);
    if (l.found && l.update !== 'transaction') {
      lines.push(`- ${lookupSummary(l)}`, '', '```json', JSON.stringify(updateValue(l), null, 2), '```');
    } else if (l.found) {
      const t = l.transaction;
      lines.push(
        `- ${lookupSummary(l)}`,
        `- Record time: ${code(t.recordTime)}`,
        `- Command id: ${code(t.commandId)}`,
        `- Synchronizer: ${code(t.synchronizerId)}`,
      );
      const shown = t.events.slice(0, 50).map((e) => {
        const [kind, ev] = Object.entries(e)[0] as [string, { nodeId: number; templateId: string; contractId: string }];
        return `| ${ev.nodeId} | ${kind.replace('Event', '')} | ${templateName(ev.templateId)} | ${code(ev.contractId)} |`;
      });
      lines.push('', '| Node | Kind | Template | Contract |', '|---|---|---|---|', ...shown);
      if (t.events.length > 50) lines.push('', `…and ${t.events.length - 50} more events.`);
    } else {
      lines.push(`- ${l.explanation}`, `- Error: ${code(l.error.code)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
