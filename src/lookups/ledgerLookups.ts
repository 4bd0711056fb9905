// Contract and transaction lookups on one node, with the request that was sent and a
// "not found" explained in terms of who asked.
import type { GetEventsByContractIdRequest, JsGetEventsByContractIdResponse, JsReassignment, JsTopologyTransaction, JsTransaction } from '../ledger/apiTypes';
import { LedgerApiError, isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import { describeForm, describeQuery, eventFormatFor, transactionQueryFor, type TransactionQuery } from '../ledger/requestForms';
import { classifyLedgerId, shortenPartyId } from '../ids/ledgerIds';
import { NO_TOKEN, type AskedAs, type Credentials } from '../auth/ledgerIdentity';
import { missingReadRights, missingRightFor, type EffectiveParties, type LearnedAccess } from '../auth/userRights';
import type { NotFoundExplanation } from './notFoundFacts';
import * as l10n from '../l10n/l10n';
import { templateName } from '../ids/templateNames';
import { formatCount } from '../l10n/forPeople';

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
  /** How a transaction is shown: what changed (ACS delta, the default) or what happened (ledger effects). */
  shape?: TransactionShape;
  signal?: AbortSignal;
  /**
   * Where `parties` came from and the rights behind them. With a `refusal` nothing is
   * sent: the node would refuse every form for these rights.
   */
  effective?: EffectiveParties;
  /** What the node said about the token's user: names the missing right in a 403. */
  access?: LearnedAccess;
}

export type TransactionShape = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

export type ContractLookup =
  /** `createPruned`: the node answered with the archive event only (its create was pruned). */
  | {
      kind: 'contract';
      found: true;
      status: 'active' | 'archived';
      contractId: string;
      response: JsGetEventsByContractIdResponse;
      request: GetEventsByContractIdRequest;
      asked: string;
      askedAs: AskedAs;
      createPruned?: boolean;
    }
  | {
      kind: 'contract';
      found: false;
      contractId: string;
      request: GetEventsByContractIdRequest;
      asked: string;
      askedAs: AskedAs;
      askedFor: string;
      explanation: string;
      error: LedgerApiError;
      facts?: NotFoundExplanation;
    };

interface FoundUpdate {
  kind: 'transaction';
  found: true;
  updateId: string;
  route: 'transaction-by-id' | 'update-by-id';
  query: TransactionQuery;
  asked: string;
  askedAs: AskedAs;
}

/** An update id's lookup: a transaction, or (`update`) a reassignment or topology transaction, or not found. */
export type TransactionLookup =
  | (FoundUpdate & { update: 'transaction'; transaction: JsTransaction })
  | (FoundUpdate & { update: 'reassignment'; reassignment: JsReassignment })
  | (FoundUpdate & { update: 'topology'; topology: JsTopologyTransaction })
  | {
      kind: 'transaction';
      found: false;
      updateId: string;
      query: TransactionQuery;
      asked: string;
      askedAs: AskedAs;
      askedFor: string;
      explanation: string;
      error: LedgerApiError;
      facts?: NotFoundExplanation;
    };

export type LedgerLookup = ContractLookup | TransactionLookup;

/**
 * What a lookup knows before it sends, worked out once on the way down: who asks (for the answer
 * and its explanations), a refusal the rights make certain (nothing is sent), an id of another kind
 * (the node would refuse its shape: answered as not found, explained as the wrong kind), and what
 * a 403 lacks (the right and the party). The answer is then shaped from these, with no way back up.
 */
interface Asking {
  askedFor: string;
  askedAs: AskedAs;
  refused?: LedgerApiError;
  explainRefusal(e: unknown): unknown;
}

function askingFor(ctx: LookupContext, kind: 'contract' | 'update', id: string, path: string): Asking {
  const parties = ctx.parties ?? [];
  const named = parties.length ? parties.map(shortenPartyId).join(', ') : l10n.t('any party on the node');
  const askedFor = ctx.user ? l10n.t('{0} (token user {1})', named, ctx.user) : named;
  const base: AskedAs = { identity: ctx.credentials?.identity ?? NO_TOKEN, parties: [...parties] };
  const askedAs: AskedAs = ctx.effective ? { ...base, source: ctx.effective.source, rights: ctx.effective.rightOf } : base;
  const shape = classifyLedgerId(id).kind;
  const refused = ctx.effective?.refusal
    ? new LedgerApiError({ kind: 'permissionDenied', method: 'POST', path, explanation: ctx.effective.refusal })
    : shape !== kind && shape !== 'none'
      ? new LedgerApiError({ kind: 'notFound', method: 'POST', path, explanation: l10n.t('Not sent: {0} is not a {1} id.', id.slice(0, 80), kind) })
      : undefined;
  const missing = missingRightFor(parties, ctx.access);
  const missingRight = missing ? missingReadRights(parties, ctx.access) : undefined;
  const explainRefusal = (e: unknown): unknown =>
    !missing || !isLedgerApiError(e) || e.kind !== 'permissionDenied' || e.status === undefined
      ? e
      : e.with({ explanation: `${e.explanation} ${missing}`, ...(missingRight ? { missingRight } : {}) });
  return { askedFor, askedAs, refused, explainRefusal };
}

function callOptions(ctx: LookupContext) {
  return { signal: ctx.signal, auth: ctx.credentials && { token: ctx.credentials.token } };
}

