// `cantonLens.startDemoLedger`: the embedded fake node, added as the node "Demo Ledger" with a
// token for the demo user alice, for trying Canton Lens without a ledger.
import * as vscode from 'vscode';
import type { FakeLedgerNode } from '../../fake-ledger/src/demo';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { loadFakeNodeBundle } from '../services/lazyBundles';
import type { ExtensionLog } from '../services/extensionLog';
import type { LedgerNodes } from '../services/ledgerNodes';

export const DEMO_NODE_NAME = 'Demo Ledger';

export interface DemoLedgerInfo {
  name: string;
  url: string;
  version: string;
}

export function registerDemoLedgerCommands(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly bundleDir: string; readonly nodes: LedgerNodes; readonly log: ExtensionLog },
): void {
  const { bundleDir, nodes, log } = ctx;
  let running: Promise<FakeLedgerNode> | undefined;

  const start = async (): Promise<DemoLedgerInfo> => {
    running ??= loadFakeNodeBundle(bundleDir).FakeLedgerNode.start({ version: '3.5', requestLog: 0, bigTreeNodes: 10_000 });
    running.catch(() => (running = undefined));
    const demo = await running;
    const existing = nodes.find(DEMO_NODE_NAME);
    const node = existing?.url === demo.url ? existing : await nodes.saveNode({ name: DEMO_NODE_NAME, url: demo.url, parties: [demo.ledger.parties.Alice] });
    if (!node) throw new Error(`The node "${DEMO_NODE_NAME}" could not be saved in the settings.`);
    await nodes.setToken(node, demo.mintToken('alice', { exp: Math.floor(Date.now() / 1000) + 24 * 3600 }));
    if (!nodes.active()) await nodes.setActive(DEMO_NODE_NAME);
    const status = await nodes.check(node);
    if (status.state !== 'reachable') throw status.error;
    log.info(`Demo ledger running at ${demo.url} (Canton ${status.version}).`);
    return { name: DEMO_NODE_NAME, url: demo.url, version: status.version };
  };

  ctx.subscriptions.push(
    vscode.commands.registerCommand('cantonLens.startDemoLedger', async (): Promise<DemoLedgerInfo | undefined> => {
      try {
        const info = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting the demo ledger…') }, start);
        void vscode.window
          .showInformationMessage(
            vscode.l10n.t('The demo ledger (Canton {0}) is running at {1} as the node "{2}".', info.version, info.url, info.name),
            vscode.l10n.t('Show Nodes'),
          )
          .then((pick) => {
            if (pick) void vscode.commands.executeCommand('cantonLens.nodes.focus');
          });
        return info;
      } catch (e) {
        const why = isLedgerApiError(e) ? e.explanation : (e as Error).message;
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not start the demo ledger: {0}', why));
        return undefined;
      }
    }),
    {
      dispose: () =>
        void running?.then(
          (n) => n.close(),
          () => undefined,
        ),
    },
  );
}
