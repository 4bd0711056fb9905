// The request behind a lookup's answer, for "Copy as cURL" from a panel: rebuilt from what the
// answer holds, as the client sent it (same forms, same JSON). Pure: tested in the fast tier.
import { otherUpdatesFormat, transactionByIdRequest, updateByIdRequest } from '../ledger/requestForms';
import type { LedgerLookup } from './ledgerLookups';

export interface LookupRequest {
  method: 'POST';
  path: string;
  /** The body as the client serializes it (compact JSON). */
  body: string;
  /** Whether the lookup was asked with a token. */
  authenticated: boolean;
}

export function lookupRequest(l: LedgerLookup): LookupRequest {
  const authenticated = l.askedAs.identity.kind !== 'none';
  if (l.kind === 'contract') return { method: 'POST', path: '/v2/events/events-by-contract-id', body: JSON.stringify(l.request), authenticated };
  // A found update names its route; a not-found one, the route whose "not found" was told.
  const route = l.found ? l.route : l.error.path?.endsWith('transaction-by-id') ? 'transaction-by-id' : 'update-by-id';
  if (route === 'transaction-by-id') {
    return { method: 'POST', path: '/v2/updates/transaction-by-id', body: JSON.stringify(transactionByIdRequest(l.updateId, l.query)), authenticated };
  }
  const request = updateByIdRequest(l.updateId, l.query);
  request.updateFormat = { ...request.updateFormat, ...otherUpdatesFormat(l.query) };
  return { method: 'POST', path: '/v2/updates/update-by-id', body: JSON.stringify(request), authenticated };
}
