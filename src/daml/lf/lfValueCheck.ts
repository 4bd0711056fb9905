// A request's argument checked against Daml-LF types before it is sent, as the JSON API's value
// decoder would read it: a record's unknown field, a missing field that is not Optional (a missing
// Optional reads as None), a variant's unknown constructor, an enum's unknown value, and values of
// the wrong JSON kind (a number where text goes, text where a party goes that is no party id).
// Text, Party, Int64, Numeric, Bool, lists and records as Canton's JSON codec reads them on the node's
// version (execute/argumentValues.ts). Types the signatures lack are not judged. Pure.
import { isPartyId } from '../../ids/ledgerIds';
import { boolProblem, jsonKind, listProblem, recordProblem, scalarValueProblem } from '../../execute/argumentValues';
import * as l10n from '../../l10n/l10n';
import { argumentType, lookup, substitute } from './lfCompletions';
import { showType, type LfType, type PackageSignature } from './lfSignatures';

export interface ValueCheckOptions {
  /** The node's version (GET /v2/version): what its codec reads differs. Unknown: only what every version refuses. */
  version?: string;
  /** At most this many problems (20). */
  max?: number;
}

/** A problem of a value, on its JSON path. */
export interface ValueIssue {
  path: string;
  message: string;
}

/** Each issue as `path: problem`. */
export const issueLines = (issues: readonly ValueIssue[] | undefined) => issues?.map((i) => `${i.path}: ${i.message}`);

/** What is wrong with `value` as a `t`, each problem with its JSON path under `path`. */
export function lfValueIssues(sigs: readonly PackageSignature[], t: LfType, value: unknown, path: string, options: ValueCheckOptions = {}): ValueIssue[] {
  const max = options.max ?? 20;
  const out: ValueIssue[] = [];
  const say = (at: string, message: string) => {
    if (out.length < max) out.push({ path: at, message });
  };
  const check = (x: LfType, v: unknown, at: string, depth: number): void => {
    if (out.length >= max || depth > 32) return;
    const expect = (ok: boolean, what: string) => {
      if (!ok) say(at, l10n.t('{0} goes here ({1}), not {2}', what, showType(x), jsonKind(v)));
      return ok;
    };
    if (x.kind === 'builtin') {
      const [a, b] = x.args;
      const scalar = (type: 'Text' | 'Party' | 'Int64' | 'Numeric') => {
        const problem = scalarValueProblem(type, v, options.version, a?.kind === 'nat' ? a.value : undefined);
        if (problem) say(at, problem);
        return !problem;
      };
      switch (x.builtin) {
        case 'Text':
          scalar('Text');
          return;
        case 'Date':
        case 'Timestamp':
        case 'ContractId':
          expect(typeof v === 'string', 'text');
          return;
        case 'Party':
          if (scalar('Party') && !isPartyId(v as string)) say(at, `a party id goes here (hint::1220…), not ${JSON.stringify(String(v).slice(0, 40))}`);
          return;
        case 'Int64':
          scalar('Int64');
          return;
        case 'Numeric':
          scalar('Numeric');
          return;
        case 'BigNumeric':
          expect((typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) || typeof v === 'number', 'a number');
          return;
        case 'Bool':
          if (typeof v !== 'boolean') say(at, boolProblem(v));
          return;
        case 'Unit':
          expect(typeof v === 'object' && v !== null && !Array.isArray(v), '{}');
          return;
        case 'Optional':
          // None is null; Some x is x (a nested Optional's Some is a list of one).
          if (v === null || !a) return;
          if (a.kind === 'builtin' && a.builtin === 'Optional') {
            if (expect(Array.isArray(v) && v.length <= 1, 'an optional value ([] or [x])') && (v as unknown[]).length === 1)
              check(a, (v as unknown[])[0], `${at}[0]`, depth + 1);
          } else check(a, v, at, depth + 1);
          return;
        case 'List':
          if (!Array.isArray(v)) return say(at, listProblem(v));
          if (a) (v as unknown[]).forEach((e, i) => check(a, e, `${at}[${i}]`, depth + 1));
          return;
        case 'TextMap':
          if (expect(typeof v === 'object' && v !== null && !Array.isArray(v), 'an object (a text map)') && a)
            for (const [k, e] of Object.entries(v as object)) check(a, e, `${at}.${k}`, depth + 1);
          return;
        case 'GenMap':
          if (expect(Array.isArray(v), 'a list of [key, value] pairs') && a && b)
            (v as unknown[]).forEach((pair, i) => {
              if (!Array.isArray(pair) || pair.length !== 2) return say(`${at}[${i}]`, 'a [key, value] pair goes here');
              check(a, pair[0], `${at}[${i}][0]`, depth + 1);
              check(b, pair[1], `${at}[${i}][1]`, depth + 1);
            });
          return;
        default:
          return;
      }
    }
    const found = lookup(sigs, x);
    if (!found) return;
    const { dt, args } = found;
    const env = new Map(dt.params.map((p, i) => [p, args[i]] as [string, LfType]));
    if (dt.kind === 'record') {
      // The codec's `v.obj`: a record is a JSON object, nothing else.
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return say(at, recordProblem(dt.name, v));
      const given = v as Record<string, unknown>;
      const names = new Set(dt.fields.map((f) => f.name));
      for (const k of Object.keys(given)) if (!names.has(k)) say(`${at}.${k}`, `${dt.name} has no field ${k} (its fields: ${[...names].join(', ') || 'none'})`);
      for (const f of dt.fields) {
        const type = substitute(f.type, env);
        if (!(f.name in given)) {
          if (!(type.kind === 'builtin' && type.builtin === 'Optional')) say(`${at}.${f.name}`, `missing: ${dt.name} needs ${f.name} (${showType(type)})`);
        } else check(type, given[f.name], `${at}.${f.name}`, depth + 1);
      }
      return;
    }
    if (dt.kind === 'enum') {
      if (expect(typeof v === 'string', `a ${dt.name} value`) && !dt.values.includes(v as string))
        say(at, `${dt.name} has no value ${JSON.stringify(v)} (its values: ${dt.values.join(', ')})`);
      return;
    }
    if (dt.kind === 'variant') {
      const tagged = v as { tag?: unknown; value?: unknown } | null;
      if (!expect(typeof v === 'object' && v !== null && !Array.isArray(v) && typeof tagged?.tag === 'string', `a ${dt.name} ({"tag": …, "value": …})`)) return;
      const c = dt.constructors.find((k) => k.name === tagged!.tag);
      if (!c)
        return say(
          `${at}.tag`,
          `${dt.name} has no constructor ${JSON.stringify(tagged!.tag)} (its constructors: ${dt.constructors.map((k) => k.name).join(', ')})`,
        );
      // Canton's codec reads a variant only with both: "Variant type json must have 'tag' and 'value' fields."
      if (tagged!.value === undefined) return say(`${at}.value`, `missing: ${dt.name} ${c.name} needs its value (${showType(c.type)})`);
      check(substitute(c.type, env), tagged!.value, `${at}.value`, depth + 1);
    }
  };
  check(t, value, path, 0);
  return out;
}

