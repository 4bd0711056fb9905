// The one base of panels that keep their page: creation beside the editor, the page shell set
// once, content as messages (nothing reloads, nothing the person opened closes), one ready
// handshake, typed messages both ways checked where they arrive, and nothing posted after
// disposal. The page script is media/panel.js (src/webview/panel.ts).
import * as vscode from 'vscode';
import { html, type SafeHtml } from './html/safeHtml';
import { renderPanelPage, type ToolbarAction } from './html/panelPage';
import { parsePageMessage, type HostMessage, type PageMessage } from './panelMessages';
import { newNonce } from './randomIds';
import { classifyLedgerId } from '../ids/ledgerIds';
import type { TransactionShape } from '../lookups/ledgerLookups';
import type { LedgerPanels } from './ledgerPanel';

export interface WebviewHostOptions {
  viewType: string;
  title: string;
  extensionUri: vscode.Uri;
  nodeName: string;
  actions: ToolbarAction[];
  column?: vscode.ViewColumn;
}

export abstract class WebviewHost implements vscode.Disposable {
  protected readonly panel: vscode.WebviewPanel;
  private ready = false;
  private disposed = false;
  /** The latest content: posted when the page says it is ready (again, after a hidden page was reloaded). */
  private latest: string | undefined;
  private readonly waiting: (() => void)[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly options: WebviewHostOptions,
    body: SafeHtml,
  ) {
    this.panel = vscode.window.createWebviewPanel(options.viewType, options.title, options.column ?? vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(options.extensionUri, 'media')],
    });
    this.panel.iconPath = vscode.Uri.joinPath(options.extensionUri, 'media', 'icon.png');
    this.subscriptions.push(
      this.panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      this.panel.onDidDispose(() => this.disposeHost()),
    );
    this.setShell(body);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  get onDidDispose(): vscode.Event<void> {
    return this.panel.onDidDispose;
  }

  reveal(): void {
    if (!this.disposed) this.panel.reveal(this.options.column ?? vscode.ViewColumn.Beside);
  }

  dispose(): void {
    this.panel.dispose();
  }

  /** Resolves once the page has loaded and said so (at once if it has). */
  whenReady(): Promise<void> {
    return this.ready || this.disposed ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }

  /** New content for the page, without reloading it. */
  protected show(body: SafeHtml): void {
    if (this.disposed) return;
    this.latest = body.text;
    if (this.ready) this.post({ type: 'content', html: body.text });
  }

  protected post(message: HostMessage): void {
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  /**
   * What every page's links do: an id opens its panel on the node (a transaction in `shape`), a
   * Daml name its definition, a copy button the clipboard. Other messages: nothing.
   */
  protected async followLink(m: PageMessage, lookups: LedgerPanels, node: string, shape?: TransactionShape): Promise<void> {
    if (m.type === 'openId') {
      if (classifyLedgerId(m.id).kind === 'contract') lookups.show({ kind: 'contract', id: m.id, node });
      else if (/^1220[0-9a-f]{64}$/.test(m.id)) lookups.show({ kind: 'update', id: m.id, node, ...(shape ? { shape } : {}) });
    } else if (m.type === 'openDaml') await vscode.commands.executeCommand('cantonLens.openDamlDefinition', m.templateId, m.choice, m.packageName);
    else if (m.type === 'copy') await vscode.env.clipboard.writeText(m.text);
  }

  /**
   * What the panel read as one identity is not shown to the next: when the node's token changes,
   * `drop` forgets it and the page says why and what to do.
   */
  protected dropOnIdentityChange(identityChanged: vscode.Event<{ node: string }> | undefined, node: string, drop: () => void): void {
    if (!identityChanged) return;
    const subscription = identityChanged((e) => {
      if (e.node !== node || this.disposed) return;
      drop();
      this.show(
        html`<p role="alert">${vscode.l10n.t('The token of {0} changed: what was read here belonged to the one before, and is cleared. Refresh to read as the new one.', node)}</p>`,
      );
    });
    this.subscriptions.push(subscription);
  }

  /** A message the page may send, already checked. */
  protected abstract onMessage(message: PageMessage): void | Promise<void>;

  private setShell(body: SafeHtml): void {
    const webview = this.panel.webview;
    const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, 'media', f)).toString();
    webview.html = renderPanelPage({
      nonce: newNonce(),
      cspSource: webview.cspSource,
      scriptUri: media('panel.js'),
      styleUri: media('panel.css'),
      title: this.options.title,
      nodeName: this.options.nodeName,
      actions: this.options.actions,
      body,
    });
  }

  private receive(raw: unknown): void {
    const message = parsePageMessage(raw);
    if (!message || this.disposed) return;
    if (message.type === 'ready') {
      this.ready = true;
      if (this.latest !== undefined) this.post({ type: 'content', html: this.latest });
      for (const resolve of this.waiting.splice(0)) resolve();
    }
    void Promise.resolve(this.onMessage(message)).catch((e: Error) => vscode.window.showErrorMessage(e.message));
  }

  private disposeHost(): void {
    this.disposed = true;
    for (const resolve of this.waiting.splice(0)) resolve();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
