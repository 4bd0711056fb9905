// The language-model tools' registrations (package.json's languageModelTools), made at activation.
import * as vscode from 'vscode';

export interface ToolRegistrationDeps extends Pick<vscode.ExtensionContext, 'subscriptions'> {
  /** The tools by name (toolNames.ts). */
  readonly agentTools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
}

export function registerLanguageModelTools(ctx: ToolRegistrationDeps): void {
  // Older hosts and editors without language-model tools: nothing to register.
  if (typeof vscode.lm?.registerTool !== 'function') return;
  for (const [name, tool] of ctx.agentTools) ctx.subscriptions.push(vscode.lm.registerTool<unknown>(name, tool));
}
