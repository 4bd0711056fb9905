// Language-model tools for Copilot and other agents: look up a contract, look up an update,
// explain why an id is (not) visible on a node, list the active contracts of a template. Each
// reads only (nothing that writes to a ledger is a tool) and answers what the panels show, as
// text built by ./toolText.ts (ledger strings as data). No token, secret or signing key is ever
// in an answer. toolRegistration.ts registers them.
import * as vscode from 'vscode';
import { browseEventFormat, hasPagedEndpoints } from '../browse/browseForms';
import { readActiveContracts } from '../browse/acsPaging';
import { classifyLedgerId } from '../ids/ledgerIds';
import type { CreatedEvent } from '../ledger/apiTypes';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerLookupService } from '../services/lookupService';
import type { NodeReader } from '../services/ledgerNodes';
import { TOOL_NAMES } from './toolNames';
import { MAX_CONTRACTS, activeContractsAnswer, contractAnswer, toolAnswer, updateAnswer, visibilityAnswer } from './toolText';

interface NodeInput {
  node?: string;
}
export interface ContractInput extends NodeInput {
  contractId: string;
}
export interface UpdateInput extends NodeInput {
  updateId: string;
  shape?: 'whatChanged' | 'whatHappened';
}
export interface VisibilityInput extends NodeInput {
  id: string;
}
export interface ActiveContractsInput extends NodeInput {
  templateId: string;
  parties?: string[];
  limit?: number;
}

