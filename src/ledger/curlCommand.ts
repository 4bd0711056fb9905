// "Copy as cURL": a request the extension sent, as a command line for a POSIX shell, with the
// token left to the shell (`$TOKEN`). Pure (no `vscode`): the quoting and the token's absence are
// tested in the fast tier.
import { scrubCredentials } from './ledgerApiError';

export interface CurlRequest {
  method: string;
  /** The whole URL: the node's base with its path prefix, the path and any query. */
  url: string;
  /** The JSON body as sent, if any. */
  body?: string;
  /** Whether the request carried a bearer token (it is then sent as `$TOKEN`). */
  authenticated: boolean;
}

const REPLACED = '[token]';

/**
 * The request as `curl …`: method, URL, the accept and content-type headers, `Authorization:
 * Bearer $TOKEN` when a token was sent, and the body. Every value is single-quoted, so nothing in
 * it (quotes, `$(…)`, backticks, newlines) is read by the shell. `secrets` (the node's token, its
 * client secret) and anything that looks like a credential are replaced by `[token]` wherever they
 * appear, and a comment line says so: the copy never holds a token.
 */
export function curlCommand(r: CurlRequest, secrets: readonly (string | undefined)[] = []): string {
  let replaced = 0;
  const clean = (s: string): string => {
    let out = s;
    for (const secret of secrets) {
      if (!secret || secret.length < 8 || !out.includes(secret)) continue;
      replaced++;
      out = out.split(secret).join(REPLACED);
    }
    const scrubbed = scrubCredentials(out);
    if (scrubbed !== out) replaced++;
    return scrubbed;
  };
  const method = /^[A-Z]+$/.test(r.method) ? r.method : 'GET';
  const url = clean(r.url);
  const body = r.body === undefined ? undefined : clean(r.body);
  const lines = [`curl -sS${method === 'GET' ? '' : ` -X ${method}`} ${shellQuote(url)}`, `-H ${shellQuote('Accept: application/json')}`];
  if (body !== undefined) lines.push(`-H ${shellQuote('Content-Type: application/json')}`);
  // Double quotes only here: the shell puts in the token from its own environment.
  if (r.authenticated) lines.push('-H "Authorization: Bearer $TOKEN"');
  if (body !== undefined) lines.push(`--data-raw ${shellQuote(body)}`);
  const command = lines.join(' \\\n  ');
  return replaced > 0
    ? `# Canton Lens replaced what looked like a credential with ${REPLACED}; put it back by hand if the node needs it.\n${command}`
    : command;
}

/**
 * One POSIX shell word: single quotes, inside which every character is literal, with each `'`
 * written as `'\''`. A NUL byte cannot be in a shell word; JSON writes it `\u0000`, so that is what
 * it becomes (JSON bodies never hold a raw one).
 */
export function shellQuote(s: string): string {
  return `'${s.replace(/\0/g, '\\u0000').replace(/'/g, `'\\''`)}'`;
}

/** The URL a client sends `path` to: the base URL's path prefix, then the path (as the client builds it). */
export function requestUrl(baseUrl: string | URL, path: string): string {
  const base = new URL(String(baseUrl));
  return new URL(base.pathname.replace(/\/$/, '') + path, base).toString();
}
