// The filters of ACS and update requests: the given or configured parties (else any party, which
// needs CanReadAsAnyParty), narrowed to templates or interfaces where asked. No `vscode` import.
import type { EventFormat, Filters, UpdateFormat } from '../ledger/apiTypes';
import { shortenPartyId } from '../ids/ledgerIds';
import { parseLedgerVersion } from '../ledger/ledgerVersion';
import * as l10n from '../l10n/l10n';

export interface BrowseFilter {
  /** Parties to read as; none: any party. */
  parties?: readonly string[];
  /** Template ids (`pkg:M:E` or `#name:M:E`); none: every template. */
  templates?: readonly string[];
  /** Interface ids, with their views. */
  interfaces?: readonly string[];
  /** false: match the interfaces without computing their views (a count needs none). */
  views?: boolean;
}

export function filtersOf(f: BrowseFilter): Filters {
  const cumulative: NonNullable<Filters['cumulative']> = [];
  for (const templateId of f.templates ?? [])
    cumulative.push({ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: false } } } });
  for (const interfaceId of f.interfaces ?? [])
    cumulative.push({
      identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: f.views !== false, includeCreatedEventBlob: false } } },
    });
  if (cumulative.length === 0) cumulative.push({ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } });
  return { cumulative };
}

export function browseEventFormat(f: BrowseFilter): EventFormat {
  const filters = filtersOf(f);
  if (f.parties && f.parties.length > 0) {
    const filtersByParty: Record<string, Filters> = {};
    for (const p of f.parties) filtersByParty[p] = filters;
    return { filtersByParty, verbose: true };
  }
  return { filtersForAnyParty: filters, verbose: true };
}

/** Ledger effects: Follow Updates shows exercised choices, not only creates and archives. */
export function followedUpdateFormat(f: BrowseFilter): UpdateFormat {
  return { includeTransactions: { eventFormat: browseEventFormat(f), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } };
}

/** Whether a node of this version serves active-contracts-page and get-updates-page (3.5+); unknown: try. */
export function hasPagedEndpoints(version: string | undefined): boolean {
  const v = version ? parseLedgerVersion(version) : undefined;
  if (!v) return true;
  return v.major > 3 || (v.major === 3 && v.minor >= 5);
}

/** Who a table or Follow Updates panel reads as, in words: "as seen by Alice::1220ab…", any party, or not known yet. */
export function asSeenBy(parties: readonly string[] | undefined): string {
  if (parties === undefined) return l10n.t('as seen by …');
  return parties.length ? l10n.t('as seen by {0}', parties.map(shortenPartyId).join(', ')) : l10n.t('as seen by any party on the node');
}
