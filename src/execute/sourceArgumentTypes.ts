// A create or choice argument checked against the types the workspace's Daml source declares
// (damlFields.ts), for the templates the node's packages do not describe (an archive that does
// not decode, or is not given): the builtin types a field names plainly (Party, Text, Int,
// Decimal, Numeric n, Bool, Date, Time, ContractId t, [t], Optional t), read as Canton's JSON codec
// reads them on the node's version. A type of the package's own, an alias, a field the source
// scan could not read: not judged. Missing and unknown fields are left to the node, which names
// them. Pure.
import { fieldsAt, type DamlField } from '../daml/damlFields';
import type { DamlIndex } from '../daml/damlIndex';
import { argumentType } from '../daml/lf/lfCompletions';
import type { LfBuiltin, LfType, PackageSignature } from '../daml/lf/lfSignatures';
import { forEachArgument, lfValueIssues, type ValueIssue } from '../daml/lf/lfValueCheck';
import { recordProblem } from './argumentValues';

const builtin = (b: LfBuiltin, args: LfType[] = []): LfType => ({ kind: 'builtin', builtin: b, args });

const SIMPLE: Record<string, LfBuiltin> = {
  Party: 'Party',
  Text: 'Text',
  Int: 'Int64',
  Decimal: 'Numeric',
  Bool: 'Bool',
  Date: 'Date',
  Time: 'Timestamp',
};

/** Strips one pair of parentheses around the whole type. */
function unwrap(t: string): string {
  if (!t.startsWith('(') || !t.endsWith(')')) return t;
  let depth = 0;
  for (let i = 0; i < t.length - 1; i++) {
    if (t[i] === '(') depth++;
    if (t[i] === ')') depth--;
    if (depth === 0) return t;
  }
  return t.slice(1, -1).trim();
}

/** The Daml-LF type a source field's type names; undefined when it is not a builtin read plainly. */
export function sourceType(text: string, depth = 0): LfType | undefined {
  const t = unwrap(text.trim());
  if (depth > 8 || t === '') return undefined;
  // A Decimal is a Numeric 10: its scale is checked as the engine fits it.
  if (t === 'Decimal') return builtin('Numeric', [{ kind: 'nat', value: 10 }]);
  if (t in SIMPLE) return builtin(SIMPLE[t]);
  const numeric = /^Numeric\s+(\d+)$/.exec(t);
  if (numeric) return builtin('Numeric', [{ kind: 'nat', value: Number(numeric[1]) }]);
  if (/^ContractId\s+\S/.test(t)) return builtin('ContractId');
  if (t.startsWith('[') && t.endsWith(']')) {
    // A list of a type not judged is still a JSON array.
    const elem = sourceType(t.slice(1, -1), depth + 1);
    return builtin('List', elem ? [elem] : []);
  }
  const optional = /^Optional\s+(.+)$/.exec(t);
  if (optional) {
    const elem = sourceType(optional[1], depth + 1);
    // Nested optionals are written differently ([] or [x]): only the plain one is judged.
    return elem && !(elem.kind === 'builtin' && elem.builtin === 'Optional') ? builtin('Optional', [elem]) : undefined;
  }
  return undefined;
}

/**
 * The argument's fields as the source declares them: the template's (no choice) or the choice's;
 * undefined when the workspace does not declare it, or its declarations (several packages or
 * versions) disagree.
 */
export function sourceArgumentFields(
  index: DamlIndex,
  templateId: string,
  choice: string | undefined,
  textOf: (file: string) => string | undefined,
): DamlField[] | undefined {
  const match = index.find({ templateId, choice });
  if (!match?.exact || match.choiceMissing || match.targets.length === 0) return undefined;
  const all = match.targets.map((t) => {
    const text = textOf(t.file);
    return text === undefined ? undefined : fieldsAt(text, t.line);
  });
  if (all.some((f) => f === undefined)) return undefined;
  const first = JSON.stringify(all[0]);
  return all.every((f) => JSON.stringify(f) === first) ? all[0] : undefined;
}

export type SourceFields = (templateId: string, choice: string | undefined) => DamlField[] | undefined;

/**
 * The commands' arguments checked against the source's field types (paths under `prefix`), for
 * the commands whose template the node's packages (`sigs`) do not describe; undefined when no
 * command was judged.
 */
export function sourceArgumentIssues(
  commands: readonly unknown[],
  fieldsOf: SourceFields,
  sigs: readonly PackageSignature[],
  version: string | undefined,
  prefix = '',
): ValueIssue[] | undefined {
  const out: ValueIssue[] = [];
  let judged = false;
  forEachArgument(commands, prefix, (templateId, choice, value, path) => {
    if (argumentType(sigs, templateId, choice)) return;
    const fields = fieldsOf(templateId, choice);
    if (!fields) return;
    judged = true;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      if (value !== undefined) out.push({ path, message: recordProblem(choice ?? templateId.split(':').pop() ?? '', value) });
      return;
    }
    for (const f of fields) {
      const type = sourceType(f.type);
      const v = (value as Record<string, unknown>)[f.name];
      if (type && v !== undefined && v !== null) out.push(...lfValueIssues([], type, v, `${path}.${f.name}`, { version }));
    }
  });
  return judged ? out : undefined;
}
