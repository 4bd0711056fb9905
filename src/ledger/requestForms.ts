// Builds the filter parts of lookup requests from a node's configured parties.
import { shortenPartyId } from '../ids/ledgerIds';
import type { EventFormat, Filters, GetTransactionByIdRequest, GetUpdateByIdRequest, TransactionFormat } from './apiTypes';
import * as l10n from '../l10n/l10n';

function wildcard(includeCreatedEventBlob: boolean): Filters {
  return { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob } } } }] };
}

/**
 * Event format for the given parties: `filtersByParty` when some are set, else `filtersForAnyParty`
 * (which needs CanReadAsAnyParty). Verbose, so records carry their field labels.
 */
export function eventFormatFor(parties: readonly string[] | undefined, includeCreatedEventBlob = true): EventFormat {
  if (parties && parties.length > 0) {
    const filtersByParty: Record<string, Filters> = {};
    for (const p of parties) filtersByParty[p] = wildcard(includeCreatedEventBlob);
    return { filtersByParty, verbose: true };
  }
  return { filtersForAnyParty: wildcard(includeCreatedEventBlob), verbose: true };
}

export function transactionFormatFor(
  parties: readonly string[] | undefined,
  transactionShape: TransactionFormat['transactionShape'] = 'TRANSACTION_SHAPE_ACS_DELTA',
): TransactionFormat {
  return { eventFormat: eventFormatFor(parties, false), transactionShape };
}

/** How a transaction lookup asks for its events: the seed's two forms of transaction-by-id. */
export type TransactionQuery =
  | { requestingParties: string[] }
  | { transactionFormat: TransactionFormat };

/** The seed's choice: `requestingParties` when the node has parties configured, else a transaction format. */
export function transactionQueryFor(parties: readonly string[] | undefined): TransactionQuery {
  return parties && parties.length > 0
    ? { requestingParties: [...parties] }
    : { transactionFormat: transactionFormatFor(undefined) };
}

/** transaction-by-id body: exactly one of the two forms, never both (400 otherwise). */
export function transactionByIdRequest(updateId: string, query: TransactionQuery): GetTransactionByIdRequest {
  return 'requestingParties' in query
    ? { updateId, requestingParties: query.requestingParties }
    : { updateId, transactionFormat: query.transactionFormat };
}

/**
 * update-by-id body for the same query. `requestingParties` becomes what the server makes of it
 * (wildcard per party, verbose, ACS delta: `getUpdateFormatForFlatQueries`).
 */
export function updateByIdRequest(updateId: string, query: TransactionQuery): GetUpdateByIdRequest {
  const includeTransactions =
    'requestingParties' in query ? transactionFormatFor(query.requestingParties) : query.transactionFormat;
  return { updateId, updateFormat: { includeTransactions } };
}

/** One sentence on what a lookup asked for, for panels and error texts. */
export function describeQuery(query: TransactionQuery): string {
  if ('requestingParties' in query) return l10n.t('as seen by {0}', query.requestingParties.map(shortenPartyId).join(', '));
  const byParty = Object.keys(query.transactionFormat.eventFormat.filtersByParty ?? {});
  return byParty.length > 0 ? l10n.t('as seen by {0}', byParty.map(shortenPartyId).join(', ')) : l10n.t('as seen by any party on the node');
}
