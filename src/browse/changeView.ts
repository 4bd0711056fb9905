// Which rows of a range's changes are shown: a kind, a template, a payload filter, and a limit. The
// payload filter is evaluated once per row, in slices, as rows arrive or when it changes, so no
// task takes long whatever the number of rows. No `vscode` import.
import type { ChangeKind, ChangeSet, ContractChange } from './ledgerChanges';

/** A kind, or every contract no longer active (archived, or created and archived). */
export type ChangeKindFilter = ChangeKind | 'inactive';
export const CHANGE_KIND_FILTERS: readonly ChangeKindFilter[] = ['created', 'archived', 'createdAndArchived', 'inactive'];

export interface ChangeViewOptions {
  kind?: ChangeKindFilter;
  /** A template id, or its `Module:Entity`. */
  template?: string;
  /** A compiled payload filter (rows without an argument do not match it). */
  test?: (argument: unknown) => boolean;
  /** The filter's text, for the header. */
  filterText?: string;
  /** Rows shown at most. */
  limit: number;
}

export interface ChangeViewRows {
  rows: ContractChange[];
  /** Rows that pass every filter, evaluated so far. */
  matching: number;
  /** Rows not evaluated yet (the payload filter's slices still running). */
  pending: number;
  /** Rows per template, for the template choice. */
  templates: Map<string, number>;
  /** Rows a payload filter left out because their create argument was not read (created before the range). */
  unfilterable: number;
}

const matchesTemplate = (row: ContractChange, template: string) => row.templateId === template || row.templateId.endsWith(`:${template}`);

export class ChangeView {
  private evaluated = 0;
  private unread = 0;
  private readonly passed: ContractChange[] = [];

  constructor(
    private readonly changes: ChangeSet,
    readonly options: ChangeViewOptions,
  ) {}

  /** Shows more rows without evaluating the filter again. */
  setLimit(limit: number): void {
    this.options.limit = limit;
  }

  /** Evaluates the payload filter on at most `budget` more rows; true when rows remain. */
  evaluate(budget = 2_000): boolean {
    const rows = this.changes.ordered;
    const end = Math.min(rows.length, this.evaluated + budget);
    const test = this.options.test;
    for (let i = this.evaluated; i < end; i++) {
      const row = rows[i];
      if (test && row.argument === undefined) this.unread++;
      else if (!test || passesFilter(test, row.argument)) this.passed.push(row);
    }
    this.evaluated = end;
    return end < rows.length;
  }

  /** The rows to show now, from what is evaluated. */
  current(): ChangeViewRows {
    const { kind, template, limit } = this.options;
    const rows: ContractChange[] = [];
    const templates = new Map<string, number>();
    let matching = 0;
    for (const row of this.passed) {
      if (kind && (kind === 'inactive' ? row.kind === 'created' : row.kind !== kind)) continue;
      templates.set(row.templateId, (templates.get(row.templateId) ?? 0) + 1);
      if (template && !matchesTemplate(row, template)) continue;
      matching++;
      if (rows.length < limit) rows.push(row);
    }
    return { rows, matching, pending: this.changes.ordered.length - this.evaluated, templates, unfilterable: this.unread };
  }
}

/** Whether a create argument passes a compiled payload filter (a missing argument does not). */
export function passesFilter(test: (argument: unknown) => boolean, argument: unknown): boolean {
  try {
    return argument !== undefined && test(argument) === true;
  } catch {
    return false;
  }
}
