// The "Canton Lens" log output channel. Records requests (method, path, status, duration,
// correlation id) and problems; never a token, a header or a body. The last requests (with their
// bodies, for Copy as cURL) are kept apart in `requests`, bounded, without a token or header.
import * as vscode from 'vscode';
import type { RequestLogEntry } from '../ledger/ledgerClient';
import { RequestHistory } from '../ledger/httpRequestLog';
import { scrubCredentials } from '../ledger/ledgerApiError';

export class ExtensionLog implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Canton Lens', { log: true });
  /** The latest lines, for tests that check what was logged. */
  readonly recent: string[] = [];
  /** The last requests, for Copy as cURL. */
  readonly requests = new RequestHistory();

  request(node: string, e: RequestLogEntry): void {
    // The request's number names it in Copy as cURL's list.
    const kept = this.requests.record(node, e);
    const status = e.status ?? e.errorKind ?? 'no answer';
    const line = `${kept ? `#${kept.id} ` : ''}[${node}] ${e.method} ${e.path} → ${status} in ${Math.round(e.durationMs)} ms${e.correlationId ? ` (correlation id ${e.correlationId})` : ''}`;
    if (e.errorKind) this.warn(line);
    else this.info(line);
  }

  info(message: string): void {
    this.write(message, (m) => this.channel.info(m));
  }

  warn(message: string): void {
    this.write(message, (m) => this.channel.warn(m));
  }

  error(message: string): void {
    this.write(message, (m) => this.channel.error(m));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }

  private write(message: string, sink: (m: string) => void): void {
    const safe = scrubCredentials(message);
    this.recent.push(safe);
    if (this.recent.length > 1000) this.recent.shift();
    sink(safe);
  }
}
