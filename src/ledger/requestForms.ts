// Builds the filter parts of lookup requests from a node's configured parties.
import { shortenPartyId } from '../ids/ledgerIds';
import type { EventFormat, Filters, GetTransactionByIdRequest, GetUpdateByIdRequest, TransactionFormat, UpdateFormat } from './apiTypes';
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
export type TransactionQuery = { requestingParties: string[] } | { transactionFormat: TransactionFormat };

/**
 * The seed's choice for what changed (ACS delta): `requestingParties` when the node has parties
 * configured, else a transaction format. What happened (ledger effects) needs a transaction format.
 */
export function transactionQueryFor(
  parties: readonly string[] | undefined,
  shape: TransactionFormat['transactionShape'] = 'TRANSACTION_SHAPE_ACS_DELTA',
): TransactionQuery {
  if (shape !== 'TRANSACTION_SHAPE_ACS_DELTA') return { transactionFormat: transactionFormatFor(parties, shape) };
  return parties && parties.length > 0 ? { requestingParties: [...parties] } : { transactionFormat: transactionFormatFor(undefined) };
}

/** transaction-by-id body: exactly one of the two forms, never both (400 otherwise). */
export function transactionByIdRequest(updateId: string, query: TransactionQuery): GetTransactionByIdRequest {
  return 'requestingParties' in query ? { updateId, requestingParties: query.requestingParties } : { updateId, transactionFormat: query.transactionFormat };
}

/**
 * update-by-id body for the same query. `requestingParties` becomes what the server makes of it
 * (wildcard per party, verbose, ACS delta: `getUpdateFormatForFlatQueries`).
 */
export function updateByIdRequest(updateId: string, query: TransactionQuery): GetUpdateByIdRequest {
  const includeTransactions = 'requestingParties' in query ? transactionFormatFor(query.requestingParties) : query.transactionFormat;
  return { updateId, updateFormat: { includeTransactions } };
}

/**
 * update-by-id's parts for the other kinds of update: reassignments with the same event format,
 * topology events of the same parties (all parties when asking for any party).
 */
export function otherUpdatesFormat(query: TransactionQuery): Pick<UpdateFormat, 'includeReassignments' | 'includeTopologyEvents'> {
  const eventFormat = 'requestingParties' in query ? eventFormatFor(query.requestingParties, false) : query.transactionFormat.eventFormat;
  const parties = Object.keys(eventFormat.filtersByParty ?? {});
  return { includeReassignments: eventFormat, includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties } } };
}

/** The request form a lookup sent, in words: "transaction-by-id with requestingParties", "update-by-id with filtersByParty"… */
export function describeForm(route: 'transaction-by-id' | 'update-by-id', query: TransactionQuery): string {
  if (route === 'transaction-by-id' && 'requestingParties' in query) return 'transaction-by-id (requestingParties)';
  const format = 'requestingParties' in query ? eventFormatFor(query.requestingParties) : query.transactionFormat.eventFormat;
  const filter = format.filtersForAnyParty ? 'filtersForAnyParty' : 'filtersByParty';
  return route === 'transaction-by-id' ? `transaction-by-id (transactionFormat with ${filter})` : `update-by-id (updateFormat with ${filter})`;
}

/** One sentence on what a lookup asked for, for panels and error texts. */
export function describeQuery(query: TransactionQuery): string {
  if ('requestingParties' in query) return l10n.t('as seen by {0}', query.requestingParties.map(shortenPartyId).join(', '));
  const byParty = Object.keys(query.transactionFormat.eventFormat.filtersByParty ?? {});
  return byParty.length > 0 ? l10n.t('as seen by {0}', byParty.map(shortenPartyId).join(', ')) : l10n.t('as seen by any party on the node');
}
