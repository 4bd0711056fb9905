// Which proxy a request goes through: VS Code's `http.proxy`, else the usual environment
// variables, except where NO_PROXY says otherwise. A bundled undici does not see VS Code's proxy support.

export interface ProxySources {
  /** VS Code's `http.proxy` setting. */
  httpProxySetting?: string;
  env?: Record<string, string | undefined>;
}

export function proxyFor(target: string, sources: ProxySources): string | undefined {
  const url = new URL(target);
  const env = sources.env ?? {};
  const get = (k: string) => env[k] ?? env[k.toLowerCase()];
  if (bypassed(url, get('NO_PROXY'))) return undefined;
  const proxy = sources.httpProxySetting?.trim() || (url.protocol === 'https:' ? get('HTTPS_PROXY') : undefined) || get('HTTP_PROXY') || get('ALL_PROXY');
  return proxy ? proxy.trim() : undefined;
}

function bypassed(url: URL, noProxy: string | undefined): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!noProxy) return false;
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((rule) => {
      if (rule === '*') return true;
      const [ruleHost, rulePort] = rule.toLowerCase().split(':');
      if (rulePort && rulePort !== (url.port || (url.protocol === 'https:' ? '443' : '80'))) return false;
      const bare = ruleHost.replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}