const text = (s: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

/** The tools by name; `lookups` is read when a tool looks something up. */
export function languageModelTools(deps: {
  readonly nodes: NodeReader;
  readonly lookups: LedgerLookupService;
}): Map<string, vscode.LanguageModelTool<unknown>> {
  const { nodes } = deps;
  /** The node asked for, else the active one; or an answer that says what to do. */
  const nodeFor = (input: NodeInput): NodeConfig | string => {
    const names = nodes.all().map((n) => n.name);
    if (typeof input.node === 'string' && input.node !== '') {
      return (
        nodes.find(input.node) ??
        toolAnswer(
          'No ledger node of that name is configured in Canton Lens. Ask again with one of the configured nodes, or ask the user to add it (Canton: Add Ledger Node).',
          { asked: input.node, configuredNodes: names },
        )
      );
    }
    return (
      nodes.active() ??
      toolAnswer(
        names.length === 0
          ? 'No ledger node is configured in Canton Lens. Ask the user to add one (Canton: Add Ledger Node) or to start the demo ledger (Canton: Start Demo Ledger).'
          : 'No active ledger node is selected. Ask again naming one of the configured nodes, or ask the user to select one (Canton: Select Active Ledger Node).',
        { configuredNodes: names },
      )
    );
  };

  /** A failed request, explained (the explanation never holds the token: the client scrubs it). */
  const failure = (e: unknown, node: string): vscode.LanguageModelToolResult => {
    const explanation = isLedgerApiError(e) ? e.explanation : (e as Error).message;
    const auth = isLedgerApiError(e) && (e.kind === 'unauthenticated' || e.kind === 'permissionDenied');
    return text(
      toolAnswer(
        auth
          ? 'The node refused the request. The user can set a token with the rights needed (Canton: Set Token); the explanation says which.'
          : 'The request to the node failed. The explanation says what happened; the user can check the node (Canton: Refresh Ledger Nodes) and ask again.',
        { node, kind: isLedgerApiError(e) ? e.kind : 'error', explanation },
      ),
    );
  };

  const signalOf = (token: vscode.CancellationToken) => {
    const ac = new AbortController();
    token.onCancellationRequested(() => ac.abort());
    return ac.signal;
  };

  const idCheck = (id: unknown, kind: 'contract' | 'update' | 'any'): string | undefined => {
    if (typeof id !== 'string' || id.trim() === '')
      return toolAnswer(`Give the ${kind === 'any' ? 'contract or update' : kind} id to look up.`, { given: id ?? null });
    const shape = classifyLedgerId(id.trim()).kind;
    if (kind === 'any' ? shape !== 'contract' && shape !== 'update' : shape !== kind) {
      const what = kind === 'any' ? 'a contract or update' : kind === 'update' ? 'an update' : 'a contract';
      return toolAnswer(`That is not ${what} id (a contract id starts with 00 and is hex; an update id starts with 1220 and is 68 hex digits).`, {
        given: id,
        recognizedAs: shape,
      });
    }
    return undefined;
  };

  const contractTool: vscode.LanguageModelTool<ContractInput> = {
    prepareInvocation: (o) => ({ invocationMessage: vscode.l10n.t('Looking up a Canton contract on {0}', o.input.node || vscode.l10n.t('the active node')) }),
    invoke: async (o, token) => {
      const bad = idCheck(o.input.contractId, 'contract');
      if (bad) return text(bad);
      const node = nodeFor(o.input);
      if (typeof node === 'string') return text(node);
      try {
        return text(contractAnswer(await deps.lookups.contract(node, o.input.contractId.trim(), { signal: signalOf(token) }), node.name));
      } catch (e) {
        return failure(e, node.name);
      }
    },
  };

  const updateTool: vscode.LanguageModelTool<UpdateInput> = {
    prepareInvocation: (o) => ({ invocationMessage: vscode.l10n.t('Looking up a Canton update on {0}', o.input.node || vscode.l10n.t('the active node')) }),
    invoke: async (o, token) => {
      const bad = idCheck(o.input.updateId, 'update');
      if (bad) return text(bad);
      const node = nodeFor(o.input);
      if (typeof node === 'string') return text(node);
      try {
        const shape = o.input.shape === 'whatHappened' ? 'TRANSACTION_SHAPE_LEDGER_EFFECTS' : undefined;
        return text(updateAnswer(await deps.lookups.transaction(node, o.input.updateId.trim(), { signal: signalOf(token), shape }), node.name));
      } catch (e) {
        return failure(e, node.name);
      }
    },
  };

  const visibilityTool: vscode.LanguageModelTool<VisibilityInput> = {
    prepareInvocation: (o) => ({
      invocationMessage: vscode.l10n.t('Checking why an id is or is not visible on {0}', o.input.node || vscode.l10n.t('the active node')),
    }),
    invoke: async (o, token) => {
      const bad = idCheck(o.input.id, 'any');
      if (bad) return text(bad);
      const node = nodeFor(o.input);
      if (typeof node === 'string') return text(node);
      const id = o.input.id.trim();
      try {
        const signal = signalOf(token);
        const l =
          classifyLedgerId(id).kind === 'update' ? await deps.lookups.transaction(node, id, { signal }) : await deps.lookups.contract(node, id, { signal });
        return text(visibilityAnswer(l, node.name));
      } catch (e) {
        return failure(e, node.name);
      }
    },
  };

  const activeContractsTool: vscode.LanguageModelTool<ActiveContractsInput> = {
    prepareInvocation: (o) => ({
      invocationMessage: vscode.l10n.t('Listing active contracts of a template on {0}', o.input.node || vscode.l10n.t('the active node')),
    }),
    invoke: async (o, token) => {
      const templateId = typeof o.input.templateId === 'string' ? o.input.templateId.trim() : '';
      if (templateId.split(':').length < 3) {
        return text(toolAnswer('Give the template as #package-name:Module:Entity (or package-id:Module:Entity).', { given: o.input.templateId ?? null }));
      }
      const node = nodeFor(o.input);
      if (typeof node === 'string') return text(node);
      const limit = Math.max(1, Math.min(MAX_CONTRACTS, Math.floor(Number(o.input.limit) || 50)));
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort());
      let parties: readonly string[];
      if (Array.isArray(o.input.parties) && o.input.parties.length > 0 && o.input.parties.every((p) => typeof p === 'string')) parties = o.input.parties;
      else {
        // As the lookups read: the configured parties, else those the token's rights give.
        try {
          const { effective } = await nodes.facts.effective(node, await nodes.credentials(node), ac.signal);
          if (effective.refusal)
            return text(
              toolAnswer("Nothing was asked: the token's rights read nothing on this node. The user can set a token with read rights (Canton: Set Token).", {
                node: node.name,
                refusal: effective.refusal,
              }),
            );
          parties = effective.parties;
        } catch (e) {
          return failure(e, node.name);
        }
      }
      const status = nodes.status(node);
      const version = status.state === 'reachable' ? status.version : undefined;
      const contracts: CreatedEvent[] = [];
      let activeAtOffset: number | undefined;
      let notice: string | undefined;
      let more = false;
      try {
        for await (const page of readActiveContracts(nodes.client(node), {
          eventFormat: browseEventFormat({ parties, templates: [templateId] }),
          paged: hasPagedEndpoints(version),
          websocket: true,
          pageSize: limit + 1,
          listLimit: 10_000,
          signal: ac.signal,
        })) {
          if (page.restarted) contracts.length = 0;
          activeAtOffset = page.activeAtOffset;
          notice = page.notice ?? notice;
          // A list the node cut at its limit has more than it shows.
          if (page.incomplete) more = true;
          contracts.push(...page.events);
          if (contracts.length > limit) {
            more = true;
            break;
          }
        }
      } catch (e) {
        return failure(e, node.name);
      } finally {
        ac.abort();
      }
      return text(activeContractsAnswer({ node: node.name, templateId, parties, activeAtOffset, contracts: contracts.slice(0, limit), more, notice }));
    },
  };

  return new Map<string, vscode.LanguageModelTool<unknown>>([
    [TOOL_NAMES.contract, contractTool],
    [TOOL_NAMES.update, updateTool],
    [TOOL_NAMES.visibility, visibilityTool],
    [TOOL_NAMES.activeContracts, activeContractsTool],
  ]);
}
