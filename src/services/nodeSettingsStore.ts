// Reads and writes the `cantonLens.*` settings; the checks themselves are in nodes/nodeSettings.ts.
import * as vscode from 'vscode';
import { normaliseUrl, parseNodeSettings, type NodeConfig, type NodeSettingsResult } from '../nodes/nodeSettings';

const SECTION = 'cantonLens';

interface RawNode {
  name: string;
  url: string;
  parties?: string[];
  userId?: string;
  [key: string]: unknown;
}

export function readNodeSettings(): NodeSettingsResult {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('nodes');
  return parseNodeSettings(inspected?.globalValue, inspected?.workspaceValue ?? inspected?.workspaceFolderValue);
}

export function readActiveNodeName(): string | undefined {
  return vscode.workspace.getConfiguration(SECTION).get<string>('activeNode') || undefined;
}

export function readRequestTimeoutMs(): number {
  const s = vscode.workspace.getConfiguration(SECTION).get<number>('requestTimeoutSeconds', 30);
  return Math.max(1, Math.min(600, Number.isFinite(s) ? s : 30)) * 1000;
}

export function affectsNodeSettings(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(SECTION) || e.affectsConfiguration('http.proxy');
}

/** What Add Ledger Node writes for a node. */
export interface SavedNode {
  name: string;
  url: string;
  parties?: string[];
  userId?: string;
}

/** Adds or replaces a node in the user settings (a personal choice; teams share theirs in the workspace). */
export async function saveNode(node: SavedNode): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = (config.inspect<RawNode[]>('nodes')?.globalValue ?? []).filter((n) => n?.name !== node.name);
  const entry: RawNode = { name: node.name, url: normaliseUrl(node.url) };
  if (node.parties?.length) entry.parties = node.parties;
  if (node.userId) entry.userId = node.userId;
  await config.update('nodes', [...current, entry], vscode.ConfigurationTarget.Global);
}

/** Rewrites the node list of the settings scope a node is defined in. */
async function updateNodesOfScope(node: NodeConfig, change: (entries: RawNode[]) => RawNode[]): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const target = node.scope === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const inspected = config.inspect<RawNode[]>('nodes');
  await config.update('nodes', change((node.scope === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue) ?? []), target);
}

/** Sets (or removes) a node's `auth` entry in the settings scope it is defined in, keeping the rest. */
export function saveNodeAuth(node: NodeConfig, auth: Record<string, unknown> | undefined): Promise<void> {
  return updateNodesOfScope(node, (entries) => entries.map((n) => (n?.name === node.name ? { ...n, auth } : n)));
}

/** Removes a node from the settings scope it is defined in. */
export async function deleteNode(node: NodeConfig): Promise<void> {
  await updateNodesOfScope(node, (entries) => entries.filter((n) => n?.name !== node.name));
  if (readActiveNodeName() === node.name) await setActiveNodeName(undefined);
}

export async function setActiveNodeName(name: string | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  // Write where the current value comes from, or the workspace value would keep winning.
  const target = config.inspect<string>('activeNode')?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('activeNode', name, target);
}
