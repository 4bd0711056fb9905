// The fake node's interactive submission routes that write: prepare, execute and executeAndWait,
// judged in Canton's order (the JSON layer's decoding, MatchUserId and the rights, the request's
// checks, the signatures, then the ledger; docs/fake-node.md). No `vscode` import.
import { json, redacted, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger } from './demoLedgerData';
import { decodeExecuteRequest, judgeExecuteRequest } from './executeChecks';
import { commitSubmission, executeAndWait, judgePrepared, type CommitOptions } from './interactiveCommits';
import { checkExternalSignatures, interactiveState } from './interactiveSubmissions';
import type { ResolvedCommand } from './commandSubmissions';
import type { LedgerQueries } from './ledgerQueries';
import { prepare } from './preparedTransactions';

export interface ExecuteContext {
  ledger: () => DemoLedger;
  auth: () => boolean;
  canReadAs: (user: string, party: string) => boolean;
  canExecuteAs: (user: string, party: string) => boolean;
  commitOptions: () => CommitOptions;
  recordExecution: (party: string, body: Record<string, unknown>, user: string) => void;
  queries: () => LedgerQueries;
  /** Prepare's commands resolved and transcoded as the JSON layer does a submission's (commandRoutes.ts). */
  transcodePrepareCommands: (body: Record<string, unknown>) => ResolvedCommand[] | ErrorReply;
}

export interface ExecuteEndpoint {
  method: 'POST';
  decode?: (body: Record<string, unknown>) => ErrorReply | undefined;
  rights: (user: string, body: Record<string, unknown>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>) => ErrorReply | Promise<ErrorReply>;
}

const otherUser = (ctx: ExecuteContext, user: string, b: Record<string, unknown>) =>
  ctx.auth() && typeof b.userId === 'string' && b.userId !== '' && b.userId !== user;

/** MatchUserId (a userId in the request must be the token's user), and execute rights for each signing party. */
export function executeRights(ctx: ExecuteContext, user: string, b: Record<string, unknown>): ErrorReply | undefined {
  if (otherUser(ctx, user, b)) return redacted(403);
  const signing = ((b.partySignatures as { signatures?: { party?: string }[] } | undefined)?.signatures ?? []).map((s) => s.party ?? '');
  return signing.some((p) => !ctx.canExecuteAs(user, p)) ? redacted(403) : undefined;
}

export function executeEndpoints(ctx: ExecuteContext): Record<string, ExecuteEndpoint> {
  return {
    // execute answers at once; the submission then commits (its completion and transaction appear).
    '/v2/interactive-submission/execute': {
      method: 'POST',
      decode: (b) => decodeExecuteRequest(b),
      rights: (user, b) => executeRights(ctx, user, b),
      handle: async (user, b) => {
        const refused = await checkExternalSignatures(ctx.ledger(), b);
        if (refused) return refused;
        const check = judgeExecuteRequest(b);
        if (check.error) return check.error;
        const unknown = judgePrepared(b);
        if (unknown) return unknown;
        ctx.recordExecution(check.party!, b, user);
        await commitSubmission(ctx.ledger(), user, b, check.party!, ctx.commitOptions());
        return json(200, {});
      },
    },
    '/v2/interactive-submission/prepare': {
      method: 'POST',
      decode: (b) => {
        const resolved = ctx.transcodePrepareCommands(b);
        return Array.isArray(resolved) ? undefined : resolved;
      },
      // MatchUserId, and a read right for each acting and reading party: at preparation the acting
      // parties only read, and CanExecuteAs is not a read right.
      rights: (user, b) => {
        if (otherUser(ctx, user, b)) return redacted(403);
        const parties = [...(Array.isArray(b.actAs) ? (b.actAs as string[]) : []), ...(Array.isArray(b.readAs) ? (b.readAs as string[]) : [])];
        return parties.some((p) => !ctx.canReadAs(user, p)) ? redacted(403) : undefined;
      },
      // The prepared transaction is built from the commands as the JSON layer resolved them (as submit's).
      handle: (user, b) => {
        const ledger = ctx.ledger();
        const resolved = ctx.transcodePrepareCommands(b);
        if (!Array.isArray(resolved)) return resolved;
        const queries = ctx.queries();
        const knows = (p: string) => Object.values(ledger.parties).includes(p) || interactiveState(ledger).externalParties.has(p);
        const at = {
          ledger,
          knows,
          contract: (id: string) => queries.contract(id),
          contractByKey: (name: string, key: unknown) => queries.contractByKey(name, key),
        };
        return prepare(at, user, b, resolved);
      },
    },
    '/v2/interactive-submission/executeAndWait': {
      method: 'POST',
      decode: (b) => decodeExecuteRequest(b),
      rights: (user, b) => executeRights(ctx, user, b),
      handle: async (user, b) => {
        const check = judgeExecuteRequest(b);
        if (check.error) return check.error;
        const refused = await checkExternalSignatures(ctx.ledger(), b);
        if (refused) return refused;
        const unknown = judgePrepared(b);
        if (unknown) return unknown;
        ctx.recordExecution(check.party!, b, user);
        return executeAndWait(ctx.ledger(), user, b, check.party!, ctx.commitOptions());
      },
    },
  };
}
