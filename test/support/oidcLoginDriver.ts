// Signs in on the test provider's own pages over plain HTTP, as a person in a browser would:
// follows redirects with the provider's cookies, fills each page's form (user code, login and
// password, consent) and submits it, until the provider redirects to `stopAt` (the loopback
// redirect, which is then called) or shows a page without a form (the device flow's "done").
// The Chromium UI test does the same in a real browser.

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

/** Returns the last URL reached (the redirect with `code` and `state`, or the final page's). */
export async function signInOnProviderPages(startUrl: string, answers: LoginAnswers, stopAt?: string): Promise<{ url: string; body: string }> {
  const cookies = new Map<string, string>();
  let url = startUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 30; step++) {
    if (stopAt && url.startsWith(stopAt)) {
      const res = await fetch(url);
      return { url, body: await res.text() };
    }
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
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
