// Canton: Compare Contracts: two contract ids (the arguments; else the cursor's and a pick from the
// recent lookups, pins first; else typed), compared on one node in a panel of their own. Canton:
// Compare with JSON: one contract's create argument against JSON (an argument, the editor's
// selection, the JSON document), the JSON as what is expected.
import * as vscode from 'vscode';
import type { CommandRegistrar } from './commandRegistrar';
import { parseJsonText } from '../lookups/expectedJson';
import { lookupSummary } from '../lookups/ledgerLookups';
import type { NodeConfig } from '../nodes/nodeSettings';
import { ContractDiffPanel, JsonDiffPanel, type ExpectedJson } from '../panels/contractDiffPanel';
import type { LookupPanels } from '../panels/lookupPanels';
import type { NodeReader } from '../services/ledgerNodes';
import type { LedgerLookupService } from '../services/lookupService';
import type { RecentLookupStore } from '../services/recentLookupStore';
import { idInEditor } from './idAtCursor';
import { nodeNameOf, nodeForCommand } from './nodeArgument';
import { pickRecentOrTypedId } from './recentIdPick';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export interface CompareDeps {
  nodes: NodeReader;
  lookups: LedgerLookupService;
  panels: LookupPanels;
  recent: RecentLookupStore;
  /** The first rows of the open Active Contracts tables. */
  tableContracts: () => readonly { id: string; node: string; detail: string }[];
}

function pickContract(deps: CompareDeps, title: string, except?: string) {
  return pickRecentOrTypedId(deps.recent, {
    kind: 'contract',
    title,
    placeHolder: vscode.l10n.t('A recent contract, or enter an id'),
    except,
    more: deps.tableContracts(),
    // The state a recent contract was seen in may be stale (archived since): asked again first.
    recheck: async (id, nodeName, signal) => {
      const node = deps.nodes.find(nodeName);
      return node ? lookupSummary(await deps.lookups.contract(node, id, { refresh: true, signal })) : undefined;
    },
  });
}

/** The node named, else the one the id was picked on, else the active one, else asked for; undefined (and said why) when none. */
async function nodeFor(deps: CompareDeps, named: string | undefined): Promise<NodeConfig | undefined> {
  const node = named !== undefined ? deps.nodes.find(named) : await nodeForCommand(deps.nodes, undefined, vscode.l10n.t('Compare on which ledger node?'));
  if (!node) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('No ledger node to read the contracts from: add one (Canton: Add Ledger Node) or start the demo ledger.'),
    );
  }
  return node;
}

const isJsonDocument = (d: vscode.TextDocument) => d.languageId === 'json' || d.languageId === 'jsonc' || /\.json$/i.test(d.fileName);

/**
 * The JSON to compare with: the argument (JSON text, or a value); else the editor's selection if
 * it parses; else the whole document if it is JSON. A `problem` says what is wrong and where;
 * `none` that there is nothing to compare with.
 */
function expectedJson(arg: unknown, editor: vscode.TextEditor | undefined): ExpectedJson | { problem: string; at?: vscode.Location } | 'none' {
  const given = vscode.l10n.t('the JSON given to the command');
  if (arg !== undefined && arg !== null && typeof arg !== 'string') return { value: arg, source: given };
  const notJson = (what: string, text: string, doc?: vscode.TextDocument, start = 0): ExpectedJson | { problem: string; at?: vscode.Location } => {
    const parsed = parseJsonText(text);
    if (parsed.ok) return { value: parsed.value, source: what };
    const pos = doc?.positionAt(start + parsed.offset);
    return {
      problem: vscode.l10n.t(
        '{0} is not JSON: {1} (line {2}, column {3}).',
        what,
        parsed.reason,
        pos ? pos.line + 1 : parsed.line,
        pos ? pos.character + 1 : parsed.column,
      ),
      at: doc && pos ? new vscode.Location(doc.uri, pos) : undefined,
    };
  };
  if (typeof arg === 'string') return notJson(given, arg);
  if (!editor) return 'none';
  const doc = editor.document;
  const file = vscode.workspace.asRelativePath(doc.uri);
  const sel = editor.selection;
  const fromSelection = sel.isEmpty ? undefined : notJson(vscode.l10n.t('The selection in {0}', file), doc.getText(sel), doc, doc.offsetAt(sel.start));
  if (fromSelection && 'value' in fromSelection) return { ...fromSelection, source: vscode.l10n.t('selection in {0}', file) };
  if (isJsonDocument(doc)) {
    const whole = notJson(file, doc.getText(), doc);
    if ('value' in whole && fromSelection) return { ...whole, source: vscode.l10n.t('{0}, the whole file (the selection is not JSON)', file) };
    return whole;
  }
  if (fromSelection) return fromSelection;
  // Another language (an untitled editor, say) holding only an object or a list is JSON all the same.
  const parsed = parseJsonText(doc.getText());
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? { value: parsed.value, source: file } : 'none';
}

