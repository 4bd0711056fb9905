/// <reference lib="dom" />
// A virtual table for the Active Contracts and Follow Updates pages: only the rows in view exist in
// the DOM (a pool of <tr> reused while scrolling), so 100,000 rows scroll without long tasks. A row
// is asked for its cells only when it is painted, and every cell is a text node. The place the
// person scrolled to and the row they selected stay while rows arrive, are filtered or sorted.
// The columns hold their first widths (`data-widths`, in ch) and can be resized (columns.ts); a
// table wider than the panel scrolls sideways, its header with it.
// The body is not laid out as a table: each row is a box of fixed size (`contain: strict`) placed
// by a transform, its cells blocks in a line, each as wide as the header's column in pixels (one
// stylesheet of the table's own says how wide: a grid of shared tracks cost each row more than the
// rest of its style together). A row that shows the same row after a scroll or after rows arrived
// above it keeps its cells and place, so only new rows are laid out and painted; a jump paints the
// rows in view first, a few at a time, and the rest in the next frames. Rows that arrive are painted
// at most every ARRIVAL_PAINT_MS, those in view first; rows out of view wait until rows stop coming.
import { Columns, resizeHandle } from './columns';
import { say } from './page';

const ROW_HEIGHT = 22;
// Rows painted beyond the view on each side: about one wheel step.
const OVERSCAN = 5;
// Rows given new cells in one frame: on a loaded machine a frame that lays out and paints every
// row of the view after a jump takes longer than a frame. The rows in view come first.
const ROWS_PER_FRAME = 8;
// And no more script than this in a frame for them (cells are made as they are painted).
const FRAME_BUDGET_MS = 4;
// Past this many rows of offset the rows' places are written again from zero (transforms stay small).
const MAX_BASE = 20_000;
// Rows that stream in are painted at most this often.
export const ARRIVAL_PAINT_MS = 100;
// Rows out of view, left while rows streamed in, are painted once none came for this long.
const SETTLE_MS = 400;
/** Tables made in this page: each names its own in the stylesheet of its cells. */
let tables = 0;

/** A cell: its text, its tooltip, its class. */
export type Cell = readonly [text: string, title?: string, className?: string];

export interface VirtualTableOptions {
  /** The cells of the row shown at `index`. */
  cells(index: number): readonly Cell[];
  /** Which row is shown at `index`: a painted row keeps its cells while it is the same, and the selection follows it. */
  key(index: number): number;
  /** Where the row `key` is shown now (-1: not shown). */
  indexOf(key: number): number;
  /** A click (the column clicked) or Enter on a row. */
  onOpen(index: number, column: number): void;
  /** The row's right-click context (`data-vscode-context`), if it has one. */
  rowContext?(index: number): string;
  /** The person scrolled (to keep the place in the page's state). */
  onScroll?(top: number): void;
}

interface PooledRow extends HTMLTableRowElement {
  painted?: { key: number; generation: number };
  /** Where it is placed, in rows from the body's origin (NaN: not placed). */
  at?: number;
  /** What its cells show: [text, title, class] for each, compared here rather than read back from the DOM. */
  written?: string[];
}

export class VirtualTable {
  private readonly headers: HTMLTableCellElement[];
  private readonly headWrap = document.createElement('div');
  private readonly scroller = document.createElement('div');
  private readonly spacer = document.createElement('div');
  private readonly body = document.createElement('table');
  private readonly tbody = document.createElement('tbody');
  private readonly columns: number;
  private readonly pool: PooledRow[] = [];
  private count = 0;
  /** Bumped when the rows change under the same keys (a new read): every row is painted again. */
  private generation = 0;
  private selectedKey = -1;
  /** Where the person scrolled to: restored as rows come back after a refresh or a search. */
  private wanted = 0;
  private scheduled = false;
  /** When the last paint ran, and the paint waiting for rows that arrived (scheduleArrival). */
  private paintedAt = -Infinity;
  private arrivalTimer: ReturnType<typeof setTimeout> | undefined;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The paint waiting is for rows that arrived, nothing else (it may leave rows out of view for later). */
  private onlyArrivals = false;
  private height = -1;
  /** The body's origin, in rows: rows that arrive above keep their place in the body, which moves. */
  private base = 0;
  private bodyAt = 0;
  /** Rows painted or shown again in this frame: they take their place in the DOM's order. */
  private readonly arrived = new Set<PooledRow>();
  /** The origin moved: rows out of view are hidden (their places are from the old one). */
  private moved = false;
  /** The columns' widths (for tests and the page: `columns.current`). */
  readonly sizing: Columns;
  /** The columns' widths as set (px; undefined: equal shares), and the width they were laid out for. */
  private columnWidths: readonly number[] | undefined;
  private laidOutFor = -1;
  /** The cells' widths: a stylesheet of this table's own, written when the widths or the panel change. */
  private readonly cellSheet = new CSSStyleSheet();

