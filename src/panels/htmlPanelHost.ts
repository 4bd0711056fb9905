// Panels whose page is media/panel.js (src/webview/panel.ts): a toolbar and a body rendered and
// escaped by the extension (safeHtml), replaced by a `content` message without reloading the page,
// so what the person opened stays open.
import * as vscode from 'vscode';
import { html, type SafeHtml } from './html/safeHtml';
import { renderPanelPage, type ToolbarAction } from './html/panelPage';
import { contentMessage, type BusyMessage, type ContentMessage, type HostMessage, type PageMessage } from '../protocol/panelMessages';
import { classifyLedgerId } from '../ids/ledgerIds';
import type { TransactionShape } from '../lookups/ledgerLookups';
import type { PanelTarget } from './panelTargets';
import { WebviewHost } from './webviewHost';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

/** What opens a lookup panel (LookupPanels): a structural type, so that the lookup panel can stand on this kit. */
export interface LookupOpener {
  show(target: PanelTarget): unknown;
}

export interface HtmlPanelOptions {
  viewType: string;
  title: string;
  extensionUri: vscode.Uri;
  nodeName: string;
  actions: ToolbarAction[];
  column?: vscode.ViewColumn;
  restored?: vscode.WebviewPanel;
  enableFindWidget?: boolean;
}

/** A panel on media/panel.js; `M` is the messages it takes, parsed by `accepts` (acceptedBy in panelMessages.ts). */
export abstract class HtmlPanelHost<M extends PageMessage = PageMessage> extends WebviewHost<HostMessage, M> {
  /** The latest content: posted when the page says it is ready (again, after a hidden page was reloaded). */
  private latest: HostMessage | undefined;
  /** What the page was told of the latest content since (busy, or why it was not replaced): posted after it. */
  private status: BusyMessage | undefined;

  constructor(options: HtmlPanelOptions & { accepts: (raw: unknown) => M | undefined }, body: SafeHtml) {
    super({
      ...options,
      parse: options.accepts,
      shell: ({ nonce, cspSource, media }) =>
        renderPanelPage({
          nonce,
          cspSource,
          scriptUri: media('panel.js'),
          styleUri: media('panel.css'),
          title: options.title,
          nodeName: options.nodeName,
          actions: options.actions,
          body,
        }),
    });
  }

  /** New content for the page (and, if given, a new toolbar), without reloading it. */
  protected show(body: SafeHtml, actions?: ToolbarAction[], state?: unknown): void {
    this.showContent(contentMessage(body.text, { actions, state }));
  }

  /** New content as a whole message (say, with a toolbar that names another node). */
  protected showContent(message: ContentMessage): void {
    if (this.isDisposed) return;
    this.latest = message;
    // New content ends a busy page (the page drops its indicator and note by itself).
    this.status = undefined;
    this.clearQueue();
    this.post(message);
  }

  /** The content shown is being read again (it stays, marked busy), or no longer: `note` says why it was not replaced. */
  protected showBusy(message: BusyMessage): void {
    if (this.isDisposed) return;
    this.status = message;
    this.post(message);
  }

  /** The answer to the page's request `requestId`, to the part of the page that asked (none: nothing to show). */
  protected answer(requestId: number, body: SafeHtml | undefined): void {
    this.post({ type: 'answer', requestId, ...(body ? { html: body.text } : {}) });
  }

  protected override onReady(): void {
    this.clearQueue();
    if (this.latest) this.post(this.latest);
    if (this.latest && this.status) this.post(this.status);
  }

  /**
   * What every page's links do: an id opens its panel on the node (a transaction in `shape`), a
   * Daml name its definition, a copy button the clipboard. Other messages: nothing.
   */
  protected async followLink(m: PageMessage, lookups: LookupOpener, node: string, shape?: TransactionShape): Promise<void> {
    if (m.type === 'openId') {
      if (classifyLedgerId(m.id).kind === 'contract') lookups.show({ kind: 'contract', id: m.id, node });
      else if (/^1220[0-9a-f]{64}$/.test(m.id)) lookups.show({ kind: 'update', id: m.id, node, ...(shape ? { shape } : {}) });
    } else if (m.type === 'openDaml') await runCommand(COMMAND.openDamlDefinition, m.templateId, m.choice, m.packageName);
    else if (m.type === 'copy') await vscode.env.clipboard.writeText(m.text);
  }

  /**
   * What the panel read as one identity is not shown to the next: when the node's token changes,
   * `drop` forgets it and the page says why and what to do.
   */
  protected dropOnIdentityChange(identityChanged: vscode.Event<{ node: string }> | undefined, node: string, drop: () => void): void {
    if (!identityChanged) return;
    this.track(
      identityChanged((e) => {
        if (e.node !== node || this.isDisposed) return;
        drop();
        this.show(
          html`<p role="alert">${vscode.l10n.t('The token of {0} changed: what was read here belonged to the one before, and is cleared. Refresh to read as the new one.', node)}</p>`,
        );
      }),
    );
  }
}
