// Helpers for extension-host tests: the extension's API, tree text, polling.
import * as vscode from 'vscode';
import type { CantonLensApi } from '../../../src/extension';
import type { NodeTreeElement } from '../../../src/views/nodeTree';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import { createPartner, PARTNER_TOKEN, tokenArgument, vetPartnerApp } from '../../support/partnerContracts';

export const EXTENSION_ID = 'canton-lens.canton-lens';

export async function cantonLens(): Promise<CantonLensApi> {
  const ext = vscode.extensions.getExtension<CantonLensApi>(EXTENSION_ID)!;
  return ext.activate();
}

export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RenderedItem {
  label: string;
  description: string;
  tooltip: string;
  contextValue?: string;
  command?: string;
  children: RenderedItem[];
}

function text(v: string | vscode.TreeItemLabel | vscode.MarkdownString | boolean | undefined): string {
  if (v === undefined || typeof v === 'boolean') return '';
  if (typeof v === 'string') return v;
  if ('label' in v) return v.label;
  return v.value;
}

/** The tree as a person would read it, expanded to `depth`. */
export async function renderTree(api: CantonLensApi, depth = 3, parent?: NodeTreeElement): Promise<RenderedItem[]> {
  const children = await api.nodeTree.getChildren(parent);
  const out: RenderedItem[] = [];
  for (const c of children) {
    const item = api.nodeTree.getTreeItem(c);
    out.push({
      label: text(item.label),
      description: text(item.description),
      tooltip: text(item.tooltip),
      contextValue: item.contextValue,
      command: item.command?.command,
      children: depth > 1 && item.collapsibleState !== vscode.TreeItemCollapsibleState.None ? await renderTree(api, depth - 1, c) : [],
    });
  }
  return out;
}

export function find(items: RenderedItem[], label: string): RenderedItem | undefined {
  for (const i of items) {
    if (i.label === label) return i;
    const inner = find(i.children, label);
    if (inner) return inner;
  }
  return undefined;
}

export async function resetNodes(): Promise<void> {
  const config = vscode.workspace.getConfiguration('cantonLens');
  await config.update('nodes', undefined, vscode.ConfigurationTarget.Global);
  await config.update('activeNode', undefined, vscode.ConfigurationTarget.Global);
}

/** The fake node as the only configured node, named `name`, with `user`'s token stored. */
export async function useFakeNode(api: CantonLensApi, fake: FakeLedgerNode, name: string, user: string): Promise<void> {
  await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name, url: fake.url }], vscode.ConfigurationTarget.Global);
  await until('the node', () => api.nodes.find(name));
  await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken(user));
}

/** A fake node of `version` (kept in `fakes`, for the suite to close) with the partner app vetted and a Token Alice owns. */
export async function startPartnerNode(version: FakeVersion, fakes: FakeLedgerNode[]): Promise<{ fake: FakeLedgerNode; token: string }> {
  const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1, singleSynchronizer: true });
  fakes.push(fake);
  const { Alice } = fake.ledger.parties;
  await vetPartnerApp(fake);
  return { fake, token: await createPartner(fake, 'alice', Alice, PARTNER_TOKEN, tokenArgument(Alice, Alice)) };
}

/** A partner node (startPartnerNode) as the only configured node, named `name`, with alice's token stored. */
export async function usePartnerNode(
  api: CantonLensApi,
  version: FakeVersion,
  name: string,
  fakes: FakeLedgerNode[],
): Promise<{ fake: FakeLedgerNode; token: string }> {
  const partner = await startPartnerNode(version, fakes);
  await useFakeNode(api, partner.fake, name, 'alice');
  return partner;
}
