// "Look Up on All Nodes": the same id on every configured node, and on each node as each party its
// token reads as (one cell per party, each asked alone, so a cell says who sees it). An
// authentication or permission error is an error of the node's row, never "not seen". Pure of
// `vscode`: the lookups come in as a function, the panel renders the answers.
import { askedAsLine, type AskedAs } from '../auth/ledgerIdentity';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { lookupSummary, type LedgerLookup } from './ledgerLookups';

/** One party on one node: does it see the id? `party` unset: any party on the node. */
export interface MatrixCell {
  party?: string;
  state: 'seen' | 'archived' | 'notSeen' | 'error';
  summary: string;
  /** Why not, when the facts tell (the not-found explanation). */
  why?: string;
}

export interface NodeAnswer {
  node: string;
  url: string;
  /** "active · Iou:Iou", "not found", or an error explanation. */
  summary: string;
  state: 'found' | 'notFound' | 'error';
  asked: string;
  /** "As seen by alice: Alice::1220ab…", or '' when the node was not asked. */
  askedAs: string;
  cells: MatrixCell[];
  /** The node refused the token (401/403): a token problem, not visibility. */
  authProblem?: boolean;
}

export interface MatrixLookupOptions {
  refresh?: boolean;
  signal?: AbortSignal;
  asking?: (askedAs: AskedAs) => void;
  asParty?: string;
}

export type MatrixLookup = (node: { name: string; url: string }, opts: MatrixLookupOptions) => Promise<LedgerLookup>;

export function cellState(l: LedgerLookup): MatrixCell['state'] {
  if (!l.found) return 'notSeen';
  return l.kind === 'contract' && l.status === 'archived' ? 'archived' : 'seen';
}

const message = (e: unknown) => (isLedgerApiError(e) ? e.explanation : (e as Error).message);

/** Every node's answer, and who each node asked as. */
export async function visibilityMatrix(
  nodes: readonly { name: string; url: string }[],
  lookup: MatrixLookup,
  o: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<{ answers: NodeAnswer[]; asked: Map<string, AskedAs> }> {
  const asked = new Map<string, AskedAs>();
  const answers = await Promise.all(
    nodes.map(async (n): Promise<NodeAnswer> => {
      try {
        const l = await lookup(n, { ...o, asking: (a) => asked.set(n.name, a) });
        asked.set(n.name, l.askedAs);
        const parties = l.askedAs.parties;
        const cells: MatrixCell[] =
          parties.length <= 1
            ? [{ party: parties[0], state: cellState(l), summary: lookupSummary(l), why: l.found ? undefined : l.explanation }]
            : await Promise.all(
                parties.map(async (party): Promise<MatrixCell> => {
                  try {
                    const one = await lookup(n, { ...o, asParty: party });
                    return { party, state: cellState(one), summary: lookupSummary(one), why: one.found ? undefined : one.explanation };
                  } catch (e) {
                    return { party, state: 'error', summary: message(e) };
                  }
                }),
              );
        return {
          node: n.name,
          url: n.url,
          summary: lookupSummary(l),
          state: l.found ? 'found' : 'notFound',
          asked: l.asked,
          askedAs: askedAsLine(l.askedAs),
          cells,
        };
      } catch (e) {
        const a = asked.get(n.name);
        return {
          node: n.name,
          url: n.url,
          summary: message(e),
          state: 'error',
          asked: '',
          askedAs: a ? askedAsLine(a) : '',
          cells: [],
          authProblem: isLedgerApiError(e) && (e.kind === 'unauthenticated' || e.kind === 'permissionDenied'),
        };
      }
    }),
  );
  return { answers, asked };
}
