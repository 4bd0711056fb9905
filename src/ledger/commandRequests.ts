// Commands submitted with the token's own rights: submit-and-wait-for-transaction (a write: sent
// once, never retried) asking for ledger effects, so the answer is the whole exercise tree. The
// same path and body on 3.4, 3.5 and 3.6. No `vscode` import.
import type {
  JsCommands,
  JsExecuteSubmissionAndWaitForTransactionRequest,
  JsExecuteSubmissionRequest,
  JsSubmitAndWaitForTransactionResponse,
  TransactionFormat,
} from './apiTypes';
import type { CallOptions, LedgerClient } from './ledgerClient';

/** Ledger effects for the acting and reading parties: every create and exercise they see, verbose. */
export function ledgerEffectsFor(commands: Pick<JsCommands, 'actAs' | 'readAs'>): TransactionFormat {
  const parties = [...new Set([...(commands.actAs ?? []), ...(commands.readAs ?? [])])];
  const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
  return {
    eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, wildcard])), verbose: true },
    transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
  };
}

/** POST /v2/commands/submit-and-wait-for-transaction: one POST, never retried. */
export function submitAndWaitForTransaction(
  client: LedgerClient,
  commands: JsCommands,
  opts: CallOptions = {},
): Promise<JsSubmitAndWaitForTransactionResponse> {
  return client.request('POST', '/v2/commands/submit-and-wait-for-transaction', { commands, transactionFormat: ledgerEffectsFor(commands) }, opts);
}

/** An execute request that asks for the committed transaction's ledger effects as the signing party sees them. */
export function withLedgerEffectsOf(request: JsExecuteSubmissionRequest, party: string): JsExecuteSubmissionAndWaitForTransactionRequest {
  return { ...request, transactionFormat: ledgerEffectsFor({ actAs: [party] }) };
}
