// Completion in *.commands.json: from the workspace's Daml index, template ids where a templateId
// goes and the template's choices (with their argument fields) where a choice goes; from the active
// node, the active contracts of the command's template where a contractId goes; the Daml fields
// (with their types) as keys of a create argument or choice argument. Parties
// complete through the party provider, the request's shape through the JSON schema. Templates,
// interfaces and choices with no source in the workspace complete from the active node's packages
// (their Daml-LF signatures), a choice with a skeleton of its argument. damlRegistration.ts
// registers it at activation.
import * as vscode from 'vscode';
import { argumentFields, choiceCandidates, templateCandidates } from '../daml/commandCompletions';
import { argumentKeyAt, stringValueAt } from '../execute/partyCandidates';
import { damlFileText, type DamlWorkspace } from '../services/damlWorkspace';
import type { NodeReader } from '../services/ledgerNodes';
import { activeContractsOf } from '../browse/templateContracts';
import { lfArgumentFields, lfArgumentSkeleton, lfChoiceCandidates, lfTemplateCandidates } from '../daml/lf/lfCompletions';
import { unreadSummary, type NodeSignaturesReader, type PackageSignature } from '../daml/lf/lfSignatures';

/** What was said already: why a node's packages could not be read is shown once a session, not on every keystroke. */
const said = new Set<string>();

/**
 * The active node's package signatures, or none (no node, unreachable, or it would not say). What
 * could not be read is said once in the status bar: completion goes on with the workspace's Daml.
 */
async function nodePackages(nodes: NodeReader, signatures: NodeSignaturesReader): Promise<PackageSignature[]> {
  const node = nodes.active();
  if (!node || nodes.status(node).state === 'unreachable') return [];
  try {
    const answer = await signatures(nodes.client(node));
    const summary = unreadSummary(node.name, answer);
    if (summary && !said.has(`${node.name}\n${summary}`)) {
      said.add(`${node.name}\n${summary}`);
      vscode.window.setStatusBarMessage(`$(warning) ${summary}`, 15_000);
    }
    return answer.packages;
  } catch {
    return [];
  }
}

/** The first party the command acts as, for the skeleton's parties. */
const actAsOf = (text: string) => /"actAs"\s*:\s*\[\s*"([^"]*)"/.exec(text)?.[1] ?? '<party>';

/** The templateId of the command around `offset`: the nearest one before it, else after it. */
function templateIdNear(text: string, offset: number): string | undefined {
  const all = [...text.matchAll(/"templateId"\s*:\s*"([^"]*)"/g)];
  return (all.filter((m) => (m.index ?? 0) < offset).at(-1) ?? all.find((m) => (m.index ?? 0) > offset))?.[1];
}

/** The fields of the create argument or the choice argument being written, with their Daml types. */
async function argumentKeyItems(
  daml: DamlWorkspace,
  nodes: NodeReader,
  signatures: NodeSignaturesReader,
  text: string,
  key: { field: string; start: number },
  range: vscode.Range,
  cancel: vscode.CancellationToken,
): Promise<vscode.CompletionItem[] | undefined> {
  const index = await daml.ready(cancel);
  const templateId = templateIdNear(text, key.start);
  if (!templateId) return undefined;
  const choice =
    key.field === 'choiceArgument' ? /"choice"\s*:\s*"([^"]*)"/.exec(text.slice(Math.max(0, text.lastIndexOf('"templateId"', key.start))))?.[1] : undefined;
  if (key.field === 'choiceArgument' && !choice) return undefined;
  const fromSource = index ? argumentFields(index, templateId, choice, damlFileText) : [];
  const fields = fromSource.length > 0 ? fromSource : lfArgumentFields(await nodePackages(nodes, signatures), templateId, choice);
  return fields.map((f) => {
    const item = new vscode.CompletionItem(f.name, vscode.CompletionItemKind.Field);
    item.detail = f.type;
    item.range = range;
    return item;
  });
}

