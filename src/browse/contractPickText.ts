// What a contract reads as in a pick list: the fields people tell contracts apart by (amount,
// currency…) in the label, the parties shortened in the description, the id shortened in the
// detail. Ledger text is plain there, but a pick list draws `$(icon)` and obeys bidi overrides:
// both are neutralised. No `vscode` import.
import { classifyLedgerId, shortenPartyId, shortId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';

export interface ContractPickText {
  label: string;
  description: string;
  detail: string;
}

/** How many fields of each kind a line shows. */
const SCALARS = 3;
const PARTIES = 3;
/** A value longer than this is cut: the line stays one line. */
const VALUE_CHARS = 40;

// Matching control characters is the point.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Ledger text for a pick list: no control or bidi characters, no `$(icon)`, not too long. */
export function pickSafe(s: string, max = VALUE_CHARS): string {
  const clean = s.replace(UNSAFE, '\ufffd').replace(/\$\(/g, '$\u200b(');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

interface Field {
  name: string;
  value: string;
}

/** The record's scalar fields, depth first, with dotted names; parties and contract ids apart. */
function fieldsOf(value: unknown, prefix: string, scalars: Field[], parties: Field[], depth = 0): void {
  if (depth > 4 || value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof v === 'string') {
      const kind = classifyLedgerId(v).kind;
      if (kind === 'party') parties.push({ name, value: v });
      else if (kind !== 'contract' && v !== '') scalars.push({ name, value: v });
    } else if (typeof v === 'number' || typeof v === 'boolean') scalars.push({ name, value: String(v) });
    else fieldsOf(v, name, scalars, parties, depth + 1);
  }
}

export function contractPickText(c: { contractId: string; offset?: number; createArgument?: unknown }): ContractPickText {
  const scalars: Field[] = [];
  const parties: Field[] = [];
  fieldsOf(c.createArgument, '', scalars, parties);
  const label = scalars
    .slice(0, SCALARS)
    .map((f) => `${pickSafe(f.name, 24)} ${pickSafe(f.value)}`)
    .join(' · ');
  const description = parties
    .slice(0, PARTIES)
    .map((f) => `${pickSafe(f.name, 24)} ${pickSafe(shortenPartyId(f.value))}`)
    .join(' · ');
  const id = shortId(c.contractId);
  return {
    label: label || id,
    description,
    detail: c.offset === undefined ? id : l10n.t('{0} · created at offset {1}', id, c.offset),
  };
}
