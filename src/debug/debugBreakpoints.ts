// Breakpoints where a Daml developer sets them: on a `choice` line (stops when it is exercised) or a
// `template` line (stops when a contract of it is created), with conditions, hit counts and log
// messages. A line inside a declaration binds to the declaration above it. No `vscode` import.
import type { DamlIndex, DamlTarget } from '../daml/damlIndex';
import { parseTemplateId } from '../daml/damlIndex';
import type { TreeEvent } from '../lookups/exerciseTree';
import { ExpressionError, messageRoots, parseExpression, rootsOf, type Expr } from './debugExpressions';
import * as l10n from '../l10n/l10n';

/** Where the debugger finds Daml source: the workspace's index, and the paths the editor uses. */
export interface DebugSources {
  index(): Promise<DamlIndex | undefined>;
  /** The editor's path of an indexed file. */
  pathOf(indexedFile: string): string;
  /** The indexed file of an editor path. */
  indexedFileOf(path: string): string;
}

export interface BreakpointRequest {
  line: number;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

export interface BoundBreakpoint {
  id: number;
  verified: boolean;
  /** The line it binds to (the declaration's), one-based. */
  line: number;
  message?: string;
  /** `Module:Entity` and, for a choice, `#Choice`. */
  key?: string;
  condition?: Expr;
  hit?: (count: number) => boolean;
  logMessage?: string;
  /** Root names the condition and message read (to fetch the contract only when asked). */
  roots: Set<string>;
  hits: number;
}

/** `n` or `==n`: the n-th time; `>n`, `>=n`, `<n`, `<=n`; `%n`: every n-th time. */
export function parseHitCondition(text: string): ((count: number) => boolean) | string {
  const m = /^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!m) return l10n.t('Hit count "{0}" is not understood: write a number, or one after ==, >, >=, <, <= or %.', text.slice(0, 40));
  const n = Number(m[2]);
  switch (m[1]) {
    case '>':
      return (c) => c > n;
    case '>=':
      return (c) => c >= n;
    case '<':
      return (c) => c < n;
    case '<=':
      return (c) => c <= n;
    case '%':
      return n === 0 ? () => false : (c) => c % n === 0;
    default:
      return (c) => c === n;
  }
}

export function keyOf(module: string, entity: string, choice?: string): string {
  return choice ? `${module}:${entity}#${choice}` : `${module}:${entity}`;
}

/** The keys an event hits: a create its template's; an exercise its template's choice and, by interface, the interface's. */
export function eventKeys(n: TreeEvent): string[] {
  if (n.kind === 'created') {
    const p = parseTemplateId(n.event.templateId ?? '');
    return p ? [keyOf(p.module, p.entity)] : [];
  }
  if (n.kind !== 'exercised') return [];
  const out: string[] = [];
  for (const id of [n.event.templateId, n.event.interfaceId]) {
    const p = typeof id === 'string' ? parseTemplateId(id) : undefined;
    if (p) out.push(keyOf(p.module, p.entity, n.event.choice));
  }
  return out;
}

/** The declaration a line binds to: the template, interface or choice on it or the nearest above. */
export function declAt(index: DamlIndex, file: string, line0: number): DamlTarget | undefined {
  const f = index.file(file);
  if (!f) return undefined;
  let best: (typeof f.decls)[number] | undefined;
  for (const d of f.decls) if (d.line <= line0 && (!best || d.line > best.line)) best = d;
  if (!best) return undefined;
  const entity = best.kind === 'choice' ? best.parent : best.name;
  if (!entity) return undefined;
  return {
    file,
    line: best.line,
    column: best.column,
    length: best.name.length,
    kind: best.kind,
    module: f.module,
    entity,
    ...(best.kind === 'choice' ? { choice: best.name } : {}),
  };
}

let nextId = 1;

/** Every breakpoint set, by editor path; what an event hits. */
export class BreakpointSet {
  private readonly byPath = new Map<string, BoundBreakpoint[]>();
  private byKey = new Map<string, BoundBreakpoint[]>();

  /** Replaces a file's breakpoints; each is bound to a declaration or says why it is not. */
  set(path: string, requests: readonly BreakpointRequest[], index: DamlIndex | undefined, indexedFile: string): BoundBreakpoint[] {
    const bound = requests.map((r) => bind(r, index, indexedFile));
    this.byPath.set(path, bound);
    this.rebuild();
    return bound;
  }

  clear(): void {
    this.byPath.clear();
    this.byKey.clear();
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The verified breakpoints an event hits. */
  hitsOf(n: TreeEvent): BoundBreakpoint[] {
    if (this.byKey.size === 0) return [];
    const keys = eventKeys(n);
    if (keys.length === 1) return this.byKey.get(keys[0]) ?? [];
    return keys.flatMap((k) => this.byKey.get(k) ?? []);
  }

  resetHits(): void {
    for (const list of this.byPath.values()) for (const b of list) b.hits = 0;
  }

  private rebuild(): void {
    this.byKey = new Map();
    for (const list of this.byPath.values())
      for (const b of list) {
        if (!b.verified || !b.key) continue;
        const at = this.byKey.get(b.key);
        if (at) at.push(b);
        else this.byKey.set(b.key, [b]);
      }
  }
}

function bind(r: BreakpointRequest, index: DamlIndex | undefined, indexedFile: string): BoundBreakpoint {
  const b: BoundBreakpoint = { id: nextId++, verified: false, line: r.line, roots: new Set(), hits: 0 };
  if (!index) {
    b.message = l10n.t('The workspace has no Daml index yet: open the Daml project folder.');
    return b;
  }
  const decl = declAt(index, indexedFile, r.line - 1);
  if (!decl) {
    b.message = index.file(indexedFile)
      ? l10n.t('Not in a template, interface or choice: set it on a template line (stops at its creates) or a choice line (stops when it is exercised).')
      : l10n.t('This file is not in the Daml index (outside the daml.yaml source folders?).');
    return b;
  }
  b.line = decl.line + 1;
  b.key = keyOf(decl.module, decl.entity, decl.choice);
  try {
    if (r.condition?.trim()) {
      b.condition = parseExpression(r.condition);
      rootsOf(b.condition, b.roots);
    }
    if (r.hitCondition?.trim()) {
      const hit = parseHitCondition(r.hitCondition);
      if (typeof hit === 'string') {
        b.message = hit;
        return b;
      }
      b.hit = hit;
    }
  } catch (e) {
    b.message = e instanceof ExpressionError ? l10n.t('Condition: {0}', e.message) : String(e);
    return b;
  }
  if (r.logMessage) {
    b.logMessage = r.logMessage;
    for (const root of messageRoots(r.logMessage)) b.roots.add(root);
  }
  b.verified = true;
  b.message = decl.choice
    ? l10n.t('Stops when {0}.{1} is exercised.', `${decl.module}:${decl.entity}`, decl.choice)
    : l10n.t('Stops when a {0} contract is created.', `${decl.module}:${decl.entity}`);
  return b;
}
