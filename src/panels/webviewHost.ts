// The one base of every webview panel: creation beside the editor (or adoption of a panel VS Code
// restored after a reload), the page shell set once, one ready handshake, typed messages both ways
// checked where they arrive, and nothing posted after disposal. What a page shows arrives as
// messages; a page script is a TypeScript module of src/webview/ bundled into media/.
import * as vscode from 'vscode';
import { newNonce } from './randomIds';

/** What a page shell needs: the script nonce, the CSP source, and the URI of a media file. */
export interface PageShellContext {
  nonce: string;
  cspSource: string;
  media: (file: string) => string;
}

export interface WebviewHostOptions<FromPage> {
  viewType: string;
  title: string;
  extensionUri: vscode.Uri;
  column?: vscode.ViewColumn;
  /** A panel VS Code restored after a reload (its serializer's), adopted instead of a new one. */
  restored?: vscode.WebviewPanel;
  enableFindWidget?: boolean;
  /**
   * Keep the page alive while its tab is hidden. Only for a page whose state is too big to save or
   * send again (rows the extension does not keep); otherwise a hidden page is unloaded and says ready again.
   */
  retainContextWhenHidden?: boolean;
  /** The page's HTML, set once. */
  shell: (context: PageShellContext) => string;
  /** The page's messages, checked: anything else it sends is dropped (a page is untrusted input). */
  parse: (raw: unknown) => FromPage | undefined;
}

/** The options a panel's webview needs (also for a serializer restoring one). */
export function webviewOptions(
  extensionUri: vscode.Uri,
  enableFindWidget = false,
  retainContextWhenHidden = false,
): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, retainContextWhenHidden, enableFindWidget, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')] };
}

/**
 * The editor group Canton Lens's panels share, as the Markdown preview's: a group that holds one
 * already (the active one first), else undefined (a new panel opens beside the editor, once).
 */
export function panelGroupColumn(): vscode.ViewColumn | undefined {
  const ours = (g: vscode.TabGroup) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('cantonLens.'));
  const active = vscode.window.tabGroups.activeTabGroup;
  if (ours(active)) return active.viewColumn;
  return vscode.window.tabGroups.all.find(ours)?.viewColumn;
}

/**
 * How long a shown page may take to say it loaded before its HTML is set again: a browser's webview
 * can fail to start (its resource service worker, on a loaded machine) and would stay blank. Twice at most.
 */
const LOAD_PATIENCE_MS = [10_000, 20_000];

export abstract class WebviewHost<ToPage extends { type: string }, FromPage extends { type: string }> implements vscode.Disposable {
  protected readonly panel: vscode.WebviewPanel;
  private ready = false;
  private disposed = false;
  /** Posted before the page said it was ready: sent, in order, when it does. */
  private readonly queued: ToPage[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private loadTimer: ReturnType<typeof setTimeout> | undefined;
  private reloads = 0;

  constructor(private readonly options: WebviewHostOptions<FromPage>) {
    const column = options.column ?? panelGroupColumn() ?? vscode.ViewColumn.Beside;
    this.panel =
      options.restored ??
      vscode.window.createWebviewPanel(
        options.viewType,
        options.title,
        column,
        webviewOptions(options.extensionUri, options.enableFindWidget, options.retainContextWhenHidden),
      );
    if (options.restored) this.panel.webview.options = webviewOptions(options.extensionUri, options.enableFindWidget, options.retainContextWhenHidden);
    this.panel.iconPath = vscode.Uri.joinPath(options.extensionUri, 'media', 'icon.png');
    this.subscriptions.push(
      this.panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      // A hidden page is unloaded (unless its context is retained): it says ready again when shown.
      this.panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible && !options.retainContextWhenHidden) this.ready = false;
        if (e.webviewPanel.visible) this.watchLoad();
      }),
      this.panel.onDidDispose(() => this.disposeHost()),
    );
    this.setShell();
  }

  /** Times the page loaded again because it never said it had (tests read it). */
  get pageReloads(): number {
    return this.reloads;
  }

  private setShell(): void {
    const webview = this.panel.webview;
    webview.html = this.options.shell({
      nonce: newNonce(),
      cspSource: webview.cspSource,
      media: (f) => webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, 'media', f)).toString(),
    });
    this.watchLoad();
  }

  /** While the page is shown and has not said it loaded, loads it again after a while. */
  private watchLoad(): void {
    clearTimeout(this.loadTimer);
    if (this.ready || this.disposed || this.reloads >= LOAD_PATIENCE_MS.length) return;
    this.loadTimer = setTimeout(() => {
      // A hidden page loads when it is shown again, and is watched from then.
      if (this.ready || this.disposed || !this.panel.visible) return;
      this.reloads++;
      this.setShell();
    }, LOAD_PATIENCE_MS[this.reloads]);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  get onDidDispose(): vscode.Event<void> {
    return this.panel.onDidDispose;
  }

  get webviewPanel(): vscode.WebviewPanel {
    return this.panel;
  }

  reveal(column?: vscode.ViewColumn): void {
    if (!this.disposed) this.panel.reveal(column ?? this.panel.viewColumn ?? this.options.column ?? vscode.ViewColumn.Beside);
  }

  dispose(): void {
    this.panel.dispose();
  }

  /** Resolves once the page has loaded and said so (at once if it has, or the panel is gone). */
  whenReady(): Promise<void> {
    return this.ready || this.disposed ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }

  /** A message to the page; before the page is ready it waits for it. Never after disposal. */
  protected post(message: ToPage): void {
    void this.postTaken(message);
  }

  /**
   * The same, resolving once VS Code has taken the message to the page (at once when it waits for
   * the page or the panel is gone; never rejects). A sender of many large messages waits on it so
   * they do not pile up in the extension host while the page is slower than the reading.
   */
  protected postTaken(message: ToPage): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (!this.ready) {
      this.queued.push(message);
      return Promise.resolve();
    }
    // The webview getter throws once the panel is disposed by VS Code between the check and here.
    try {
      return Promise.resolve(this.panel.webview.postMessage(message)).then(
        () => undefined,
        () => undefined,
      );
    } catch {
      return Promise.resolve(); // disposed
    }
  }

  /** Drops what waits for the page (the subclass sends its whole state again in `onReady`). */
  protected clearQueue(): void {
    this.queued.length = 0;
  }

  /** The page loaded (again, after it was hidden): send what it should show. */
  protected onReady(): void {
    // Nothing by default.
  }

  /** A message the page may send, already checked. */
  protected abstract onMessage(message: FromPage): void | Promise<void>;

  /** Disposed with the panel. */
  protected track(...disposables: vscode.Disposable[]): void {
    if (this.disposed) for (const d of disposables) d.dispose();
    else this.subscriptions.push(...disposables);
  }

  private receive(raw: unknown): void {
    const message = this.options.parse(raw);
    if (!message || this.disposed) return;
    if (message.type === 'ready') {
      this.ready = true;
      clearTimeout(this.loadTimer);
      this.onReady();
      for (const m of this.queued.splice(0)) this.post(m);
      for (const resolve of this.waiting.splice(0)) resolve();
    }
    const failed = (e: unknown) => void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    // A handler that throws at once is shown as one that rejects.
    try {
      void Promise.resolve(this.onMessage(message)).catch(failed);
    } catch (e) {
      failed(e);
    }
  }

  private disposeHost(): void {
    this.disposed = true;
    clearTimeout(this.loadTimer);
    this.queued.length = 0;
    for (const resolve of this.waiting.splice(0)) resolve();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
