// The language-model tools' registrations, made at activation: their code (the lookups, the
// answers' text, the command-failure explanations) loads from dist/agentTools.js with the first call.
import * as vscode from 'vscode';
import { COMMAND_FAILURE_TOOL, TOOL_NAMES } from './toolNames';

export interface ToolRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The tools by name, loaded on first use. */
  readonly agentTools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
}

export function registerLanguageModelTools(ctx: ToolRegistrationDeps): void {
  // Older hosts and editors without language-model tools: nothing to register.
  if (typeof vscode.lm?.registerTool !== 'function') return;
  const tool = (name: string): vscode.LanguageModelTool<unknown> => {
    const t = ctx.agentTools.get(name);
    if (!t) throw new Error(vscode.l10n.t('The tool {0} is missing from its bundle: reinstall Canton Lens.', name));
    return t;
  };
  for (const name of [...Object.values(TOOL_NAMES), COMMAND_FAILURE_TOOL])
    ctx.subscriptions.push(
      vscode.lm.registerTool<unknown>(name, {
        prepareInvocation: (options, token) => tool(name).prepareInvocation?.(options, token),
        invoke: (options, token) => tool(name).invoke(options, token),
      }),
    );
}