  constructor(
    container: HTMLElement,
    private readonly options: VirtualTableOptions,
  ) {
    const names = JSON.parse(container.dataset.columns ?? '[]') as string[];
    this.columns = names.length;
    const head = document.createElement('table');
    head.className = 'vt vt-head';
    head.setAttribute('role', 'presentation');
    const headRow = head.appendChild(document.createElement('tr'));
    this.headers = names.map((name) => {
      const th = headRow.appendChild(document.createElement('th'));
      th.appendChild(document.createElement('span')).className = 'col-label';
      th.appendChild(resizeHandle(name));
      th.setAttribute('role', 'columnheader');
      return th;
    });
    this.setHeaders(names);
    this.headWrap.className = 'vt-headwrap';
    this.headWrap.appendChild(head);
    this.scroller.className = 'vt-scroller';
    this.spacer.className = 'vt-spacer';
    this.body.className = 'vt vt-body';
    this.body.dataset.vt = String(++tables);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, this.cellSheet];
    this.body.appendChild(this.tbody);
    this.spacer.appendChild(this.body);
    this.scroller.appendChild(this.spacer);
    container.append(this.headWrap, this.scroller);
    const widths = JSON.parse(container.dataset.widths ?? '[]') as number[];
    this.sizing = new Columns({
      kind: container.dataset.kind ?? 'table',
      headers: this.headers,
      tables: [head, this.body],
      defaults: widths,
      follow: [this.spacer],
      onApply: (widths) => this.sizeCells(widths),
    });

