// Contract and transaction lookups on one node, with the request that was sent and a
// "not found" explained in terms of who asked.
import type { GetEventsByContractIdRequest, JsGetEventsByContractIdResponse, JsTransaction } from '../ledger/apiTypes';
import { LedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import { describeQuery, eventFormatFor, transactionQueryFor, type TransactionQuery } from '../ledger/requestForms';
import { shortenPartyId } from '../ids/ledgerIds';
import { NO_TOKEN, type AskedAs, type LedgerIdentity } from '../auth/ledgerIdentity';
import * as l10n from '../l10n/l10n';

export interface LookupContext {
  nodeName: string;
  parties?: readonly string[];
  /** The token's user, for explanations. */
  user?: string;
  /**
   * The token to send and whose it is, resolved once by the caller: the request sends exactly this
   * token, and the answer says it was asked as this identity. Unset: the client's own token, unnamed.
   */
  credentials?: Credentials;
  signal?: AbortSignal;
}

export interface Credentials {
  token: string | undefined;
  identity: LedgerIdentity;
}

export type ContractLookup =
  | { kind: 'contract'; found: true; status: 'active' | 'archived'; contractId: string; response: JsGetEventsByContractIdResponse; request: GetEventsByContractIdRequest; asked: string; askedAs: AskedAs }
  | { kind: 'contract'; found: false; contractId: string; request: GetEventsByContractIdRequest; asked: string; askedAs: AskedAs; askedFor: string; explanation: string; error: LedgerApiError };

export type TransactionLookup =
  | { kind: 'transaction'; found: true; updateId: string; transaction: JsTransaction; route: 'transaction-by-id' | 'update-by-id'; query: TransactionQuery; asked: string; askedAs: AskedAs }
  | { kind: 'transaction'; found: false; updateId: string; query: TransactionQuery; asked: string; askedAs: AskedAs; askedFor: string; explanation: string; error: LedgerApiError };

export type LedgerLookup = ContractLookup | TransactionLookup;

function who(ctx: LookupContext): string {
  const parties = ctx.parties?.length ? ctx.parties.map(shortenPartyId).join(', ') : l10n.t('any party on the node');
  return ctx.user ? l10n.t('{0} (token user {1})', parties, ctx.user) : parties;
}

function askedAsOf(ctx: LookupContext): AskedAs {
  return { identity: ctx.credentials?.identity ?? NO_TOKEN, parties: [...(ctx.parties ?? [])] };
}

function callOptions(ctx: LookupContext) {
  return { signal: ctx.signal, auth: ctx.credentials && { token: ctx.credentials.token } };
}

export async function lookupContract(client: LedgerClient, contractId: string, ctx: LookupContext): Promise<ContractLookup> {
  const request: GetEventsByContractIdRequest = { contractId, eventFormat: eventFormatFor(ctx.parties) };
  const asked = l10n.t('events-by-contract-id on {0}, as seen by {1}', ctx.nodeName, who(ctx));
  try {
    const response = await client.getEventsByContractId(request, callOptions(ctx));
    if (!response.created) {
      throw new LedgerApiError({ kind: 'notFound', status: 200, explanation: l10n.t('The node returned no create event for this contract.') });
    }
    return { kind: 'contract', found: true, status: response.archived ? 'archived' : 'active', contractId, response, request, asked, askedAs: askedAsOf(ctx) };
  } catch (e) {
    if (!(e instanceof LedgerApiError) || e.kind !== 'notFound' || e.routeMissing) throw e;
    const askedFor = who(ctx);
    const explanation = ctx.parties?.length
      ? l10n.t('Contract not found on {0} for {1}. Either it never existed on this participant, it is not visible to these parties (only stakeholders see a contract), or it was pruned. Try "Look Up on All Nodes", or a node that hosts a stakeholder.', ctx.nodeName, askedFor)
      : l10n.t('Contract not found on {0} for {1}. Either it never existed on this participant, it is not visible to any party hosted here, or it was pruned. Try "Look Up on All Nodes", or a node that hosts a stakeholder.', ctx.nodeName, askedFor);
    return { kind: 'contract', found: false, contractId, request, asked, askedAs: askedAsOf(ctx), askedFor, explanation, error: e };
  }
}

export async function lookupTransaction(client: LedgerClient, updateId: string, ctx: LookupContext): Promise<TransactionLookup> {
  const query = transactionQueryFor(ctx.parties);
  const form = 'requestingParties' in query ? '(requestingParties)' : '(transactionFormat with filtersForAnyParty)';
  const asked = ctx.user
    ? l10n.t('a transaction on {0}, {1} {2}, token user {3}', ctx.nodeName, describeQuery(query), form, ctx.user)
    : l10n.t('a transaction on {0}, {1} {2}', ctx.nodeName, describeQuery(query), form);
  try {
    const { transaction, route } = await client.lookupTransaction(updateId, query, callOptions(ctx));
    return { kind: 'transaction', found: true, updateId, transaction, route, query, asked: l10n.t('{0}, via {1}', asked, route), askedAs: askedAsOf(ctx) };
  } catch (e) {
    if (!(e instanceof LedgerApiError) || e.kind !== 'notFound' || e.routeMissing) throw e;
    const askedFor = who(ctx);
    const explanation = l10n.t('Update not found on {0} for {1}. Either it never happened on this participant, none of its events is visible to the parties queried, or it was pruned. Try "Look Up on All Nodes".', ctx.nodeName, askedFor);
    return { kind: 'transaction', found: false, updateId, query, asked, askedAs: askedAsOf(ctx), askedFor, explanation, error: e };
  }
}

/** One line for a hover or a list: what the lookup found. */
export function lookupSummary(l: LedgerLookup): string {
  if (!l.found) return l10n.t('not found');
  if (l.kind === 'contract') {
    const t = l.response.created!.createdEvent.templateId;
    return `${l.status === 'active' ? l10n.t('active') : l10n.t('archived')} · ${templateName(t)}`;
  }
  const t = l.transaction;
  const events = t.events.length === 1 ? l10n.t('1 event') : l10n.t('{0} events', t.events.length);
  return `${l10n.t('offset {0}', t.offset)} · ${t.effectiveAt} · ${events}`;
}

/** `Iou:Iou` from `<package id>:Iou:Iou`. */
export function templateName(templateId: string): string {
  const parts = templateId.split(':');
  return parts.length >= 3 ? parts.slice(1).join(':') : templateId;
}
