// After a plain execute (the node answers `{}` at once), find out what happened to the submission:
// on Canton 3.6 through `completion-by-hash` (the completion of the prepared transaction's hash;
// only the 3.6 spec has it), on older versions through `/v2/commands/completions` for the user and
// the acting parties after the ledger end read before the submission, matched by submission id:
// watched over the websocket channel, else (a proxy refused the upgrade) polled over HTTP.
// Reads only, until a deadline, cancellable; nothing found in time is "unknown", never
// "not accepted". No `vscode` import.
import type { Completion, CompletionStreamResponse } from '../ledger/apiTypes';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import { parseLedgerVersion } from '../ledger/ledgerVersion';
import { completionElementOffset, watchCompletions } from './completionWatch';
import * as l10n from '../l10n/l10n';

export interface OutcomeQuery {
  /** The submission looked for (an execute's); or, without it, the latest of a command id. */
  submissionId?: string;
  commandId?: string;
  /** The change id's user: the request's userId, or the token's user. */
  userId?: string;
  parties: string[];
  /** The prepared transaction's hash (base64), for completion-by-hash. */
  transactionHash?: string;
  /** The ledger end read before the submission (completions after it); undefined: from the start. */
  beginExclusive?: number;
}

export type FoundOutcome =
  | { kind: 'committed'; updateId?: string; offset: number; via: 'completion-by-hash' | 'completions'; completion: Completion }
  | { kind: 'rejected'; code: number; message: string; offset: number; via: 'completion-by-hash' | 'completions'; completion: Completion }
  | { kind: 'unknown'; reason: string; cancelled: boolean };

export interface FindOptions {
  timeoutMs?: number;
  /** Pause between two looks (completion-by-hash); completions wait on the node instead. */
  pollMs?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Watch the completions over the websocket channel (default); false: poll them over HTTP. */
  websocket?: boolean;
}

/** Whether a node's version has completion-by-hash (3.6 and later). */
export function hasCompletionByHash(version: string | undefined): boolean {
  const v = version ? parseLedgerVersion(version) : undefined;
  return Boolean(v && (v.major > 3 || (v.major === 3 && v.minor >= 6)));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

function verdict(c: Completion, via: 'completion-by-hash' | 'completions'): FoundOutcome {
  const code = c.status?.code ?? 0;
  return code === 0
    ? { kind: 'committed', updateId: c.updateId || undefined, offset: c.offset, via, completion: c }
    : { kind: 'rejected', code, message: c.status?.message ?? '', offset: c.offset, via, completion: c };
}

/** A completion of the submission (or command) looked for. */
const matching = (c: Completion, q: OutcomeQuery) =>
  (q.submissionId === undefined || c.submissionId === q.submissionId) && (q.commandId === undefined || c.commandId === q.commandId);

/** What the search is for, in messages. */
const looked = (q: OutcomeQuery) => q.submissionId ?? q.commandId ?? '';

/** Transient: keep looking. Anything else (rights, a bad request, no such route) stops the search. */
const transient = (e: unknown) => !isLedgerApiError(e) || e.kind === 'timeout' || e.kind === 'network' || (e.status !== undefined && e.status >= 500);

export async function findOutcome(client: LedgerClient, q: OutcomeQuery, options: FindOptions = {}): Promise<FoundOutcome> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 1_000;
  const deadline = Date.now() + timeoutMs;
  const signal = options.signal;
  const cancelled = (): FoundOutcome => ({ kind: 'unknown', cancelled: true, reason: l10n.t('The search was cancelled.') });
  let byHash = false;
  if (q.transactionHash) {
    try {
      byHash = hasCompletionByHash((await client.getVersion({ signal })).version);
    } catch {
      byHash = false;
    }
  }
  let begin = q.beginExclusive ?? 0;
  let lastProblem: string | undefined;
  let looks = 0;
  if (!byHash && options.websocket !== false) {
    // Over the websocket first: the completion arrives when it happens, without polling.
    try {
      const watch = { userId: q.userId, parties: q.parties, beginExclusive: begin, deadline, signal, onProgress: options.onProgress };
      const found = await watchCompletions(client, { ...watch, onOffset: (o) => (begin = o) }, (c) => matching(c, q));
      if (found) return verdict(found, 'completions');
    } catch (e) {
      const text = isLedgerApiError(e) ? e.explanation : (e as Error).message;
      if (isLedgerApiError(e) && e.routeMissing) {
        options.onProgress?.(l10n.t('The websocket was refused ({0}); reading the completions over HTTP instead.', text));
      } else if (!transient(e)) {
        return { kind: 'unknown', cancelled: false, reason: l10n.t('The outcome could not be read: {0}', text) };
      } else lastProblem = text;
    }
  }
  while (Date.now() < deadline) {
    if (signal?.aborted) return cancelled();
    looks++;
    try {
      if (byHash) {
        options.onProgress?.(l10n.t('Looking up the completion of hash {0} (look {1})…', `${q.transactionHash!.slice(0, 12)}…`, looks));
        try {
          const res = await client.getCompletionByHash(q.transactionHash!, { signal });
          if (res.acceptedCompletion) return verdict(res.acceptedCompletion, 'completion-by-hash');
          const rejected = (res.lastRejectedCompletions ?? []).find((c) => matching(c, q));
          if (rejected) return verdict(rejected, 'completion-by-hash');
        } catch (e) {
          if (isLedgerApiError(e) && e.routeMissing) byHash = false;
          else if (!(isLedgerApiError(e) && e.code === 'COMPLETION_NOT_FOUND')) throw e;
        }
      }
      {
        // Also the completions (every version): a completion may carry no hash.
        options.onProgress?.(l10n.t('Reading completions after offset {0} (look {1})…', begin, looks));
        const idle = Math.max(100, Math.min(byHash ? pollMs : 5_000, deadline - Date.now()));
        const list: CompletionStreamResponse[] = await client.getCompletions(
          { userId: q.userId, parties: q.parties, beginExclusive: begin },
          { limit: 200, streamIdleTimeoutMs: idle },
          { signal },
        );
        for (const item of list) {
          const { completion: c, offset } = completionElementOffset(item);
          if (typeof offset === 'number') begin = Math.max(begin, offset);
          if (c && matching(c, q)) return verdict(c, 'completions');
        }
        if (list.length === 0) await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())), signal);
      }
    } catch (e) {
      if (signal?.aborted) return cancelled();
      const text = isLedgerApiError(e) ? e.explanation : (e as Error).message;
      if (!transient(e)) return { kind: 'unknown', cancelled: false, reason: l10n.t('The outcome could not be read: {0}', text) };
      lastProblem = text;
      await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())), signal);
    }
  }
  if (signal?.aborted) return cancelled();
  return {
    kind: 'unknown',
    cancelled: false,
    reason: lastProblem
      ? l10n.t('No completion for submission {0} within {1} s; the last look failed: {2}', looked(q), Math.round(timeoutMs / 1000), lastProblem)
      : l10n.t('No completion for submission {0} within {1} s.', looked(q), Math.round(timeoutMs / 1000)),
  };
}

/** What to check when no outcome was found: where to look, and when a new submission is safe. */
export function outcomeUnknownAdvice(q: OutcomeQuery): string {
  return l10n.t(
    "Check the completions of user {0} for parties {1} (submission id {2}), or the update stream, before submitting again; a submission can still commit until the prepared transaction's max record time has passed. Then submit again with a new submission id.",
    q.userId ?? l10n.t("the token's user"),
    q.parties.join(', '),
    looked(q),
  );
}
