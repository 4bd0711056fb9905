// What the debugger shows at a stop: the scopes (Argument, Result, Contract, Parties, Transaction),
// the names expressions read (the same scopes, in lower case, and the event's own fields), and
// values as variables: records by field, lists by index in chunks, long text cut for display. Ledger
// values are data: they are shown as text and never interpreted. No `vscode` import.
import type { CreatedEvent } from '../ledger/apiTypes';
import { templateName } from '../ids/templateNames';
import { MISSING, type Roots } from './debugExpressions';
import { nodeAt, type LoadedUpdate, type Stop } from './debugProgram';
import * as l10n from '../l10n/l10n';
import { formatCount } from '../l10n/forPeople';

/** The target contract of a step: its create event once read, an error, or not read yet. */
export type ContractState = { state: 'unread' } | { state: 'read'; event: CreatedEvent | undefined } | { state: 'failed'; error: string };

export interface ScopeValue {
  /** The root name expressions use. */
  root: 'argument' | 'result' | 'contract' | 'parties' | 'transaction';
  title: string;
  value: unknown;
  /** Read from the node when opened. */
  expensive?: boolean;
}

/** The update's own facts: what the Transaction scope shows. */
export function transactionFacts(u: LoadedUpdate): Record<string, unknown> {
  const v = u.update.value as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { kind: u.update.kind };
  for (const k of [
    'updateId',
    'offset',
    'commandId',
    'workflowId',
    'effectiveAt',
    'recordTime',
    'synchronizerId',
    'source',
    'target',
    'submitter',
    'reassignmentCounter',
  ]) {
    if (v[k] !== undefined && v[k] !== null && v[k] !== '') out[k] = v[k];
  }
  if (u.update.kind === 'transaction') out.events = u.tree.length;
  return out;
}

/** The contract id the step acts on: the exercised contract, or the one created. */
export function targetContractId(u: LoadedUpdate, stop: Stop): string | undefined {
  const n = nodeAt(u, stop.node);
  return n?.event.contractId;
}

/** Whether the result is known at this stop: when leaving the exercise, or at a one-step exercise. */
export function resultShown(u: LoadedUpdate, stop: Stop): boolean {
  const n = nodeAt(u, stop.node);
  if (n?.kind !== 'exercised') return false;
  return stop.phase === 'exit' || u.exitOf[stop.node] < 0;
}

export function scopesAt(u: LoadedUpdate, stop: Stop, contract: ContractState): ScopeValue[] {
  const n = nodeAt(u, stop.node);
  const out: ScopeValue[] = [];
  if (n?.kind === 'exercised') out.push({ root: 'argument', title: l10n.t('Argument'), value: n.event.choiceArgument ?? null });
  if (n?.kind === 'created') out.push({ root: 'argument', title: l10n.t('Argument'), value: n.event.createArgument ?? null });
  if (n?.kind === 'exercised' && resultShown(u, stop)) out.push({ root: 'result', title: l10n.t('Result'), value: n.event.exerciseResult ?? null });
  if (n && n.kind !== 'archived')
    out.push({
      root: 'contract',
      title: l10n.t('Contract'),
      value: contractValue(n.kind === 'created' ? { state: 'read', event: n.event } : contract),
      expensive: n.kind === 'exercised' && contract.state === 'unread',
    });
  if (n) out.push({ root: 'parties', title: l10n.t('Parties'), value: partiesOf(n.event) });
  out.push({ root: 'transaction', title: l10n.t('Transaction'), value: transactionFacts(u) });
  return out;
}

function contractValue(c: ContractState): unknown {
  if (c.state === 'read') return c.event ? (c.event.createArgument ?? null) : l10n.t('(not visible to the parties read as)');
  if (c.state === 'failed') return l10n.t('(could not be read: {0})', c.error);
  return l10n.t('(read from the node when opened)');
}

function partiesOf(e: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['actingParties', 'signatories', 'observers', 'witnessParties']) if (Array.isArray(e[k])) out[k] = e[k];
  return out;
}

