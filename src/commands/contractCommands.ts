// A contract panel's actions on commands files (part of the commands loop's bundle): Exercise…
// writes a request that exercises one of the contract's choices, or its interfaces' choices, with
// an argument skeleton from the workspace's Daml source or the node's Daml-LF; Add as Disclosed
// Contract puts the contract into a request's `disclosedContracts`, reading its created event blob
// from the node when the panel did not have it.
import * as vscode from 'vscode';
import { exerciseRequest, isCommandsFile } from '../execute/commandsRequest';
import {
  choiceSkeleton,
  contractChoices,
  exerciseFileName,
  parseContractArgument,
  withDisclosedContract,
  type ContractChoice,
  type DisclosedContract,
} from '../execute/contractActions';
import type { DamlIndex } from '../daml/damlIndex';
import type { NodeSignaturesReader, PackageSignature } from '../daml/lf/lfSignatures';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { eventFormatFor } from '../ledger/requestForms';
import type { NodeConfig } from '../nodes/nodeSettings';
import { newSubmissionId } from '../panels/randomIds';
import type { NodeReader } from '../services/ledgerNodes';

export interface ContractCommandsDeps {
  nodes: NodeReader;
  signatures?: NodeSignaturesReader;
  /** The workspace's Daml index (built first if needed), if there is one. */
  damlIndex?: () => Promise<DamlIndex | undefined>;
  actingParty(node: NodeConfig): Promise<string>;
}

/**
 * Writes a request file. One open in an editor is replaced there and saved: written on disk only,
 * its editor (and what reads the document) would go on showing the old request a while.
 */
async function writeRequest(uri: vscode.Uri, text: string): Promise<void> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), text);
    if ((await vscode.workspace.applyEdit(edit)) && (await open.save())) return;
  }
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
}

const reason = (e: unknown) => (isLedgerApiError(e) ? e.explanation : (e as Error).message);

export class ContractCommands {
  /** Picks the choice to exercise; tests replace it. */
  pickChoice: (choices: ContractChoice[], template: string) => Thenable<ContractChoice | undefined> = (choices, template) =>
    vscode.window
      .showQuickPick(
        choices.map((c) => ({
          label: c.choice,
          description: c.viaInterface ? vscode.l10n.t('via {0}', c.viaInterface) : undefined,
          detail: c.detail,
          choice: c,
        })),
        { placeHolder: vscode.l10n.t('Exercise which choice on this {0} contract?', template), matchOnDescription: true, matchOnDetail: true },
      )
      .then((p) => p?.choice);

  /** Picks the commands file a disclosed contract goes into; tests replace it. */
  pickCommandsFile: () => Thenable<vscode.Uri | undefined> = async () => {
    const files = await vscode.workspace.findFiles('**/*.commands.json', '**/node_modules/**', 200);
    const picked = await vscode.window.showQuickPick(
      files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
      { placeHolder: vscode.l10n.t('Add the disclosed contract to which commands request?') },
    );
    return picked?.uri;
  };

  constructor(private readonly deps: ContractCommandsDeps) {}

  private async signaturesOf(node: NodeConfig): Promise<{ packages: PackageSignature[]; problem?: string }> {
    if (!this.deps.signatures) return { packages: [] };
    try {
      return { packages: (await this.deps.signatures(this.deps.nodes.client(node))).packages };
    } catch (e) {
      return { packages: [], problem: reason(e) };
    }
  }

