// Vet Package and Unvet Package: one package of the node (picked, or a Packages row's) on a
// synchronizer (picked where the node has several). The confirmation names the templates it affects
// (from the node's Daml-LF, where it can be read); the change goes through runAdminChange
// (adminKit.ts), and the answer's vetting after the change is what is reported.
import * as vscode from 'vscode';
import { vettingChange, type VettingTarget } from '../auth/nodeAdmin';
import { nodePackages, type NodePackage } from '../daml/packageMatch';
import type { NodeSignaturesReader } from '../daml/lf/lfSignatures';
import { listAllVettedPackages, listPackageIds, ownVettingRequest } from '../ledger/packageRequests';
import type { AdminVettingCommand } from './adminIds';
import { answersOf, refused, runAdminChange, session, synchronizerFor, type AdminDeps, type AdminOutcome, type Session } from './adminKit';
import { COMMAND } from '../ids/commandIds';

export interface VettingDeps extends AdminDeps {
  signatures?: NodeSignaturesReader;
  /** The node's Packages rows read again after a change. */
  packagesChanged?: (node: string) => void;
}

/** A Packages row of the Ledger Nodes view: its node and package. */
function packageRow(arg: unknown): { node: string; packageId: string } | undefined {
  const row = arg as { kind?: unknown; name?: unknown; item?: { kind?: unknown; pkg?: { packageId?: unknown } } } | undefined;
  const id = row?.item?.pkg?.packageId;
  return row?.kind === 'packages' && row.item?.kind === 'package' && typeof row.name === 'string' && typeof id === 'string'
    ? { node: row.name, packageId: id }
    : undefined;
}

/** A package's name, version and templates (`Module:Template`) from the node's Daml-LF; undefined when it cannot be read. */
async function signatureOf(s: Session, deps: VettingDeps, packageId: string): Promise<{ name: string; version: string; templates: string[] } | undefined> {
  if (!deps.signatures) return undefined;
  try {
    const sig = (await deps.signatures(s.client)).packages.find((p) => p.packageId === packageId);
    return sig && { name: sig.name, version: sig.version, templates: sig.modules.flatMap((m) => m.templates.map((t) => `${m.name}:${t.name}`)) };
  } catch {
    return undefined;
  }
}

export function vettingHandlers(deps: VettingDeps): Record<AdminVettingCommand, (arg?: unknown) => Promise<AdminOutcome>> {
  const run = async (arg: unknown, how: 'vet' | 'unvet'): Promise<AdminOutcome> => {
    const row = packageRow(arg);
    const a = { ...answersOf(arg), ...row };
    const s = await session(
      deps.nodes,
      row ?? arg,
      how === 'vet' ? vscode.l10n.t('Vet a package on which ledger node?') : vscode.l10n.t('Unvet a package on which ledger node?'),
    );
    if (!s) return { done: false };
    try {
      const synchronizerId = await synchronizerFor(s, a, vscode.l10n.t('"{0}" is connected to several synchronizers: on which?', s.node.name), true);
      if (synchronizerId === false) return { done: false };
      const { participantId } = await s.client.getParticipantId(s.opts);
      const vetted = await listAllVettedPackages(s.client, ownVettingRequest(participantId), s.opts);
      const packages = nodePackages((await listPackageIds(s.client, s.opts)).packageIds ?? [], vetted, participantId);
      const isVetted = (p: NodePackage) => p.vetting.some((v) => synchronizerId === undefined || v.synchronizerId === synchronizerId);
      let target: VettingTarget | undefined = a.packageId ? (packages.find((p) => p.packageId === a.packageId) ?? { packageId: a.packageId }) : undefined;
      if (!target) {
        const candidates = packages.filter((p) => (how === 'vet' ? !isVetted(p) : isVetted(p)));
        const picked = await vscode.window.showQuickPick(
          candidates.map((p) => ({ label: p.name ? `${p.name} ${p.version ?? ''}` : p.packageId, description: p.packageId, pkg: p })),
          { placeHolder: how === 'vet' ? vscode.l10n.t('Vet which package?') : vscode.l10n.t('Unvet which package?'), matchOnDescription: true },
        );
        target = picked?.pkg;
      }
      if (!target) return { done: false };
      const sig = await signatureOf(s, deps, target.packageId);
      const pkg: VettingTarget = { packageId: target.packageId, name: target.name ?? sig?.name, version: target.version ?? sig?.version };
      const change = vettingChange(how, pkg, synchronizerId, sig?.templates);
      return await runAdminChange<{ newVettedPackages?: { packages?: { packageId?: string }[]; synchronizerId?: string } }>(
        { ...deps, changed: () => (deps.changed?.(), deps.packagesChanged?.(s.node.name)) },
        s,
        a,
        change,
        async (res) => {
          // Read back: this participant's vetting on that synchronizer now.
          const on = res.newVettedPackages?.synchronizerId ?? synchronizerId ?? '';
          const after = (await listAllVettedPackages(s.client, ownVettingRequest(participantId), s.opts)).filter((v) => !on || v.synchronizerId === on);
          const now = after.flatMap((v) => v.packages ?? []);
          const vettedNow = now.some((p) => p.packageId === pkg.packageId);
          const state = vettedNow
            ? vscode.l10n.t('{0} is vetted on {1}; {2} packages are vetted there.', pkg.name ?? pkg.packageId, on, now.length)
            : vscode.l10n.t('{0} is not vetted on {1}; {2} packages are vetted there.', pkg.name ?? pkg.packageId, on, now.length);
          return `${state} ${change.summary[1]}`;
        },
      );
    } catch (e) {
      return refused(s, vscode.l10n.t('Reading the packages and their vetting'), e);
    }
  };
  return {
    [COMMAND.vetPackage]: (arg) => run(arg, 'vet'),
    [COMMAND.unvetPackage]: (arg) => run(arg, 'unvet'),
  };
}
