// Which update archived a contract, for a refusal that names it (CONTRACT_NOT_FOUND): its archive
// event's offset, then the update at that offset (its id and when it was recorded). Reads only;
// undefined when the contract is active, unknown, or not visible to these parties. No `vscode` import.
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { updateAnswer, type LedgerClient } from '../ledger/ledgerClient';
import { eventFormatFor, otherUpdatesFormat, transactionQueryFor, updateByIdRequest } from '../ledger/requestForms';
import { shortId } from '../ids/ledgerIds';
import { localDateTime } from '../l10n/forPeople';
import * as l10n from '../l10n/l10n';

export interface ArchiveFacts {
  contractId: string;
  templateId?: string;
  offset: number;
  /** The archiving update, when the node answered for its offset. */
  updateId?: string;
  /** Its record time (ISO), when known. */
  at?: string;
}

export async function archiveOf(client: LedgerClient, contractId: string, parties: readonly string[], signal?: AbortSignal): Promise<ArchiveFacts | undefined> {
  let events;
  try {
    events = await client.getEventsByContractId({ contractId, eventFormat: eventFormatFor(parties, false) }, { signal });
  } catch (e) {
    if (isLedgerApiError(e) && e.kind === 'notFound') return undefined;
    throw e;
  }
  const archived = events.archived?.archivedEvent;
  if (!archived) return undefined;
  const facts: ArchiveFacts = { contractId, templateId: archived.templateId, offset: archived.offset };
  try {
    const query = transactionQueryFor(parties, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    const request = updateByIdRequest('', query);
    const answer = updateAnswer(
      await client.getUpdateByOffset({ offset: archived.offset, updateFormat: { ...request.updateFormat, ...otherUpdatesFormat(query) } }, { signal }),
    );
    if (answer?.type === 'transaction') {
      facts.updateId = answer.transaction.updateId;
      facts.at = answer.transaction.recordTime;
    }
  } catch {
    // The offset alone still says which update.
  }
  return facts;
}

/** The sentence a refusal adds: which update archived the contract, at which offset, and when. */
export function archivedSentence(a: ArchiveFacts): string {
  const when = a.at && !Number.isNaN(Date.parse(a.at)) ? localDateTime(Date.parse(a.at)) : undefined;
  if (a.updateId && when)
    return l10n.t('Contract {0} was archived by update {1} at offset {2}, {3}.', shortId(a.contractId), shortId(a.updateId), a.offset, when);
  if (a.updateId) return l10n.t('Contract {0} was archived by update {1} at offset {2}.', shortId(a.contractId), shortId(a.updateId), a.offset);
  return l10n.t('Contract {0} was archived at offset {1}.', shortId(a.contractId), a.offset);
}

/** The contract id a CONTRACT_NOT_FOUND names (its resource, else the id in its cause). */
export function missingContractId(facts: { code?: string; cause: string; resources: readonly [string, string][] }): string | undefined {
  if (facts.code !== 'CONTRACT_NOT_FOUND') return undefined;
  const resource = facts.resources.find(([k]) => k === 'CONTRACT_ID')?.[1];
  if (resource) return resource;
  return /\b(00[0-9a-f]{64,}|01[0-9a-f]{24,})\b/.exec(facts.cause)?.[1];
}
