// The seam between the client and the HTTP library, so the client (and its tests' fake
// transports, if any) never load undici; the extension loads the undici bundle on first use.

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  /** JSON text, or the bytes of an upload (a DAR). */
  body?: string | Uint8Array;
  /** Cancellation by the caller. */
  signal?: AbortSignal;
  /** The longest wait for the response headers, and between two pieces of the body. */
  timeoutMs: number;
  /** Larger bodies are refused with a clear error instead of being buffered. */
  maxResponseBytes: number;
  /**
   * The request only reads (isReadRequest): the transport may send it once more when the kept-alive
   * connection it went out on was closed before any answer. Unset: sent once, whatever happens.
   */
  read?: boolean;
}

export interface HttpResponse {
  status: number;
  contentType: string;
  body: string;
  /** The body's bytes, for a binary answer (a package's archive); a transport that keeps them sets them. */
  bytes?: Buffer;
}

/** An open websocket: text frames as they arrive, until the close. */
export interface StreamSocket {
  send(text: string): void;
  /** The next frame, or the close (its code and reason) once every frame was taken. */
  next(): Promise<{ frame: string } | { closed: { code: number; reason: string } }>;
  close(code?: number): void;
}

export interface HttpTransport {
  /** Rejects with a LedgerApiError of kind network, badResponse, timeout or cancelled. */
  send(request: HttpRequest): Promise<HttpResponse>;
  /**
   * Opens a websocket (`ws:`/`wss:`) with these subprotocols, through the same proxy and TLS
   * settings. Rejects when the upgrade fails (the node, or a proxy, refused it).
   */
  openStream?(url: URL, protocols: string[], signal?: AbortSignal): Promise<StreamSocket>;
  close(): Promise<void>;
}

export interface TransportOptions {
  /** Extra CA certificates (PEM) trusted besides the system ones. */
  ca?: string;
  /** An HTTP(S) proxy URL for all requests of this transport. */
  proxyUrl?: string;
  /** Keep-alive time of idle connections. */
  keepAliveMs?: number;
}

export type TransportFactory = (options: TransportOptions) => HttpTransport;
