// The `canton` debug adapter on a loopback socket, driven by the official DAP test client
// (@vscode/debugadapter-testsupport), reading a fake node over real HTTP, with the test
// workspace's Daml files indexed from disk.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { CantonDebugSession, type CantonDebugArgs, type DebugHost } from '../../src/debug/cantonDebugSession';
import { DamlIndex } from '../../src/daml/damlIndex';
import { parseDamlYaml } from '../../src/daml/damlProject';
import type { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { LedgerClient } from '../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../src/ledger/undiciTransport';

const WORKSPACE = path.resolve(__dirname, '../../../test/fixtures/workspace');
export const MODEL = path.join(WORKSPACE, 'daml-model');
export const DAML = (rel: string) => path.join(MODEL, 'daml', rel);

/** The test workspace's Daml projects, indexed as the extension would (files by path, each daml.yaml project). */
export function modelIndex(): DamlIndex {
  const index = new DamlIndex();
  for (const name of ['daml-model', 'daml-holding']) {
    const root = path.join(WORKSPACE, name);
    const project = parseDamlYaml(fs.readFileSync(path.join(root, 'daml.yaml'), 'utf8'), root);
    const walk = (dir: string, rel: string[]) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) walk(file, [...rel, e.name]);
        else if (e.name.endsWith('.daml')) index.setFile(file, fs.readFileSync(file, 'utf8'), project, [...rel, e.name.slice(0, -5)].join('.'));
      }
    };
    walk(path.join(root, 'daml'), []);
  }
  return index;
}

export const HOLDING = (rel: string) => path.join(WORKSPACE, 'daml-holding', 'daml', rel);

/** 1-based line of the first line of a Daml file that holds `text`. */
export function lineOf(file: string, text: string): number {
  const i = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${text} is not in ${file}`);
  return i + 1;
}

export interface DebugHarness {
  port: number;
  client(): Promise<DebugClient>;
  /** Ledger clients opened for sessions (closed at the end). */
  close(): Promise<void>;
}

/** A server of debug sessions on the node, as `user` reading as `parties` (default: the token's any-party right). */
export async function debugHarness(node: FakeLedgerNode, user = 'reader', parties: string[] = [], pageSize = 50, index = modelIndex()): Promise<DebugHarness> {
  const clients: LedgerClient[] = [];
  const debugClients: DebugClient[] = [];
  // One client for every session, as the extension keeps one per node.
  let shared: LedgerClient | undefined;
  const host: DebugHost = {
    connect: async (args: CantonDebugArgs) => {
      const client = (shared ??= new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => node.mintToken(user) }));
      if (!clients.includes(client)) clients.push(client);
      return { nodeName: 'fake', client, parties: args.parties ?? parties, userId: user, pageSize };
    },
    sources: { index: async () => index, pathOf: (f) => f, indexedFileOf: (p) => p },
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    // Small protocol messages, one round trip each: no Nagle delay (the inline adapter has no socket).
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    const session = new CantonDebugSession(host);
    session.setRunAsServer(true);
    session.start(socket, socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    async client() {
      const dc = new DebugClient('node', 'unused', 'canton');
      dc.defaultTimeout = 15_000;
      await dc.start(port);
      (dc as unknown as { _socket?: net.Socket })._socket?.setNoDelay(true);
      // Stopped once: a second disconnect on a closed socket would wait for ever.
      const stop = dc.stop.bind(dc);
      let stopping: Promise<void> | undefined;
      dc.stop = () => (stopping ??= stop());
      debugClients.push(dc);
      return dc;
    },
    async close() {
      for (const dc of debugClients) await dc.stop().catch(() => undefined);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      for (const c of clients) await c.close();
    },
  };
}
