// Sign In and Sign Out of a node whose tokens come from its OpenID provider.
import type { CommandRegistrar } from './commandRegistrar';
import * as vscode from 'vscode';
import type { LedgerAuthProvider, SignInNode } from '../providers/ledgerAuthProvider';
import type { LedgerNodes } from '../services/ledgerNodes';
import { nodeNameOf } from './nodeArgument';
import { setUpSignIn, type SetUpSignInArgs } from './signInSetUp';
import { showLedgerError } from './showLedgerError';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export function registerSignInCommands(
  ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: LedgerNodes; readonly auth: LedgerAuthProvider },
  register: CommandRegistrar,
): void {
  const { nodes, auth } = ctx;
  /** The sign-in node named by `arg`, else the one picked; explains a node without sign-in. */
  const pickNode = async (arg: unknown, placeHolder: string): Promise<SignInNode | undefined> => {
    const name = nodeNameOf(arg);
    const candidates = auth.signInNodes();
    const node = name !== undefined ? nodes.find(name) : candidates.length === 1 ? candidates[0] : undefined;
    if (node?.auth?.type === 'oidc') return node as SignInNode;
    if (name === undefined && candidates.length > 1) {
      const picked = await vscode.window.showQuickPick(
        candidates.map((n) => ({ label: n.name, description: new URL(n.auth.issuer).origin, node: n })),
        { placeHolder },
      );
      return picked?.node;
    }
    if (name !== undefined && !node) {
      void vscode.window.showErrorMessage(vscode.l10n.t('There is no ledger node named "{0}" in cantonLens.nodes.', name));
      return undefined;
    }
    const setUp = vscode.l10n.t('Set Up Sign-In…');
    const message =
      name !== undefined
        ? vscode.l10n.t('The ledger node "{0}" does not sign in through an identity provider yet.', name)
        : vscode.l10n.t('No ledger node signs in through an identity provider yet.');
    const pick = await vscode.window.showInformationMessage(message, setUp);
    if (pick) void runCommand(COMMAND.setUpSignIn, name);
    return undefined;
  };

  const signIn = async (arg?: unknown): Promise<boolean> => {
    const node = await pickNode(arg, vscode.l10n.t('Sign in to which ledger node?'));
    if (!node) return false;
    try {
      const session = await auth.signIn(node);
      void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to "{0}" as {1}.', node.name, session.account.label.split(' · ')[0]));
      return true;
    } catch (e) {
      void showLedgerError(node, e, vscode.l10n.t('Signing in'));
      return false;
    }
  };

  const signOut = async (arg?: unknown): Promise<boolean> => {
    const node = await pickNode(arg, vscode.l10n.t('Sign out of which ledger node?'));
    if (!node) return false;
    await auth.signOut(node);
    return true;
  };

  register(COMMAND.signIn, signIn);
  register(COMMAND.signOut, signOut);
  register(COMMAND.setUpSignIn, (arg?: unknown, args?: SetUpSignInArgs) => setUpSignIn(nodes, arg, args));
}
