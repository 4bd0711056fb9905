// Two contracts compared: their create arguments as one tree of fields marked same, changed, added or
// removed (numbers and numeric text as exact decimals), and their facts (template, package,
// signatories, observers, creation). Across two versions of one template (an upgrade), a field that
// only one version has is shown as such, not as a change. A create argument against a JSON value
// likewise. No `vscode` import.
import type { CreatedEvent } from '../ledger/apiTypes';
import { asDecimal, compareDecimals } from '../ledger/damlValues';
import { templateName } from '../ids/templateNames';

export type DiffKind = 'same' | 'changed' | 'added' | 'removed' | 'onlyLeft' | 'onlyRight';

export interface DiffNode {
  /** The field name or list index; '' for the root. */
  key: string | number;
  kind: DiffKind;
  left?: unknown;
  right?: unknown;
  /** Records and lists on both sides: their fields or items. */
  children?: DiffNode[];
}

export interface DiffCounts {
  changed: number;
  added: number;
  removed: number;
  /** Fields of one version only (an upgraded template). */
  versionOnly: number;
}

export interface FactRow {
  label: 'template' | 'package' | 'packageName' | 'signatories' | 'observers' | 'createdAt' | 'offset' | 'contractKey';
  left: unknown;
  right: unknown;
  same: boolean;
}

export interface ContractDiff {
  left: CreatedEvent;
  right: CreatedEvent;
  /** Same module and entity, different package ids: two versions of a template. */
  upgraded: boolean;
  /** Different templates: the fields are compared all the same. */
  differentTemplates: boolean;
  facts: FactRow[];
  argument: DiffNode;
  counts: DiffCounts;
}

/** Beyond this depth, a branch is compared as a whole (hostile nesting cannot exhaust the stack). */
const MAX_DEPTH = 200;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function samePrimitive(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const da = asDecimal(a);
  const db = asDecimal(b);
  return da !== undefined && db !== undefined && compareDecimals(da, db) === 0;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (samePrimitive(a, b)) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** The tree of differences between two values. `versionOnly`: fields missing on one side belong to one version. */
export function diffValues(
  left: unknown,
  right: unknown,
  versionOnly = false,
  counts: DiffCounts = emptyCounts(),
  key: string | number = '',
  depth = 0,
): DiffNode {
  if (depth >= MAX_DEPTH) {
    const same = sameValue(left, right);
    if (!same) counts.changed++;
    return { key, kind: same ? 'same' : 'changed', left, right };
  }
  if (isRecord(left) && isRecord(right)) {
    const children: DiffNode[] = [];
    for (const k of Object.keys(left)) {
      if (Object.prototype.hasOwnProperty.call(right, k)) children.push(diffValues(left[k], right[k], versionOnly, counts, k, depth + 1));
      else children.push(one(k, 'left', left[k], versionOnly, counts));
    }
    for (const k of Object.keys(right)) if (!Object.prototype.hasOwnProperty.call(left, k)) children.push(one(k, 'right', right[k], versionOnly, counts));
    return { key, kind: children.every((c) => c.kind === 'same') ? 'same' : 'changed', left, right, children };
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    const children: DiffNode[] = [];
    const n = Math.max(left.length, right.length);
    for (let i = 0; i < n; i++) {
      if (i < left.length && i < right.length) children.push(diffValues(left[i], right[i], versionOnly, counts, i, depth + 1));
      else if (i < left.length) {
        counts.removed++;
        children.push({ key: i, kind: 'removed', left: left[i] });
      } else {
        counts.added++;
        children.push({ key: i, kind: 'added', right: right[i] });
      }
    }
    return { key, kind: children.every((c) => c.kind === 'same') ? 'same' : 'changed', left, right, children };
  }
  const same = samePrimitive(left, right) || (typeof left === 'object' && typeof right === 'object' && sameValue(left, right));
  if (!same) counts.changed++;
  return { key, kind: same ? 'same' : 'changed', left, right };
}

function one(key: string, side: 'left' | 'right', value: unknown, versionOnly: boolean, counts: DiffCounts): DiffNode {
  if (versionOnly) {
    counts.versionOnly++;
    return side === 'left' ? { key, kind: 'onlyLeft', left: value } : { key, kind: 'onlyRight', right: value };
  }
  if (side === 'left') {
    counts.removed++;
    return { key, kind: 'removed', left: value };
  }
  counts.added++;
  return { key, kind: 'added', right: value };
}

function emptyCounts(): DiffCounts {
  return { changed: 0, added: 0, removed: 0, versionOnly: 0 };
}

function packageIdOf(templateId: string | undefined): string {
  const first = (templateId ?? '').indexOf(':');
  return first > 0 ? (templateId ?? '').slice(0, first) : '';
}

export function diffContracts(left: CreatedEvent, right: CreatedEvent): ContractDiff {
  const lName = templateName(left.templateId ?? '');
  const rName = templateName(right.templateId ?? '');
  const differentTemplates = lName !== rName;
  const upgraded = !differentTemplates && packageIdOf(left.templateId) !== packageIdOf(right.templateId);
  const counts = emptyCounts();
  const argument = diffValues(left.createArgument ?? null, right.createArgument ?? null, upgraded, counts);
  const row = (label: FactRow['label'], l: unknown, r: unknown): FactRow => ({
    label,
    left: l ?? null,
    right: r ?? null,
    same: sameValue(l ?? null, r ?? null),
  });
  const sorted = (v: unknown) => (Array.isArray(v) ? [...(v as string[])].sort() : v);
  const facts = [
    row('template', lName, rName),
    row('package', packageIdOf(left.templateId), packageIdOf(right.templateId)),
    row('packageName', left.packageName, right.packageName),
    row('signatories', sorted(left.signatories), sorted(right.signatories)),
    row('observers', sorted(left.observers), sorted(right.observers)),
    row('createdAt', left.createdAt, right.createdAt),
    row('offset', left.offset, right.offset),
  ];
  if (left.contractKey != null || right.contractKey != null) facts.push(row('contractKey', left.contractKey, right.contractKey));
  return { left, right, upgraded, differentTemplates, facts, argument, counts };
}

/** A contract's create argument against a JSON value (Compare with JSON): the JSON on the right, as what is expected. */
export interface JsonDiff {
  left: CreatedEvent;
  expected: unknown;
  argument: DiffNode;
  counts: DiffCounts;
}

export function diffWithJson(left: CreatedEvent, expected: unknown): JsonDiff {
  const counts = emptyCounts();
  return { left, expected, argument: diffValues(left.createArgument ?? null, expected, false, counts), counts };
}
