// Signs in on the test provider's own pages over plain HTTP, as a person in a browser would:
// follows redirects with the provider's cookies, fills each page's form (user code, login and
// password, consent) and submits it, until the provider redirects to `stopAt` (the loopback
// redirect, which is then called) or shows a page without a form (the device flow's "done").
// The Chromium UI test does the same in a real browser. Plain node:http: the extension host's
// `fetch` follows browser rules, where a manual redirect hides its location.
import { request as httpRequest } from 'node:http';

interface Reply {
  status: number;
  location?: string;
  cookies: string[];
  body: string;
}

function send(url: string, method: string, cookie: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { cookie };
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          cookies: res.headers['set-cookie'] ?? [],
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface LoginAnswers {
  login: string;
  password?: string;
  userCode?: string;
  /** Press the "Abort" of the device confirmation, or decline consent. */
  decline?: boolean;
}

interface Form {
  action: string;
  fields: [string, string][];
}

function parseForm(html: string): Form | undefined {
  const m = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!m) return undefined;
  const action = /action="([^"]*)"/i.exec(m[1])?.[1];
  if (action === undefined) return undefined;
  const fields: [string, string][] = [];
  for (const input of m[2].matchAll(/<input\b([^>]*)>/gi)) {
    const name = /name="([^"]*)"/i.exec(input[1])?.[1];
    if (!name) continue;
    fields.push([name, /value="([^"]*)"/i.exec(input[1])?.[1] ?? '']);
  }
  return { action: action.replace(/&amp;/g, '&'), fields };
}

/**
 * code-server's port proxy, which its VS Code build names in asExternalUri (`/proxy/<port>/…` to
 * 127.0.0.1:<port>/…): the tests' server is that build without code-server's routes around it.
 */
function throughPortProxy(url: string): string {
  return url.replace(/^http:\/\/127\.0\.0\.1:\d+\/proxy\/(\d+)\//, 'http://127.0.0.1:$1/');
}

/** Returns the last URL reached (the redirect with `code` and `state`, or the final page's). */
export async function signInOnProviderPages(startUrl: string, answers: LoginAnswers, stopAt?: string): Promise<{ url: string; body: string }> {
  const cookies = new Map<string, string>();
  let url = startUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 30; step++) {
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (stopAt && url.startsWith(stopAt)) return { url, body: (await send(throughPortProxy(url), 'GET', '')).body };
    const res = await send(url, method, cookie, body);
    for (const c of res.cookies) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    if (res.status >= 300 && res.status < 400 && res.location) {
      url = new URL(res.location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = res.body;
    const form = parseForm(html);
    if (!form) return { url, body: html };
    const values = new URLSearchParams();
    for (const [name, value] of form.fields) {
      if (name === 'login') values.set(name, answers.login);
      else if (name === 'password') values.set(name, answers.password ?? 'password');
      else if (name === 'user_code') values.set(name, answers.userCode ?? value);
      else values.set(name, value);
    }
    if (answers.decline && /deviceConfirmForm/.test(html)) values.set('abort', 'yes');
    if (answers.decline && /name="prompt" value="consent"/.test(html)) {
      url = new URL(form.action.replace(/\/confirm$/, '/abort'), url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    url = new URL(form.action, url).toString();
    method = 'POST';
    body = values.toString();
  }
  throw new Error(`sign-in on the provider's pages did not finish (at ${url})`);
}
