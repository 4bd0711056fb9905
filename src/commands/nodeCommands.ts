// Add, remove, select and refresh ledger nodes.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { urlProblem } from '../nodes/nodeSettings';
import type { ExtensionLog } from '../services/extensionLog';
import type { LedgerNodes } from '../services/ledgerNodes';
import { nodeNameOf, resolveNode } from './nodeArgument';
import { COMMAND } from '../ids/commandIds';

export interface AddNodeArgs {
  name?: string;
  url?: string;
  parties?: string[];
  userId?: string;
}

export function registerNodeCommands(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: LedgerNodes; readonly log: ExtensionLog },
  register: CommandRegistrar,
): void {
  const { nodes, log } = ctx;
  const addNode = async (args: AddNodeArgs = {}): Promise<{ name: string; version?: string } | undefined> => {
    const name =
      args.name ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Ledger Node (1/2)'),
        prompt: vscode.l10n.t('A name for the node, e.g. "participant1 (dev)"'),
        validateInput: (v) =>
          !v.trim()
            ? vscode.l10n.t('Enter a name.')
            : nodes.find(v.trim())
              ? vscode.l10n.t('A node named "{0}" exists; pick another name or remove it first.', v.trim())
              : undefined,
        ignoreFocusOut: true,
      }));
    if (!name?.trim()) return undefined;
    // The URL box comes back, holding what was typed, until the node answers or the person saves
    // anyway; Escape in the box ends it.
    let typed = '';
    let url: string | undefined;
    let version: string | undefined;
    for (;;) {
      url =
        args.url ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t('Add Ledger Node (2/2)'),
          prompt: vscode.l10n.t('The JSON Ledger API URL, with its path prefix if any'),
          placeHolder: 'http://localhost:7575 or https://host/api/json',
          value: typed || undefined,
          validateInput: (v) => {
            const p = urlProblem(v);
            return p ? vscode.l10n.t('The node {0}.', p) : undefined;
          },
          ignoreFocusOut: true,
        }));
      if (!url) return undefined;
      const problem = urlProblem(url);
      if (problem) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Node "{0}" {1}.', name, problem));
        return undefined;
      }
      try {
        const probing = url;
        version = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking {0} …', url), cancellable: true },
          async (_p, cancel) => {
            const ac = new AbortController();
            cancel.onCancellationRequested(() => ac.abort());
            return (await nodes.probe(probing, ac.signal)).version;
          },
        );
        break;
      } catch (e) {
        if (isLedgerApiError(e) && e.kind === 'cancelled') return undefined;
        if (args.url) break;
        const why = isLedgerApiError(e) ? e.explanation : (e as Error).message;
        if (await askSaveUnreachable(url, why)) break;
        typed = url;
      }
    }
    await nodes.saveNode({ name: name.trim(), url, parties: args.parties, userId: args.userId });
    if (!nodes.active() || nodes.all().length === 1) await nodes.setActive(name.trim());
    log.info(`Added node "${name.trim()}" (${url})${version ? `: Canton ${version}` : ''}.`);
    if (!args.url) {
      void vscode.window
        .showInformationMessage(
          version ? vscode.l10n.t('Added "{0}": Canton {1}.', name.trim(), version) : vscode.l10n.t('Added "{0}" (not reachable yet).', name.trim()),
          vscode.l10n.t('Set Token'),
          vscode.l10n.t('Set Up Sign-In…'),
        )
        .then((pick) => pick && vscode.commands.executeCommand(pick === vscode.l10n.t('Set Token') ? COMMAND.setToken : COMMAND.setUpSignIn, name.trim()));
    }
    return { name: name.trim(), version };
  };

  /**
   * An unreachable URL: save it anyway, or go back and edit it. Edit URL comes first, so it is the
   * default button (a modal's first button is; the close affordance would be Cancel instead), and
   * Cancel (Escape) goes back to the URL box too: a slip of the Enter key never saves a wrong URL.
   */
  const askSaveUnreachable = async (url: string, why: string): Promise<boolean> => {
    const edit: vscode.MessageItem = { title: vscode.l10n.t('Edit URL') };
    const save: vscode.MessageItem = { title: vscode.l10n.t('Save Anyway') };
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} did not answer GET /v2/version', url),
      { modal: true, detail: vscode.l10n.t('{0}\n\nEdit the URL, or save it anyway if the node is not running yet.', why) },
      edit,
      save,
    );
    return pick === save;
  };

  const removeNode = async (arg?: unknown): Promise<boolean> => {
    const node = await resolveNode(nodes, arg, vscode.l10n.t('Remove which ledger node?'));
    if (!node) return false;
    await nodes.removeNode(node);
    log.info(`Removed node "${node.name}" and its stored token.`);
    if (nodeNameOf(arg) === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Removed "{0}" and its stored token.', node.name), vscode.l10n.t('Undo')).then(async (pick) => {
        if (pick) await nodes.saveNode(node);
      });
    }
    return true;
  };

  const selectNode = async (arg?: unknown): Promise<string | undefined> => {
    let name = nodeNameOf(arg);
    if (name === undefined) {
      const active = nodes.active()?.name;
      const items = nodes.all().map((n) => {
        const s = nodes.status(n);
        return {
          label: `${n.name === active ? '$(check) ' : ''}${n.name}`,
          description:
            s.state === 'reachable'
              ? `Canton ${s.version} · ${Math.round(s.latencyMs)} ms`
              : s.state === 'unreachable'
                ? vscode.l10n.t('unreachable: {0}', s.error.kind)
                : vscode.l10n.t('not checked'),
          detail: n.url,
          name: n.name,
        };
      });
      if (items.length === 0) {
        await resolveNode(nodes, undefined, '');
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('Select the Active Ledger Node'),
        placeHolder: vscode.l10n.t('Lookups use the active node'),
        matchOnDetail: true,
      });
      name = picked?.name;
    }
    if (name === undefined) return undefined;
    if (!nodes.find(name)) {
      void vscode.window.showErrorMessage(vscode.l10n.t('There is no ledger node named "{0}" in cantonLens.nodes.', name));
      return undefined;
    }
    await nodes.setActive(name);
    return name;
  };

  const refresh = async (arg?: unknown, options: { refreshToken?: boolean } = {}): Promise<void> => {
    const name = nodeNameOf(arg);
    const targets = name === undefined ? nodes.all() : [nodes.find(name)].filter((n) => n !== undefined);
    await vscode.window.withProgress({ location: { viewId: 'cantonLens.nodes' } }, async () => {
      await Promise.all(
        targets.map(async (n) => {
          if (options.refreshToken) nodes.invalidateToken(n);
          nodes.requestRefresh(n);
          await nodes.check(n);
        }),
      );
    });
  };

  register(COMMAND.addNode, addNode);
  register(COMMAND.removeNode, removeNode);
  register(COMMAND.selectNode, selectNode);
  register(COMMAND.refresh, refresh);
  register(COMMAND.showLog, () => log.show());
  register(COMMAND.copyValue, async (element?: { label?: string; value?: string }) => {
    if (!element?.value) return;
    await vscode.env.clipboard.writeText(element.value);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', element.label ?? 'value'), 2000);
  });
}
