// The active contracts of one template that the given parties see, at the ledger end, at most a
// list's worth: what a contract id is picked from (Exercise on the Ledger…, completion in a
// *.commands.json). A read; no `vscode` import.
import type { CreatedEvent, JsGetActiveContractsResponse } from '../ledger/apiTypes';
import type { LedgerClient } from '../ledger/ledgerClient';

export async function activeContractsOf(
  client: LedgerClient,
  parties: readonly string[],
  templateId: string,
  signal?: AbortSignal,
  limit = 200,
): Promise<CreatedEvent[]> {
  const filter = { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: false } } } }] };
  const end = (await client.getLedgerEnd({ signal })).offset ?? 0;
  const list: JsGetActiveContractsResponse[] = await client.getActiveContracts(
    { activeAtOffset: end, eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, filter])), verbose: true } },
    { limit },
    { signal },
  );
  return list
    .map((r) => (r.contractEntry as { JsActiveContract?: { createdEvent?: CreatedEvent } } | undefined)?.JsActiveContract?.createdEvent)
    .filter((e): e is CreatedEvent => e !== undefined);
}