/**
 * The names an expression reads at a stop: the scopes, `event` (the raw event), and the event's and
 * update's own fields as shortcuts (`choice`, `contractId`, `template`, `offset`…).
 */
export function rootsAt(u: LoadedUpdate, stop: Stop, contract: ContractState): Roots {
  const n = nodeAt(u, stop.node);
  const event = (n?.event ?? {}) as unknown as Record<string, unknown>;
  const facts = transactionFacts(u);
  const scopes = scopesAt(u, stop, contract);
  return (name) => {
    const scope = scopes.find((s) => s.root === name);
    if (scope) {
      if (name === 'contract' && contract.state !== 'read' && n?.kind === 'exercised') return MISSING;
      return scope.value;
    }
    if (name === 'result' || name === 'argument') return MISSING;
    if (name === 'event') return n ? event : MISSING;
    if (name === 'template') return typeof event.templateId === 'string' ? templateName(event.templateId) : MISSING;
    if (name === 'kind') return n?.kind ?? u.update.kind;
    if (Object.prototype.hasOwnProperty.call(event, name)) return event[name];
    if (Object.prototype.hasOwnProperty.call(facts, name)) return facts[name];
    return MISSING;
  };
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The expression that reads a path: `argument.amount`, `argument["odd key"]`, `parties.signatories[0]`. */
export function pathText(root: string, steps: readonly (string | number)[]): string {
  let s = root;
  for (const step of steps) s += typeof step === 'number' ? `[${step}]` : IDENT.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`;
  return s;
}

/** A value in one line, for the Variables view: strings quoted, records and lists summarised. */
export function preview(v: unknown, max = 120): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return cut(JSON.stringify(v), max);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v !== 'object') return typeof v;
  if (Array.isArray(v)) return `[${formatCount(v.length)}]`;
  const keys = Object.keys(v);
  let s = '{';
  for (const k of keys) {
    const part = `${s === '{' ? '' : ', '}${k}: ${typeof (v as Record<string, unknown>)[k] === 'object' && (v as Record<string, unknown>)[k] !== null ? '…' : preview((v as Record<string, unknown>)[k], 40)}`;
    if (s.length + part.length > max) return `${s}, …}`;
    s += part;
  }
  return `${s}}`;
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

export interface DebugVariable {
  name: string;
  value: string;
  evaluateName?: string;
  variablesReference: number;
  indexedVariables?: number;
  namedVariables?: number;
  type?: string;
}

/** A handle per expandable value; handles are dropped when the debugger moves on. */
export class VariableStore {
  private readonly values = new Map<number, { value: unknown; root: string; steps: (string | number)[] }>();
  private nextRef = 1;

  reset(): void {
    this.values.clear();
  }

  add(value: unknown, root: string, steps: (string | number)[] = []): number {
    if (value === null || typeof value !== 'object') return 0;
    const ref = this.nextRef++;
    this.values.set(ref, { value, root, steps });
    return ref;
  }

  has(ref: number): boolean {
    return this.values.has(ref);
  }

  /** The children of a handle: a list's items from `start` (`count` of them), a record's fields. */
  children(ref: number, start = 0, count?: number): DebugVariable[] {
    const entry = this.values.get(ref);
    if (!entry) return [];
    const { value, root, steps } = entry;
    if (Array.isArray(value)) {
      const end = Math.min(value.length, count ? start + count : value.length);
      const out: DebugVariable[] = [];
      for (let i = start; i < end; i++) out.push(this.variable(String(i), value[i], root, [...steps, i]));
      return out;
    }
    return Object.entries(value as Record<string, unknown>).map(([k, v]) => this.variable(k, v, root, [...steps, k]));
  }

  variable(name: string, v: unknown, root: string, steps: (string | number)[]): DebugVariable {
    const out: DebugVariable = { name, value: preview(v, 400), variablesReference: this.add(v, root, steps) };
    if (root) out.evaluateName = pathText(root, steps);
    if (Array.isArray(v)) out.indexedVariables = v.length;
    else if (v !== null && typeof v === 'object') out.namedVariables = Object.keys(v).length;
    out.type = v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'record' : typeof v;
    return out;
  }
}
