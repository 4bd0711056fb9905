/// <reference lib="dom" />
// Columns a person can widen and narrow, for every table of the pages (the virtual tables and the
// panels' tables): a handle on the right edge of each header cell, dragged, or moved with the arrow
// keys when it has the focus (Enter or a double click gives the column its first width back). The
// widths are kept in the page's state by table kind, so the table comes back as the person left it.
// A table whose columns are not sized yet lays itself out (its header cells hold their `data-min`
// width in ch); the first resize fixes every column at the width it has then.
import { keptState, saveState, say } from './page';

/** No narrower than this many ch: a column always shows the head of what it holds. */
const MIN_CH = 6;

export interface ColumnsOptions {
  /** The key of the widths in the page's state (a panel kind, or the kind of table in it). */
  kind: string;
  /** The header cells, one a column, in order (each gets a handle if it has none). */
  headers: readonly HTMLTableCellElement[];
  /** The tables laid out by these columns (a virtual table's head and body are two tables). */
  tables: readonly HTMLTableElement[];
  /** Each column's first width in ch; without: as the table lays itself out. */
  defaults?: readonly number[];
  /** Elements as wide as the tables (a virtual table's spacer, which gives the scroller its width). */
  follow?: readonly HTMLElement[];
  /** Told the widths (px) each time they are set: a table whose body is not laid out as a table sizes its cells. */
  onApply?(widths: readonly number[] | undefined): void;
}

/** The width of 1ch in `within`'s font, in px. */
function chPx(within: Element): number {
  const probe = document.createElement('span');
  probe.style.position = 'absolute';
  probe.style.visibility = 'hidden';
  probe.style.width = '100ch';
  within.appendChild(probe);
  const px = probe.getBoundingClientRect().width / 100 || 7;
  probe.remove();
  return px;
}

function savedWidths(kind: string, count: number): number[] | undefined {
  const all = keptState().columnWidths;
  const widths = typeof all === 'object' && all !== null ? (all as Record<string, unknown>)[kind] : undefined;
  return Array.isArray(widths) && widths.length === count && widths.every((w) => typeof w === 'number' && w > 0) ? (widths as number[]) : undefined;
}

function saveWidths(kind: string, widths: readonly number[] | undefined): void {
  const all = { ...((keptState().columnWidths as Record<string, number[]> | undefined) ?? {}) };
  if (widths) all[kind] = widths.map(Math.round);
  else delete all[kind];
  saveState({ columnWidths: all });
}

/** A header cell's resize handle (as src/panels/html/dataTable.ts renders it). */
export function resizeHandle(label: string): HTMLElement {
  const handle = document.createElement('span');
  handle.className = 'col-resize';
  handle.setAttribute('role', 'separator');
  handle.setAttribute('aria-orientation', 'vertical');
  handle.tabIndex = 0;
  handle.setAttribute('aria-label', say('resizeColumn', 'Resize column {0}', label));
  handle.title = say('resizeHint', 'Drag, or use the arrow keys, to resize; double-click to reset');
  return handle;
}

export class Columns {
  private widths: number[] | undefined;
  private readonly ch: number;
  private readonly cols: HTMLTableColElement[][];

  constructor(private readonly o: ColumnsOptions) {
    this.ch = chPx(o.tables[0]);
    this.cols = o.tables.map((table) => {
      let group = table.querySelector<HTMLTableColElement>(':scope > colgroup');
      if (!group) {
        group = document.createElement('colgroup');
        table.insertBefore(group, table.firstChild);
      }
      while (group.children.length < o.headers.length) group.appendChild(document.createElement('col'));
      return Array.from(group.children) as HTMLTableColElement[];
    });
    o.headers.forEach((th, i) => {
      const min = Number(th.dataset.min);
      if (min > 0) th.style.minWidth = `${min}ch`;
      let handle = th.querySelector<HTMLElement>(':scope > .col-resize');
      if (!handle) handle = th.appendChild(resizeHandle(th.textContent?.trim() ?? ''));
      this.wire(handle, i);
    });
    this.widths = savedWidths(o.kind, o.headers.length) ?? (o.defaults?.length ? o.headers.map((_, i) => this.firstWidth(i, o.defaults?.[i])) : undefined);
    this.apply();
  }

  /** The width of each column now, in px. */
  get current(): number[] {
    return this.widths ? [...this.widths] : this.o.headers.map((th) => th.getBoundingClientRect().width);
  }

  /** A column's first width: its default in ch, and no narrower than its header's name. */
  private firstWidth(i: number, ch?: number): number {
    const label = this.o.headers[i].textContent?.trim().length ?? 0;
    return Math.max(ch ?? 0, MIN_CH, Math.min(label, 24) + 3) * this.ch;
  }

  private apply(): void {
    const widths = this.widths;
    for (const table of this.o.tables) table.classList.toggle('sized', widths !== undefined);
    this.o.onApply?.(widths);
    if (!widths) return;
    const total = widths.reduce((a, b) => a + b, 0);
    for (const cols of this.cols) widths.forEach((w, i) => (cols[i].style.width = `${w}px`));
    // Wider than the panel: the table's container scrolls sideways; narrower: the columns share the rest.
    for (const e of [...this.o.tables, ...(this.o.follow ?? [])]) e.style.width = `max(100%, ${total}px)`;
  }

  /** Sets column `i` to `px` (no narrower than the minimum) and keeps the widths. */
  resize(i: number, px: number, keep = true): void {
    const widths = this.current;
    widths[i] = Math.max(MIN_CH * this.ch, px);
    this.widths = widths;
    this.apply();
    if (keep) saveWidths(this.o.kind, widths);
  }

  /** Column `i` at its first width again. */
  reset(i: number): void {
    const th = this.o.headers[i];
    this.resize(i, this.firstWidth(i, this.o.defaults?.[i] ?? (Number(th.dataset.min) || undefined)));
  }

  private wire(handle: HTMLElement, i: number): void {
    handle.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.stopPropagation();
      const startX = event.clientX;
      const start = this.current[i];
      handle.setPointerCapture(event.pointerId);
      handle.classList.add('dragging');
      const move = (e: PointerEvent) => this.resize(i, start + e.clientX - startX, false);
      const up = (e: PointerEvent) => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        handle.removeEventListener('pointercancel', up);
        handle.classList.remove('dragging');
        this.resize(i, start + e.clientX - startX);
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
      handle.addEventListener('pointercancel', up);
    });
    // A click on the handle is not a click on the header (or on a row of the table).
    handle.addEventListener('click', (event) => event.stopPropagation());
    handle.addEventListener('dblclick', (event) => {
      event.stopPropagation();
      this.reset(i);
    });
    handle.addEventListener('keydown', (event) => {
      const step = (event.shiftKey ? 8 : 2) * this.ch;
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') this.resize(i, this.current[i] + (event.key === 'ArrowLeft' ? -step : step));
      else if (event.key === 'Enter') this.reset(i);
      else return;
      event.preventDefault();
      event.stopPropagation();
    });
  }
}

/** Makes the columns of every table the extension rendered with `data-columns-kind` resizable. */
export function resizableTables(root: ParentNode): void {
  for (const table of root.querySelectorAll<HTMLTableElement>('table[data-columns-kind]')) {
    const headers = Array.from(table.querySelectorAll<HTMLTableCellElement>(':scope > thead > tr:first-child > th'));
    if (headers.length > 0) new Columns({ kind: table.dataset.columnsKind ?? '', headers, tables: [table] });
  }
}
