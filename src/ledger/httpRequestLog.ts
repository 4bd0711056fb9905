// The last requests sent to the nodes, for "Copy as cURL" from the log: bounded, and holding no
// token and no header (only whether a token was sent; accept and content-type are implied).
import type { RequestLogEntry } from './ledgerClient';

export interface RecordedRequest {
  /** Increasing, to name one request (a command argument, a quick pick item). */
  id: number;
  /** The node's name (or the URL probed before a node was saved). */
  node: string;
  at: number;
  method: string;
  url: string;
  path: string;
  status?: number;
  errorKind?: string;
  authenticated: boolean;
  /** The body sent; undefined when there was none or it was too large to keep (`bodyOmitted`). */
  body?: string;
  bodyOmitted?: boolean;
}

export const DEFAULT_HISTORY_SIZE = 100;
/** Bodies beyond this (a prepared transaction can be megabytes) are not kept. */
export const MAX_KEPT_BODY = 256 * 1024;

export class RequestHistory {
  private readonly items: RecordedRequest[] = [];
  private next = 1;

  constructor(
    private readonly size = DEFAULT_HISTORY_SIZE,
    private readonly now: () => number = Date.now,
  ) {}

  record(node: string, e: RequestLogEntry): RecordedRequest | undefined {
    if (!e.url) return undefined;
    const tooLarge = e.body !== undefined && e.body.length > MAX_KEPT_BODY;
    const r: RecordedRequest = {
      id: this.next++,
      node,
      at: this.now(),
      method: e.method,
      url: e.url,
      path: e.path,
      status: e.status,
      errorKind: e.errorKind,
      authenticated: e.authenticated === true,
      ...(e.body !== undefined && !tooLarge ? { body: e.body } : {}),
      ...(tooLarge ? { bodyOmitted: true } : {}),
    };
    this.items.push(r);
    if (this.items.length > this.size) this.items.splice(0, this.items.length - this.size);
    return r;
  }

  /** Newest first. */
  all(): readonly RecordedRequest[] {
    return [...this.items].reverse();
  }

  get(id: number): RecordedRequest | undefined {
    return this.items.find((r) => r.id === id);
  }

  clear(): void {
    this.items.length = 0;
  }
}
