// The fake node's judgement of a token user's rights and of the formats a request asks for: read,
// act and execute rights per party or for any party, the rights an event or update format needs,
// and the semantic checks of those formats (FormatValidator, docs/fake-node.md). No `vscode` import.
import type { EventFormat } from './apiTypes';
import { invalidArgument, missingField, redacted, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger, UserRight } from './demoLedgerData';
import type { UpdateFormatBody } from './ledgerQueries';
import { checkShape } from './lookupRoutes';

export class RightsAndFormats {
  constructor(
    private readonly ledger: () => DemoLedger,
    private readonly auth: () => boolean,
  ) {}

  rights(user: string): UserRight[] {
    return this.auth() ? (this.ledger().users[user] ?? []) : ['canActAsAnyParty'];
  }

  canReadAs(user: string, party: string): boolean {
    return this.rights(user).some(
      (r) =>
        r === 'canReadAsAnyParty' ||
        r === 'canActAsAnyParty' ||
        (typeof r === 'object' && ('canActAs' in r ? r.canActAs : 'canReadAs' in r ? r.canReadAs : undefined) === party),
    );
  }

  canExecuteAs(user: string, party: string): boolean {
    return this.rights(user).some(
      (r) =>
        r === 'canActAsAnyParty' ||
        r === 'canExecuteAsAnyParty' ||
        (typeof r === 'object' && ('canActAs' in r ? r.canActAs : 'canExecuteAs' in r ? r.canExecuteAs : undefined) === party),
    );
  }

  /** readAs for every `filtersByParty` party; the any-party right for `filtersForAnyParty`. */
  readRights(user: string, format: EventFormat | undefined): ErrorReply | undefined {
    if (!format) return undefined;
    if (format.filtersForAnyParty && !this.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty')) return redacted(403);
    if (Object.keys(format.filtersByParty ?? {}).some((p) => !this.canReadAs(user, p))) return redacted(403);
    return undefined;
  }

  /** Read rights for each part of an update format; topology events of every party need the any-party right. */
  updateFormatRights(user: string, f: UpdateFormatBody | undefined): ErrorReply | undefined {
    const denied = this.readRights(user, f?.includeTransactions?.eventFormat) ?? this.readRights(user, f?.includeReassignments);
    if (denied) return denied;
    const topology = f?.includeTopologyEvents?.includeParticipantAuthorizationEvents;
    if (!topology) return undefined;
    const parties = topology.parties ?? [];
    if (parties.length === 0) return this.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty') ? undefined : redacted(403);
    return parties.some((p) => !this.canReadAs(user, p)) ? redacted(403) : undefined;
  }

  /** The semantic checks of an update format: at least one part, each part valid. */
  checkUpdateFormat(f: UpdateFormatBody | undefined): ErrorReply | undefined {
    if (!f) return missingField('update_format');
    if (!f.includeTransactions && !f.includeReassignments && !f.includeTopologyEvents) {
      return invalidArgument('update_format: include_transactions, include_reassignments and include_topology_events cannot all be empty');
    }
    if (f.includeTransactions) {
      const badShape = checkShape(f.includeTransactions.transactionShape, 'update_format.include_transactions.transaction_shape');
      if (badShape) return badShape;
      const bad = this.checkEventFormat(f.includeTransactions.eventFormat, 'update_format.include_transactions.event_format');
      if (bad) return bad;
    }
    return f.includeReassignments ? this.checkEventFormat(f.includeReassignments, 'update_format.include_reassignments') : undefined;
  }

  /** The semantic checks of an event format, after the rights. */
  checkEventFormat(format: unknown, field: string): ErrorReply | undefined {
    if (typeof format !== 'object' || format === null) return missingField(field);
    const f = format as EventFormat;
    const parties = Object.keys(f.filtersByParty ?? {});
    if (parties.length === 0 && !f.filtersForAnyParty) {
      // FormatValidator.validate
      return invalidArgument('filtersByParty and filtersForAnyParty cannot be empty simultaneously');
    }
    for (const p of parties) {
      if (!/^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/.test(p) && !p.includes('::'))
        return invalidArgument(`Invalid field party: non expected character in "${p.slice(0, 64)}"`);
      const bad = filterWithoutId(f.filtersByParty?.[p]);
      if (bad) return bad;
    }
    return filterWithoutId(f.filtersForAnyParty);
  }
}

/**
 * A template or interface filter decodes without its id (scalapb's default); FormatValidator's
 * validateTemplateFilter / validateInterfaceFilter then require it.
 */
function filterWithoutId(filters: unknown): ErrorReply | undefined {
  const cumulative = (filters as { cumulative?: unknown } | undefined)?.cumulative;
  for (const c of Array.isArray(cumulative) ? (cumulative as { identifierFilter?: Record<string, { value?: Record<string, unknown> }> }[]) : []) {
    const idf = c.identifierFilter ?? {};
    if (idf.TemplateFilter && !idf.TemplateFilter.value?.templateId) return missingField('templateId');
    if (idf.InterfaceFilter && !idf.InterfaceFilter.value?.interfaceId) return missingField('interfaceId');
  }
  return undefined;
}
