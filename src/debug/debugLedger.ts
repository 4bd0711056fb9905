// What the debugger reads from a node, as the token's parties, in ledger-effects shape: one update
// by id, the contract a step acts on, the updates of a range page by page, the new updates as they
// commit (over the websocket, else the held-open list), and the failed completions of the token's
// user. Reads only: a failure is reported, and asked again only by a person. No `vscode` import.
import type { Completion, CreatedEvent, JsGetUpdatesResponse, UpdateFormat } from '../ledger/apiTypes';
import type { LedgerClient } from '../ledger/ledgerClient';
import { lookupContract, lookupTransaction } from '../lookups/ledgerLookups';
import { otherUpdatesFormat, transactionQueryFor, eventFormatFor } from '../ledger/requestForms';
import { abortableSleep, isTransient } from '../browse/acsPaging';
import { updatesListFetch, updatesStreamFetch, type UpdatesFetch } from '../browse/updatesFollower';
import { followCompletions } from '../execute/completionFollower';
import { DEFAULT_NODE_LIST_LIMIT, isLedgerApiError, LedgerApiError, nodeListLimitOf } from '../ledger/ledgerApiError';
import { readUpdateRange } from '../browse/updateRange';
import { NO_TOKEN } from '../auth/ledgerIdentity';
import type { ProgramUpdate } from './debugProgram';
import * as l10n from '../l10n/l10n';

export interface DebugLedger {
  readonly nodeName: string;
  /** The parties read as (empty: any party). */
  readonly parties: readonly string[];
  update(updateId: string, signal?: AbortSignal): Promise<ProgramUpdate>;
  /** The contract's create event, or undefined when the node shows none to these parties. */
  contract(contractId: string, signal?: AbortSignal): Promise<CreatedEvent | undefined>;
  ledgerEnd(signal?: AbortSignal): Promise<number>;
  /** The updates after `beginExclusive` up to `endInclusive`, a page at a time. */
  range(beginExclusive: number, endInclusive: number, signal?: AbortSignal): AsyncGenerator<ProgramUpdate[]>;
  /** New updates after `beginExclusive`, in order, until the signal aborts; transient breaks are bridged. */
  follow(beginExclusive: number, signal: AbortSignal, onUpdates: (u: ProgramUpdate[]) => void, onBreak?: (error: string) => void): Promise<void>;
  /** The failed completions of the token's user after `beginExclusive`, until the signal aborts. */
  failedCommands(beginExclusive: number, signal: AbortSignal, onFailed: (c: Completion) => void): Promise<void>;
}

export interface DebugLedgerAccess {
  nodeName: string;
  client: LedgerClient;
  /** The token to send (undefined: the client's own). */
  token?: string;
  parties: readonly string[];
  /** The token's user (its completions). */
  userId?: string;
  /** The node serves command-completions (3.5 or later). */
  commandCompletions?: boolean;
  /** Page size of range reads. */
  pageSize?: number;
  /** The node serves get-updates-page (3.5 or later): ranges are read in pages, which the node never cuts short. */
  updatesPages?: boolean;
}

/** A raw element of `/v2/updates` as a program update; checkpoints and unknown kinds are undefined. */
export function programUpdateOf(u: JsGetUpdatesResponse['update'] | undefined): ProgramUpdate | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const w = u as Record<string, { value?: unknown } | undefined>;
  if (w.Transaction?.value) return { kind: 'transaction', value: w.Transaction.value as never };
  if (w.Reassignment?.value) return { kind: 'reassignment', value: w.Reassignment.value as never };
  if (w.TopologyTransaction?.value) return { kind: 'topology', value: w.TopologyTransaction.value as never };
  return undefined;
}

function offsetOf(u: JsGetUpdatesResponse['update'] | undefined): number | undefined {
  const w = (u ?? {}) as Record<string, { value?: { offset?: unknown } } | undefined>;
  const o = (w.Transaction ?? w.Reassignment ?? w.TopologyTransaction ?? w.OffsetCheckpoint)?.value?.offset;
  return typeof o === 'number' && Number.isFinite(o) ? o : undefined;
}

