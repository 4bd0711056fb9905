// Active Contracts and Follow Updates as one bundle (dist/browse.js): the tables and live tails with
// their pages' HTML, and the node tree's count of active contracts. Loaded by the first table or
// tail, or the first expand of a node's Active Contracts.
import type * as vscode from 'vscode';
import { AcsPanels } from '../panels/acsPanel';
import type { CompiledFilter } from '../panels/payloadFilterPick';
import { TailPanels, type PositionListener } from '../panels/tailPanel';
import type { NodeReader } from '../services/ledgerNodes';

export { countActiveContracts } from '../browse/activeContractCounts';

export interface BrowseDeps {
  readonly subscriptions: { dispose(): unknown }[];
  readonly extensionUri: vscode.Uri;
  readonly nodes: NodeReader;
  /** Told where each Follow Updates panel is (the node tree's ledger end). */
  readonly browseTree: { reportLedgerEnd: PositionListener };
  /** The payload filter's input (the questions across time's bundle). */
  pickPayloadFilter(current: string, sample: readonly unknown[], parties: readonly string[]): Promise<CompiledFilter | undefined>;
}

export interface Browse {
  readonly acs: AcsPanels;
  readonly tails: TailPanels;
}

export function createBrowse(deps: BrowseDeps): Browse {
  const acs = new AcsPanels(deps.extensionUri, deps.nodes, (current, sample, parties) => deps.pickPayloadFilter(current, sample, parties));
  const tails = new TailPanels(deps.extensionUri, deps.nodes, (node, offset, live) => deps.browseTree.reportLedgerEnd(node, offset, live));
  deps.subscriptions.push(acs, tails);
  return { acs, tails };
}