    this.scroller.addEventListener('scroll', () => this.scrolled(), { passive: true });
    window.addEventListener('resize', () => this.schedule());
    this.tbody.addEventListener('click', (event) => this.clicked(event));
    container.addEventListener('keydown', (event) => this.key(event));
  }

  /** The rows shown are others now (filtered, sorted, read again): `count` of them. */
  setRows(count: number): void {
    clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    this.count = count;
    this.generation++;
    this.base = 0;
    this.schedule();
  }

  /** Rows were added after those shown (below them). */
  grew(count: number): void {
    this.count = count;
    this.scheduleArrival();
  }

  /** `added` rows came in above those shown (newest first): the rows in view stay in view, unless at the top. */
  grewAbove(count: number, added: number): void {
    this.count = count;
    // The rows painted keep their place in the body; the body moves down (no row laid out again).
    this.base += added;
    if (added > 0 && this.scroller.scrollTop > 0) {
      this.wanted = this.scroller.scrollTop + added * ROW_HEIGHT;
      this.spacer.style.height = `${count * ROW_HEIGHT}px`;
      this.scroller.scrollTop = this.wanted;
      // With the scroll, not at the next paint: the rows in view stay where they are on the screen.
      this.moveBody();
    }
    this.scheduleArrival();
  }

  /** Names of columns (null: as the page has it). */
  setHeaders(texts: readonly (string | null)[]): void {
    texts.forEach((t, i) => {
      const th = this.headers[i];
      if (t === null || !th) return;
      th.title = t;
      (th.firstChild as HTMLElement).textContent = t;
      th.lastElementChild?.setAttribute('aria-label', say('resizeColumn', 'Resize column {0}', t));
    });
  }

  /** Scrolls to where the person was (from the page's state) once the rows reach it. */
  restoreScroll(top: number): void {
    this.wanted = top;
    this.schedule();
  }

  get rowCount(): number {
    return this.count;
  }

  /** How many rows the view shows at once. */
  get rowsInView(): number {
    return Math.ceil(this.scroller.clientHeight / ROW_HEIGHT);
  }

  private scrolled(): void {
    // The header follows the rows sideways.
    if (this.headWrap.scrollLeft !== this.scroller.scrollLeft) this.headWrap.scrollLeft = this.scroller.scrollLeft;
    const top = this.scroller.scrollTop;
    // Scrolled by the browser, not the person: fewer rows than before pulled the view up to the end.
    const clamped = this.wanted > top && top >= this.scroller.scrollHeight - this.scroller.clientHeight - 1;
    if (!clamped) {
      this.wanted = top;
      this.options.onScroll?.(top);
    }
    this.schedule();
  }

  private schedule(forArrivals = false): void {
    if (this.scheduled) {
      this.onlyArrivals &&= forArrivals;
      return;
    }
    this.scheduled = true;
    this.onlyArrivals = forArrivals;
    requestAnimationFrame(() => this.paint());
  }

  /**
   * A paint for rows that arrived: at most one each ARRIVAL_PAINT_MS while they stream in (a
   * thousand a second cannot be read, and each paint is a task the page must fit in a frame);
   * at once when the last paint is older. Scrolling still paints every frame.
   */
  private scheduleArrival(): void {
    if (this.scheduled || this.arrivalTimer !== undefined) return;
    const wait = this.paintedAt + ARRIVAL_PAINT_MS - performance.now();
    if (wait <= 0) return this.schedule(true);
    this.arrivalTimer = setTimeout(() => {
      this.arrivalTimer = undefined;
      this.schedule(true);
    }, wait);
  }

  /** A paint of every row wanted, once no rows arrived for SETTLE_MS (each paint of arrivals puts it off). */
  private settleSoon(): void {
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.schedule();
    }, SETTLE_MS);
  }

  private moveBody(): void {
    if (this.bodyAt === this.base) return;
    this.bodyAt = this.base;
    this.body.style.transform = `translateY(${this.base * ROW_HEIGHT}px)`;
  }

  private sizeCells(widths: readonly number[] | undefined): void {
    this.columnWidths = widths;
    this.laidOutFor = -1;
    this.schedule();
  }

  /**
   * Each cell as wide as its column; a table wider than its columns gives each a share of the rest
   * in proportion to its width, as the header's table does (equal shares when no width is set).
   */
  private layOutCells(): void {
    const width = this.spacer.clientWidth;
    if (width === this.laidOutFor) return;
    this.laidOutFor = width;
    const widths = this.columnWidths;
    const total = widths?.reduce((a, b) => a + b, 0) ?? 0;
    const px = widths && total > 0 ? widths.map((w) => (w * Math.max(width, total)) / total) : new Array<number>(this.columns).fill(width / this.columns);
    const table = `.vt-body[data-vt="${this.body.dataset.vt}"]`;
    this.cellSheet.replaceSync(px.map((w, i) => `${table} td:nth-child(${i + 1}) { width: ${w.toFixed(3)}px; }`).join('\n'));
  }

  private ensurePool(): void {
    const want = Math.ceil((this.scroller.clientHeight || 600) / ROW_HEIGHT) + 2 * OVERSCAN;
    while (this.pool.length < want) {
      const tr: PooledRow = document.createElement('tr');
      tr.setAttribute('role', 'row');
      tr.hidden = true;
      for (let c = 0; c < this.columns; c++) {
        const td = tr.appendChild(document.createElement('td'));
        td.setAttribute('role', 'gridcell');
        td.appendChild(document.createTextNode(''));
      }
      this.tbody.appendChild(tr);
      this.pool.push(tr);
    }
  }

  private paint(): void {
    this.scheduled = false;
    const forArrivals = this.onlyArrivals;
    this.paintedAt = performance.now();
    this.ensurePool();
    this.layOutCells();
    // Only what changed is written: each write can make the browser lay the table out again.
    if (this.height !== this.count * ROW_HEIGHT) {
      this.height = this.count * ROW_HEIGHT;
      this.spacer.style.height = `${this.height}px`;
    }
    if (this.scroller.scrollTop < this.wanted) this.scroller.scrollTop = this.wanted;
    if (Math.abs(this.base) > MAX_BASE) {
      this.base = 0;
      this.moved = true;
    }
    this.moveBody();
    const top = Math.floor(this.scroller.scrollTop / ROW_HEIGHT);
    const first = Math.max(0, top - OVERSCAN);
    const end = Math.min(this.count, first + this.pool.length);
    const inView = Math.max(first, Math.min(top, end));
    // The rows that show a row wanted now keep it; the others are free for the rows not shown yet.
    const byKey = new Map<number, PooledRow>();
    for (const tr of this.pool) if (tr.painted?.generation === this.generation) byKey.set(tr.painted.key, tr);
    const used = new Set<PooledRow>();
    const missing: number[] = [];
    // The rows in view first, then those above it.
    for (let n = 0; n < end - first; n++) {
      const index = n < end - inView ? inView + n : first + n - (end - inView);
      const tr = byKey.get(this.options.key(index));
      if (tr) {
        used.add(tr);
        this.place(tr, index);
      } else missing.push(index);
    }
    // A row not wanted now still shows its row at its place (out of view) while that holds: a
    // scroll back finds it as it is. Stale ones are hidden, and taken first; then the farthest.
    const free: PooledRow[] = [];
    for (const tr of this.pool) {
      if (used.has(tr)) continue;
      const index = (tr.at ?? NaN) + this.base;
      if (tr.painted?.generation !== this.generation || !(index >= 0 && index < this.count) || this.moved) {
        if (!tr.hidden) tr.hidden = true;
        tr.at = NaN;
      } else this.place(tr, index);
      free.push(tr);
    }
    this.moved = false;
    const distance = (tr: PooledRow) => (Number.isNaN(tr.at) ? Infinity : Math.abs((tr.at ?? 0) + this.base - inView));
    free.sort((a, b) => distance(a) - distance(b));
    const until = performance.now() + FRAME_BUDGET_MS;
    const viewEnd = top + this.rowsInView;
    let painted = 0;
    for (const index of missing) {
      const tr = free.pop();
      if (!tr) break;
      const outOfView = index < top || index >= viewEnd;
      if (painted >= ROWS_PER_FRAME || performance.now() > until || (forArrivals && outOfView)) {
        // The rest in the next frames: until then the rows in view not painted yet stay empty. Rows
        // out of view while rows stream in wait until they stop (newer ones may take their place
        // before anyone scrolls to them); a scroll paints them at once.
        if (forArrivals && outOfView) this.settleSoon();
        else this.schedule(forArrivals);
        break;
      }
      this.fill(tr, index);
      this.place(tr, index);
      this.arrived.add(tr);
      painted++;
    }
    this.inOrder();
  }

  /**
   * The rows shown in the DOM in the order they are shown (screen readers and tests read them so):
   * only the rows painted or shown again this frame move, the others are in order already.
   */
  private inOrder(): void {
    if (this.arrived.size === 0) return;
    const fixed: PooledRow[] = [];
    for (const tr of this.tbody.children as HTMLCollectionOf<PooledRow>) if (!tr.hidden && !this.arrived.has(tr)) fixed.push(tr);
    const moving = [...this.arrived].filter((tr) => !tr.hidden).sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
    this.arrived.clear();
    let j = 0;
    for (const tr of moving) {
      while (j < fixed.length && (fixed[j].at ?? 0) < (tr.at ?? 0)) j++;
      const before = fixed[j] ?? null;
      if (tr.nextSibling !== before) this.tbody.insertBefore(tr, before);
    }
  }

  /** Gives a row the cells of the row at `index`. */
  private fill(tr: PooledRow, index: number): void {
    const key = this.options.key(index);
    tr.painted = { key, generation: this.generation };
    // The row's right-click menu (contributes.menus "webview/context") reads this.
    if (this.options.rowContext) tr.dataset.vscodeContext = this.options.rowContext(index);
    const cells = this.options.cells(index);
    const written = (tr.written ??= new Array<string>(3 * this.columns).fill(''));
    for (let c = 0; c < this.columns; c++) {
      const td = tr.children[c] as HTMLTableCellElement;
      const [text, title = '', className = ''] = cells[c] ?? [''];
      if (written[3 * c] !== text) (td.firstChild as Text).nodeValue = written[3 * c] = text;
      if (written[3 * c + 1] !== title) td.title = written[3 * c + 1] = title;
      if (written[3 * c + 2] !== className) td.className = written[3 * c + 2] = className;
    }
  }

  /** Shows a row at `index` (its cells are that row's). */
  private place(tr: PooledRow, index: number): void {
    if (tr.hidden) {
      tr.hidden = false;
      this.arrived.add(tr);
    }
    const at = index - this.base;
    if (tr.at !== at) {
      tr.at = at;
      tr.style.transform = `translateY(${at * ROW_HEIGHT}px)`;
    }
    if (tr.dataset.index !== String(index)) tr.dataset.index = String(index);
    const selected = tr.painted?.key === this.selectedKey ? 'true' : 'false';
    if (tr.getAttribute('aria-selected') !== selected) {
      tr.classList.toggle('selected', selected === 'true');
      tr.setAttribute('aria-selected', selected);
    }
  }

  private select(index: number): void {
    this.selectedKey = index >= 0 && index < this.count ? this.options.key(index) : -1;
    this.schedule();
  }

  private clicked(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target : null;
    const tr = target?.closest('tr');
    if (!tr || tr.dataset.index === undefined) return;
    const index = Number(tr.dataset.index);
    if (index >= this.count) return;
    this.select(index);
    // The column clicked, for a cell that is a link of its own (the ACS table's template).
    const td = target?.closest('td');
    this.options.onOpen(index, td ? Array.prototype.indexOf.call(tr.children, td) : -1);
  }

  private key(event: KeyboardEvent): void {
    if (this.count === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const from = this.selectedKey >= 0 ? this.options.indexOf(this.selectedKey) : -1;
      const index = Math.max(0, Math.min(this.count - 1, from + (event.key === 'ArrowDown' ? 1 : -1)));
      this.select(index);
      const top = index * ROW_HEIGHT;
      if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
      else if (top + ROW_HEIGHT > this.scroller.scrollTop + this.scroller.clientHeight) this.scroller.scrollTop = top + ROW_HEIGHT - this.scroller.clientHeight;
    } else if (event.key === 'Enter' && this.selectedKey >= 0) {
      const index = this.options.indexOf(this.selectedKey);
      if (index >= 0) this.options.onOpen(index, -1);
    }
  }
}
