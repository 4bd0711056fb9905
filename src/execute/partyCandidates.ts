// Where a *.prepare.json wants a party id, and which party ids to offer there: the parties the
// token's user holds rights for, then the parties the node hosts. Pure (a small JSON scanner, no
// parse: the file is being typed and is rarely valid JSON at the cursor).
import * as l10n from '../l10n/l10n';
import type { UserRights } from '../auth/userRights';

export interface PartySlot {
  /** The field: actAs, readAs, or an argument field of a command (its name). */
  field: string;
  /** The string's content so far, between its opening quote and the cursor. */
  typed: string;
  /** Offset of the string's first character (after the quote). */
  start: number;
}

/** Argument objects of the commands, whose string fields often hold parties. */
const ARGUMENT_KEYS = new Set(['createArguments', 'choiceArgument']);

/**
 * The party slot at `offset` in `text`, when the cursor is inside a string value of `actAs` or
 * `readAs`, or of a field in a command's arguments; else undefined.
 */
export function partySlotAt(text: string, offset: number): PartySlot | undefined {
  const slot = stringValueAt(text, offset);
  if (!slot) return undefined;
  const { inArguments, ...rest } = slot;
  return slot.field === 'actAs' || slot.field === 'readAs' || inArguments ? rest : undefined;
}

/** The string value at `offset` (the cursor inside its quotes): its field, and whether it is inside a command's arguments. */
export function stringValueAt(text: string, offset: number): (PartySlot & { inArguments: boolean }) | undefined {
  const slot = stringAt(text, offset);
  return slot && !slot.isKey ? { field: slot.field, typed: slot.typed, start: slot.start, inArguments: slot.inArguments } : undefined;
}

/**
 * A property name being typed at `offset` directly inside a command's `createArguments` or
 * `choiceArgument` object: `field` is which of the two.
 */
export function argumentKeyAt(text: string, offset: number): PartySlot | undefined {
  const slot = stringAt(text, offset);
  return slot?.isKey && ARGUMENT_KEYS.has(slot.field) ? { field: slot.field, typed: slot.typed, start: slot.start } : undefined;
}

/** The string at `offset`: a value (its field) or a key (the field of the object it is in). */
function stringAt(text: string, offset: number): (PartySlot & { inArguments: boolean; isKey: boolean }) | undefined {
  type Frame = { kind: 'object' | 'array'; key: string | undefined; currentKey: string | undefined; expectingValue: boolean };
  const stack: Frame[] = [];
  let pendingKey: string | undefined;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') j++;
        else value += text[j];
        j++;
      }
      if (j >= offset) {
        // The cursor is inside this string.
        if (!top) return undefined;
        const isValue = top.kind === 'array' || top.expectingValue;
        const field = !isValue ? top.key : top.kind === 'array' ? top.key : top.currentKey;
        const inArguments =
          stack.some((f) => f.key !== undefined && ARGUMENT_KEYS.has(f.key)) || (top.kind === 'object' && top.key !== undefined && ARGUMENT_KEYS.has(top.key));
        return field === undefined ? undefined : { field, typed: text.slice(i + 1, offset), start: i + 1, inArguments, isKey: !isValue };
      }
      if (top?.kind === 'object' && !top.expectingValue) top.currentKey = value;
      i = j;
      continue;
    }
    if (c === ':' && top?.kind === 'object') {
      top.expectingValue = true;
      pendingKey = top.currentKey;
    } else if (c === ',' && top?.kind === 'object') {
      top.expectingValue = false;
    } else if (c === '{' || c === '[') {
      const key = top?.kind === 'array' ? top.key : pendingKey;
      stack.push({ kind: c === '{' ? 'object' : 'array', key, currentKey: undefined, expectingValue: false });
      pendingKey = undefined;
    } else if (c === '}' || c === ']') {
      stack.pop();
    }
  }
  return undefined;
}

export interface PartyCandidate {
  party: string;
  /** Why it is offered: the user's rights for it, or that the node hosts it. */
  detail: string;
}

/** The user's parties first (act-as before read-only), then the node's other hosted parties. */
export function partyCandidates(rights: UserRights | undefined, hosted: readonly string[] | undefined): PartyCandidate[] {
  const out: PartyCandidate[] = [];
  const seen = new Set<string>();
  const mine = [...(rights?.byParty ?? new Map<string, string[]>())].sort(([, a], [, b]) => Number(b.includes('CanActAs')) - Number(a.includes('CanActAs')));
  for (const [party, kinds] of mine) {
    seen.add(party);
    out.push({ party, detail: l10n.t("the token's user: {0}", kinds.join(', ')) });
  }
  for (const party of hosted ?? []) {
    if (seen.has(party)) continue;
    seen.add(party);
    out.push({ party, detail: l10n.t('hosted on the node') });
  }
  return out;
}
