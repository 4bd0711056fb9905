// The fields of a template or choice as the Daml source declares them (`with` then `name : Type`
// lines, until `where`, `controller` or the block ends), and a JSON skeleton of a record of them
// for a request: each value a placeholder of its Daml type. A reading of the source text, not a
// Daml parser: fields on one line (`with a : Int; b : Text`) are read too. No `vscode` import.

export interface DamlField {
  name: string;
  type: string;
}

const FIELD = /^([a-z_][A-Za-z0-9_']*)\s*:\s*(.+?)\s*$/;
const STOP = /^(where|controller|observer|signatory|do|ensure|key|maintainer|choice|nonconsuming|preconsuming|postconsuming)\b/;

/** The fields declared after `with` on or below `line` (the template's or choice's line), in order. */
export function fieldsAt(text: string, line: number): DamlField[] {
  const lines = text.split(/\r?\n/);
  const head = lines[line] ?? '';
  const indent = head.length - head.trimStart().length;
  const fields: DamlField[] = [];
  let inWith = false;
  const take = (part: string) => {
    for (const piece of part.split(';')) {
      const m = FIELD.exec(piece.replace(/--.*$/, '').trim());
      if (m) fields.push({ name: m[1], type: m[2] });
    }
  };
  for (let i = line; i < lines.length; i++) {
    const raw = lines[i];
    const trimmed = raw.trim();
    if (i > line && trimmed !== '' && raw.length - raw.trimStart().length <= indent) break;
    if (trimmed === '' || trimmed.startsWith('--')) continue;
    const withAt = /(^|\s)with(\s|$)/.exec(trimmed);
    if (!inWith && withAt) {
      inWith = true;
      take(trimmed.slice(withAt.index + withAt[0].length));
      continue;
    }
    if (!inWith) continue;
    if (STOP.test(trimmed)) break;
    take(trimmed);
  }
  return fields;
}

/** A placeholder of a Daml type, as the JSON API writes values. */
export function placeholderOf(type: string, party: string): unknown {
  const t = type.trim().replace(/^\((.*)\)$/, '$1');
  if (t.startsWith('[')) return [];
  if (/^Optional\b/.test(t)) return null;
  if (/^ContractId\b/.test(t)) return '<contract id>';
  switch (t) {
    case 'Party':
      return party;
    case 'Text':
      return '';
    case 'Decimal':
    case 'Numeric 10':
      return '0.0';
    case 'Int':
      return '0';
    case 'Bool':
      return false;
    case 'Time':
      return '1970-01-01T00:00:00Z';
    case 'Date':
      return '1970-01-01';
    default:
      return /^Numeric\b/.test(t) ? '0.0' : {};
  }
}

export function skeletonOf(fields: readonly DamlField[], party: string): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.name, placeholderOf(f.type, party)]));
}
