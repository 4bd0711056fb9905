// A fake node for the tests of prepare, sign and execute: every answer checked against the spec,
// one external party that signs with a development key, and clients that send a user's token.
import { knowExternalParty } from '../../fake-ledger/src/interactiveSubmissions';
import { FakeLedgerNode, type FakeLedgerNodeOptions } from '../../fake-ledger/src/testing';
import { generateDevKey, type DevKeyPair } from '../../src/execute/signingKeys';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';

export interface ExternalParty {
  key: DevKeyPair;
  /** `<hint>::<the key's fingerprint>`. */
  party: string;
}

/** A new development key and the external party it signs for (known before any node starts, for `extraUsers`). */
export function externalParty(hint: string): ExternalParty {
  const key = generateDevKey();
  return { key, party: `${hint}::${key.fingerprint}` };
}

export interface ExternalPartyNode {
  node: FakeLedgerNode;
  /** A client as `wallet`, who prepares and executes for any party (canExecuteAsAnyParty). */
  client: LedgerClient;
  /** A client as another user; closed by `close`. */
  clientAs(user: string): LedgerClient;
  /** Closes every client, then the node. */
  close(): Promise<void>;
}

/** Starts a fake node (checked answers, one event per big transaction) that knows `external`'s key. */
export async function startExternalPartyNode(external: ExternalParty, options: FakeLedgerNodeOptions = {}): Promise<ExternalPartyNode> {
  const node = await FakeLedgerNode.start({ bigTransactionEvents: 1, checkResponses: true, ...options });
  knowExternalParty(node.ledger, external.party, Buffer.from(external.key.publicKey, 'base64'));
  const clients: LedgerClient[] = [];
  const clientAs = (user: string) => {
    const c = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken(user) });
    clients.push(c);
    return c;
  };
  return {
    node,
    client: clientAs('wallet'),
    clientAs,
    close: async () => {
      for (const c of clients) await c.close();
      await node.close();
    },
  };
}
