// Runs inside the extension host (`npm run bench`, section browse or browse-host): Canton: Show
// Active Contracts over a node's 100,000 generated contracts, and the extension host's RSS before,
// at its highest while the pages are read and sent to the table, and after. The panel keeps no
// rows in the host, so the growth is the pages in flight. Writes the figures to CANTON_LENS_BENCH_FILE.
import * as fs from 'node:fs';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { CantonLensApi } from '../../../src/extension';
import type { AcsPanel } from '../../../src/panels/acsPanel';

export interface HostAcsMemoryResult {
  beforeMb: number;
  peakMb: number;
  afterMb: number;
  contracts: number;
  pages: number;
  seconds: number;
  error: string;
}

export async function run(): Promise<void> {
  const env = JSON.parse(process.env.CANTON_LENS_BENCH_NODE!) as { url: string; token: string };
  await vscode.extensions.getExtension<CantonLensApi>('canton-lens.canton-lens')!.activate();
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const rssMb = (collect: boolean) => {
    if (collect) {
      gc();
      gc();
    }
    return process.memoryUsage().rss / (1024 * 1024);
  };
  // No parties: the reader's token reads as any party (CanReadAsAnyParty), every contract.
  await vscode.commands.executeCommand('cantonLens.addNode', { name: 'bench-acs', url: env.url });
  await vscode.commands.executeCommand('cantonLens.setToken', 'bench-acs', env.token);
  await vscode.commands.executeCommand('cantonLens.selectNode', 'bench-acs');
  // Warm: the same panel on a small read (one template), closed, so the first-use cost is not counted.
  const warmPanel = await vscode.commands.executeCommand<AcsPanel>(
    'cantonLens.showActiveContracts',
    'bench-acs',
    undefined,
    '#acs-trade:Trade.Kyc:Attestation',
  );
  await waitFor(() => warmPanel.shown.done || warmPanel.shown.error !== '');
  warmPanel.webviewPanel.dispose();
  await new Promise((r) => setTimeout(r, 1000));
  const before = rssMb(true);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(false))), 50);
  const started = Date.now();
  const panel = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', 'bench-acs');
  await waitFor(() => panel.shown.done || panel.shown.error !== '');
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(false));
  await new Promise((r) => setTimeout(r, 1000));
  const result: HostAcsMemoryResult = {
    beforeMb: before,
    peakMb: peak,
    afterMb: rssMb(true),
    contracts: panel.shown.contracts,
    pages: panel.shown.pages,
    seconds,
    error: panel.shown.error,
  };
  fs.writeFileSync(process.env.CANTON_LENS_BENCH_FILE!, JSON.stringify(result));
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('the active contracts were not read within 10 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
}
