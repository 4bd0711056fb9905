// An id for a command that needs one: a pick from the recent lookups of its kind (pins first, then
// the newest), or one typed and checked for its shape.
import * as vscode from 'vscode';
import { classifyLedgerId } from '../ids/ledgerIds';
import type { RecentLookup } from '../lookups/recentLookups';
import { recentPickDetail } from '../lookups/recentLookupText';
import type { RecentLookupStore } from '../services/recentLookupStore';

export interface RecentIdPick {
  kind: 'contract' | 'update';
  title: string;
  placeHolder: string;
  /** Left out of the picks (the other side of a comparison). */
  except?: string;
  /** Ids shown after the recent lookups, such as the rows of an open Active Contracts table. */
  more?: readonly { id: string; node: string; detail: string }[];
  /** What the node says of a recent id now (a summary), asked before the list shows; undefined when it cannot say. */
  recheck?: (id: string, node: string, signal: AbortSignal) => Promise<string | undefined>;
}

/** How many recent ids are asked again, and for how long, before the list shows what it has. */
const RECHECKS = 8;
const RECHECK_MS = 2_000;

/** The states of the first recent entries as the node says them now; those it does not say in time are left out. */
async function recheckAll(entries: readonly RecentLookup[], recheck: RecentIdPick['recheck']): Promise<Map<RecentLookup, string>> {
  const fresh = new Map<RecentLookup, string>();
  if (!recheck) return fresh;
  const ac = new AbortController();
  const asked = entries.slice(0, RECHECKS).map((e) =>
    recheck(e.id, e.node, ac.signal).then(
      (s) => void (s !== undefined && fresh.set(e, s)),
      () => undefined,
    ),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.all(asked), new Promise((r) => (timer = setTimeout(r, RECHECK_MS)))]);
  clearTimeout(timer);
  ac.abort();
  return new Map(fresh);
}

export async function pickRecentOrTypedId(recent: RecentLookupStore, o: RecentIdPick): Promise<{ id: string; node?: string } | undefined> {
  const entries = recent
    .all()
    .filter((r) => r.kind === o.kind && r.id !== o.except)
    .sort((a, b) => Number(Boolean(b.pinned)) - Number(Boolean(a.pinned)) || b.at - a.at);
  const seen = new Set(entries.map((r) => r.id));
  const more = (o.more ?? []).filter((m) => m.id !== o.except && !seen.has(m.id));
  if (entries.length > 0 || more.length > 0) {
    const fresh = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Checking the recent ids…') }, () =>
      recheckAll(entries, o.recheck),
    );
    const now = Date.now();
    const pick = await vscode.window.showQuickPick(
      [
        ...entries.map((r) => ({
          label: `${r.pinned ? '$(pinned) ' : ''}${r.id.slice(0, 24)}…`,
          description: r.node,
          detail: recentPickDetail(r, now, fresh.get(r)),
          id: r.id,
          node: r.node,
        })),
        ...(more.length > 0 ? [{ label: vscode.l10n.t('In open tables'), kind: vscode.QuickPickItemKind.Separator, id: '', node: undefined }] : []),
        ...more.map((m) => ({ label: `${m.id.slice(0, 24)}…`, description: m.node, detail: m.detail, id: m.id, node: m.node })),
        { label: o.kind === 'contract' ? vscode.l10n.t('Enter a contract id…') : vscode.l10n.t('Enter an update id…'), id: '', node: undefined },
      ],
      { title: o.title, placeHolder: o.placeHolder, matchOnDescription: true, matchOnDetail: true },
    );
    if (!pick) return undefined;
    if (pick.id) return { id: pick.id, node: pick.node };
  }
  const id = await vscode.window.showInputBox({
    title: o.title,
    prompt: o.kind === 'contract' ? vscode.l10n.t('A contract id (00… hex).') : vscode.l10n.t('The update id of a committed transaction (1220… hex).'),
    validateInput: (v) =>
      classifyLedgerId(v.trim()).kind === o.kind
        ? undefined
        : o.kind === 'contract'
          ? vscode.l10n.t('This is not a contract id.')
          : vscode.l10n.t('This is not an update id.'),
    ignoreFocusOut: true,
  });
  return id?.trim() ? { id: id.trim() } : undefined;
}