/** Contract ids of the command's template, active on the active node and seen by the token's parties. */
async function contractItems(
  nodes: NodeReader,
  templateId: string | undefined,
  range: vscode.Range,
  cancel: vscode.CancellationToken,
): Promise<vscode.CompletionItem[] | undefined> {
  const node = nodes.active();
  if (!node || !templateId || templateId.split(':').length !== 3 || nodes.status(node).state === 'unreachable') return undefined;
  const ac = new AbortController();
  cancel.onCancellationRequested(() => ac.abort());
  try {
    const parties = (await nodes.facts.readAs(node, undefined, ac.signal)).parties;
    const contracts = await activeContractsOf(nodes.client(node), parties, templateId, ac.signal);
    return contracts.map((c, i) => {
      const item = new vscode.CompletionItem(c.contractId, vscode.CompletionItemKind.Value);
      item.detail = vscode.l10n.t('active on {0} since offset {1}', node.name, c.offset);
      item.documentation = new vscode.MarkdownString().appendCodeblock(JSON.stringify(c.createArgument, null, 2).slice(0, 2_000), 'json');
      item.range = range;
      item.sortText = String(i).padStart(5, '0');
      return item;
    });
  } catch {
    return undefined;
  }
}

export function commandsCompletionProvider(daml: DamlWorkspace, nodes: NodeReader, signatures: NodeSignaturesReader): vscode.CompletionItemProvider {
  return {
    async provideCompletionItems(document, position, cancel) {
      const text = document.getText();
      const key = argumentKeyAt(text, document.offsetAt(position));
      if (key) return argumentKeyItems(daml, nodes, signatures, text, key, new vscode.Range(document.positionAt(key.start), position), cancel);
      const slot = stringValueAt(text, document.offsetAt(position));
      if (!slot || (slot.field !== 'templateId' && slot.field !== 'choice' && slot.field !== 'contractId')) return undefined;
      if (slot.field === 'contractId')
        return contractItems(nodes, templateIdNear(text, slot.start), new vscode.Range(document.positionAt(slot.start), position), cancel);
      const index = await daml.ready(cancel);
      if (cancel.isCancellationRequested) return undefined;
      const range = new vscode.Range(document.positionAt(slot.start), position);
      const item = (c: { label: string; detail: string; file: string; line: number }, kind: vscode.CompletionItemKind) => {
        const i = new vscode.CompletionItem(c.label, kind);
        i.detail = c.detail;
        i.documentation = new vscode.MarkdownString(`${vscode.workspace.asRelativePath(vscode.Uri.parse(c.file))}:${c.line + 1}`);
        i.range = range;
        return i;
      };
      const fromNode = (c: { label: string; detail: string }, kind: vscode.CompletionItemKind, doc?: string) => {
        const i = new vscode.CompletionItem(c.label, kind);
        i.detail = c.detail;
        if (doc) i.documentation = new vscode.MarkdownString().appendCodeblock(doc, 'json');
        i.range = range;
        return i;
      };
      if (slot.field === 'templateId') {
        const own = index ? templateCandidates(index).map((c) => item(c, vscode.CompletionItemKind.Class)) : [];
        const seen = new Set(own.map((i) => i.label));
        const others = lfTemplateCandidates(await nodePackages(nodes, signatures)).filter((c) => !seen.has(c.label));
        return [...own, ...others.map((c) => fromNode(c, c.kind === 'interface' ? vscode.CompletionItemKind.Interface : vscode.CompletionItemKind.Class))];
      }
      const templateId = templateIdNear(text, slot.start);
      if (!templateId) return undefined;
      const own = index ? choiceCandidates(index, templateId, damlFileText).map((c) => item(c, vscode.CompletionItemKind.Method)) : [];
      if (own.length > 0) return own;
      const sigs = await nodePackages(nodes, signatures);
      return lfChoiceCandidates(sigs, templateId).map((c) => {
        const skeleton = lfArgumentSkeleton(sigs, templateId, c.label, actAsOf(text));
        const doc = skeleton && [JSON.stringify(skeleton.value, null, 2), ...skeleton.notes.map((n) => `// ${n}`)].join('\n');
        return fromNode(c, vscode.CompletionItemKind.Method, doc);
      });
    },
  };
}