  /** Writes (into `target`, else commands/<Template>_<Choice>.commands.json) a request that exercises a choice on the contract, and opens it. */
  async exercise(arg: unknown, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const c = parseContractArgument(arg);
    if (!c) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Exercise… runs from a contract panel: open a contract first.'));
      return undefined;
    }
    const node = this.deps.nodes.find(c.node);
    if (!node) return undefined;
    const [sigs, index] = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Reading the choices of the node's packages on {0}…", node.name) },
      () => Promise.all([this.signaturesOf(node), this.deps.damlIndex?.().catch(() => undefined)]),
    );
    const entity = c.templateId.split(':')[2] ?? c.templateId;
    const choices = contractChoices(c, sigs.packages, index);
    if (choices.length === 0) {
      void vscode.window.showWarningMessage(
        sigs.problem
          ? vscode.l10n.t(
              "No choice of {0} is known: the workspace has no Daml source of it, and the node's packages could not be read ({1}).",
              entity,
              sigs.problem,
            )
          : vscode.l10n.t("No choice of {0} is known: neither the workspace's Daml source nor the node's packages have its template.", entity),
      );
      return undefined;
    }
    const choice = await this.pickChoice(choices, entity);
    if (!choice) return undefined;
    const party = await this.deps.actingParty(node);
    const sourceText = choice.source ? (await vscode.workspace.openTextDocument(vscode.Uri.parse(choice.source.file))).getText() : undefined;
    const skeleton = choiceSkeleton(sigs.packages, choice, party, sourceText);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = target ?? (folder ? vscode.Uri.joinPath(folder, 'commands', exerciseFileName(c, choice)) : undefined);
    if (!uri) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: the request is written into it.'));
      return undefined;
    }
    const request = exerciseRequest({
      commandId: newSubmissionId(),
      party,
      templateId: choice.templateId,
      choice: choice.choice,
      contractId: c.contractId,
      choiceArgument: (skeleton.value ?? {}) as Record<string, unknown>,
    });
    await writeRequest(uri, request);
    await vscode.window.showTextDocument(uri);
    if (skeleton.notes.length > 0) void vscode.window.setStatusBarMessage(skeleton.notes.join(' · '), 15_000);
    return uri;
  }

  /**
   * Puts the contract into the `disclosedContracts` of `target`, else of the commands file in the
   * active editor (or a visible one), else of one picked; the blob is read from the node when the
   * panel did not have it. The file is edited in its editor (undo works), not saved.
   */
  async addDisclosed(arg: unknown, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const c = parseContractArgument(arg);
    if (!c) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Add as Disclosed Contract runs from a contract panel: open a contract first.'));
      return undefined;
    }
    const node = this.deps.nodes.find(c.node);
    if (!node) return undefined;
    const open = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors].find((e) => e && isCommandsFile(e.document.uri.path));
    const uri = target ?? open?.document.uri ?? (await this.pickCommandsFile());
    if (!uri) return undefined;
    let blob = c.createdEventBlob;
    let synchronizerId = c.synchronizerId;
    if (!blob) {
      try {
        const read = await this.readBlob(node, c.contractId);
        blob = read.blob;
        synchronizerId ??= read.synchronizerId;
      } catch (e) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not read the created event blob of the contract: {0}', reason(e)));
        return undefined;
      }
    }
    if (!blob) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The node gave no created event blob for this contract: it cannot be disclosed.'));
      return undefined;
    }
    const d: DisclosedContract = { contractId: c.contractId, templateId: c.templateId, createdEventBlob: blob, synchronizerId: synchronizerId ?? '' };
    const doc = await vscode.workspace.openTextDocument(uri);
    const edited = withDisclosedContract(doc.getText(), d);
    if ('problem' in edited) {
      void vscode.window.showErrorMessage(edited.problem);
      return undefined;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), edited.text);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} changed meanwhile: nothing was added. Try again.', vscode.workspace.asRelativePath(uri)));
      return undefined;
    }
    await vscode.window.showTextDocument(doc);
    void vscode.window.setStatusBarMessage(
      edited.replaced
        ? vscode.l10n.t('Replaced the disclosed contract in {0}', vscode.workspace.asRelativePath(uri))
        : vscode.l10n.t('Added the disclosed contract to {0}', vscode.workspace.asRelativePath(uri)),
      5000,
    );
    return uri;
  }

  /** The contract's created event blob, asked for (includeCreatedEventBlob) as the parties the token reads as. */
  private async readBlob(node: NodeConfig, contractId: string): Promise<{ blob?: string; synchronizerId?: string }> {
    const parties = (await this.deps.nodes.facts.readAs(node)).parties;
    const response = await this.deps.nodes.client(node).getEventsByContractId({ contractId, eventFormat: eventFormatFor(parties, true) });
    return { blob: response.created?.createdEvent.createdEventBlob || undefined, synchronizerId: response.created?.synchronizerId };
  }
}
