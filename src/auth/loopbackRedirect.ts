// The loopback redirect of a native app's sign-in (RFC 8252 §7.3): a one-shot HTTP server on
// 127.0.0.1 at a free port, which takes the provider's redirect and tells the browser to return to
// the editor. Its page holds no request data, so nothing from the URL is ever echoed as markup.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as l10n from '../l10n/l10n';

/** Where the browser comes back after sign-in: its URI, and the parameters it brought. */
export interface RedirectReceiver {
  readonly redirectUri: string;
  /** The redirect's query parameters; rejects when cancelled. */
  wait(signal?: AbortSignal): Promise<URLSearchParams>;
  dispose(): void;
}

const CALLBACK_PATH = '/callback';

function page(title: string, text: string): string {
  // Static text only: the l10n strings are the extension's own, escaped all the same.
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${esc(title)}</h1><p>${esc(text)}</p></body></html>`;
}

export async function startLoopbackRedirect(): Promise<RedirectReceiver> {
  let deliver: ((params: URLSearchParams) => void) | undefined;
  const arrived = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  let done = false;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH || done) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    done = true;
    const failed = url.searchParams.has('error');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    res.end(
      failed
        ? page(l10n.t('Sign-in did not complete'), l10n.t('Return to VS Code to see why.'))
        : page(l10n.t('Signed in to Canton Lens'), l10n.t('You can close this tab and return to VS Code.')),
    );
    deliver!(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const dispose = () => {
    server.closeAllConnections?.();
    server.close();
  };
  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    wait: (signal) =>
      new Promise<URLSearchParams>((resolve, reject) => {
        const onAbort = () => reject(signal!.reason instanceof Error ? signal!.reason : new Error('cancelled'));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        void arrived.then((p) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(p);
        });
      }),
    dispose,
  };
}
