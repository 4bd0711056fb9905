// The language-model tools as one bundle (dist/agentTools.js): look up a contract or an update,
// explain visibility, list active contracts, and why a command failed. Loaded by the first call of
// one of them.
import type * as vscode from 'vscode';
import { commandFailureTool, type SeenRefusal } from '../agentTools/commandFailureTool';
import { languageModelTools } from '../agentTools/languageModelTools';
import { COMMAND_FAILURE_TOOL } from '../agentTools/toolNames';
import type { NodeReader } from '../services/ledgerNodes';
import type { LedgerLookupService } from '../services/lookupService';

export interface AgentToolsDeps {
  readonly bundleDir: string;
  readonly nodes: NodeReader;
  /** Read when a tool looks an id up. */
  readonly lookups: LedgerLookupService;
  /** The commands loop, if loaded: the refusals this editor saw when it submitted commands. */
  readonly loadedCommandsLoop: { readonly reviews: { readonly refused: readonly SeenRefusal[] } } | undefined;
}

export function createAgentTools(deps: AgentToolsDeps): Map<string, vscode.LanguageModelTool<unknown>> {
  const tools = languageModelTools(deps);
  tools.set(
    COMMAND_FAILURE_TOOL,
    commandFailureTool(deps.bundleDir, deps.nodes, () => deps.loadedCommandsLoop?.reviews.refused ?? []),
  );
  return tools;
}
