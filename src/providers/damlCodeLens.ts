// From the code to the ledger: above each `template` of a .daml file, how many of its
// contracts are active on the active node and how many were created in the last 24 hours; a click
// opens the Active Contracts table filtered to it. A hover on a template name says the same with
// the latest contracts as links. VS Code asks only for visible editors; counts are cached per
// template and node identity, asked only once typing has paused, and never when no node is active
// or `cantonLens.codeLens.enabled` is off. damlRegistration.ts registers it at activation for
// .daml files.
import * as vscode from 'vscode';
import { countTitle, packageNameRef, type TemplateCount } from '../daml/templateCounts';
import { scanDamlSource, type DamlFileSymbols } from '../daml/damlSource';
import { codeSpan, escapeMarkdown } from '../lookups/hoverMarkdown';
import { shortId } from '../ids/ledgerIds';
import type { DamlLedgerCounts } from '../services/damlLedgerCounts';
import type { DamlWorkspace } from '../services/damlWorkspace';
import type { NodeReader } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';

/** Counts are asked once the document has not changed for this long. */
const QUIET_MS = 400;
const HOVER_WAIT_MS = 1500;
/** A lens waits this long for its counts, then says it is counting and is provided again once they arrive. */
const RESOLVE_WAIT_MS = 250;

const enabled = () => vscode.workspace.getConfiguration('cantonLens').get<boolean>('codeLens.enabled', true);

class TemplateLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly uri: string,
    readonly entity: string,
    readonly ref: string | undefined,
    readonly refs: string[],
  ) {
    super(range);
  }
}

interface TemplateRefs {
  symbols: DamlFileSymbols;
  module: string;
  packageName?: string;
  refs: Map<string, string>;
}

