// A node registry over a fake node whose one node "p1" sends the token of `user` (tests of what is
// learned from a node and of what browsing reads as).
import { FakeLedgerNode } from '../../fake-ledger/src/testing';
import type { HttpTransport } from '../../src/ledger/httpTransport';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';
import { NodeRegistry } from '../../src/nodes/nodeRegistry';
import type { NodeConfig } from '../../src/nodes/nodeSettings';

export function registryAs(
  fake: FakeLedgerNode,
  user: string,
  parties?: string[],
  /** The token to send at each request, where a test changes it (default: `user`'s). */
  tokenNow?: () => string,
): { registry: NodeRegistry; node: NodeConfig } {
  const node: NodeConfig = { name: 'p1', url: fake.url, scope: 'user', ...(parties ? { parties } : {}) };
  const minted = fake.mintToken(user);
  const token = tokenNow ?? (() => minted);
  const registry = new NodeRegistry({
    secrets: {
      token: () => Promise.resolve(token()),
      clientSecret: () => Promise.resolve(undefined),
      refreshToken: () => Promise.resolve(undefined),
      storeRefreshToken: () => Promise.resolve(),
    },
    oidcProtocol: () => Promise.reject(new Error('no sign-in here')),
    isTrusted: () => true,
    activeNodeName: () => undefined,
    connection: () => ({ timeoutMs: 5_000 }),
    transport: () => {
      let t: HttpTransport | undefined;
      return () => Promise.resolve((t ??= createUndiciTransport()));
    },
  });
  registry.applySettings([node], []);
  return { registry, node };
}
