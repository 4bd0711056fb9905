// Runs inside the extension host (`npm run bench` starts it like tier 2): 10,000 lookups, hovers
// and panel opens against a fake node in the bench's process, then the extension host's RSS once
// the panels are closed, against its warm level. Writes the figures to CANTON_LENS_BENCH_FILE.
import * as fs from 'node:fs';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { CantonLensApi } from '../../../src/extension';

export interface HostMemoryResult {
  warmMb: number;
  afterMb: number;
  peakMb: number;
  operations: number;
  seconds: number;
  openPanels: number;
  hovers: number;
}

const OPERATIONS = 10_000;

export async function run(): Promise<void> {
  const env = JSON.parse(process.env.CANTON_LENS_BENCH_NODE!) as { url: string; token: string; party: string; contracts: string[]; updates: string[] };
  const api = await vscode.extensions.getExtension<CantonLensApi>('canton-lens.canton-lens')!.activate();
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const rssMb = () => {
    gc();
    gc();
    return process.memoryUsage().rss / (1024 * 1024);
  };
  await vscode.commands.executeCommand('cantonLens.addNode', { name: 'bench', url: env.url, parties: [env.party] });
  await vscode.commands.executeCommand('cantonLens.setToken', 'bench', env.token);
  await vscode.commands.executeCommand('cantonLens.selectNode', 'bench');
  const node = api.nodes.find('bench')!;
  // A log of distinct ids, as a person hovers them: most are not on the ledger (each asks the node).
  const variant = (id: string, i: number) => `${id.slice(0, -6)}${(i % 0xffffff).toString(16).padStart(6, '0')}`;
  const lines = Array.from(
    { length: 2_000 },
    (_, i) =>
      `2026-11-23T09:00:00Z INFO committed contract ${variant(env.contracts[i % env.contracts.length], i)} update ${env.updates[i % env.updates.length]}`,
  );
  const doc = await vscode.workspace.openTextDocument({ language: 'log', content: lines.join('\n') });
  await vscode.window.showTextDocument(doc);
  let peak = 0;
  let hovered = 0;
  const round = async (n: number, offset: number) => {
    for (let i = 0; i < n; i++) {
      const k = offset + i;
      const op = k % 10;
      if (op < 6) await api.lookups.contract(node, variant(env.contracts[k % env.contracts.length], k));
      else if (op < 9) {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(k % lines.length, 60));
        if (hovers.length > 0) hovered++;
      } else {
        await vscode.commands.executeCommand('cantonLens.showContract', k % 20 === 9 ? env.contracts[0] : variant(env.contracts[1], k), 'bench');
        // A person closes panels now and then; here every 50 opens.
        if (k % 500 === 499) await closePanels();
      }
      if (k % 1000 === 999) peak = Math.max(peak, process.memoryUsage().rss / (1024 * 1024));
    }
    await closePanels();
  };
  const closePanels = async () => {
    const webviews = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);
    if (webviews.length > 0) await vscode.window.tabGroups.close(webviews);
    await new Promise((r) => setTimeout(r, 200));
  };
  await round(500, 1_000_000);
  const warm = rssMb();
  hovered = 0;
  const started = Date.now();
  await round(OPERATIONS, 0);
  const seconds = (Date.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 1000));
  const result: HostMemoryResult = {
    warmMb: warm,
    afterMb: rssMb(),
    peakMb: peak,
    operations: OPERATIONS,
    seconds,
    openPanels: api.panels.panels.length,
    hovers: hovered,
  };
  fs.writeFileSync(process.env.CANTON_LENS_BENCH_FILE!, JSON.stringify(result));
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
