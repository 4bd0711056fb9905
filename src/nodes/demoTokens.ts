// The demo launcher's tokens, as the extension reads them from its environment. Pure (no `vscode`).

/** node name → token, as JSON, set by `npm run demo` for the extension host. */
export const DEMO_TOKENS_ENV = 'CANTON_LENS_DEMO_TOKENS';

/** Only nodes on this machine get a token from the environment. */
export { isLoopbackUrl } from '../ledger/loopbackUrl';

/** The tokens named in the environment variable; undefined when it is absent or not a JSON object of strings. */
export function demoTokensFrom(raw: string | undefined): Map<string, string> | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return new Map(Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0));
}

/**
 * The node a started demo ledger is saved as: "Demo Ledger" when that name is free or already
 * points at it, else the first free "Demo Ledger 2", "Demo Ledger 3", … A node of another
 * ledger is never re-pointed (work done on it stays where it was).
 */
export function demoNodeName(base: string, nodes: readonly { name: string; url: string }[], url: string): { name: string; existing: boolean } {
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base} ${i}`;
    const node = nodes.find((n) => n.name === name);
    if (!node) return { name, existing: false };
    if (node.url === url) return { name, existing: true };
  }
}