export function clientDebugLedger(a: DebugLedgerAccess): DebugLedger {
  const opts = (signal?: AbortSignal) => ({ signal, ...(a.token !== undefined ? { auth: { token: a.token } } : {}) });
  const ctx = (signal?: AbortSignal) => ({
    nodeName: a.nodeName,
    parties: a.parties,
    ...(a.token !== undefined ? { credentials: { token: a.token, identity: NO_TOKEN } } : {}),
    shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' as const,
    signal,
  });
  const query = transactionQueryFor(a.parties, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
  const updateFormat: UpdateFormat = {
    includeTransactions: { eventFormat: eventFormatFor(a.parties, false), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    ...otherUpdatesFormat(query),
  };
  // Topology events need named parties; with any party they are left out, as the node would refuse them.
  if (a.parties.length === 0) delete updateFormat.includeTopologyEvents;
  const pageSize = a.pageSize ?? 200;
  return {
    nodeName: a.nodeName,
    parties: a.parties,
    async update(updateId, signal) {
      const l = await lookupTransaction(a.client, updateId, ctx(signal));
      if (!l.found) throw l.error.with({ explanation: l.explanation });
      if (l.update === 'transaction') return { kind: 'transaction', value: l.transaction };
      if (l.update === 'reassignment') return { kind: 'reassignment', value: l.reassignment };
      return { kind: 'topology', value: l.topology };
    },
    async contract(contractId, signal) {
      const l = await lookupContract(a.client, contractId, ctx(signal));
      if (!l.found) {
        if (l.error.kind === 'notFound') return undefined;
        throw l.error.with({ explanation: l.explanation });
      }
      return l.response.created?.createdEvent;
    },
    async ledgerEnd(signal) {
      return (await a.client.getLedgerEnd(opts(signal))).offset ?? 0;
    },
    async *range(beginExclusive, endInclusive, signal) {
      // To the range's end: a short answer of the node is not the end (updateRange.ts).
      const batches = readUpdateRange(a.client, {
        beginExclusive,
        endInclusive,
        updateFormat,
        pageSize,
        pages: a.updatesPages,
        signal,
        retries: 1,
        call: a.token !== undefined ? { auth: { token: a.token } } : undefined,
      });
      for await (const b of batches) {
        const page = b.updates.map(programUpdateOf).filter((u): u is ProgramUpdate => u !== undefined);
        if (page.length > 0) yield page;
      }
    },
    async follow(beginExclusive, signal, onUpdates, onBreak) {
      // At most Canton's default list limit; a lower limit the node names lowers it (followUpdates does the same).
      const fallback = updatesListFetch(a.client, updateFormat, { limit: DEFAULT_NODE_LIST_LIMIT, idleMs: 2_000 });
      const fetch: UpdatesFetch = updatesStreamFetch(a.client, updateFormat, { idleMs: 250, fallback });
      let position = beginExclusive;
      let attempt = 0;
      while (!signal.aborted) {
        try {
          const r = await fetch(position, signal);
          attempt = 0;
          const batch: ProgramUpdate[] = [];
          for (const e of r.updates) {
            const at = offsetOf(e);
            if (at === undefined || at <= position) continue;
            position = at;
            const u = programUpdateOf(e);
            if (u) batch.push(u);
          }
          if (batch.length > 0) onUpdates(batch);
        } catch (e) {
          if (signal.aborted) return;
          if (isLedgerApiError(e) && e.status === 413 && fallback.limit > 1) {
            const named = nodeListLimitOf(e);
            fallback.limit = Math.max(1, named !== undefined && named < fallback.limit ? named : Math.floor(fallback.limit / 2));
            fallback.maxLimit = fallback.limit;
            continue;
          }
          if (!isTransient(e)) throw e;
          attempt++;
          onBreak?.(isLedgerApiError(e) ? e.explanation : String((e as Error)?.message ?? e));
          await abortableSleep(Math.min(5_000, 250 * 2 ** Math.min(attempt - 1, 5)), signal);
        }
      }
    },
    async failedCommands(beginExclusive, signal, onFailed) {
      if (a.parties.length === 0)
        throw new LedgerApiError({
          kind: 'invalidRequest',
          method: 'POST',
          path: '/v2/commands/completions',
          explanation: l10n.t('Failed commands are read from the completions of named parties: give the token party rights, or set the node\u2019s parties.'),
        });
      await followCompletions(a.client, {
        userId: a.userId,
        parties: [...a.parties],
        beginExclusive,
        signal,
        preferCommandCompletions: a.commandCompletions ?? true,
        onCompletion: (c) => {
          const code = (c.status as { code?: number } | undefined)?.code ?? 0;
          if (code !== 0) onFailed(c);
        },
      });
    },
  };
}
