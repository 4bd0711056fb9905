// Watches the user's completions over the websocket channel (`/v2/commands/completions`, every
// version's AsyncAPI) until one matches: completions arrive as they happen, with no polling. A
// stream that breaks is opened again after the last offset seen, so nothing is missed or seen
// twice. An upgrade that is refused (a proxy) rejects with `routeMissing`: the caller reads over
// HTTP instead and says so. A read; no `vscode` import.
import type { Completion, CompletionStreamResponse } from '../ledger/apiTypes';
import { streamChannel } from '../ledger/ledgerChannels';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import * as l10n from '../l10n/l10n';

export interface CompletionWatch {
  userId?: string;
  parties: string[];
  /** Completions after this offset; undefined: from the start. */
  beginExclusive?: number;
  /** Stop at this time (epoch ms), finding nothing. */
  deadline: number;
  signal?: AbortSignal;
  /** Each offset seen (a completion's or a checkpoint's): where a resumed stream starts. */
  onOffset?: (offset: number) => void;
  onProgress?: (message: string) => void;
  /** Opens after a break before giving up, without progress in between. */
  maxBreaks?: number;
}

export const COMPLETIONS_CHANNEL = '/v2/commands/completions';

/** The offset of a completion stream element: its completion's or its checkpoint's. */
export function completionElementOffset(item: CompletionStreamResponse): { completion?: Completion; offset?: number } {
  const r = item.completionResponse as Record<string, { value?: { offset?: number } } | undefined> | undefined;
  const completion = r?.Completion?.value as Completion | undefined;
  return { completion, offset: completion?.offset ?? r?.OffsetCheckpoint?.value?.offset };
}

/** The first completion `matches` accepts, or undefined at the deadline or when cancelled. */
export async function watchCompletions(client: LedgerClient, watch: CompletionWatch, matches: (c: Completion) => boolean): Promise<Completion | undefined> {
  let begin = watch.beginExclusive ?? 0;
  let breaks = 0;
  while (Date.now() < watch.deadline && !watch.signal?.aborted) {
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    watch.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(onAbort, Math.max(0, watch.deadline - Date.now()));
    watch.onProgress?.(l10n.t('Watching the completions after offset {0} over a websocket…', begin));
    try {
      const request = { ...(watch.userId ? { userId: watch.userId } : {}), parties: watch.parties, beginExclusive: begin };
      for await (const item of streamChannel<CompletionStreamResponse>(client, COMPLETIONS_CHANNEL, request, { signal: ac.signal })) {
        const { completion, offset } = completionElementOffset(item);
        if (typeof offset === 'number' && offset > begin) {
          begin = offset;
          breaks = 0;
          watch.onOffset?.(offset);
        }
        if (completion && matches(completion)) return completion;
      }
      // The node closed the stream normally: open it again after the last offset.
    } catch (e) {
      if (ac.signal.aborted) return undefined;
      if (!isLedgerApiError(e) || e.routeMissing || e.kind !== 'network') throw e;
      // A break: resume after the last offset seen, a few times without progress at most.
      if (++breaks > (watch.maxBreaks ?? 5)) throw e;
      watch.onProgress?.(l10n.t('The completion stream broke ({0}); resuming after offset {1}…', e.explanation, begin));
      await new Promise((r) => setTimeout(r, Math.min(200 * breaks, 1_000)));
    } finally {
      clearTimeout(timer);
      watch.signal?.removeEventListener('abort', onAbort);
    }
  }
  return undefined;
}
