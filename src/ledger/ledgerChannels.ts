// The JSON API's websocket channels (AsyncAPI): one request published, then frames until the node
// closes. The token goes in the subprotocol (`jwt.token.<JWT>` first, then `daml.ws.auth`: Canton
// splits the header on "," without trimming, so a token entry after ", " would not be seen),
// never in the URL. A frame is a JsCantonError or an element; each close code is explained. No
// `vscode` import.
import type { JsCantonError } from './apiTypes';
import { errorFromResponse, LedgerApiError } from './ledgerApiError';
import type { CallOptions, LedgerClient } from './ledgerClient';
import * as l10n from '../l10n/l10n';

/** HTTP status of a gRPC code, as the JSON API maps them (for an error frame's explanation). */
const STATUS_OF_GRPC: Record<number, number> = { 3: 400, 5: 404, 6: 409, 7: 403, 8: 429, 9: 400, 10: 409, 11: 400, 13: 500, 14: 503, 16: 401, 4: 504, 12: 501 };

function isCantonError(v: unknown): v is JsCantonError {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as JsCantonError).code === 'string' &&
    typeof (v as JsCantonError).cause === 'string' &&
    'errorCategory' in v
  );
}

/** Why a stream closed other than normally, and whether asking again may help. */
export function closeExplanation(code: number, reason: string): { explanation: string; transient: boolean } {
  const why = reason ? ` (${reason})` : '';
  switch (code) {
    case 1001:
      return { explanation: l10n.t('The node closed the stream: it is going away (a restart or shutdown){0}.', why), transient: true };
    case 1006:
      return { explanation: l10n.t('The stream was cut without a close (the connection dropped, or a proxy timed it out).'), transient: true };
    case 1008:
      return { explanation: l10n.t('The node closed the stream for a policy violation{0}: check the token and its rights.', why), transient: false };
    case 1009:
      return { explanation: l10n.t('The node closed the stream: a message was too large for it{0}.', why), transient: false };
    case 1011:
      return { explanation: l10n.t('The node closed the stream after an internal error{0}.', why), transient: true };
    case 1012:
    case 1013:
      return { explanation: l10n.t('The node closed the stream and asks to try again later{0}.', why), transient: true };
    default:
      return { explanation: l10n.t('The stream closed with code {0}{1}.', code, why), transient: code !== 1002 && code !== 1003 && code !== 1007 };
  }
}

/**
 * Streams a channel's elements. Rejects with the node's error for an error frame, with a
 * `network` error (transient) for a close other than 1000, and with `routeMissing` when the
 * upgrade is refused (the caller reads over HTTP instead).
 */
export async function* streamChannel<T>(client: LedgerClient, path: string, request: unknown, opts: CallOptions = {}): AsyncGenerator<T> {
  const { transport, token } = await client.channelContext(opts);
  if (!transport.openStream) throw new LedgerApiError({ kind: 'network', routeMissing: true, path, explanation: l10n.t('This transport has no websockets.') });
  const url = new URL(client.baseUrl.pathname.replace(/\/$/, '') + path, client.baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const protocols = token ? [`jwt.token.${token}`, 'daml.ws.auth'] : ['daml.ws.auth'];
  let socket;
  try {
    socket = await transport.openStream(url, protocols, opts.signal);
  } catch (e) {
    // The transport is a bundle of its own: its errors are rebuilt here, as this bundle's.
    const explanation = (e as { explanation?: unknown }).explanation;
    throw new LedgerApiError({ kind: 'network', routeMissing: true, path, explanation: typeof explanation === 'string' ? explanation : String(e) });
  }
  try {
    socket.send(JSON.stringify(request));
    for (;;) {
      const next = await socket.next();
      if ('closed' in next) {
        if (next.closed.code === 1000 || opts.signal?.aborted) return;
        const { explanation, transient } = closeExplanation(next.closed.code, next.closed.reason);
        throw new LedgerApiError({ kind: transient ? 'network' : 'invalidRequest', path, explanation });
      }
      let value: unknown;
      try {
        value = JSON.parse(next.frame);
      } catch {
        throw new LedgerApiError({ kind: 'badResponse', path, explanation: l10n.t('The node sent a frame that is not JSON on {0}.', path) });
      }
      if (isCantonError(value)) {
        const status = STATUS_OF_GRPC[value.grpcCodeValue ?? -1] ?? 400;
        throw errorFromResponse({ method: 'GET', path, status, contentType: 'application/json', body: next.frame }, { token: Boolean(token) });
      }
      yield value as T;
    }
  } finally {
    socket.close(1000);
  }
}
