// A command refused with CONTRACT_NOT_FOUND for a contract of its request: which update archived
// the contract (when the token can read it), and Pick an Active Contract…, which writes another
// contract of the same template into the request file in its place.
import * as vscode from 'vscode';
import { activeContractsOf } from '../browse/templateContracts';
import { contractPickText } from '../browse/contractPickText';
import { commandLines } from '../execute/commandsReview';
import { shortId } from '../ids/ledgerIds';
import type { CreatedEvent, JsCommands } from '../ledger/apiTypes';
import type { LedgerClient } from '../ledger/ledgerClient';
import { archiveOf, archivedSentence, missingContractId } from '../lookups/archiveOf';
import type { CommandsOutcome } from './html/commandsReviewHtml';

/** Picks a contract among the active ones; tests replace it. */
export type PickContract = (contracts: CreatedEvent[]) => Thenable<CreatedEvent | undefined>;

type Failed = Extract<CommandsOutcome, { state: 'failed' }>;

const readers = (request: JsCommands) => [...(request.actAs ?? []), ...(request.readAs ?? [])];

/** Adds to a CONTRACT_NOT_FOUND outcome which update archived the contract, and whether the pick is offered; true when it added something. */
export async function explainMissingContract(client: LedgerClient, outcome: Failed, request: JsCommands): Promise<boolean> {
  const contractId = missingContractId(outcome.why.facts);
  if (!contractId) return false;
  outcome.pick = commandLines(request).some((c) => c.contractId === contractId);
  const archived = await archiveOf(client, contractId, readers(request)).catch(() => undefined);
  if (archived) outcome.archived = archivedSentence(archived);
  return true;
}

/** The picked contract's id, written into the file in place of the missing one; undefined when nothing was picked. */
export async function pickInPlaceOfMissing(
  client: LedgerClient,
  nodeName: string,
  uri: vscode.Uri,
  outcome: Failed,
  request: JsCommands,
  pick: PickContract = (list) =>
    vscode.window
      .showQuickPick(
        list.map((c) => ({ ...contractPickText(c), contract: c })),
        {
          placeHolder: vscode.l10n.t('An active contract in place of {0}', shortId(missingContractId(outcome.why.facts) ?? '')),
          matchOnDescription: true,
          matchOnDetail: true,
        },
      )
      .then((p) => p?.contract),
): Promise<string | undefined> {
  const missing = missingContractId(outcome.why.facts);
  const line = commandLines(request).find((c) => c.contractId === missing);
  if (!missing || !line) return undefined;
  const parties = readers(request);
  const contracts = (await activeContractsOf(client, parties, line.templateId)).filter((c) => c.contractId !== missing);
  if (contracts.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} has no active {1} contract that {2} can see.', nodeName, line.templateId, parties.join(', ')));
    return undefined;
  }
  const picked = await pick(contracts);
  if (!picked) return undefined;
  const doc = await vscode.workspace.openTextDocument(uri);
  const text = doc.getText();
  const edit = new vscode.WorkspaceEdit();
  // The id as a JSON string, wherever the request names it: only that contract changes.
  edit.replace(
    uri,
    new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)),
    text.split(JSON.stringify(missing)).join(JSON.stringify(picked.contractId)),
  );
  await vscode.workspace.applyEdit(edit);
  if (!doc.isUntitled) await doc.save();
  return picked.contractId;
}
