// `cantonLens.startDemoLedger`: the embedded fake node, added as the node "Demo Ledger" with a
// token for the demo user alice, for trying Canton Lens without a ledger. A demo ledger already
// running on this machine is used; a node of another ledger is never re-pointed.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import type { FakeLedgerNode } from '../../fake-ledger/src/demo';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { demoNodeName, isLoopbackUrl } from '../nodes/demoTokens';
import type * as FakeNodeModule from '../../fake-ledger/src/demo';
import { loadBundle } from '../services/lazyBundles';
import type { ExtensionLog } from '../services/extensionLog';
import type { LedgerNodes } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';

export const DEMO_NODE_NAME = 'Demo Ledger';

export interface DemoLedgerInfo {
  name: string;
  url: string;
  version: string;
  /** How it came to be: a demo ledger already running on this machine, or one started now (on a node of its own when "Demo Ledger" is another ledger's). */
  how: 'reused' | 'started' | 'startedOnNewNode';
}

export function registerDemoLedgerCommands(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly bundleDir: string; readonly nodes: LedgerNodes; readonly log: ExtensionLog },
  register: CommandRegistrar,
): void {
  const { bundleDir, nodes, log } = ctx;
  let running: Promise<FakeLedgerNode> | undefined;

  const start = async (): Promise<DemoLedgerInfo> => {
    // A demo ledger already running on this machine (`npm run demo`, or an earlier start) is used as it is.
    const earlier = nodes.find(DEMO_NODE_NAME);
    if (!running && earlier && isLoopbackUrl(earlier.url) && (await nodes.tokenUser(earlier)) !== undefined) {
      const status = await nodes.check(earlier);
      if (status.state === 'reachable') return { name: earlier.name, url: earlier.url, version: status.version, how: 'reused' };
    }
    const startedNow = !running;
    running ??= loadBundle<typeof FakeNodeModule>(bundleDir, 'fakeNode').FakeLedgerNode.start({
      version: '3.5',
      requestLog: 0,
      bigTreeNodes: 10_000,
      wallClock: true,
      generated: { hostile: false },
    });
    running.catch(() => (running = undefined));
    const demo = await running;
    const { name, existing } = demoNodeName(DEMO_NODE_NAME, nodes.all(), demo.url);
    const node = existing ? nodes.find(name) : await nodes.saveNode({ name, url: demo.url, parties: [demo.ledger.parties.Alice] });
    if (!node) throw new Error(`The node "${name}" could not be saved in the settings.`);
    await nodes.setToken(node, demo.mintToken('alice', { exp: Math.floor(Date.now() / 1000) + 24 * 3600 }));
    if (!nodes.active()) await nodes.setActive(name);
    const status = await nodes.check(node);
    if (status.state !== 'reachable') throw status.error;
    log.info(`Demo ledger running at ${demo.url} (Canton ${status.version}) as the node "${name}".`);
    const how = !startedNow ? 'reused' : name === DEMO_NODE_NAME ? 'started' : 'startedOnNewNode';
    return { name, url: demo.url, version: status.version, how };
  };

  const said = (info: DemoLedgerInfo): string =>
    info.how === 'reused'
      ? vscode.l10n.t('The demo ledger (Canton {0}) at {1} is already running as the node "{2}": using it.', info.version, info.url, info.name)
      : info.how === 'startedOnNewNode'
        ? vscode.l10n.t(
            'Started a demo ledger (Canton {0}) at {1} as the new node "{2}": the node "{3}" points at another ledger and is kept as it is.',
            info.version,
            info.url,
            info.name,
            DEMO_NODE_NAME,
          )
        : vscode.l10n.t('The demo ledger (Canton {0}) is running at {1} as the node "{2}".', info.version, info.url, info.name);

  register(COMMAND.startDemoLedger, async (): Promise<DemoLedgerInfo | undefined> => {
    try {
      const info = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting the demo ledger…') }, start);
      void vscode.window.showInformationMessage(said(info), vscode.l10n.t('Show Nodes')).then((pick) => {
        if (pick) void vscode.commands.executeCommand('cantonLens.nodes.focus');
      });
      return info;
    } catch (e) {
      const why = isLedgerApiError(e) ? e.explanation : (e as Error).message;
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not start the demo ledger: {0}', why));
      return undefined;
    }
  });
  ctx.subscriptions.push({
    dispose: () =>
      void running?.then(
        (n) => n.close(),
        () => undefined,
      ),
  });
}