export function registerCompareCommands(
  context: vscode.ExtensionContext,
  deps: CompareDeps,
  register: CommandRegistrar = vscode.commands.registerCommand,
): void {
  const open = new Set<ContractDiffPanel | JsonDiffPanel>();
  context.subscriptions.push(
    { dispose: () => open.forEach((p) => p.dispose()) },
    register(COMMAND.compareContracts, async (leftArg?: unknown, rightArg?: unknown, nodeArg?: unknown) => {
      const atCursor = idInEditor(vscode.window.activeTextEditor);
      const left =
        typeof leftArg === 'string' && leftArg.trim()
          ? { id: leftArg.trim() }
          : atCursor && 'id' in atCursor && atCursor.kind === 'contract'
            ? { id: atCursor.id }
            : await pickContract(deps, vscode.l10n.t('Compare Contracts: the first contract'));
      if (!left) return undefined;
      const right =
        typeof rightArg === 'string' && rightArg.trim()
          ? { id: rightArg.trim() }
          : await pickContract(deps, vscode.l10n.t('Compare {0}… with', left.id.slice(0, 12)), left.id);
      if (!right) return undefined;
      const named = nodeNameOf(nodeArg) ?? ('node' in right ? right.node : undefined) ?? ('node' in left ? left.node : undefined);
      const node = await nodeFor(deps, named);
      if (!node) return undefined;
      const panel = new ContractDiffPanel(context.extensionUri, deps.lookups, deps.panels, node, left.id, right.id, deps.nodes.onDidChangeIdentity);
      open.add(panel);
      panel.onDidDispose(() => open.delete(panel));
      await panel.load();
      return panel;
    }),
    register(COMMAND.compareWithJson, async (idArg?: unknown, jsonArg?: unknown, nodeArg?: unknown) => {
      const expected = expectedJson(jsonArg, vscode.window.activeTextEditor);
      const givenId = typeof idArg === 'string' && idArg.trim() ? idArg.trim() : undefined;
      // Messages are not awaited: the command returns at once, and their buttons act later.
      if (expected === 'none') {
        const openFile = vscode.l10n.t('Open JSON File…');
        void vscode.window
          .showWarningMessage(
            vscode.l10n.t('Compare with JSON needs JSON: select it in an editor, or open a .json file, then run the command again.'),
            openFile,
          )
          .then(async (pick) => {
            if (pick !== openFile) return;
            const [uri] = (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json'] } })) ?? [];
            if (!uri) return;
            await vscode.window.showTextDocument(uri);
            await runCommand(COMMAND.compareWithJson, givenId, undefined, nodeNameOf(nodeArg));
          })
          .then(undefined, (e: Error) => void vscode.window.showErrorMessage(e.message));
        return undefined;
      }
      if ('problem' in expected) {
        const goTo = vscode.l10n.t('Go to the Error');
        void vscode.window.showErrorMessage(expected.problem, ...(expected.at ? [goTo] : [])).then(
          async (pick) => {
            if (pick !== goTo || !expected.at) return;
            const at = expected.at.range.start;
            await vscode.window.showTextDocument(expected.at.uri, { selection: new vscode.Range(at, at) });
          },
          (e: Error) => void vscode.window.showErrorMessage(e.message),
        );
        return undefined;
      }
      const contract = givenId ? { id: givenId } : await pickContract(deps, vscode.l10n.t('Compare with JSON: the contract'));
      if (!contract) return undefined;
      const node = await nodeFor(deps, nodeNameOf(nodeArg) ?? ('node' in contract ? contract.node : undefined));
      if (!node) return undefined;
      const panel = new JsonDiffPanel(context.extensionUri, deps.lookups, deps.panels, node, contract.id, expected, deps.nodes.onDidChangeIdentity);
      open.add(panel);
      panel.onDidDispose(() => open.delete(panel));
      await panel.load();
      return panel;
    }),
  );
}
