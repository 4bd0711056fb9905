// The fake node's websocket channels (AsyncAPI): active contracts and updates, as Canton serves
// them (`JA/Endpoints.scala`: `websocket`, `baseEndpoint`). The token is checked before the
// upgrade (an HTTP error answers a bad one); it comes as `Authorization: Bearer …` or as a
// `jwt.token.<JWT>` entry of `Sec-WebSocket-Protocol`, split on "," and not trimmed, as Canton
// does, so an entry after ", " is not seen; the node answers the subprotocol `daml.ws.auth`. The
// client then publishes one request; the node answers frames, each a JsCantonError or an element,
// and closes normally after the last (a refused request: its error, then the close). No `vscode`.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ErrorReply } from './cantonErrorBodies';
import { invalidArgument } from './cantonErrorBodies';

export interface ChannelHost {
  pathPrefix: string;
  /** The user of an `Authorization` header value, or the node's answer to a bad one. */
  authenticate(authorization: string | undefined): string | ErrorReply;
  /** The request's checks (schema, the JSON layer, rights, semantics), then its stream. */
  open(channel: string, user: string, text: string, signal: AbortSignal): ErrorReply | Iterable<unknown[]> | AsyncIterable<unknown>;
  /** Whether this version has the channel (command-completions: 3.5 and later); unset: every channel. */
  serves?(channel: string): boolean;
  /** Checks a frame against the channel's AsyncAPI schema (when responses are checked). */
  checkFrame?(channel: string, text: string): void;
}

export interface ChannelFaults {
  /** As a proxy that does not pass upgrades: this status answers every upgrade. */
  refuseUpgrades?: number;
  /** Drops the connection of the stream then sending (no close frame) after this many more frames, once. */
  breakAfterFrames?: number;
}

export const CHANNELS = ['/v2/state/active-contracts', '/v2/updates', '/v2/commands/completions', '/v2/commands/command-completions'];

/** The token Canton reads from `Sec-WebSocket-Protocol`: the first entry that starts with `jwt.token.`, untrimmed. */
export function tokenFromProtocols(header: string | undefined): string | undefined {
  const prefix = 'jwt.token.';
  return (header ?? '')
    .split(',')
    .filter((p) => p.startsWith(prefix))
    .map((p) => p.slice(prefix.length))[0];
}

function refuse(socket: Duplex, status: number, body: string, contentType = 'application/json'): void {
  const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Error';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export class WebsocketChannels {
  private readonly wss = new WebSocketServer({ noServer: true, handleProtocols: () => 'daml.ws.auth' });
  readonly faults: ChannelFaults = {};
  /** The request URLs and subprotocols of the latest upgrades, for tests (a token must never be in a URL). */
  readonly upgrades: { url: string; protocols: string }[] = [];
  /** Frames written to sockets (handed to the OS), for tests that wait until a stream's frames are all sent. */
  framesSent = 0;

  constructor(private readonly host: ChannelHost) {}

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    this.upgrades.push({ url, protocols: String(req.headers['sec-websocket-protocol'] ?? '') });
    // The demo ledger runs for days: only the latest are kept.
    if (this.upgrades.length > 1_250) this.upgrades.splice(0, this.upgrades.length - 1_000);
    if (this.faults.refuseUpgrades) return refuse(socket, this.faults.refuseUpgrades, 'upgrade refused', 'text/plain');
    const path = url.split('?')[0];
    const channel = path.startsWith(`${this.host.pathPrefix}/`) ? path.slice(this.host.pathPrefix.length) : path;
    if (!CHANNELS.includes(channel) || this.host.serves?.(channel) === false)
      return refuse(socket, 404, 'The requested resource could not be found.', 'text/plain');
    const header =
      req.headers.authorization ??
      (() => {
        const t = tokenFromProtocols(req.headers['sec-websocket-protocol']);
        return t === undefined ? undefined : `Bearer ${t}`;
      })();
    const user = this.host.authenticate(header);
    if (typeof user !== 'string') return refuse(socket, user.status, user.body, user.contentType);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.serve(ws, channel, user));
  }

  private serve(ws: WebSocket, channel: string, user: string): void {
    const ac = new AbortController();
    ws.on('close', () => ac.abort());
    ws.once('message', (data: Buffer) => void this.answer(ws, channel, user, data.toString('utf8'), ac.signal));
  }

  private async answer(ws: WebSocket, channel: string, user: string, text: string, signal: AbortSignal): Promise<void> {
    const send = (frame: unknown) =>
      new Promise<void>((resolve) => {
        const out = JSON.stringify(frame);
        this.host.checkFrame?.(channel, out);
        ws.send(out, () => {
          this.framesSent++;
          resolve();
        });
      });
    try {
      const stream = this.host.open(channel, user, text, signal);
      if ('status' in stream) {
        // A text/plain refusal (an undecodable request) is carried as the JSON layer's error.
        const body: unknown = JSON.parse(stream.contentType.startsWith('application/json') ? stream.body : invalidArgument(stream.body).body);
        await send(body);
        ws.close(1000);
        return;
      }
      const each = async (element: unknown) => {
        if (this.faults.breakAfterFrames !== undefined && this.faults.breakAfterFrames-- <= 0) {
          this.faults.breakAfterFrames = undefined;
          ws.terminate();
          throw new Error('broken by a fault');
        }
        await send(element);
      };
      if (Symbol.asyncIterator in stream) {
        for await (const element of stream) {
          if (signal.aborted) return;
          await each(element);
        }
      } else {
        for (const chunk of stream) {
          if (signal.aborted) return;
          for (const element of chunk) await each(element);
        }
      }
      if (!signal.aborted) ws.close(1000);
    } catch (e) {
      if ((e as Error).message !== 'broken by a fault' && !signal.aborted) ws.close(1011, 'internal error');
    }
  }

  close(): void {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
  }
}
