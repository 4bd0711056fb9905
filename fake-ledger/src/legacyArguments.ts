// The JSON layer's own conversion of the stream requests, before the gRPC services see them: the
// legacy arguments (`filter`, `verbose`) and the new format (`updateFormat`, `eventFormat`)
// exclude each other, one of them is required, and the legacy ones become the new format. Canton
// does this after authentication and before the rights check (`JsUpdateService.toGetUpdatesRequest`,
// `JsStateService.toGetActiveContractsRequest`; docs/fake-node.md). The body is converted in place,
// as the node hands the converted request on. No `vscode` import.
import type { EventFormat } from './apiTypes';
import { invalidArgument, type ErrorReply } from './cantonErrorBodies';

type Body = Record<string, unknown>;

const set = (v: unknown) => v !== undefined && v !== null;

/** `LegacyDTOs.TransactionFilter` as an event format (the node adds the verbose flag). */
function legacyEventFormat(filter: Body, verbose: boolean): EventFormat {
  const f: EventFormat = { verbose };
  if (set(filter.filtersByParty)) f.filtersByParty = filter.filtersByParty as EventFormat['filtersByParty'];
  if (set(filter.filtersForAnyParty)) f.filtersForAnyParty = filter.filtersForAnyParty;
  return f;
}

function rule(newName: 'update_format' | 'event_format', b: Body, newValue: unknown): ErrorReply | 'legacy' | undefined {
  const both = (what: string) =>
    invalidArgument(`Both ${newName} and ${what} are set. Please use either backwards compatible arguments (filter and verbose) or ${newName}, but not both.`);
  if (set(newValue)) {
    if (set(b.filter)) return both('filter');
    if (b.verbose === true) return both('verbose');
    return undefined;
  }
  if (!set(b.filter))
    return invalidArgument(
      `Either filter/verbose or ${newName} is required. Please use either backwards compatible arguments (filter and verbose) or ${newName}.`,
    );
  return 'legacy';
}

/**
 * `/v2/updates`: the legacy filter becomes an update format of ledger effects with reassignments
 * (`JsUpdateServiceConverters.toUpdateFormat`), every release line.
 */
export function convertUpdatesRequest(b: Body): ErrorReply | undefined {
  const r = rule('update_format', b, b.updateFormat);
  if (r !== 'legacy') return r;
  const eventFormat = legacyEventFormat(b.filter as Body, b.verbose === true);
  b.updateFormat = { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }, includeReassignments: eventFormat };
  delete b.filter;
  delete b.verbose;
  return undefined;
}

/** `/v2/state/active-contracts`: the legacy filter becomes an event format, every release line. */
export function convertActiveContractsRequest(b: Body): ErrorReply | undefined {
  const r = rule('event_format', b, b.eventFormat);
  if (r !== 'legacy') return r;
  b.eventFormat = legacyEventFormat(b.filter as Body, b.verbose === true);
  delete b.filter;
  delete b.verbose;
  return undefined;
}