export async function lookupContract(client: LedgerClient, contractId: string, ctx: LookupContext): Promise<ContractLookup> {
  const asking = askingFor(ctx, 'contract', contractId, '/v2/events/events-by-contract-id');
  const { askedFor, askedAs } = asking;
  const request: GetEventsByContractIdRequest = { contractId, eventFormat: eventFormatFor(ctx.parties) };
  const asked = l10n.t('events-by-contract-id on {0}, as seen by {1}', ctx.nodeName, askedFor);
  try {
    if (asking.refused) throw asking.refused;
    const response = await client.getEventsByContractId(request, callOptions(ctx));
    if (!response.created && !response.archived) {
      throw new LedgerApiError({
        kind: 'notFound',
        status: 200,
        explanation: l10n.t('The node returned neither a create nor an archive event for this contract.'),
      });
    }
    // Only the archive: the node pruned the create event (it was created before the pruning offset).
    const createPruned = !response.created;
    return {
      kind: 'contract',
      found: true,
      status: response.archived ? 'archived' : 'active',
      contractId,
      response,
      request,
      asked,
      askedAs,
      ...(createPruned ? { createPruned } : {}),
    };
  } catch (e) {
    if (!isLedgerApiError(e) || e.kind !== 'notFound' || e.routeMissing) throw asking.explainRefusal(e);
    const explanation = ctx.parties?.length
      ? l10n.t(
          'Contract not found on {0} for {1}. Either it never existed on this participant, it is not visible to these parties (only stakeholders see a contract), or it was pruned. Try "Look Up on All Nodes", or a node that hosts a stakeholder.',
          ctx.nodeName,
          askedFor,
        )
      : l10n.t(
          'Contract not found on {0} for {1}. Either it never existed on this participant, it is not visible to any party hosted here, or it was pruned. Try "Look Up on All Nodes", or a node that hosts a stakeholder.',
          ctx.nodeName,
          askedFor,
        );
    return { kind: 'contract', found: false, contractId, request, asked, askedAs, askedFor, explanation, error: e };
  }
}

export async function lookupTransaction(client: LedgerClient, updateId: string, ctx: LookupContext): Promise<TransactionLookup> {
  const asking = askingFor(ctx, 'update', updateId, '/v2/updates/update-by-id');
  const { askedFor, askedAs } = asking;
  const query = transactionQueryFor(ctx.parties, ctx.shape);
  // Names the request form that was actually sent (it depends on the node's version).
  const askedVia = (route: 'transaction-by-id' | 'update-by-id') => {
    const form = describeForm(route, query);
    return ctx.user
      ? l10n.t('an update on {0}, {1}, via {2}, token user {3}', ctx.nodeName, describeQuery(query), form, ctx.user)
      : l10n.t('an update on {0}, {1}, via {2}', ctx.nodeName, describeQuery(query), form);
  };
  try {
    if (asking.refused) throw asking.refused;
    const found = await client.lookupUpdate(updateId, query, callOptions(ctx));
    const base = {
      kind: 'transaction' as const,
      found: true as const,
      updateId,
      route: found.route,
      query,
      asked: askedVia(found.route),
      askedAs,
    };
    if (found.type === 'transaction') return { ...base, update: 'transaction', transaction: found.transaction };
    if (found.type === 'reassignment') return { ...base, update: 'reassignment', reassignment: found.reassignment };
    return { ...base, update: 'topology', topology: found.topology };
  } catch (e) {
    if (!isLedgerApiError(e) || e.kind !== 'notFound' || e.routeMissing) throw asking.explainRefusal(e);
    const explanation = l10n.t(
      'Update not found on {0} for {1}. Either it never happened on this participant, none of its events is visible to the parties queried, or it was pruned. Try "Look Up on All Nodes". (A key fingerprint or a hash has the same 1220… shape: if this is one, it is not an update id.)',
      ctx.nodeName,
      askedFor,
    );
    const route = e.path?.endsWith('transaction-by-id') ? 'transaction-by-id' : 'update-by-id';
    return { kind: 'transaction', found: false, updateId, query, asked: askedVia(route), askedAs, askedFor, explanation, error: e };
  }
}

/** The update a found lookup holds, whatever its kind (for Open as JSON). */
export function updateValue(l: Extract<TransactionLookup, { found: true }>): JsTransaction | JsReassignment | JsTopologyTransaction {
  return l.update === 'transaction' ? l.transaction : l.update === 'reassignment' ? l.reassignment : l.topology;
}

/** One line for a hover or a list: what the lookup found. */
export function lookupSummary(l: LedgerLookup): string {
  if (!l.found) return l10n.t('not found');
  if (l.kind === 'contract') {
    const t = contractTemplateId(l.response);
    return `${l.status === 'active' ? l10n.t('active') : l10n.t('archived')} · ${templateName(t)}`;
  }
  if (l.update === 'reassignment') return `${l10n.t('reassignment')} · ${l10n.t('offset {0}', l.reassignment.offset)} · ${l.reassignment.recordTime}`;
  if (l.update === 'topology') return `${l10n.t('topology transaction')} · ${l10n.t('offset {0}', l.topology.offset)} · ${l.topology.recordTime}`;
  const t = l.transaction;
  const events = t.events.length === 1 ? l10n.t('1 event') : l10n.t('{0} events', formatCount(t.events.length));
  return `${l10n.t('offset {0}', t.offset)} · ${t.effectiveAt} · ${events}`;
}

/** The template of a contract answer: the create's, else the archive's (its create pruned). */
export function contractTemplateId(r: JsGetEventsByContractIdResponse): string {
  return r.created?.createdEvent.templateId ?? r.archived?.archivedEvent.templateId ?? '';
}

export { templateName } from '../ids/templateNames';
