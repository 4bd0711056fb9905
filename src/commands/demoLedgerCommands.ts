// `cantonLens.startDemoLedger`: the embedded fake node, for trying Canton Lens without a ledger.
import * as vscode from 'vscode';
import type { FakeLedgerNode } from '../fakeNode/fakeLedgerNode';
import { LedgerClient } from '../ledger/ledgerClient';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { lazyHttpTransport, loadFakeNodeBundle } from '../ledger/lazyBundles';

export interface DemoLedgerInfo {
  url: string;
  version: string;
  /** A token for the demo user `alice`, for the commands that need one. */
  token: string;
}

export function registerDemoLedgerCommands(context: vscode.ExtensionContext, userAgent: string): void {
  const bundleDir = vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath;
  let running: Promise<{ node: FakeLedgerNode; info: DemoLedgerInfo }> | undefined;

  const start = async (): Promise<DemoLedgerInfo> => {
    running ??= (async () => {
      const { FakeLedgerNode } = loadFakeNodeBundle(bundleDir);
      const node = await FakeLedgerNode.start({ version: '3.5' });
      const client = new LedgerClient({ baseUrl: node.url, transport: lazyHttpTransport(bundleDir), userAgent });
      try {
        const { version } = await client.getVersion();
        return { node, info: { url: node.url, version, token: node.mintToken('alice') } };
      } finally {
        await client.close();
      }
    })();
    running.catch(() => (running = undefined));
    return (await running).info;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('cantonLens.startDemoLedger', async (): Promise<DemoLedgerInfo | undefined> => {
      try {
        const info = await start();
        void vscode.window.showInformationMessage(`Demo ledger (Canton ${info.version}) is running at ${info.url}.`, 'Copy URL').then((pick) => {
          if (pick) void vscode.env.clipboard.writeText(info.url);
        });
        return info;
      } catch (e) {
        const why = isLedgerApiError(e) ? e.explanation : (e as Error).message;
        void vscode.window.showErrorMessage(`Could not start the demo ledger: ${why}`);
        return undefined;
      }
    }),
    { dispose: () => void running?.then(({ node }) => node.close(), () => undefined) },
  );
}
