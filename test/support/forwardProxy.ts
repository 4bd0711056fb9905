// A forward proxy for tests over real sockets: tunnels CONNECT and forwards absolute-form requests.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** A forward proxy that tunnels CONNECT and forwards absolute-form requests; counts both. */
export async function startProxy(): Promise<{ url: string; tunnels: string[]; forwarded: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    forwarded.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const up = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  server.on('connect', (req, client: Socket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const up = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up).add(client);
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    forwarded,
    close: () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
