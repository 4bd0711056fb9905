// The node's Daml-LF signatures that type what a lookup panel shows, read after the first paint: at
// once for a contract or a reassignment, whose values are on the page (drawn again when they come);
// for a transaction only when a row is first opened, as its events are drawn then (a transaction
// panel nobody opens a row of downloads no package). No `vscode` import.
import type { PackageSignature } from '../daml/lf/lfSignatures';
import type { LedgerLookup } from '../lookups/ledgerLookups';
import type { PanelTarget } from './panelTargets';
import { typedPackagesOf } from './lookupContent';

interface Shown {
  result: LedgerLookup;
  target: PanelTarget;
  wanted: string[];
  readSignatures: () => Promise<readonly PackageSignature[]>;
  reading?: Promise<void>;
  packages?: readonly PackageSignature[];
  /** A row's event was drawn before the signatures came: the page is drawn again when they do (it asks for its open rows again). */
  untypedRow: boolean;
}

const rowsDrawnOnOpen = (r: LedgerLookup) => r.kind === 'transaction' && r.found && r.update === 'transaction';

export class AnswerTyping {
  private shownNow: Shown | undefined;

  /** `redraw`: draws `result` again, typed by `packages` where the page holds its values. */
  constructor(private readonly redraw: (result: LedgerLookup, target: PanelTarget, packages: readonly PackageSignature[]) => void) {}

  /** A new answer on the page; `readSignatures` reads the node's (none: values stay untyped). */
  shown(result: LedgerLookup, target: PanelTarget, readSignatures: (() => Promise<readonly PackageSignature[]>) | undefined): void {
    const wanted = typedPackagesOf(result);
    this.shownNow = readSignatures && wanted.length > 0 ? { result, target, wanted, readSignatures, untypedRow: false } : undefined;
    if (this.shownNow && !rowsDrawnOnOpen(result)) void this.read(this.shownNow);
  }

  /** The signatures to draw a row of `result` with now, starting their read; none yet: the row is drawn again once they come. */
  forRow(result: LedgerLookup | undefined): readonly PackageSignature[] | undefined {
    const s = this.shownNow;
    if (!s || s.result !== result) return undefined;
    if (s.packages) return s.packages;
    void this.read(s);
    s.untypedRow = true;
    return undefined;
  }

  /** Waits up to `ms` for the signatures of `result` (starting their read), so a row opened as they come is drawn typed at once. */
  async settle(result: LedgerLookup | undefined, ms: number): Promise<void> {
    const s = this.shownNow;
    if (!s || s.result !== result || s.packages) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.read(s), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private read(s: Shown): Promise<void> {
    s.reading ??= (async () => {
      try {
        const packages = await s.readSignatures();
        if (this.shownNow !== s || !packages.some((p) => s.wanted.includes(p.packageId))) return;
        s.packages = packages;
        if (!rowsDrawnOnOpen(s.result) || s.untypedRow) this.redraw(s.result, s.target, packages);
      } catch {
        // Untyped values stay: the signatures are an addition.
      }
    })();
    return s.reading;
  }
}
