// The browse bench's pages in Chromium: served as a webview serves them, fed as the extension feeds
// them, watched for long tasks.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { followUpdates, UpdatesCursor, type UpdatesFetch } from '../../src/browse/updatesFollower';
import type { UpdateRow } from '../../src/protocol/updateRows';
import { rowsMessages } from '../../src/protocol/updatesMessages';
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

/**
 * Follow Updates for `seconds` while the fake node commits 1,000 updates a second, its rows sent to
 * the page as the panel sends them (a long batch in a few messages, one after the other); then until
 * the follower has the node's last offset (10 s at most). The offsets committed: `start` to `end`.
 */
export async function followIntoPage(o: {
  node: FakeLedgerNode;
  page: Page;
  fetch: UpdatesFetch;
  seconds: number;
  onRows?: (rows: UpdateRow[]) => void;
}): Promise<{ start: number; end: number; cursor: UpdatesCursor }> {
  const start = o.node.generated.ledgerEnd();
  o.node.generated.setRate(1000);
  const cursor = new UpdatesCursor(start);
  const ac = new AbortController();
  let pending = Promise.resolve();
  const done = followUpdates({
    fetch: o.fetch,
    cursor,
    signal: ac.signal,
    pollMs: 100,
    onRows: (rows, position) => {
      o.onRows?.(rows);
      for (const message of rowsMessages(rows, position)) pending = pending.then(() => postToPage(o.page, message)).then(() => undefined);
    },
    onState: () => undefined,
  });
  await new Promise((r) => setTimeout(r, o.seconds * 1000));
  o.node.generated.setRate(0);
  const end = o.node.generated.ledgerEnd();
  const deadline = Date.now() + 10_000;
  while (cursor.position < end && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  ac.abort();
  await done;
  await pending;
  // The page shows rows that came in together, a little later: until it has shown them all (asked
  // with evaluate: Playwright's first waitForFunction puts a script into the page, itself a long task).
  const allShown = () =>
    o.page.evaluate(() => {
      const u = (window as unknown as { cantonUpdates: { received: number; shown: number; dropped: number } }).cantonUpdates;
      return u.received === u.shown + u.dropped;
    });
  while (!(await allShown())) await new Promise((r) => setTimeout(r, 50));
  return { start, end, cursor };
}
