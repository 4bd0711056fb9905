// A loopback server for panel pages rendered by the real renderers: the page script and style
// from media/ (as a webview serves them), each page at /page/<name>. For Chromium page tests and
// the bench.
import * as fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../vscode/vscodeServer';
import { lookupActions, renderPanelPage, type ToolbarAction } from '../../src/panels/html/panelPage';
import type { SafeHtml } from '../../src/panels/html/safeHtml';

export interface PanelPageServer {
  origin: string;
  /** Serves `html` at `${origin}/page/${name}`. */
  publish(name: string, html: string): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.svg': 'image/svg+xml', '.css': 'text/css', '.png': 'image/png' };

export async function startPanelPageServer(): Promise<PanelPageServer> {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0];
    if (url.startsWith('/media/')) {
      const file = path.join(PROJECT_ROOT, 'media', path.basename(url));
      if (!fs.existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      return void res.end(fs.readFileSync(file));
    }
    const page = pages.get(url.replace('/page/', ''));
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'no such page');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    publish: (name, html) => void pages.set(name, html),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * A panel page with `body`, loading its script and style from `origin` as a webview does (a lookup
 * panel's toolbar by default), its title and toolbar's node `names`.
 */
export function panelPageAt(
  origin: string,
  body: SafeHtml,
  actions: ToolbarAction[] = lookupActions({ canGoBack: false, canGoForward: false, hasResult: true }),
  names: { title: string; nodeName: string } = { title: 'bench', nodeName: 'bench' },
): string {
  return renderPanelPage({
    nonce: 'bm9uY2U=',
    cspSource: origin,
    scriptUri: `${origin}/media/panel.js`,
    styleUri: `${origin}/media/panel.css`,
    ...names,
    actions,
    body,
  });
}
