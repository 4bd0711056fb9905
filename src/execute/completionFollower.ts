// Follows a user's completions over the websocket until stopped: on Canton 3.5.7 and later through
// `/v2/commands/command-completions` (every user's completions for the parties; those of the token's
// user are kept), else through `/v2/commands/completions` (deprecated in 3.5, still served). A
// stream that breaks or ends is opened again after the last offset seen, so nothing is lost or
// repeated across a break or a pause. A read; no `vscode` import.
import type { Completion, CompletionStreamResponse } from '../ledger/apiTypes';
import { streamChannel } from '../ledger/ledgerChannels';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import { completionElementOffset } from './completionWatch';
import { abortableSleep } from '../browse/acsPaging';

export type CompletionsChannel = '/v2/commands/command-completions' | '/v2/commands/completions';

export interface FollowOptions {
  /** The token's user: kept from command-completions, named to completions. Undefined: every user (an admin view). */
  userId?: string;
  parties: string[];
  beginExclusive: number;
  signal: AbortSignal;
  onCompletion: (c: Completion) => void;
  /** The stream in use, or a break and the wait before the next try. */
  onState?: (state: { channel: CompletionsChannel } | { broken: string; retryInMs: number }) => void;
  /** Prefer command-completions (the node's version is 3.5 or later). */
  preferCommandCompletions: boolean;
}

/** Runs until the signal aborts; rejects on an error that asking again will not cure (rights, a bad request). */
export async function followCompletions(client: LedgerClient, o: FollowOptions): Promise<void> {
  let begin = o.beginExclusive;
  let channel: CompletionsChannel = o.preferCommandCompletions ? '/v2/commands/command-completions' : '/v2/commands/completions';
  let breaks = 0;
  while (!o.signal.aborted) {
    o.onState?.({ channel });
    const request =
      channel === '/v2/commands/command-completions'
        ? { parties: o.parties, beginExclusive: begin }
        : { ...(o.userId ? { userId: o.userId } : {}), parties: o.parties, beginExclusive: begin };
    try {
      for await (const item of streamChannel<CompletionStreamResponse>(client, channel, request, { signal: o.signal })) {
        const { completion, offset } = completionElementOffset(item);
        if (typeof offset !== 'number' || offset <= begin) continue;
        begin = offset;
        breaks = 0;
        if (completion && (channel === '/v2/commands/completions' || !o.userId || completion.userId === o.userId)) o.onCompletion(completion);
      }
      // Closed normally: open again after the last offset.
    } catch (e) {
      if (o.signal.aborted) return;
      // A node before 3.5.7 has no command-completions: the older channel, from the same offset.
      if (channel === '/v2/commands/command-completions' && isLedgerApiError(e) && (e.routeMissing || e.status === 404)) {
        channel = '/v2/commands/completions';
        continue;
      }
      const transient = isLedgerApiError(e) && (e.kind === 'network' || e.kind === 'timeout' || (e.status !== undefined && e.status >= 500));
      if (!transient) throw e;
      breaks++;
      const wait = Math.min(250 * 2 ** Math.min(breaks, 5), 8_000);
      o.onState?.({ broken: isLedgerApiError(e) ? e.explanation : (e as Error).message, retryInMs: wait });
      await abortableSleep(wait, o.signal);
      continue;
    }
    await abortableSleep(100, o.signal);
  }
}
