// A loopback OAuth2 token endpoint (client credentials), like Keycloak's or Auth0's, that
// issues tokens the fake ledger node accepts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeClient {
  secret: string;
  /** The Ledger API user the issued tokens are for. */
  user: string;
}

export class FakeTokenEndpoint {
  readonly requests: URLSearchParams[] = [];
  /** Lifetime of issued tokens. */
  expiresInSeconds = 300;
  private readonly server: Server;
  private port = 0;

  private constructor(
    private readonly clients: Record<string, FakeClient>,
    private readonly mint: (user: string, expSeconds: number) => string,
  ) {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        this.requests.push(form);
        const reply = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (req.method !== 'POST' || req.url !== '/realms/canton/protocol/openid-connect/token') return reply(404, { error: 'not_found' });
        if (form.get('grant_type') !== 'client_credentials') return reply(400, { error: 'unsupported_grant_type' });
        const client = this.clients[form.get('client_id') ?? ''];
        if (!client || client.secret !== form.get('client_secret'))
          return reply(401, { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' });
        const exp = Math.floor(Date.now() / 1000) + this.expiresInSeconds;
        reply(200, { access_token: this.mint(client.user, exp), expires_in: this.expiresInSeconds, token_type: 'Bearer', scope: form.get('scope') ?? '' });
      });
    });
  }

  static async start(clients: Record<string, FakeClient>, mint: (user: string, expSeconds: number) => string): Promise<FakeTokenEndpoint> {
    const t = new FakeTokenEndpoint(clients, mint);
    await new Promise<void>((r) => t.server.listen(0, '127.0.0.1', r));
    t.port = (t.server.address() as AddressInfo).port;
    return t;
  }

  get tokenUrl(): string {
    return `http://127.0.0.1:${this.port}/realms/canton/protocol/openid-connect/token`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}
