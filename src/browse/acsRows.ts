// Active contracts as table rows: the few columns a person scans (id, template, time, parties,
// key, the first fields of the create argument) and a lower-case search text over the argument.
// Compact, because 100,000 of them travel to the page. No `vscode` import.
import type { CreatedEvent } from '../ledger/apiTypes';

/** One row, as an array so 100,000 of them stay small: see ACS_ROW for the positions. */
export type AcsRow = [
  contractId: string,
  templateId: string,
  packageName: string,
  createdAt: string,
  signatories: string[],
  observers: string[],
  key: string,
  fields: [string, string][],
  search: string,
];

export const FIELD_COLUMNS = 3;
const MAX_TEXT = 120;
const MAX_SEARCH = 1500;

/** A value as short text: strings as they are, records and lists as compact JSON, cut. */
export function valueText(v: unknown): string {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (v === null || v === undefined) s = '';
  else if (typeof v === 'object') s = JSON.stringify(v) ?? '';
  else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') s = v.toString();
  else s = typeof v;
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s;
}

export function acsRow(e: CreatedEvent): AcsRow {
  const arg = e.createArgument;
  const fields: [string, string][] = [];
  if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) {
    for (const [k, v] of Object.entries(arg as Record<string, unknown>)) {
      // Issuer and owner are already in the parties columns.
      if (fields.length >= FIELD_COLUMNS) break;
      if (Array.isArray(e.signatories) && e.signatories.includes(v as string)) continue;
      fields.push([k, valueText(v)]);
    }
  }
  let argText: string;
  try {
    argText = JSON.stringify(arg) ?? '';
  } catch {
    argText = '';
  }
  const key = e.contractKey === null || e.contractKey === undefined ? '' : valueText(e.contractKey);
  return [
    String(e.contractId),
    String(e.templateId),
    String(e.packageName ?? ''),
    String(e.createdAt ?? ''),
    Array.isArray(e.signatories) ? e.signatories.map(String) : [],
    Array.isArray(e.observers) ? e.observers.map(String) : [],
    key,
    fields,
    `${e.templateId} ${argText.slice(0, MAX_SEARCH)} ${key}`.toLowerCase(),
  ];
}
