// What an id in a JSON document is, from where it stands: the key path of the string value around
// a position. Synchronizer and participant ids have the shape of a party id (`name::1220…`), so
// the text alone cannot tell them apart; the key can, as the panels' field names do. A forward scan that tolerates broken JSON (it never
// throws). No `vscode` import.

export type JsonPath = (string | number)[];

type Frame = { kind: 'object'; key: string | undefined; wantsKey: boolean } | { kind: 'array'; index: number };

/**
 * The path of the string value whose text holds `offset` (between its quotes), or undefined when
 * the offset is in a key, outside any string, or past `maxScan` characters.
 */
export function jsonPathAt(text: string, offset: number, maxScan = 8_000_000): JsonPath | undefined {
  if (offset < 0 || offset > text.length || offset > maxScan) return undefined;
  const stack: Frame[] = [];
  const path = (): JsonPath => stack.map((f) => (f.kind === 'object' ? (f.key ?? '') : f.index));
  let i = 0;
  while (i < text.length && i <= offset) {
    const c = text[i];
    if (c === '"') {
      const start = i + 1;
      const top = stack[stack.length - 1];
      const isKey = top?.kind === 'object' && top.wantsKey;
      let j = start;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (offset >= start && offset <= j) return isKey ? undefined : path();
      if (isKey) {
        top.key = keyText(text.slice(start, Math.min(j, text.length)));
        top.wantsKey = false;
      }
      i = j + 1;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === '{') stack.push({ kind: 'object', key: undefined, wantsKey: true });
    else if (c === '[') stack.push({ kind: 'array', index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      if (top?.kind === 'object') top.wantsKey = true;
      else if (top?.kind === 'array') top.index++;
    }
    i++;
  }
  return undefined;
}

/** A key's text with its escapes read; as written when they are not JSON's. */
function keyText(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * What an id is by its key, when the key says more than its shape. (A key fingerprint under
 * `signedBy` has an update id's shape: `ledgerIds` already reads that key and finds no id there.)
 */
export type IdRole = 'synchronizer' | 'participant';

/** Keys under which a value is Daml data: anything can be there, and a party is a party. */
const DAML_VALUES = new Set(['createArgument', 'createArguments', 'choiceArgument', 'exerciseResult', 'contractKey', 'viewValue', 'argument', 'arguments']);
const SYNCHRONIZER_KEYS = new Set(['synchronizerId', 'synchronizer_id', 'domainId', 'domain_id', 'sourceSynchronizer', 'targetSynchronizer']);
const PARTICIPANT_KEYS = new Set(['participantId', 'participant_id', 'participantUid', 'participant_uid']);

export function idRoleOf(path: JsonPath | undefined): IdRole | undefined {
  if (!path) return undefined;
  const keys = path.filter((p): p is string => typeof p === 'string');
  if (keys.some((k) => DAML_VALUES.has(k))) return undefined;
  const key = keys[keys.length - 1];
  if (key === undefined) return undefined;
  if (SYNCHRONIZER_KEYS.has(key)) return 'synchronizer';
  // A reassignment's source and target (its assigned and unassigned events).
  if ((key === 'source' || key === 'target') && keys.slice(0, -1).some((k) => /assign/i.test(k))) return 'synchronizer';
  if (PARTICIPANT_KEYS.has(key)) return 'participant';
  return undefined;
}
