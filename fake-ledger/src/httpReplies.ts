// The bare HTTP helpers of the fake node's server: a reply written whole, a request body read whole.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorReply } from './cantonErrorBodies';

export function send(res: ServerResponse, reply: ErrorReply): void {
  if (res.destroyed) return;
  res.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
  res.end(reply.body);
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.alloc(0)));
  });
}
