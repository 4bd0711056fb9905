// The lookup panels: one per looked-up id (lookupPanel.ts), in one column, each revealed when its
// id is asked again, told when a node's identity changes, and brought back after a window reload
// from the navigation its page kept.
import type { NodeSignaturesReader } from '../daml/lf/lfSignatures';
import * as vscode from 'vscode';
import type { NodeReader } from '../services/ledgerNodes';
import type { LedgerLookupService } from '../services/lookupService';
import { LOOKUP_VIEW_TYPE, LookupPanel, type LookupPanelsContext } from './lookupPanel';
import { sameTarget, validState, type PanelState, type PanelTarget } from './panelTargets';
import { panelGroupColumn } from './webviewHost';

export type { PanelState, PanelTarget } from './panelTargets';
export { LookupPanel } from './lookupPanel';

export class LookupPanels implements vscode.Disposable, LookupPanelsContext {
  private readonly open = new Set<LookupPanel>();
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly nodes: NodeReader,
    readonly lookups: LedgerLookupService,
    /** Told about every finished lookup, for the recent list: who asked is its user id, if known. */
    readonly onLookedUp: (target: PanelTarget, summary: string, askedByUser: string | undefined) => void = () => undefined,
    /** The node's package signatures, to type a contract's values once read. */
    readonly signatures?: NodeSignaturesReader,
  ) {
    // Open panels say at once when the node's identity is no longer the one they were asked as.
    this.subscription = nodes.onDidChangeIdentity((e) => {
      for (const p of this.open) p.identityChanged(e);
    });
  }

  /** Reveals the panel showing `target` (asking again if it was asked as someone else), or opens one. */
  show(target: PanelTarget): LookupPanel {
    for (const p of this.open) {
      if (sameTarget(p.current, target)) {
        p.reveal();
        p.reopen(target);
        return p;
      }
    }
    // One group for panels, as REST Client reuses its response pane: the group a panel is in already
    // (what a review committed too: the review stays a tab away, and the editor keeps its half).
    const column = [...this.open].map((p) => p.webviewPanel.viewColumn).find((c) => c !== undefined) ?? panelGroupColumn() ?? vscode.ViewColumn.Beside;
    return this.adopt({ history: [target], index: 0 }, { column });
  }

  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(LOOKUP_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => {
        const s = validState(state);
        if (s) this.adopt(s, { restored: panel });
        else panel.dispose();
        return Promise.resolve();
      },
    });
  }

  /** The panels open now (for tests). */
  get panels(): readonly LookupPanel[] {
    return [...this.open];
  }

  dispose(): void {
    this.subscription.dispose();
    for (const p of [...this.open]) p.dispose();
  }

  private adopt(state: PanelState, where: { column?: vscode.ViewColumn; restored?: vscode.WebviewPanel }): LookupPanel {
    const p = new LookupPanel(this, state, where);
    this.open.add(p);
    p.onDidDispose(() => this.open.delete(p));
    return p;
  }
}