/** Each create argument and choice argument of the commands, with its JSON path under `prefix`. */
export function forEachArgument(
  commands: readonly unknown[],
  prefix: string,
  visit: (templateId: string, choice: string | undefined, value: unknown, path: string) => void,
): void {
  commands.forEach((raw, i) => {
    const [kind, c] = Object.entries((raw ?? {}) as Record<string, Record<string, unknown>>)[0] ?? [];
    if (!c || typeof c !== 'object' || typeof c.templateId !== 'string') return;
    const at = `${prefix}commands[${i}].${kind}`;
    if (kind === 'CreateCommand' || kind === 'CreateAndExerciseCommand') visit(c.templateId, undefined, c.createArguments, `${at}.createArguments`);
    if (kind !== 'CreateCommand' && typeof c.choice === 'string') visit(c.templateId, c.choice, c.choiceArgument, `${at}.choiceArgument`);
  });
}

/** The commands' arguments checked against the signatures (paths under `prefix`); undefined when no command's template is known to them. */
export function commandArgumentIssues(
  sigs: readonly PackageSignature[],
  commands: readonly unknown[],
  version?: string,
  prefix = '',
): ValueIssue[] | undefined {
  const out: ValueIssue[] = [];
  let judged = false;
  forEachArgument(commands, prefix, (templateId, choice, value, path) => {
    const t = argumentType(sigs, templateId, choice);
    if (!t) return;
    judged = true;
    out.push(...lfValueIssues(sigs, t, value, path, { version }));
  });
  return judged ? out : undefined;
}
