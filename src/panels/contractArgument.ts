// What a contract panel passes to Exercise Contract Choice… and Add as Disclosed Contract: the
// contract as its create event shows it, and the panel's node. No `vscode` import.
import type { ContractArgument } from '../execute/contractActions';
import type { LedgerLookup } from '../lookups/ledgerLookups';

/** The shown contract's facts, if the panel shows a contract with its create event. */
export function contractArgument(result: LedgerLookup | undefined, node: string): ContractArgument | undefined {
  if (result?.kind !== 'contract' || !result.found || !result.response.created) return undefined;
  const { createdEvent: c, synchronizerId } = result.response.created;
  return {
    node,
    contractId: c.contractId,
    templateId: c.templateId,
    packageName: c.packageName,
    createdEventBlob: c.createdEventBlob || undefined,
    synchronizerId,
  };
}
