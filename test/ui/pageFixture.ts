/// <reference lib="dom" />
// What every test of a panel page alone sets up and tears down, in one place: Debian's Chromium, a
// loopback server of pages rendered by the real renderers and page script (panelPageServer.ts), a
// stand-in for the webview API (what the page posts is kept; its state survives a reload, as VS
// Code's does), the CSP violations and dialogs a page caused, and a screenshot of each failed test.
// A describe calls `usePanelPages`, publishes its pages in its own `before`, and opens them in its
// tests. Workbench tests are on useWorkbench (uiFixture.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { lookupActions, type ToolbarAction } from '../../src/panels/html/panelPage';
import { html, type SafeHtml } from '../../src/panels/html/safeHtml';
import type { HostMessage } from '../../src/protocol/panelMessages';
import type { PackedEventRows, PackedTreeRows, RowSource } from '../../src/protocol/transactionRows';
import { panelPageAt, startPanelPageServer, type PanelPageServer } from '../support/panelPageServer';
import { CHROMIUM, CHROMIUM_FLAGS } from '../vscode/vscodeServer';
import { SCREENSHOT_DIR } from './workbench';

/** A message a page posted to the extension: its type and the fields tests read. */
export type Posted = { type: string; id?: string; source?: 'events' | 'tree'; index?: number; requestId?: number; from?: number };

export interface Viewport {
  width: number;
  height: number;
}

/** What a test reads of an open page besides the page itself. */
export interface PageRecord {
  /** What the page posted since it was (re)loaded, in order. */
  messages(): Promise<Posted[]>;
  /** Forgets what the page posted so far (say, once answered). */
  clearMessages(): Promise<void>;
  /** The CSP violations since the page was (re)loaded, as "directive blocked-uri". */
  violations(): Promise<string[]>;
  /** The dialogs the page opened (each dismissed). */
  dialogs(): string[];
  /** The state the page kept (setState), across reloads; null if none. */
  savedState<S = unknown>(): Promise<S | null>;
  /** Resolves once the page has said it is ready (after `open` it has; after a reload, wait for it). */
  ready(): Promise<void>;
}
export type PanelPage = Page & PageRecord;

export interface PublishOptions {
  title?: string;
  /** The node the toolbar names. */
  nodeName?: string;
  /** The toolbar: a lookup panel's, with an answer, by default. */
  actions?: ToolbarAction[];
  /** The navigation rendered with the page (a page that is not sent its content), as the page keeps it. */
  state?: unknown;
  /** Answers the page's requests for rows (of the event table or the tree) as LookupPanel does (without it, a test answers them itself). */
  eventRows?: RowsAnswerer;
}

export interface PanelPages {
  /** Serves a panel page around `body` under `name`. */
  publish(name: string, body: SafeHtml, options?: PublishOptions): void;
  /** Serves a whole page under `name`, rendered for the server's origin (the Active Contracts and Follow Updates pages). */
  publishPage(name: string, render: (origin: string) => string): void;
  /** Opens a published page in a new tab, once it has said it is ready. */
  open(name: string, viewport?: Viewport): Promise<PanelPage>;
  /** Delivers a message of the extension to the page. */
  post(page: Page, message: HostMessage): Promise<void>;
}

/** The rows of `source` from `from` on, as the extension answers them. */
export type RowsAnswerer = (from: number, source: RowSource) => PackedEventRows | PackedTreeRows | undefined;

type Recorded = {
  __messages: Posted[];
  __violations: string[];
  acquireVsCodeApi: unknown;
  __eventRows?: (from: number, source: RowSource) => Promise<string>;
};

/** Registers the describe's before, afterEach and after hooks; pages may be published once `before` has run. */
export function usePanelPages(o: { viewport?: Viewport } = {}): PanelPages {
  let server: PanelPageServer | undefined;
  let browser: Browser | undefined;
  /** The pages opened by the running test, closed after it. */
  const opened: Page[] = [];
  /** Who answers each published page's requests for event rows. */
  const rowsOf = new Map<string, RowsAnswerer>();

  before(async () => {
    server = await startPanelPageServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  });
  afterEach(async function () {
    const test = this.currentTest;
    const open = opened.splice(0).filter((p) => !p.isClosed());
    if (test?.state === 'failed' && open.length > 0) {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const name = `failed-${test.title.slice(0, 40).replace(/\W+/g, '-')}`;
      for (const [i, page] of open.entries())
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}${i > 0 ? `-${i + 1}` : ''}.png`) }).catch(() => undefined);
    }
    for (const page of open) await page.close().catch(() => undefined);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const ready = (page: Page) => page.waitForFunction(() => (window as unknown as Recorded).__messages.some((m) => m.type === 'ready')).then(() => undefined);

  return {
    publish(name, body, options = {}) {
      if (!server) throw new Error('publish in a before hook or a test: the page server starts in the fixture before');
      if (options.eventRows) rowsOf.set(name, options.eventRows);
      else rowsOf.delete(name);
      const state = options.state === undefined ? html`` : html`<div hidden id="panel-state" data-state="${JSON.stringify(options.state)}"></div>`;
      server.publish(
        name,
        panelPageAt(server.origin, html`${body}${state}`, options.actions ?? lookupActions({ canGoBack: false, canGoForward: false, hasResult: true }), {
          title: options.title ?? 'Panel',
          nodeName: options.nodeName ?? 'demo',
        }),
      );
    },

    publishPage(name, render) {
      if (!server) throw new Error('publish in a before hook or a test: the page server starts in the fixture before');
      server.publish(name, render(server.origin));
    },

    async open(name, viewport = o.viewport ?? { width: 1200, height: 800 }) {
      if (!browser || !server) throw new Error('open in a test: Chromium starts in the fixture before');
      const page = await browser.newPage({ viewport });
      opened.push(page);
      const rows = rowsOf.get(name);
      // As JSON text, as VS Code carries a message.
      if (rows) await page.exposeFunction('__eventRows', (from: number, source: RowSource) => JSON.stringify({ rows: rows(from, source) }));
      await page.addInitScript(() => {
        const w = window as unknown as Recorded;
        w.__messages = [];
        w.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
        w.acquireVsCodeApi = () => ({
          postMessage: (m: Posted) => {
            w.__messages.push(m);
            if (m.type === 'eventRows' && w.__eventRows)
              void w
                .__eventRows(m.from!, m.source as RowSource)
                .then((json) => window.postMessage({ type: 'eventRows', requestId: m.requestId, source: m.source, ...(JSON.parse(json) as object) }, '*'));
          },
          setState: (s: unknown) => sessionStorage.setItem('state', JSON.stringify(s)),
          getState: () => JSON.parse(sessionStorage.getItem('state') ?? 'null') as unknown,
        });
      });
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const record: PageRecord = {
        messages: () => page.evaluate(() => (window as unknown as Recorded).__messages),
        clearMessages: () => page.evaluate(() => void ((window as unknown as Recorded).__messages.length = 0)),
        violations: () => page.evaluate(() => (window as unknown as Recorded).__violations),
        dialogs: () => [...dialogs],
        savedState: <S>() => page.evaluate(() => JSON.parse(sessionStorage.getItem('state') ?? 'null') as S | null),
        ready: () => ready(page),
      };
      await page.goto(`${server.origin}/page/${name}`);
      await ready(page);
      return Object.assign(page, record);
    },

    post: (page, message) => page.evaluate((m) => window.postMessage(m, '*'), message),
  };
}
