// The fake node's faults, as networks, proxies and failing nodes produce them (latency, resets
// before or mid-body, an HTML 500, a cut JSON body, a redirect, a huge body): the testing entry's
// alone (testing.ts), so the demo ledger that ships has none.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { undecodableBody } from './cantonErrorBodies';
import { send } from './httpReplies';

export type Fault =
  | { type: 'latency'; ms: number }
  | { type: 'resetBeforeHeaders' }
  | { type: 'resetMidBody' }
  | { type: 'html500' }
  | { type: 'invalidJson' }
  | { type: 'plainText400'; text?: string }
  | { type: 'hugeBody'; bytes: number; declareLength?: boolean }
  | { type: 'redirect'; location: string; status?: 301 | 302 | 307 | 308 }
  | { type: 'reply'; status: number; contentType: string; body: string };

export interface FaultRule {
  fault: Fault;
  /** Only requests to this path (e.g. `/v2/version`); all when unset. */
  path?: string;
  /** How many requests it affects; unlimited when unset. */
  times?: number;
}

export function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse): void {
  switch (fault.type) {
    case 'resetBeforeHeaders':
      req.socket.destroy();
      return;
    case 'resetMidBody': {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"version":"3.5.10","features":{"experimental":');
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    case 'html500':
      return send(res, {
        status: 500,
        contentType: 'text/html; charset=utf-8',
        body: '<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>nginx</p></body></html>',
      });
    case 'invalidJson':
      return send(res, { status: 200, contentType: 'application/json', body: '{"version":"3.5.10","features":{"experimental":{' });
    case 'plainText400':
      return send(res, undecodableBody(fault.text ?? "expected json value got 'garbage' (line 1, column 1)"));
    case 'redirect':
      res.writeHead(fault.status ?? 307, { location: fault.location, 'content-length': '0' });
      res.end();
      return;
    case 'reply':
      return send(res, fault);
    case 'hugeBody': {
      res.writeHead(200, { 'content-type': 'application/json', ...(fault.declareLength ? { 'content-length': String(fault.bytes) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let left = fault.bytes;
      const pump = () => {
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
      return;
    }
    default:
      return;
  }
}

/** Waits `ms`, or less if the response is closed first (its timer cleared, nothing left pending). */
export function sleepUntilClosed(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}
