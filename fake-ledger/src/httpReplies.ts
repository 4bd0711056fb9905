// The bare HTTP helpers of the fake node's server: a reply written whole, a request body read whole.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorReply } from './cantonErrorBodies';

export function send(res: ServerResponse, reply: ErrorReply): void {
  if (res.destroyed) return;
  const body = reply.bytes ?? reply.body;
  res.writeHead(reply.status, { ...reply.headers, 'content-type': reply.contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.alloc(0)));
  });
}
