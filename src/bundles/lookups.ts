// The lookups as one bundle (dist/lookups.js): the lookup service with its cache, and the hover on
// ids. Loaded by the first lookup, panel or tool that asks, or the first id hovered.
import type * as vscode from 'vscode';
import { ledgerIdHoverProvider } from '../providers/ledgerIdHoverProvider';
import type { LedgerNodes } from '../services/ledgerNodes';
import { LedgerLookupService } from '../services/lookupService';

export interface Lookups {
  readonly service: LedgerLookupService;
  readonly hover: vscode.HoverProvider;
}

export function createLookups(deps: { readonly subscriptions: { dispose(): unknown }[]; readonly nodes: LedgerNodes }): Lookups {
  const service = new LedgerLookupService(deps.nodes.registry, deps.nodes.facts);
  deps.subscriptions.push(service);
  return { service, hover: ledgerIdHoverProvider(deps.nodes, service) };
}
