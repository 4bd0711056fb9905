// The browse bench's pages in Chromium: served as a webview serves them, fed as the extension feeds
// them, watched for long tasks.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../vscode/vscodeServer';

/** Serves a page and media/ from one origin, like a webview (scripts by nonce under the CSP). */
export async function servePages(pages: Record<string, (origin: string) => string>): Promise<{ origin: string; close: () => void }> {
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/media/')) {
      res.writeHead(200, { 'content-type': url.endsWith('.js') ? 'text/javascript' : 'text/css' });
      return void res.end(fs.readFileSync(path.join(PROJECT_ROOT, 'media', path.basename(url))));
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(pages[url]?.(origin) ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => server.close() };
}

export const pageOptions = (origin: string, script: string) => ({
  nonce: 'bm9uY2U=',
  cspSource: origin,
  scriptUris: [`${origin}/media/${script}`],
  styleUris: [`${origin}/media/panel.css`, `${origin}/media/browse.css`],
  title: 'bench',
  nodeName: 'bench',
  scope: 'bench',
});

/** Long tasks (> 50 ms) the page sees from now on. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}
/** Sends a message as a webview receives one: serialized once, parsed in the page, then dispatched. */
export const postToPage = (page: Page, message: unknown) => page.evaluate((text) => window.postMessage(JSON.parse(text), '*'), JSON.stringify(message));
export const longestTask = (page: Page) => page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: number[] }).longTasks));