export class DamlCodeLensProvider implements vscode.CodeLensProvider<vscode.CodeLens>, vscode.HoverProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly symbols = new Map<string, { version: number; symbols: DamlFileSymbols }>();
  private readonly lastEdit = new Map<string, number>();
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Counts being read for lenses that said "counting…" (by their refs). */
  private readonly counting = new Set<string>();

  constructor(
    private readonly nodes: NodeReader,
    private readonly daml: DamlWorkspace,
    private readonly counts: DamlLedgerCounts,
  ) {
    // Lenses are provided again only when what they show could change: a new set of lenses
    // replaces VS Code's command cache, and a click on a lens being replaced finds no command.
    const refresh = (always: boolean) => {
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => void this.refreshIfChanged(always), 300);
    };
    this.disposables.push(
      this.changed,
      nodes.onDidChange(() => refresh(false)),
      // Refresh asks the node afresh: the counts too.
      nodes.onDidRequestRefresh(() => refresh(true)),
      daml.onDidChange(() => refresh(true)),
      // Its own setting; node settings reach it through the node registry (nodes.onDidChange).
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cantonLens.codeLens.enabled')) refresh(true);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && e.document.uri.path.endsWith('.daml')) this.lastEdit.set(e.document.uri.toString(), Date.now());
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.symbols.delete(d.uri.toString());
        this.lastEdit.delete(d.uri.toString());
      }),
    );
  }

  /** The active node and who asks on it, as last provided. */
  private shownFor: string | undefined;

  private async refreshIfChanged(always: boolean): Promise<void> {
    const identity = await this.counts.askingIdentity().catch(() => undefined);
    if (!always && identity === this.shownFor) return;
    this.shownFor = identity;
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const d of this.disposables) d.dispose();
  }

  private symbolsOf(doc: vscode.TextDocument): DamlFileSymbols {
    const key = doc.uri.toString();
    const cached = this.symbols.get(key);
    if (cached && cached.version === doc.version) return cached.symbols;
    const symbols = scanDamlSource(doc.getText());
    this.symbols.set(key, { version: doc.version, symbols });
    return symbols;
  }

  /** The file's templates as `#<package name>:Module:Entity`, when its daml.yaml names the package. */
  private async templateRefs(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<TemplateRefs | undefined> {
    if (!(await this.daml.ready(token))) return undefined;
    const symbols = this.symbolsOf(doc);
    const module = symbols.module ?? this.daml.index.file(doc.uri.toString())?.module ?? 'Main';
    const packageName = this.daml.projectOf(doc.uri)?.name;
    const refs = new Map<string, string>();
    if (packageName) for (const d of symbols.decls) if (d.kind === 'template') refs.set(d.name, packageNameRef(packageName, module, d.name));
    return packageName ? { symbols, module, packageName, refs } : { symbols, module, refs };
  }

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!enabled() || !this.nodes.active()) return [];
    this.shownFor ??= await this.counts.askingIdentity().catch(() => undefined);
    const r = await this.templateRefs(doc, token);
    if (!r || token.isCancellationRequested) return [];
    const all = [...r.refs.values()];
    const templates = r.symbols.decls
      .filter((d) => d.kind === 'template')
      .map((d) => new TemplateLens(new vscode.Range(d.line, 0, d.line, d.column + d.name.length), doc.uri.toString(), d.name, r.refs.get(d.name), all));
    // Above each choice of a template: write a request that exercises it on a contract picked from the node.
    const choices = r.symbols.decls
      .filter((d) => d.kind === 'choice' && d.parent && r.refs.has(d.parent))
      .map(
        (d) =>
          new vscode.CodeLens(new vscode.Range(d.line, 0, d.line, d.column + d.name.length), {
            title: vscode.l10n.t('$(play) Exercise on the Ledger…'),
            tooltip: vscode.l10n.t('Write a request that exercises {0} on a {1} contract of the active node, to review and submit', d.name, d.parent ?? ''),
            command: COMMAND.exerciseOnLedger,
            arguments: [{ file: doc.uri.toString(), line: d.line, module: r.module, template: d.parent, choice: d.name, packageName: r.packageName }],
          }),
      );
    return [...templates, ...choices];
  }

  /** Waits until the document has not changed for QUIET_MS; false when cancelled meanwhile. */
  private async quiet(uri: string, token: vscode.CancellationToken): Promise<boolean> {
    for (;;) {
      if (token.isCancellationRequested) return false;
      const wait = (this.lastEdit.get(uri) ?? 0) + QUIET_MS - Date.now();
      if (wait <= 0) return true;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  async resolveCodeLens(lens: vscode.CodeLens, token: vscode.CancellationToken): Promise<vscode.CodeLens> {
    if (!(lens instanceof TemplateLens)) return lens;
    if (!lens.ref) {
      lens.command = { title: vscode.l10n.t("$(info) Canton: no daml.yaml names this file's package, so its contracts cannot be counted"), command: '' };
      return lens;
    }
    if (!(await this.quiet(lens.uri, token))) return lens;
    // Resolving never waits long: VS Code shows the lens it replaces meanwhile, whose command is gone.
    const pending = this.counts.counts(lens.refs);
    const answer = await Promise.race([pending, new Promise<'slow'>((r) => setTimeout(() => r('slow'), RESOLVE_WAIT_MS))]);
    if (answer === 'slow') {
      const key = lens.refs.join('\n');
      if (!this.counting.has(key)) {
        this.counting.add(key);
        // Settled either way (a failed count says so in the next lens), then the lenses are provided again.
        void pending
          .catch(() => undefined)
          .finally(() => {
            this.counting.delete(key);
            this.changed.fire();
          });
      }
      const node = this.nodes.active();
      lens.command = {
        title: vscode.l10n.t('$(sync~spin) Canton: counting on {0}…', node?.name ?? ''),
        command: COMMAND.showActiveContracts,
        arguments: [node?.name, undefined, lens.ref],
      };
      return lens;
    }
    if (!answer) {
      lens.command = { title: vscode.l10n.t('$(info) Canton: no active ledger node'), command: COMMAND.selectNode };
      return lens;
    }
    const open = { command: COMMAND.showActiveContracts, arguments: [answer.node, undefined, lens.ref] };
    if (answer.state === 'error' && answer.noReadRight) {
      // Brief, and a way out: the node that can read (Select Node picks one when none is known).
      const reader = await this.counts.readingNode(answer.node);
      lens.command = {
        title: reader
          ? vscode.l10n.t('$(lock) Canton: no read right on {0} · switch to {1}', answer.node, reader.name)
          : vscode.l10n.t('$(lock) Canton: no read right on {0}', answer.node),
        tooltip: answer.error,
        command: COMMAND.selectNode,
        arguments: reader ? [reader.name] : [],
      };
      return lens;
    }
    if (answer.state === 'error') {
      lens.command = {
        ...open,
        title: vscode.l10n.t('$(warning) Canton: could not count on {0}: {1}', answer.node, answer.error.slice(0, 120)),
        tooltip: answer.error,
      };
      return lens;
    }
    if (answer.unknown.has(lens.ref)) {
      lens.command = {
        title: vscode.l10n.t('$(circle-slash) Canton: not on {0}', answer.node),
        tooltip: vscode.l10n.t(
          '{0} has no package that defines {1}: upload this build of the package (or one with this template) to count its contracts.',
          answer.node,
          lens.ref,
        ),
        command: '',
      };
      return lens;
    }
    const c = answer.counts.get(lens.ref) ?? { active: 0, recent: 0, latest: [] };
    lens.command = {
      ...open,
      title: `$(database) ${vscode.l10n.t('{0} on {1}', countTitle(c, answer.capped), answer.node)}`,
      tooltip: vscode.l10n.t('Active {0} contracts on {1}, as its parties see them: open the table', lens.ref, answer.node),
    };
    return lens;
  }

  async provideHover(doc: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    if (!enabled()) return undefined;
    const range = doc.getWordRangeAtPosition(position, /[A-Z][A-Za-z0-9_']*/);
    if (!range) return undefined;
    const word = doc.getText(range);
    const symbols = this.symbolsOf(doc);
    if (!symbols.decls.some((d) => d.kind === 'template' && d.name === word)) return undefined;
    const link = (label: string, command: string, args: unknown[]) =>
      `[${escapeMarkdown(label)}](command:${command}?${encodeURIComponent(JSON.stringify(args))} "${label}")`;
    const node = this.nodes.active();
    const lines: string[] = [vscode.l10n.t('**Template {0}**', escapeMarkdown(word))];
    if (!node) {
      lines.push('', vscode.l10n.t('No active ledger node: add one to see its contracts.'));
      return new vscode.Hover(new vscode.MarkdownString(lines.join('\n')), range);
    }
    const r = await this.templateRefs(doc, token);
    const ref = r?.refs.get(word);
    if (!r || !ref) {
      if (r) lines.push('', vscode.l10n.t("No daml.yaml names this file's package, so its contracts cannot be counted."));
      return new vscode.Hover(new vscode.MarkdownString(lines.join('\n')), range);
    }
    lines[0] = vscode.l10n.t('**Template {0}** on {1}', codeSpan(ref), escapeMarkdown(node.name));
    const pending = this.counts.counts([...r.refs.values()]);
    const answer = await Promise.race([pending, new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), HOVER_WAIT_MS))]);
    if (answer === 'timeout') lines.push('', vscode.l10n.t('Still counting…'));
    else if (!answer) lines.push('', vscode.l10n.t('No active ledger node.'));
    else if (answer.state === 'error') lines.push('', escapeMarkdown(answer.error));
    else if (answer.unknown.has(ref))
      lines.push('', escapeMarkdown(vscode.l10n.t('{0} has no package that defines this template: upload the package to count its contracts.', answer.node)));
    else lines.push('', ...hoverCounts(answer.counts.get(ref) ?? { active: 0, recent: 0, latest: [] }, answer.capped, answer.node));
    lines.push('', link(vscode.l10n.t('Show active contracts'), COMMAND.showActiveContracts, [node.name, null, ref]));
    const md = new vscode.MarkdownString(lines.join('\n'));
    md.isTrusted = { enabledCommands: [COMMAND.showActiveContracts, COMMAND.showContract] };
    md.supportThemeIcons = true;
    return new vscode.Hover(md, range);

    function hoverCounts(c: TemplateCount, capped: boolean, nodeName: string): string[] {
      const out = [escapeMarkdown(countTitle(c, capped))];
      if (c.latest.length > 0) {
        out.push('', vscode.l10n.t('Latest:'));
        for (const l of c.latest) out.push(`- ${link(shortId(l.contractId), COMMAND.showContract, [l.contractId, nodeName])} ${escapeMarkdown(l.createdAt)}`);
      }
      return out;
    }
  }
}
